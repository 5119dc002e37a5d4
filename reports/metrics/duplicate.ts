// Duplicate team matches (Bridge) in metric terms: the two rooms of a board give IMPs, a match's
// IMP margin gives VPs on the 20-point scale, and W[A,B] = VP_A / 20 (metrics.md, Bridge).
//
// A board counts once both rooms have a result. Scores are net North–South points from each
// room's detail (`ns_score`). Under the `strict` policy a room that ended on a failure is a
// forfeited board: the other team gets the artificial adjusted score of +3 IMPs for it, whatever
// happened in the other room (WBF Law 12C, average plus in teams); two forfeits cancel. Under
// `catarena` the room's recorded score stands (CATArena's 100-point forfeits and 0–0 errors).
import { ARTIFICIAL_ADJUSTED_IMPS, impsFor, vpFor } from '../../games/bridge/scoring.ts';
import type { MatchResult } from '../../model/match.ts';
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

const nsOf = (r: MatchResult): number => Number((r.detail as { ns_score?: number } | undefined)?.ns_score ?? 0);

/** The team that forfeited a room under `strict`, else undefined. */
function forfeiter(r: MatchResult): string | undefined {
  if (r.spec.policy !== 'strict' || r.termination === 'normal' || r.offender === null) return undefined;
  return r.spec.seats[r.offender];
}

/** Groups room results into matches; boards missing a room are left out. */
export function duplicateMatchesOf(results: readonly MatchResult[]): DuplicateMatch[] {
  const byMatch = new Map<string, { teams: [string, string]; scheduled: number; rooms: Map<number, { open?: MatchResult; closed?: MatchResult }> }>();
  for (const r of results) {
    const d = r.spec.duplicate;
    if (!d) continue;
    const m = byMatch.get(d.match) ?? { teams: d.teams, scheduled: d.boards, rooms: new Map() };
    byMatch.set(d.match, m);
    const rooms = m.rooms.get(d.board) ?? {};
    rooms[d.room] = r;
    m.rooms.set(d.board, rooms);
  }
  const out: DuplicateMatch[] = [];
  for (const [match, m] of byMatch) {
    const [a, b] = m.teams;
    const boards: BoardResult[] = [];
    for (const [board, { open, closed }] of [...m.rooms].sort((x, y) => x[0] - y[0])) {
      if (!open || !closed) continue;
      const forfeits = { open: forfeiter(open), closed: forfeiter(closed) };
      let imps: number;
      if (forfeits.open || forfeits.closed) {
        const against = (team: string) => [forfeits.open, forfeits.closed].filter((f) => f === team).length;
        imps = ARTIFICIAL_ADJUSTED_IMPS * (against(b) - against(a));
      } else {
        // A sits NS in the open room and EW in the closed room.
        imps = impsFor(nsOf(open) - nsOf(closed));
      }
      boards.push({ board, open: nsOf(open), closed: nsOf(closed), imps, forfeits });
    }
    if (!boards.length) continue;
    const imps = boards.reduce((s, x) => s + x.imps, 0);
    out.push({ match, teams: [a, b], boards, scheduled: m.scheduled, imps, vp: vpFor(imps, boards.length) });
  }
  return out;
}

/** One pairwise game per duplicate match: score = VP / 20, grouped by match for the bootstrap. */
export function duplicateGames(results: readonly MatchResult[], keyOf: (id: string) => StrategyKey): GameResult[] {
  return duplicateMatchesOf(results).map((m) => ({ a: keyOf(m.teams[0]), b: keyOf(m.teams[1]), scoreA: m.vp[0] / 20, scoreB: m.vp[1] / 20, group: m.match }));
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
  const folded = duplicateMatchesOf(rooms).map((m): MatchResult => {
    const mine = rooms.filter((r) => r.spec.duplicate!.match === m.match);
    const first = mine[0]!;
    const seatStats = m.teams.map((team) => {
      const stats = { moves: 0, totalMs: 0, maxMs: 0, errors: {} as Record<string, number> };
      for (const r of mine) {
        r.spec.seats.forEach((id, seat) => {
          if (id !== team) return;
          const s = r.seatStats[seat]!;
          stats.moves += s.moves;
          stats.totalMs += s.totalMs;
          stats.maxMs = Math.max(stats.maxMs, s.maxMs);
          for (const [k, v] of Object.entries(s.errors)) stats.errors[k] = (stats.errors[k] ?? 0) + (v ?? 0);
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
      scores: [va / 20, vb / 20],
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
