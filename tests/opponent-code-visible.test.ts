// --opponent-code visible (the default, as CATArena) in a real tourney: each round-2 workspace is
// assembled exactly as before the setting existed — every agent's round-1 bot under last_round/
// and round 1's logs, file for file and byte for byte — and TASK.md's "Last round" lines are the
// ones agents always got. The leaking rival's source reaches the others here, by design: the
// logs-only and hidden tests assert it does not there.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { tempDir } from './helpers/bots.ts';
import { config, filesText, leakerDir, leaks, round2 } from './helpers/opponent-code.ts';

const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
/** A folder's files (logs stored as <name>.gz read back as <name>), each with its content's hash. */
const hashes = (dir: string, prefix = '') =>
  Object.fromEntries([...filesText(dir)].map(([f, text]) => [path.join(prefix, f), sha(text)]).sort());

describe('tourney --opponent-code visible (default)', () => {
  it("round-2 workspaces hold every agent's round-1 bot and round 1's logs, byte for byte, as before", async () => {
    const runDir = path.join(tempDir(), 'visible');
    await runTourney({ config: resolveConfig(config(leakerDir())), runDir });
    const track = path.join(runDir, 'tracks', 'gomoku-standard');
    const agents = ['aggressive', 'cautious', 'leaker'];
    // What the workspace was built from: round 1's strategy folders and logs.
    const expected = {
      ...Object.assign(
        {},
        ...agents.map((a) => hashes(path.join(track, 'round_1', 'strategies', a), `last_round/${a}`)),
      ),
      ...hashes(path.join(track, 'round_1', 'logs'), 'logs'),
    };
    for (const agent of agents) {
      const ws = round2(runDir, agent);
      const got = Object.fromEntries(
        Object.entries(hashes(ws)).filter(([f]) => f.startsWith('last_round/') || f.startsWith('logs/')),
      );
      expect(got, agent).toEqual(expected);
      expect(fs.readFileSync(path.join(ws, 'TASK.md'), 'utf8')).toContain(
        [
          '## Last round',
          "The previous round's reports are in `./logs`: `*_arena_report_*.csv` is the tournament report of last round, `tournament_report_history_*.json` the detailed history (large: read it with head/tail or a script), and `round_report.json` our summary (standings and head-to-head records).",
          "The previous round's code of every agent is in `./last_round` (one folder per agent, yours included). Learn from it and improve.",
        ].join('\n'),
      );
    }
    expect(leaks(round2(runDir, 'cautious')).sort()).toEqual([
      'last_round/leaker/strategy.py',
      'logs/round_report.json',
    ]);
    expect(JSON.parse(fs.readFileSync(path.join(runDir, 'config.json'), 'utf8')).opponentCode).toBe('visible');
    expect(fs.readFileSync(path.join(runDir, 'report.md'), 'utf8')).toMatch(
      /^- Opponents' code: visible \(each agent saw every agent's previous code and the logs of all games \(as CATArena\)\)$/m,
    );
  }, 60_000);
});
