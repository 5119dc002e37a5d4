#!/usr/bin/env node
// Runs the vitest suite and ends with the plain line CI reads: "N passed, N failed".
// Extra arguments go to vitest (e.g. a test file).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

// The CLI tests run bin/catarena.mjs, which rebuilds .build/ when a source is newer: build once
// here, so parallel test files do not all rebuild it.
spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });

const report = '.vitest-results.json';
fs.rmSync(report, { force: true });
const run = spawnSync(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const json = JSON.parse(fs.readFileSync(report, 'utf8'));
  passed = json.numPassedTests;
  failed = json.numFailedTests;
  skipped = json.numPendingTests + (json.numTodoTests ?? 0);
  // A file that failed to load counts as a failure even though it ran no test.
  failed += json.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
} catch {
  failed = Math.max(failed, 1);
  console.error('run-tests: vitest wrote no results; counting the run as failed');
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
