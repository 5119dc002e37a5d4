// Chess: FIDE rules as CATArena's python-chess servers apply them (only automatic draws end a game) with
// its arena's 200-ply cap; the variant is CATArena's Chess960 with obstacles.
import type { GameDescriptor } from '../core/descriptor.ts';
import { chessOptionErrors, type ChessState } from './rules.ts';
import { chessProbe } from './probe.ts';
import { chessWire, stateBody } from './wire.ts';

export const chess: GameDescriptor = {
  id: 'chess',
  wire: chessWire,
  format: 'pairs',
  defaults: { reps: 1, moveTimeoutMs: 10_000 },
  presets: { paper: { reps: 8 } },
  // 2: CATArena's automatic draws only (fivefold, 75 moves) unless adjudication is "engine", and
  // en passant of a pawn that vanished on an obstacle (issue 29).
  rulesVersion: 2,
  ruleOptions: ['adjudication'],
  optionErrors: chessOptionErrors,
  workspace: {
    answers: 'move',
    logFiles: '`*_arena_report_*.csv` is the tournament report of last round, `tournament_report_history_*.json` the detailed history (large: read it with head/tail or a script)',
  },
  stateBody: (state) => stateBody(state as ChessState),
  // The LLM-player's turn builder for this game, and what it needs beside it.
  playerLibs: ['player/chess-player.mjs', 'bots/random/chess-core.mjs'],
  probe: chessProbe,
  modules: { offlineKit: 'agents/offline-kit.ts', catarenaReport: 'reports/catarena-report.ts', viewer: 'viewer/data.ts', viewerScript: 'viewer/render.js' },
};
