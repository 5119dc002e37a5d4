// The paper's win rates for games of tables (Hold'em; Undercover's composite score), per table kind.
import { tableWinRatesTable } from '../markdown-tracks.ts';
import { perTrack } from './per-track.ts';
import type { ReportSection } from './types.ts';

const TITLE = "Table win rates (paper figures for Hold'em)";
const NOTE =
  "Hold'em: win rate = tables won ÷ tables played (a split win at the hand cap counts its share); Undercover: the mean " +
  'composite score (0.75·win + 0.15·survival + 0.10·voting accuracy; docs/undercover.md) instead. With wins/tables in brackets, ' +
  "per table kind: own = an agent's strategies of every round at one table (the paper's S_i^n), round = every agent's " +
  'round-n strategy (B_i^n), field = all strategies shuffled into tables of at most 12 (G_i^n, A_i^n). ' +
  'W, Elo and the metrics above come from the pairwise projection instead (who finished ahead of whom at a shared table; ' +
  'docs/metrics.md "Batch games"), while these are the paper\'s win rates.';

export const tableWinRatesSection: ReportSection = {
  markdown: ({ summary }) => {
    const tracks = summary.tracks.filter((track) => track.tableWinRates);
    return tracks.length ? [perTrack(TITLE, tableWinRatesTable, tracks, NOTE)] : [];
  },
};
