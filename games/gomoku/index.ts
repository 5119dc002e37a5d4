// Gomoku: 15×15 five in a row; the variant adds CATArena's forbidden cells and "two triplets".
import type { GameDescriptor } from '../core/descriptor.ts';
import type { GomokuState } from './rules.ts';
import { gomokuWire, stateBody } from './wire.ts';

export const gomoku: GameDescriptor = {
  id: 'gomoku',
  wire: gomokuWire,
  format: 'pairs',
  defaults: { reps: 1, moveTimeoutMs: 10_000 },
  presets: { paper: { reps: 4 } },
  llmPlayerPresets: { paper: { reps: 2, moveTimeoutMs: 600_000 } },
  workspace: {
    answers: 'move',
    logFiles:
      '`*_arena_report_*.csv` is the tournament report of last round, `tournament_report_history_*.json` the detailed history (large: read it with head/tail or a script)',
  },
  publicBoard: true,
  humanBoardInput: 'points',
  stateBody: (state) => stateBody(state as GomokuState),
  // The LLM-player's turn builder for this game.
  playerLibs: ['player/gomoku-player.mjs'],
  // What the evolution report looks for in this game's bot code, beside every game's techniques.
  techniques: [
    {
      id: 'threats',
      label: 'threat patterns (open threes / fours, VCF)',
      re: /open[\s_-]?(three|four|3|4)|live[\s_-]?(three|four)|\bvc[ft]\b|\bthreats?\b/i,
    },
  ],
  modules: {
    offlineKit: 'agents/offline-kit.ts',
    catarenaReport: 'reports/catarena-report.ts',
    viewer: 'viewer/data.ts',
    viewerScript: 'viewer/render.js',
  },
};
