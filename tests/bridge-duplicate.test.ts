// Duplicate matches from room results: the schedule (open/closed rooms share the deal), IMPs per
// board from both rooms, strict forfeits as ±3 IMP adjusted scores, VPs per match into W, the
// folded cross-table, and CATArena's duplicate report file.
import { describe, expect, it } from 'vitest';
import { impsFor, vpFor } from '../games/bridge/scoring.ts';
import { duplicateMatches, roomSeats } from '../orchestrator/formats/duplicate.ts';
import { DEFAULT_LIMITS, matchId, type MatchResult, type MatchSpec } from '../records/match.ts';
import { bridgeReportFiles } from '../games/bridge/reports/catarena-report.ts';
import { pairwiseGames } from '../reports/metrics/batch.ts';
import { duplicateMatchesOf, foldDuplicates, roomComparisons } from '../reports/metrics/duplicate.ts';
import { fromGames } from '../reports/metrics/score-matrix.ts';
import { crossTable } from '../reports/tables/crosstable.ts';

const specs = duplicateMatches({
  game: 'bridge',
  variant: 'standard',
  entrants: ['A', 'B'],
  boards: 3,
  reps: 1,
  seed: 1,
  limits: DEFAULT_LIMITS,
  policy: 'strict',
});

function room(spec: MatchSpec, nsScore: number, failure?: { seat: number; kind: 'timeout' | 'illegal' }): MatchResult {
  return {
    id: matchId(spec),
    spec,
    serverGameId: `bridge_${matchId(spec).slice(0, 8)}`,
    scores: [0.5, 0.5, 0.5, 0.5],
    winner: null,
    termination: failure ? failure.kind : 'normal',
    reason: failure ? failure.kind : 'played',
    offender: failure ? failure.seat : null,
    plies: 60,
    seatStats: spec.seats.map(() => ({ moves: 15, totalMs: 30, maxMs: 3, errors: {} })),
    startedAt: '2026-11-22T00:00:00.000Z',
    durationMs: 100,
    detail: { ns_score: nsScore },
  };
}
const find = (board: number, r: 'open' | 'closed') =>
  specs.find((s) => s.duplicate!.board === board && s.duplicate!.room === r)!;

describe('duplicate schedule', () => {
  it('plays every board in both rooms with the same deal and the teams swapped', () => {
    expect(specs).toHaveLength(6);
    for (let board = 1; board <= 3; board++) {
      const [open, closed] = [find(board, 'open'), find(board, 'closed')];
      expect(open.seats).toEqual(['A', 'B', 'A', 'B']);
      expect(closed.seats).toEqual(['B', 'A', 'B', 'A']);
      expect(open.seed).toBe(closed.seed);
      expect(open.options).toEqual({ board });
      expect(open.pairing).toBe(closed.pairing);
    }
    expect(find(1, 'open').seed).not.toBe(find(2, 'open').seed);
    expect(roomSeats('x', 'y', 'closed')).toEqual(['y', 'x', 'y', 'x']);
  });
});

describe('IMPs and VPs', () => {
  // Board 1: 4♠ made by A's NS in the open room (+420); B's NS in the closed room goes one down
  // in 4♠ (−50): A gains 470 = 10 IMPs. Board 2: the same +620 in both rooms: 0 IMPs. Board 3:
  // B times out in the open room under strict: a forfeited board, A +3 IMPs.
  const results = [
    room(find(1, 'open'), 420),
    room(find(1, 'closed'), -50),
    room(find(2, 'open'), 620),
    room(find(2, 'closed'), 620),
    room(find(3, 'open'), 0, { seat: 1, kind: 'timeout' }),
    room(find(3, 'closed'), 100),
  ];

  it('scores boards from both rooms and forfeits as adjusted scores', () => {
    const [m] = duplicateMatchesOf(results);
    expect(m!.boards.map((b) => b.imps)).toEqual([10, 0, 3]);
    expect(impsFor(470)).toBe(10);
    expect(m!.imps).toBe(13);
    expect(m!.vp).toEqual(vpFor(13, 3));
    expect(m!.vp[0]).toBeGreaterThan(10);
    expect(m!.vp[0] + m!.vp[1]).toBeCloseTo(20, 10);
  });

  it("gives each room of a complete board the other room's NS score and the board's IMPs", () => {
    const c = roomComparisons(results);
    expect(c.get(results[0]!.id)).toEqual({ otherNs: -50, imps: 10 });
    expect(c.get(results[1]!.id)).toEqual({ otherNs: 420, imps: 10 });
    expect(c.get(results[4]!.id)).toEqual({ otherNs: 100, imps: 3 });
    expect(c.size).toBe(6);
    expect([...roomComparisons(results.slice(0, 3)).keys()]).toEqual([results[0]!.id, results[1]!.id]);
  });

  it('leaves out a board with one room missing (an interrupted run)', () => {
    const [m] = duplicateMatchesOf(results.slice(0, 3));
    expect(m!.boards.map((b) => b.board)).toEqual([1]);
  });

  it('puts VP / 20 into W and folds rooms into one match in the cross-table', () => {
    const games = pairwiseGames(results, (id) => ({ agent: id, round: 1 }));
    expect(games).toHaveLength(1);
    const W = fromGames(['A', 'B'], 1, games);
    expect(W.at(0, 1)).toBeCloseTo(vpFor(13, 3)[0] / 20, 10);
    expect(W.at(0, 1)! + W.at(1, 0)!).toBeCloseTo(1, 10);
    const folded = foldDuplicates(results);
    expect(folded).toHaveLength(1);
    expect(folded[0]!.seatStats[0]!.moves).toBe(6 * 2 * 15);
    const table = crossTable(results, ['A', 'B']);
    expect(table.find((r) => r.id === 'A')!.total).toEqual({ wins: 1, draws: 0, losses: 0 });
    expect(table.find((r) => r.id === 'A')!.vs.B).toEqual({ wins: 1, draws: 0, losses: 0 });
    // Equal results in both rooms: a 10–10 draw, per opponent too (the rooms' own places must not leak in).
    const even = results.map((r) => ({
      ...r,
      termination: 'normal' as const,
      offender: null,
      detail: { ns_score: 100 },
      places: [1, 2, 1, 2],
    }));
    const drawn = crossTable(even, ['A', 'B']).find((r) => r.id === 'A')!;
    expect(drawn.total).toEqual({ wins: 0, draws: 1, losses: 0 });
    expect(drawn.vs.B).toEqual({ wins: 0, draws: 1, losses: 0 });
  });

  it('under the catarena policy a failed room keeps its recorded score', () => {
    const cat = results.map((r) => ({ ...r, spec: { ...r.spec, policy: 'catarena' as const } }));
    expect(duplicateMatchesOf(cat)[0]!.boards[2]!.imps).toBe(impsFor(0 - 100));
  });

  it("writes CATArena's duplicate report and one event log per room", () => {
    const replays = results.map((result) => ({
      result,
      setup: null,
      moves: [
        { ply: 0, seat: 0, action: { type: 'call', call_type: 'bid', level: 1, suit: 'NT' }, latencyMs: 2 },
        ...[0, 1, 2, 3].map((seat, k) => ({
          ply: k + 1,
          seat,
          action: { type: 'play', card: ['AS', '2S', '3S', '4S'][k] },
          latencyMs: 1,
        })),
      ],
    }));
    const files = bridgeReportFiles({
      now: new Date(1_700_000_000_000),
      order: ['A', 'B'],
      nameOf: (id) => `${id} AI`,
      results,
      replays,
    });
    const report = JSON.parse(files[0]!.text);
    expect(files[0]!.name).toBe('tournament_tournament_1700000000.json');
    expect(report).toMatchObject({
      tournament_id: 'tournament_1700000000',
      mode: 'duplicate_round_robin',
      boards_per_match: 3,
      total_teams: 2,
      bye_team_used: false,
    });
    expect(report.standings[0]).toEqual(['A', { team_name: 'A AI', matches: 1, vp: vpFor(13, 3)[0], imp_net: 13 }]);
    expect(report.matches[0].boards_detail[0]).toMatchObject({
      board: 1,
      open: { ns_score: 420 },
      closed: { ns_score: -50 },
      points_diff: 470,
      imp: 10,
    });
    expect(report.response_time_statistics['A AI'].total_requests).toBe(6 * 2 * 15);
    const logs = files.slice(1);
    expect(logs).toHaveLength(6);
    expect(logs[0]!.name).toMatch(/^games\/1700000000\/bridge_[0-9a-f]{8}\.json$/);
    const lines = logs[0]!.text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.event)).toEqual(['bid', 'play', 'play', 'play', 'play']);
    expect(lines[4]).toMatchObject({
      room: 'open',
      position: 'west',
      trick_complete: true,
      trick: [
        [0, 'AS'],
        [1, '2S'],
        [2, '3S'],
        [3, '4S'],
      ],
    });
    expect(lines[1].trick).toBeNull();
  });
});
