// Once per test run, before any worker starts: the folder where tests/helpers/shared-runs.ts keeps
// the tourneys several test files read, removed when the run ends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

let dir: string | undefined;

export function setup(project: TestProject): void {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-shared-runs-'));
  project.provide('sharedRunsDir', dir);
}

export function teardown(): void {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
