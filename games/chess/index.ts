// Chess: FIDE rules as CATArena's python-chess servers apply them (only automatic draws end a game) with
// its arena's 200-ply cap; the variant is CATArena's Chess960 with obstacles.
import type { GameDescriptor } from '../core/descriptor.ts';
import { chessOptionErrors, type ChessState } from './rules.ts';
import { chessPgn, pgnFile } from './pgn.ts';
import { chessProbe } from './probe.ts';
import { chessWire, stateBody } from './wire.ts';

export const chess: GameDescriptor = {
  id: 'chess',
  wire: chessWire,
  format: 'pairs',
  defaults: { reps: 1, moveTimeoutMs: 10_000 },
  presets: { paper: { reps: 8 } },
  llmPlayerPresets: { paper: { reps: 2, moveTimeoutMs: 600_000 } },
  // 2: CATArena's automatic draws only (fivefold, 75 moves) unless adjudication is "engine", and
  // en passant of a pawn that vanished on an obstacle (issue 29).
  rulesVersion: 2,
  ruleOptions: ['adjudication'],
  optionErrors: chessOptionErrors,
  workspace: {
    answers: 'move',
    logFiles:
      '`*_arena_report_*.csv` is the tournament report of last round, `tournament_report_history_*.json` the detailed history (large: read it with head/tail or a script)',
  },
  stateBody: (state) => stateBody(state as ChessState),
  // The LLM-player's turn builder for this game, and what it needs beside it.
  playerLibs: ['player/chess-player.mjs', 'bots/random/chess-core.mjs'],
  probe: chessProbe,
  publicBoard: true,
  humanBoardInput: 'squares',
  export: {
    format: 'pgn',
    record: (replay, options) => {
      const { pgn, representable } = chessPgn(replay, options);
      return { text: pgn, representable };
    },
    file: pgnFile,
  },
  // What the evolution report looks for in this game's bot code, beside every game's techniques.
  techniques: [
    { id: 'pst', label: 'piece-square tables', re: /piece[\s_-]?square|\bpsq?t\b/i },
    { id: 'quiescence', label: 'quiescence search', re: /quiesc/i },
    {
      id: 'ordering',
      label: 'move ordering (MVV-LVA, killers, history)',
      re: /mvv|\blva\b|killer|history[\s_-]?heuristic|move[\s_-]?order/i,
    },
  ],
  modules: {
    offlineKit: 'agents/offline-kit.ts',
    catarenaReport: 'reports/catarena-report.ts',
    viewer: 'viewer/data.ts',
    viewerScript: 'viewer/render.js',
  },
};
