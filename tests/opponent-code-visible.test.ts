// --opponent-code visible (the default, as CATArena) in a real tourney: each round-2 workspace is
// assembled exactly as before the setting existed — every agent's round-1 bot under last_round/
// and round 1's logs, file for file and byte for byte — and TASK.md's "Last round" lines are the
// ones agents always got. The tourney is the shared two-round Gomoku run (tests/helpers/shared-runs.ts,
// played once for the files that only read it; the default setting), read here, not played: both
// of its tracks are checked. That a rival's source reaches an agent through both routes (its bot
// under last_round/, its failed build quoted in round_report.json) follows from the byte-for-byte
// check; that the leaking fixture does leak, so the logs-only and hidden tests' "no leak" can fail,
// is checked in tests/opponent-code-logs-only.test.ts (the leaker's own workspace).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { filesText, round2 } from './helpers/opponent-code.ts';
import { GOMOKU_TWO_ROUNDS, sharedRunDir } from './helpers/shared-runs.ts';

const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
/** A folder's files (logs stored as <name>.gz read back as <name>), each with its content's hash. */
const hashes = (dir: string, prefix = '') =>
  Object.fromEntries([...filesText(dir)].map(([f, text]) => [path.join(prefix, f), sha(text)]).sort());

describe('tourney --opponent-code visible (default)', () => {
  let runDir: string;
  beforeAll(async () => {
    runDir = await sharedRunDir('gomoku-two-rounds', GOMOKU_TWO_ROUNDS);
  }, 300_000);

  it("round-2 workspaces hold every agent's round-1 bot and round 1's logs, byte for byte, as before", () => {
    const agents = ['aggressive', 'cautious', 'imitator'];
    for (const name of ['gomoku-standard', 'gomoku-variant']) {
      const track = path.join(runDir, 'tracks', name);
      // What the workspace was built from: round 1's strategy folders and logs.
      const expected = {
        ...Object.assign(
          {},
          ...agents.map((a) => hashes(path.join(track, 'round_1', 'strategies', a), `last_round/${a}`)),
        ),
        ...hashes(path.join(track, 'round_1', 'logs'), 'logs'),
      };
      expect(Object.keys(expected).filter((f) => f.startsWith('logs/'))).toContain('logs/round_report.json');
      for (const agent of agents) {
        const ws = round2(runDir, agent, name);
        const got = Object.fromEntries(
          Object.entries(hashes(ws)).filter(([f]) => f.startsWith('last_round/') || f.startsWith('logs/')),
        );
        expect(got, `${name} ${agent}`).toEqual(expected);
        expect(fs.readFileSync(path.join(ws, 'TASK.md'), 'utf8')).toContain(
          [
            '## Last round',
            "The previous round's reports are in `./logs`: `*_arena_report_*.csv` is the tournament report of last round, `tournament_report_history_*.json` the detailed history (large: read it with head/tail or a script), and `round_report.json` our summary (standings and head-to-head records).",
            "The previous round's code of every agent is in `./last_round` (one folder per agent, yours included). Learn from it and improve.",
          ].join('\n'),
        );
      }
    }
    expect(JSON.parse(fs.readFileSync(path.join(runDir, 'config.json'), 'utf8')).opponentCode).toBe('visible');
    expect(fs.readFileSync(path.join(runDir, 'report.md'), 'utf8')).toMatch(
      /^- Opponents' code: visible \(each agent saw every agent's previous code and the logs of all games \(as CATArena\)\)$/m,
    );
  });
});
