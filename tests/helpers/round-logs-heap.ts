// Child process of tests/round-logs-memory.test.ts: writes the round logs of a large synthetic
// Gomoku round (ROUND_LOGS_GAMES games of 100 moves) into ROUND_LOGS_OUT, with replays made when
// the writers read them, as the run's replay files are. Run with a small --max-old-space-size:
// writers that hold a round's replays or log texts whole run out of heap. `replays` is there for
// writers that take the round's replays in memory (as the tourney read them all before): reading
// it makes every replay at once. ROUND_LOGS_MODULE: another checkout's reports/round-logs.ts.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DEFAULT_LIMITS,
  matchId,
  type MatchResult,
  type MatchSpec,
  type MoveRecord,
  type Replay,
} from '../../records/match.ts';
import type { StrategyRecord } from '../../records/tourney.ts';
import type { RoundLogsInput } from '../../reports/round-logs.ts';

const games = Number(process.env.ROUND_LOGS_GAMES ?? 2000);
const out = process.env.ROUND_LOGS_OUT!;
const module = process.env.ROUND_LOGS_MODULE ?? path.join(import.meta.dirname, '..', '..', 'reports', 'round-logs.ts');
const { writeRoundLogs } = (await import(pathToFileURL(module).href)) as {
  writeRoundLogs(dir: string, input: RoundLogsInput): Promise<string[]>;
};

// 100 cells, 50 per colour, with no five in a row in any direction: black where (col + 2·row) mod 4 < 2.
const black: Array<[number, number]> = [];
const white: Array<[number, number]> = [];
for (let r = 0; r < 15; r++) for (let c = 0; c < 15; c++) ((c + 2 * r) % 4 < 2 ? black : white).push([r, c]);
const cells = black.slice(0, 50).flatMap((b, k) => [b, white[k]!]);

const ids = ['alpha@r2', 'beta@r2', 'gamma@r2'];
const strategies = ids.map(
  (id, k): StrategyRecord => ({
    id,
    agent: id.split('@')[0]!,
    agentKind: 'offline:x',
    round: 2,
    game: 'gomoku',
    variant: 'standard',
    dir: `/runs/x/${k}`,
    hash: 'ab'.repeat(32),
    status: 'ok',
    cost: { wallMs: 1, toolCalls: 0, tokens: null, linesOfCode: 1 },
    buildLog: '',
  }),
);
const results: MatchResult[] = Array.from({ length: games }, (_, n) => {
  const spec: MatchSpec = {
    game: 'gomoku',
    variant: 'standard',
    seats: [ids[n % 3]!, ids[(n + 1) % 3]!],
    seed: n,
    limits: DEFAULT_LIMITS,
    policy: 'strict',
    pairing: `p${n}`,
  };
  return {
    id: matchId(spec),
    spec,
    serverGameId: `gomoku_game${n}`,
    scores: [1, 0],
    winner: 0,
    termination: 'timeout',
    reason: 'timeout',
    offender: 1,
    plies: cells.length,
    seatStats: [0, 1].map(() => ({ moves: 50, totalMs: 50 * 17, maxMs: 17, errors: {} })),
    startedAt: new Date(1_750_000_000_000 + n * 60_000).toISOString(),
    durationMs: 5000 + n,
  };
});
const replayOf = (result: MatchResult): Replay => ({
  result,
  setup: null,
  moves: [
    ...cells.map((cell, ply): MoveRecord => ({ ply, seat: ply % 2, action: [...cell], latencyMs: 17 })),
    { ply: cells.length, seat: 0, action: null, latencyMs: 10_000, error: { kind: 'timeout', message: 'timeout' } },
  ],
});

const written = await writeRoundLogs(out, {
  game: 'gomoku',
  variant: 'standard',
  round: 2,
  policy: 'strict',
  strategies,
  results,
  replay: async (result) => replayOf(result),
  get replays() {
    return results.map(replayOf);
  },
  now: new Date(1_760_000_000_000),
});
const heap = process.memoryUsage().heapUsed;
console.log(JSON.stringify({ written: written.length, heapUsedMb: Math.round(heap / 2 ** 20) }));
