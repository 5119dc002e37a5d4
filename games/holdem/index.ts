// Texas Hold'em: no-limit tournament rounds at tables of up to 12; the variant is CATArena's
// 36-card short deck. Played in batch tables, projected pairwise into W.
import type { GameDescriptor } from '../core/descriptor.ts';
import { CARD_COUNTING, OPPONENT_MODELLING } from '../core/techniques.ts';
import { holdemProbe } from './probe.ts';
import { holdemWire } from './wire.ts';

export const holdem: GameDescriptor = {
  id: 'holdem',
  wire: holdemWire,
  format: 'tables',
  tables: { maxSeats: 12, validationSeats: 6 },
  // A journal game is one tournament round of a table.
  unit: 'tournament rounds',
  // Table rounds per table: the paper plays 100; 2 keeps the default four-game run within about 3
  // minutes on 2 cores (`--preset paper` for the paper's scale; `--reps auto` adds where it matters). The paper's 3 s.
  defaults: { reps: 2, moveTimeoutMs: 3_000 },
  presets: { paper: { reps: 100, moveTimeoutMs: 3_000 } },
  llmPlayerPresets: { paper: { reps: 10, moveTimeoutMs: 1_000_000 } },
  workspace: {
    answers: 'action',
    logFiles:
      '`tournament_report_tourney_*.json` is the technical report of last round (wins, actions, errors per bot), `history_tourney_*.json` the per-tournament-round hand histories (large: read them with a script)',
  },
  // The LLM-player's turn builder for this game.
  playerLibs: ['player/holdem-player.mjs'],
  probe: holdemProbe,
  // What the evolution report looks for in this game's bot code, beside every game's techniques.
  techniques: [
    { id: 'equity', label: 'equity tables / hand equity', re: /\bequity\b|equities/i },
    {
      id: 'handstrength',
      label: 'hand strength / ranking',
      re: /hand[\s_-]?(strength|rank|value)|evaluate[\s_-]?hand/i,
    },
    { id: 'potodds', label: 'pot odds', re: /pot[\s_-]?odds/i },
    { id: 'preflop', label: 'preflop chart', re: /pre[\s_-]?flop/i },
    { id: 'bluff', label: 'bluffing', re: /bluff/i },
    OPPONENT_MODELLING,
    CARD_COUNTING,
  ],
  modules: {
    offlineKit: 'agents/offline-kit.ts',
    catarenaReport: 'reports/catarena-report.ts',
    viewer: 'viewer/data.ts',
    viewerScript: 'viewer/render.js',
    humanSeat: 'human/seat.js',
  },
};
