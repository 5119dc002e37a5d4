// A report section: one part of report.md and report.html, drawn from the run's summary alone.
// Each section knows its own Markdown and HTML; reports/sections/index.ts decides the order of each
// output (the page groups per track what report.md lays out per table), as fastchess keeps its
// output behind one interface.
import type { TourneySummary } from '../../records/tourney.ts';
import type { EvolutionStep, EvolutionTrack } from '../evolution/evolution.ts';
import type { ProbeTrackResult } from '../probe-consistency.ts';
import type { Provenance } from '../../records/provenance.ts';

/** One game as the page's W-cell panel lists it. */
export interface IndexedGame {
  id: string;
  /** Strategy label (agent@round) per seat. */
  seats: string[];
  scores: number[];
  termination: string;
  reason: string;
  plies: number;
  /** The game can be shown on the replay page (replays/views.js lists it). */
  page: boolean;
}

/** Per track (keyed by the heatmap's id: the track name with [^\w-] as _): W's labels and the games. */
export type GameIndex = Record<string, { labels: string[]; games: IndexedGame[] }>;

/** Everything a section may draw from. */
export interface ReportInput {
  summary: TourneySummary;
  /** The games behind each W cell (the page's panel). */
  games: GameIndex;
  /** The strategy evolution per track (reports/evolution/). */
  evolution: readonly EvolutionTrack[];
  /** `catarena probe`'s results, when the run was probed. */
  probes: readonly ProbeTrackResult[];
  /** What makes the run reproducible besides the models (provenance.json), when it has one. */
  provenance?: Provenance | null;
  /** A step's full diff file, relative to report.html. */
  diffHref?: (step: EvolutionStep, track: EvolutionTrack) => string | undefined;
}

export interface ReportSection {
  /** report.md's part: blocks joined by blank lines; none when the section has nothing to say. */
  markdown?: (r: ReportInput) => string[];
  /** report.html's part ('' when none). */
  html?: (r: ReportInput) => string;
  /** The page's navigation links to this section, as [anchor, label]. */
  nav?: (r: ReportInput) => Array<readonly [string, string]>;
}

/** The input of a report with no games index, evolution or probe results (tests, the Markdown alone). */
export const summaryInput = (summary: TourneySummary): ReportInput => ({
  summary,
  games: {},
  evolution: [],
  probes: [],
});
