// Once per test run, before any worker starts: one temporary folder for the whole run, removed
// when the run ends. TMPDIR points into it, so the folders tests, the CLI processes they start and
// the sandboxes make with os.tmpdir() land there too instead of piling up in /tmp (about 250 per
// run). Bots do not see it (their environment is the sandbox's own). In it, the folder where tests/helpers/shared-runs.ts keeps the tourneys several test files read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

let root: string | undefined;

export function setup(project: TestProject): void {
  // A short name: sockets live below it (the Docker sandbox's stage), and a Unix socket path has
  // at most 107 bytes.
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cat-'));
  // Set before the workers are forked, which inherit it (os.tmpdir() reads TMPDIR on every call).
  process.env.TMPDIR = root;
  const shared = path.join(root, 'shared-runs');
  fs.mkdirSync(shared);
  project.provide('sharedRunsDir', shared);
}

export function teardown(): void {
  if (!root) return;
  try {
    // A bot that outlived its test may still be writing its log: retry.
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  } catch (err) {
    // Leftovers are not a test failure: say where they are.
    console.warn(`global teardown: could not remove ${root} (${(err as Error).message})`);
  }
}
