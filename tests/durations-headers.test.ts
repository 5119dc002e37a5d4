// Issue 48: a test file that took over 30 s in the last full run (tests/durations.json) says why
// in its header, so the suite's time stays a decision rather than an accident.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { headerExplainsSlowness, SLOW_FILE_S } from '../scripts/slow-test-header.mjs';

const ROOT = path.join(import.meta.dirname, '..');
const durations = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/durations.json'), 'utf8')) as Record<
  string,
  number
>;

describe('slow test files explain themselves', () => {
  it('reads the marker only from the header comment', () => {
    expect(headerExplainsSlowness('// A test.\n// Over 30 s: it restarts Redis four times.\nimport x;\n')).toBe(true);
    expect(headerExplainsSlowness('// A test.\nimport x;\n// Over 30 s: too late, not in the header\n')).toBe(false);
    expect(headerExplainsSlowness('// A test.\n// Over 30 s:\nimport x;\n')).toBe(false);
  });

  it('every file over 30 s in tests/durations.json has an "// Over 30 s:" line in its header', () => {
    const unexplained = Object.entries(durations)
      .filter(([file, seconds]) => seconds > SLOW_FILE_S && fs.existsSync(path.join(ROOT, file)))
      .filter(([file]) => !headerExplainsSlowness(fs.readFileSync(path.join(ROOT, file), 'utf8')))
      .map(([file, seconds]) => `${file} (${seconds} s)`);
    expect(unexplained).toEqual([]);
  });
});
