// Bots are adversaries, and so is what they print: a bot's log, answers and crash messages reach
// the operator's terminal through `play`'s crash summary and `validate`. Escape sequences in them
// (a window title, a screen clear, a fake green "all tests passed") must arrive as visible text.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forTerminal, jsonForTerminal } from '../util/terminal.ts';
import { botDir, tempDir } from './helpers/bots.ts';
import { catarenaProcess as catarena } from './helpers/cli.ts';

const FIXTURE = path.resolve(import.meta.dirname, 'fixtures/bots/misbehave.mjs');
/** What the hostile bot prints: retitle the terminal, clear it, paint a fake verdict (also as C1 CSI). */
const HOSTILE = String.raw`\033]0;pwned\007\033[2J\033[H\033[32mall tests passed\033[0m\r\302\2332J\177`;

/** A gomoku bot that prints HOSTILE when it starts and again when it dies: at once, or in misbehave.mjs's `mode`. */
function hostileBot(mode: string | null): string {
  const play = mode ? `node misbehave.mjs "$1" ${mode}\nprintf '${HOSTILE}\\n'\n` : '';
  return botDir(
    `evil-${mode ?? 'dies'}`,
    `#!/bin/bash\ncd "$(dirname "$0")"\nprintf '${HOSTILE}\\n'\n${play}exit 3\n`,
    { 'misbehave.mjs': fs.readFileSync(FIXTURE, 'utf8') },
  );
}

/** No byte the terminal would act on: C0 (but \t, \n), DEL, C1. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what the test looks for
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe('text from bots reaches the terminal escaped', () => {
  it('forTerminal shows ESC, CR, DEL and C1 as visible escapes and keeps newlines and tabs', () => {
    const shown = forTerminal('a\x1b]0;title\x07\x1b[2J\tb\r\nc\rd\x7f\x9b2J\u202e');
    expect(shown).toBe('a\\e]0;title\\x07\\e[2J\tb\nc\\rd\\x7f\\x9b2J\\u202e');
    expect(shown).not.toMatch(CONTROLS);
    expect(forTerminal('plain text, ünïcode ✓\n')).toBe('plain text, ünïcode ✓\n');
    const json = jsonForTerminal({ log: '\x1b[2J\x9b2J\x7f' });
    expect(json).not.toMatch(CONTROLS);
    expect(JSON.parse(json)).toEqual({ log: '\x1b[2J\x9b2J\x7f' });
  });

  it('validate prints the log tail of a bot that never starts with its escape codes escaped', async () => {
    const r = await catarena('validate', hostileBot(null), '--sandbox', 'unsafe', '--start-timeout', '3000');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('bot output');
    expect(r.stdout).toContain('\\e]0;pwned\\x07\\e[2J');
    expect(r.stdout + r.stderr).not.toMatch(CONTROLS);
    const json = await catarena(
      'validate',
      hostileBot(null),
      '--sandbox',
      'unsafe',
      '--start-timeout',
      '3000',
      '--json',
    );
    expect(json.stdout).not.toMatch(CONTROLS);
    expect(JSON.parse(json.stdout).logTail).toContain('\x1b[2J');
  });

  it("play's crash summary shows a crashing bot's last output escaped", async () => {
    const r = await catarena(
      'play',
      hostileBot('die_after_3'),
      'builtin:random',
      '--games',
      '2',
      '--concurrency',
      '1',
      '--sandbox',
      'unsafe',
      '--out',
      tempDir(),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/crashed and was restarted/);
    expect(r.stdout).toContain('\\e[32mall tests passed\\e[0m');
    expect(r.stdout + r.stderr).not.toMatch(CONTROLS);
  });
});
