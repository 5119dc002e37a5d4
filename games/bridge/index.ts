// Contract bridge as duplicate team matches; the variant is CATArena's "magic" card exchange.
import type { GameDescriptor } from '../core/descriptor.ts';
import { CARD_COUNTING } from '../core/techniques.ts';
import { bridgeProbe } from './probe.ts';
import { bridgeDuplicateScoring } from './scoring.ts';
import { bridgeWire } from './wire.ts';

export const bridge: GameDescriptor = {
  id: 'bridge',
  wire: bridgeWire,
  format: 'duplicate',
  duplicate: bridgeDuplicateScoring,
  // A journal game is one room of a board.
  unit: 'board-rooms',
  // Boards per duplicate match: the paper plays 12; 2 keeps the default four-game run within 3 minutes
  // on 2 cores (`--preset paper` for the paper's scale).
  defaults: { reps: 2, moveTimeoutMs: 10_000 },
  presets: { paper: { reps: 12 } },
  llmPlayerPresets: { paper: { reps: 12, moveTimeoutMs: 200_000 } },
  workspace: {
    answers: 'move',
    logFiles:
      "`tournament_tournament_*.json` is the duplicate report of last round (standings in VP and IMPs, every match board by board with both rooms' scores), `games/<time>/<game_id>.json` one event log per room (JSON lines, one per bid or play)",
  },
  // The LLM-player's turn builder for this game.
  playerLibs: ['player/bridge-player.mjs'],
  probe: bridgeProbe,
  // What the evolution report looks for in this game's bot code, beside every game's techniques.
  techniques: [
    { id: 'hcp', label: 'high-card points', re: /\bhcp\b|high[\s_-]?card[\s_-]?points?/i },
    {
      id: 'conventions',
      label: 'bidding conventions (Stayman, Blackwood …)',
      re: /stayman|blackwood|jacoby|gerber|\bnegative[\s_-]?double/i,
    },
    { id: 'doubledummy', label: 'double-dummy analysis', re: /double[\s_-]?dummy|\bdds\b/i },
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
