#!/usr/bin/env node
// Runs the vitest suite and ends with the plain line CI reads: "N passed, N failed".
// Extra arguments go to vitest (e.g. a test file).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { headerExplainsSlowness, SLOW_FILE_S } from './slow-test-header.mjs';

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
  printSlowest(json.testResults);
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

/** The ten slowest files, so a run shows where its time went; a file over 30 s without the
 * `// Over 30 s:` line in its header (tests/durations-headers.test.ts checks the table) is marked. */
function printSlowest(files) {
  const rows = files
    .map((f) => ({ file: path.relative(process.cwd(), f.name), seconds: (f.endTime - f.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 10);
  if (rows.length === 0) return;
  console.log('\nslowest test files:');
  for (const { file, seconds } of rows) {
    const unexplained = seconds > SLOW_FILE_S && !headerExplains(file) ? '  (over 30 s: its header says not why)' : '';
    console.log(`${seconds.toFixed(1).padStart(7)} s  ${file}${unexplained}`);
  }
}

function headerExplains(file) {
  try {
    return headerExplainsSlowness(fs.readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}
