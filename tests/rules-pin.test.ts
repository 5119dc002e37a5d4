// A rules change never mixes with old results on a resume (issue 29, item 3): a run records the
// rules its games are played under (rules.json) and refuses to resume under others, naming them.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunDir } from '../orchestrator/run/run-dir.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { catarena } from './helpers/cli.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';

const chessRun = () =>
  resolveConfig({
    games: ['chess'],
    rounds: 1,
    variants: ['standard'],
    agents: [`dir:${BUILTIN('heuristic', 'chess')}#h`, `dir:${BUILTIN('random', 'chess')}#r`],
    concurrency: 2,
    bootstrapSamples: 20,
  });

describe('rules pinned to a run', () => {
  it('a finished run records its rules; resuming it under the same rules plays nothing again', async () => {
    const runDir = path.join(tempDir(), 'run');
    await runTourney({ config: chessRun(), runDir });
    expect(JSON.parse(fs.readFileSync(path.join(runDir, 'rules.json'), 'utf8'))).toEqual({ chess: 'v2' });
    const before = fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8');
    const resumed = await catarena('resume', runDir);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')).toBe(before);
  }, 120_000);

  it('a run started before rules were recorded (chess v1) is not resumed under v2: the error names the change, nothing is written', async () => {
    const runDir = path.join(tempDir(), 'old');
    await runTourney({ config: chessRun(), runDir });
    // What today's main left: no rules.json, a journal of games played under threefold / fifty-move.
    fs.rmSync(path.join(runDir, 'rules.json'));
    const journal = fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8');
    const resumed = await catarena('resume', runDir);
    expect(resumed.code).not.toBe(0);
    expect(resumed.stderr).toContain('chess v1 → v2');
    expect(resumed.stderr).toContain('Start a new run');
    expect(fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')).toBe(journal);
    expect(fs.existsSync(path.join(runDir, 'rules.json'))).toBe(false);
  }, 120_000);

  it('a run with no finished game yet takes the current rules (no game can mix)', async () => {
    const dir = new RunDir(path.join(tempDir(), 'fresh'));
    await dir.pinRules({ chess: 'v2' });
    await dir.pinRules({ chess: 'v2 adjudication=engine' }); // nothing played yet: no mix possible
    expect(JSON.parse(fs.readFileSync(path.join(dir.root, 'rules.json'), 'utf8'))).toEqual({
      chess: 'v2 adjudication=engine',
    });
  });
});
