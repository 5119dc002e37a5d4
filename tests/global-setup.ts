// Once per test run, before any worker starts: one temporary folder for the whole run, removed
// when the run ends. TMPDIR points into it, so the folders tests, the CLI processes they start and
// the sandboxes make with os.tmpdir() land there too instead of piling up in /tmp (about 250 per
// run). In it, the folder where tests/helpers/shared-runs.ts keeps the tourneys several test files read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

let root: string | undefined;

export function setup(project: TestProject): void {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-tests-'));
  // Set before the workers are forked, which inherit it (os.tmpdir() reads TMPDIR on every call).
  process.env.TMPDIR = root;
  const shared = path.join(root, 'shared-runs');
  fs.mkdirSync(shared);
  project.provide('sharedRunsDir', shared);
}

export function teardown(): void {
  // A bot that outlived its test may still be writing its log: retry instead of failing the run.
  if (root) fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
