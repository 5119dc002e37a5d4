// Anchor pools (docs/anchors.md): per game and rule set, fixed reference bots whose ratings were
// fitted once from a round robin and committed in games/<game>/anchors.json, so a bot rated
// against them (`catarena rate`) lands on a scale that does not move with the field. A pool is
// versioned: a fitted version's numbers are never rewritten; a change of its anchors, or of their
// code, makes a new version.

/** One reference bot of a pool: a bot folder of the game (bots/<bot>) with params.json overridden. */
export interface AnchorDef {
  id: string;
  /** The reference bot's folder name under games/<game>/bots/. */
  bot: string;
  /** Merged over the bot's params.json (the heuristic's knobs: depth, randomness, deterministic …). */
  params?: Record<string, unknown>;
}

/** A rating on the pool's scale: Elo (400·log10 of strength), 0 = the mean of the pool's anchors. */
export interface AnchorRating {
  id: string;
  elo: number;
  lo: number;
  hi: number;
  /** Games (tables) the rating rests on. */
  games: number;
}

/** How a pool version was fitted, and what came out. */
export interface PoolFit {
  /** davidson: Bradley–Terry with draws over pairwise games; plackett-luce: finishing orders of tables. */
  model: 'davidson' | 'plackett-luce';
  /** Davidson's draw parameter ν, which `rate` holds fixed with the anchors' ratings. */
  drawParameter?: number;
  /** How the intervals were made: Wald from the observed information, or a percentile bootstrap. */
  intervals: string;
  level: number;
  seed: number;
  /** Repetitions of the round robin: colour-swapped pairs per pairing, table rounds, or one-board duplicate matches per pairing. */
  reps: number;
  /** Journal games the fit used. */
  games: number;
  /** The rules the games were played under (games/registry.ts rulesLabel). */
  rules: string;
  /** ISO date of the fit. */
  date: string;
  /** sha256 of each anchor's materialized folder (bot code and params): `rate` refuses a pool whose bots changed. */
  code: Record<string, string>;
  ratings: AnchorRating[];
}

export interface AnchorPool {
  version: number;
  anchors: AnchorDef[];
  /** Absent until the pool version is fitted. */
  fit?: PoolFit;
}

/** games/<game>/anchors.json: each rule set's pool versions, oldest first. */
export interface AnchorsFile {
  game: string;
  pools: Record<string, AnchorPool[]>;
}

/** What `catarena rate` prints and writes (rate.json in its run directory). */
export interface AnchoredRating {
  bot: string;
  game: string;
  variant: string;
  poolVersion: number;
  elo: number;
  lo: number;
  hi: number;
  level: number;
  games: number;
  /** Games per anchor played. */
  opponents: Record<string, number>;
  stopped: 'target' | 'max-games' | 'interrupted';
  seed: number;
}

/** One strategy of a tourney rated on its game's anchor pool (--anchors; anchored.json). */
export interface AnchoredStrategy {
  /** The track's name (gomoku-standard). */
  track: string;
  agent: string;
  round: number;
  rating: AnchoredRating;
}
