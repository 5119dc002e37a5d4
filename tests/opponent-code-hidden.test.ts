// `catarena tourney --opponent-code hidden` (the real CLI): an agent's round-2 workspace holds its
// own round-1 bot and the logs of its own games only — no rival's folder, no games among rivals,
// and no rival's source quoted by its failed build (the leaking rival; with visible it is there).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { catarena } from './helpers/cli.ts';
import { tempDir } from './helpers/bots.ts';
import { config, leakerDir, leaks, round2, roundReport } from './helpers/opponent-code.ts';

describe('tourney --opponent-code hidden', () => {
  it('its own bot and its own games only, no rival code through the logs', async () => {
    const out = tempDir();
    const run = await catarena(
      'tourney',
      ...['--games', 'gomoku', '--variants', 'standard', '--rounds', '2', '--concurrency', '2', '--no-check'],
      ...['--agents', config(leakerDir()).agents!.join(','), '--out', out, '--opponent-code', 'hidden'],
    );
    expect(run.code, run.stderr).toBe(0);
    const runDir = path.join(out, fs.readdirSync(out).find((f) => f.startsWith('tourney-'))!);

    const ws = round2(runDir, 'cautious');
    expect(fs.readdirSync(path.join(ws, 'last_round'))).toEqual(['cautious']);
    expect(leaks(ws)).toEqual([]);
    // Only games cautious played: none of aggressive against the leaker's stand-in.
    const report = roundReport(ws);
    expect(report.games).toBe(4); // 2 rivals × a colour-swapped pair
    for (const [id, row] of Object.entries(report.pairwise))
      if (!id.startsWith('cautious@')) expect(Object.keys(row)).toEqual(['cautious@r1']);
    const task = fs.readFileSync(path.join(ws, 'TASK.md'), 'utf8');
    expect(task).toMatch(/reports of your own games are in `\.\/logs`/);
    expect(task).toMatch(/The other agents' code and their games without you are not shown/);
    expect(task).not.toMatch(/code of every agent/);

    expect(JSON.parse(fs.readFileSync(path.join(runDir, 'config.json'), 'utf8')).opponentCode).toBe('hidden');
    expect(fs.readFileSync(path.join(runDir, 'report.md'), 'utf8')).toMatch(
      /^- Opponents' code: hidden \(each agent saw its own previous code and the logs of its own games only\)$/m,
    );
  }, 60_000);
});
