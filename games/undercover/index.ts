// Undercover ("Who is the spy?"): CK-Arena's social-deduction game for 2–10 players (6 by default:
// 4 civilians, 2 undercover); the variant is CK-Arena's Undercover-Audience. Played in batch
// tables (every strategy of a round at one table, seats and roles rotated over shared word
// pairs), projected pairwise into W by the composite score. Not in the default game list.
import type { GameDescriptor } from '../core/descriptor.ts';
import { OPPONENT_MODELLING } from '../core/techniques.ts';
import { undercoverWire } from './wire.ts';

export const undercover: GameDescriptor = {
  id: 'undercover',
  wire: undercoverWire,
  format: 'tables',
  tables: { maxSeats: 10, validationSeats: 6 },
  // Table rounds per table: one seat rotation of a 3-strategy table is 3; 6 gives every strategy
  // two word pairs per seat. Statements are short: 5 s per decision is ample.
  defaults: { reps: 6, moveTimeoutMs: 5_000 },
  // CK-Arena plays batches of 12 games: one K step of its team Elo.
  presets: { paper: { reps: 12 } },
  // Not in the paper: the LLM-player's defaults (its deadline at least 60 s, the game's reps).
  llmPlayerPresets: { paper: {} },
  inDefault: false,
  workspace: {
    answers: 'action',
    logFiles:
      '`undercover_report_*.json` is the report of last round (per strategy: composite score, wins, survival, voting accuracy, team Elo, statement failures; every game with its statements and votes)',
  },
  // The LLM-player's turn builder for this game, and the statement check it uses (copied beside it).
  playerLibs: ['player/undercover-player.mjs', 'engine/statement-check.mjs'],
  // What the evolution report looks for in this game's bot code, beside every game's techniques.
  techniques: [OPPONENT_MODELLING],
  modules: {
    offlineKit: 'agents/offline-kit.ts',
    catarenaReport: 'reports/catarena-report.ts',
    viewer: 'viewer/data.ts',
    viewerScript: 'viewer/render.js',
    humanSeat: 'human/seat.js',
  },
};
