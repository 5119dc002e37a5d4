// One rating per agent over every track of a run (all games, both rule sets): a Bradley–Terry fit
// (davidson.ts with no draws: Hunter's MM) of the pairwise games between different agents, each
// game scoring x of a win and 1 − x of a loss (a draw half of each, a Bridge VP/20 its fraction,
// a Hold'em or Undercover table its pairwise projection, batch.ts).
// Balance: each track weighs the same. Every game of track t counts w_t = n̄ / n_t, with n_t the
// track's games between different agents and n̄ their mean over the tracks, so each track
// carries n̄ games' weight whatever it played (a Hold'em table projects into k(k−1)/2 games;
// Gomoku plays one pair per pairing), and all tracks together carry as much as the games did,
// so the prior of one virtual game per agent weighs as in the per-track ratings.
// Intervals: a percentile bootstrap stratified by track: each sample redraws every track's units
// (games sharing a group: a colour-swapped pair, a table group, a Bridge match) with replacement,
// recomputes the weights and refits. Elo 0 is the anchor agent, else the mean.
// docs/metrics.md "One rating across games".
import { createRng, deriveSeed } from '../../util/rng.ts';
import { percentile } from './bootstrap.ts';
import { emptyRecord, fitDavidson } from './davidson.ts';
import type { GameResult } from './score-matrix.ts';
import type { CrossGameRatings, Rating } from '../../records/metrics.ts';

export interface CrossGameTrack {
  track: string;
  /** The track's pairwise games, in a fixed order (match id). */
  games: readonly GameResult[];
}

export interface CrossGameOptions {
  /** An agent id (a strategy label agent@round names its agent); default: the mean. */
  anchor?: string;
  samples?: number;
  /** Run seed; the stream is deriveSeed('metrics.cross-game', seed). */
  seed?: number;
  level?: number;
}

export const CROSS_GAME_DEFAULTS: Required<Omit<CrossGameOptions, 'anchor'>> = { samples: 1000, seed: 1, level: 0.95 };

const ELO_PER_NAT = 400 / Math.LN10;

/** One unit's games between different agents, as (i, j, i's score). */
type Unit = Array<[number, number, number]>;

function unitsOf(games: readonly GameResult[], index: ReadonlyMap<string, number>): Unit[] {
  const byGroup = new Map<string, Unit>();
  games.forEach((g, k) => {
    const i = index.get(g.a.agent)!;
    const j = index.get(g.b.agent)!;
    if (i === j) return;
    const key = g.group ?? `#${k}`;
    const unit = byGroup.get(key) ?? [];
    unit.push([i, j, g.scoreA]);
    byGroup.set(key, unit);
  });
  return [...byGroup.values()];
}

/** θ of the balanced fit of the drawn units (per track, unit indices with repeats). */
function fit(players: number, tracks: readonly Unit[][], drawn: readonly number[][]): Float64Array {
  const sizes = tracks.map((units, t) => drawn[t]!.reduce((n, u) => n + units[u]!.length, 0));
  const played = sizes.filter((n) => n > 0);
  const mean = played.reduce((a, b) => a + b, 0) / Math.max(1, played.length);
  const record = emptyRecord(players);
  tracks.forEach((units, t) => {
    if (!sizes[t]) return;
    const w = mean / sizes[t]!;
    for (const u of drawn[t]!) {
      for (const [i, j, x] of units[u]!) {
        record.wins[i * players + j]! += w * x;
        record.wins[j * players + i]! += w * (1 - x);
      }
    }
  });
  return fitDavidson(record, players).theta;
}

/** The balanced Bradley–Terry rating of every agent over all `tracks`, with bootstrap intervals; null with fewer than two agents. */
export function crossGameRatings(
  agents: readonly string[],
  tracks: readonly CrossGameTrack[],
  options: CrossGameOptions = {},
): CrossGameRatings | null {
  const { samples, seed, level } = { ...CROSS_GAME_DEFAULTS, ...options };
  if (!Number.isInteger(samples) || samples < 1) throw new Error(`crossGameRatings: bad sample count ${samples}`);
  if (!(level > 0 && level < 1)) throw new Error(`crossGameRatings: level ${level} outside (0, 1)`);
  // Only agents with a game against another agent are fitted (a virtual game would rate the rest).
  const counted = new Map(agents.map((a) => [a, 0]));
  for (const t of tracks)
    for (const g of t.games)
      if (g.a.agent !== g.b.agent) for (const a of [g.a.agent, g.b.agent]) counted.set(a, (counted.get(a) ?? 0) + 1);
  const rated = agents.filter((a) => counted.get(a)! > 0);
  if (rated.length < 2) return null;
  const index = new Map(rated.map((a, i) => [a, i]));
  const units = tracks.map((t) => unitsOf(t.games, index));
  const P = rated.length;
  const point = fit(
    P,
    units,
    units.map((u) => u.map((_, k) => k)),
  );
  const rng = createRng(deriveSeed('metrics.cross-game', seed));
  const draws = Array.from({ length: samples }, () =>
    fit(
      P,
      units,
      units.map((u) => u.map(() => rng.int(0, u.length - 1))),
    ),
  );
  const anchorId = options.anchor?.includes('@')
    ? options.anchor.slice(0, options.anchor.lastIndexOf('@'))
    : options.anchor;
  const anchor = anchorId === undefined ? null : (index.get(anchorId) ?? null);
  // θ has mean 0 over the fitted agents: without an anchor, Elo 0 is their mean.
  const centre = (theta: Float64Array) => (anchor === null ? 0 : theta[anchor]!);
  const tail = (1 - level) / 2;
  const sizes = units.map((u) => u.reduce((n, unit) => n + unit.length, 0));
  const played = sizes.filter((n) => n > 0);
  const mean = played.reduce((a, b) => a + b, 0) / played.length;
  const out: Rating[] = rated.map((id, i) => {
    const games = counted.get(id)!;
    if (i === anchor) return { id, elo: 0, lo: 0, hi: 0, games };
    const elo = (point[i]! - centre(point)) * ELO_PER_NAT;
    const sorted = Float64Array.from(draws, (theta) => (theta[i]! - centre(theta)) * ELO_PER_NAT).sort();
    return { id, elo, lo: percentile(sorted, tail), hi: percentile(sorted, 1 - tail), games };
  });
  return {
    model: 'bradley-terry',
    scheme: 'each track weighs the same',
    anchor: anchor === null ? 'mean' : rated[anchor]!,
    intervals: { method: 'percentile bootstrap', unit: "a track's game group, within its track", samples, seed, level },
    tracks: tracks.map((t, k) => ({ track: t.track, games: sizes[k]!, weight: sizes[k] ? mean / sizes[k]! : 0 })),
    agents: out,
  };
}
