// Duplicate team matches (Bridge) in metric terms: the two rooms of a board give IMPs, a match's
// IMP margin gives VPs on the 20-point scale, and W[A,B] = VP_A / 20 (metrics.md, Bridge).
//
// A board counts once both rooms have a result. Scores are net North–South points from each
// room's detail (`ns_score`). Under the `strict` policy a room that ended on a failure is a
// forfeited board: the other team gets the artificial adjusted score of +3 IMPs for it, whatever
// happened in the other room (WBF Law 12C, average plus in teams); two forfeits cancel. Under
// `catarena` the room's recorded score stands (CATArena's 100-point forfeits and 0–0 errors).
import type { DuplicateScoring } from '../../games/core/descriptor.ts';
import { gameDescriptor } from '../../games/registry.ts';
import type { MatchResult, SeatStats } from '../../records/match.ts';
import type { GameResult, StrategyKey } from './score-matrix.ts';

export interface BoardResult {
  board: number;
  /** Net NS points per room. */
  open: number;
  closed: number;
  /** IMPs for team A (the first team of the match). */
  imps: number;
  /** Team that forfeited each room, if any. */
  forfeits: { open?: string; closed?: string };
}

export interface DuplicateMatch {
  match: string;
  teams: [string, string];
  boards: BoardResult[];
  /** Boards the match was scheduled for (VPs scale with the boards actually scored). */
  scheduled: number;
  imps: number;
  vp: [number, number];
}

/** The game's duplicate scoring (its descriptor's `duplicate`). */
function scoringOf(game: string): DuplicateScoring {
  const scoring = gameDescriptor(game).duplicate;
  if (!scoring)
    throw new Error(`game "${game}" is played in duplicate rooms but its descriptor has no duplicate scoring`);
  return scoring;
}

/** The team that forfeited a room under `strict`, else undefined. */
function forfeiter(r: MatchResult): string | undefined {
  if (r.spec.policy !== 'strict' || r.termination === 'normal' || r.offender === null) return undefined;
  return r.spec.seats[r.offender];
}

/** Groups room results into matches; boards missing a room are left out. */
export function duplicateMatchesOf(results: readonly MatchResult[]): DuplicateMatch[] {
  return scoredMatches(results).map(([m]) => m);
}

/** What a room's replay page shows beside its board: the other room's NS score and the board's score for team A (Bridge: IMPs). */
export interface RoomComparison {
  otherNs: number;
  imps: number;
}

/**
 * Each room's comparison with the other room of its board, by match id, for the boards of
 * `results` that have both rooms (the replay pages' `extra.comparison`; games/bridge/viewer/data.ts).
 */
export function roomComparisons(results: readonly MatchResult[]): Map<string, RoomComparison> {
  const comparisons = new Map<string, RoomComparison>();
  const rooms = new Map<string, MatchResult[]>(); // "match|board" → the results of its rooms
  for (const r of results) {
    const key = r.spec.duplicate && `${r.spec.duplicate.match}|${r.spec.duplicate.board}`;
    if (key) rooms.set(key, [...(rooms.get(key) ?? []), r]);
  }
  for (const m of duplicateMatchesOf(results)) {
    for (const board of m.boards) {
      for (const r of rooms.get(`${m.match}|${board.board}`) ?? []) {
        comparisons.set(r.id, {
          otherNs: r.spec.duplicate!.room === 'open' ? board.closed : board.open,
          imps: board.imps,
        });
      }
    }
  }
  return comparisons;
}

/** The matches with the scoring of their game. */
function scoredMatches(results: readonly MatchResult[]): Array<[DuplicateMatch, DuplicateScoring]> {
  const byMatch = new Map<
    string,
    {
      game: string;
      teams: [string, string];
      scheduled: number;
      rooms: Map<number, { open?: MatchResult; closed?: MatchResult }>;
    }
  >();
  for (const r of results) {
    const d = r.spec.duplicate;
    if (!d) continue;
    const m = byMatch.get(d.match) ?? { game: r.spec.game, teams: d.teams, scheduled: d.boards, rooms: new Map() };
    byMatch.set(d.match, m);
    const rooms = m.rooms.get(d.board) ?? {};
    rooms[d.room] = r;
    m.rooms.set(d.board, rooms);
  }
  const out: Array<[DuplicateMatch, DuplicateScoring]> = [];
  for (const [match, m] of byMatch) {
    const scoring = scoringOf(m.game);
    const [a, b] = m.teams;
    const boards: BoardResult[] = [];
    for (const [board, { open, closed }] of [...m.rooms].sort((x, y) => x[0] - y[0])) {
      if (!open || !closed) continue;
      const forfeits = { open: forfeiter(open), closed: forfeiter(closed) };
      let imps: number;
      if (forfeits.open || forfeits.closed) {
        const against = (team: string) => [forfeits.open, forfeits.closed].filter((f) => f === team).length;
        imps = scoring.forfeitScore * (against(b) - against(a));
      } else {
        // A sits NS in the open room and EW in the closed room.
        imps = scoring.boardScore(scoring.roomScore(open) - scoring.roomScore(closed));
      }
      boards.push({ board, open: scoring.roomScore(open), closed: scoring.roomScore(closed), imps, forfeits });
    }
    if (!boards.length) continue;
    const imps = boards.reduce((s, x) => s + x.imps, 0);
    out.push([
      { match, teams: [a, b], boards, scheduled: m.scheduled, imps, vp: scoring.matchPoints(imps, boards.length) },
      scoring,
    ]);
  }
  return out;
}

/** One pairwise game per duplicate match: score = VP / 20 (the game's match points over their total), grouped by match for the bootstrap. */
export function duplicateGames(results: readonly MatchResult[], keyOf: (id: string) => StrategyKey): GameResult[] {
  return scoredMatches(results).map(([m, { matchPointsTotal: total }]) => ({
    a: keyOf(m.teams[0]),
    b: keyOf(m.teams[1]),
    scoreA: m.vp[0] / total,
    scoreB: m.vp[1] / total,
    group: m.match,
  }));
}

/**
 * Duplicate room results folded into one two-team result per match (scores = VP / 20; per-team
 * moves, time and errors summed over both rooms), so cross-tables and round reports treat a
 * Bridge match like any two-player game. Other results pass through.
 */
export function foldDuplicates(results: readonly MatchResult[]): MatchResult[] {
  const plain = results.filter((r) => !r.spec.duplicate);
  const rooms = results.filter((r) => r.spec.duplicate);
  if (!rooms.length) return plain;
  const folded = scoredMatches(rooms).map(([m, { matchPointsTotal: total }]): MatchResult => {
    const mine = rooms.filter((r) => r.spec.duplicate!.match === m.match);
    const first = mine[0]!;
    const seatStats = m.teams.map((team) => {
      const stats: SeatStats = { moves: 0, totalMs: 0, maxMs: 0, errors: {} };
      const errors = stats.errors as Record<string, number>;
      for (const r of mine) {
        r.spec.seats.forEach((id, seat) => {
          if (id !== team) return;
          const s = r.seatStats[seat]!;
          stats.moves += s.moves;
          stats.totalMs += s.totalMs;
          stats.maxMs = Math.max(stats.maxMs, s.maxMs);
          for (const [k, v] of Object.entries(s.errors)) errors[k] = (errors[k] ?? 0) + (v ?? 0);
          if (s.joins !== undefined) stats.joins = (stats.joins ?? 0) + s.joins;
        });
      }
      return stats;
    });
    const [va, vb] = m.vp;
    const { places: _roomPlaces, standIns: _roomStandIns, ...rest } = first;
    return {
      ...rest,
      id: m.match,
      spec: { ...first.spec, seats: [...m.teams], duplicate: undefined, pairing: m.match },
      scores: [va / total, vb / total],
      winner: va > vb ? 0 : vb > va ? 1 : null,
      termination: 'normal',
      reason: `${m.imps >= 0 ? '+' : ''}${m.imps} IMPs over ${m.boards.length} boards: ${va}–${vb} VP`,
      offender: null,
      plies: mine.reduce((s, r) => s + r.plies, 0),
      seatStats,
      durationMs: mine.reduce((s, r) => s + r.durationMs, 0),
      detail: { imps: m.imps, vp: m.vp, boards: m.boards },
    };
  });
  return [...plain, ...folded];
}
