// `catarena report` on a run that was killed once printed a normal-looking "finished" report from
// the games it had, and dropped a torn last journal line without a word. It now says
// "incomplete: N of M games", and what was dropped, in report.md, report.html and on the terminal.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { catarena } from './helpers/cli.ts';

/** A random bot against a heuristic one, two game pairs: 4 games. */
const INPUT = {
  games: ['gomoku'],
  rounds: 1,
  variants: ['standard' as const],
  agents: [`dir:${BUILTIN('random')}#rnd`, `dir:${BUILTIN('heuristic')}#steady`],
  reps: 2,
  concurrency: 2,
  bootstrapSamples: 50,
};

let runDir: string;
beforeAll(async () => {
  runDir = path.join(tempDir('catarena-incomplete-'), 'run');
  await runTourney({ config: resolveConfig(INPUT), runDir, index: false });
}, 60_000);

describe('report on a run that did not finish', () => {
  it('a finished run reports no incompleteness', async () => {
    const r = await catarena('report', runDir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/incomplete: \d+ of/);
    expect(fs.readFileSync(path.join(runDir, 'report.md'), 'utf8')).not.toMatch(/incomplete: \d+ of/);
  }, 60_000);

  it('a killed run (2 of 4 games, a torn last line) says so everywhere', async () => {
    const journal = path.join(runDir, 'journal.jsonl');
    const lines = fs.readFileSync(journal, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(4);
    const torn = '{"id":"cut-off-by-the-k';
    fs.writeFileSync(journal, `${lines.slice(0, 2).join('\n')}\n${torn}`);
    const status = path.join(runDir, 'status.json');
    fs.writeFileSync(status, JSON.stringify({ ...JSON.parse(fs.readFileSync(status, 'utf8')), state: 'running' }));
    const r = await catarena('report', runDir);
    expect(r.code, r.stderr).toBe(0);
    const line =
      /incomplete: 2 of 4 games \(the run's status is "running"; a torn last journal line \(23 bytes: a game cut off when the run was killed\) was dropped\)/;
    expect(r.stderr).toMatch(line);
    const markdown = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
    expect(markdown).toMatch(line);
    expect(markdown).toMatch(/report written: /);
    expect(fs.readFileSync(path.join(runDir, 'report.html'), 'utf8')).toMatch(
      /data-testid="incomplete"><strong>incomplete: 2 of 4 games/,
    );
  }, 60_000);
});
