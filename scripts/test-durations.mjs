#!/usr/bin/env node
// Writes tests/durations.json (seconds per test file) from the last full `npm test` run's
// .vitest-results.json, for tests/sequencer.ts to start the longest files first on a machine
// without vitest's cache (a fresh clone in CI).
import fs from 'node:fs';
import path from 'node:path';

const results = JSON.parse(fs.readFileSync('.vitest-results.json', 'utf8'));
const table = {};
for (const file of results.testResults.sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime))) {
  table[path.relative(process.cwd(), file.name).split(path.sep).join('/')] =
    Math.round((file.endTime - file.startTime) / 100) / 10;
}
if (Object.keys(table).length < 20)
  throw new Error('.vitest-results.json holds too few files: run the whole suite (npm test) first');
fs.writeFileSync('tests/durations.json', `${JSON.stringify(table, null, 2)}\n`);
console.log(`tests/durations.json: ${Object.keys(table).length} files`);
