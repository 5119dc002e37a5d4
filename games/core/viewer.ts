// What the replay viewer (replays/<id>.html) shows of one game. Each game has two halves:
//   games/<game>/viewer/data.ts    (Node)    viewerData(replay) → ViewerData, computed with the
//                                            game's own rules when the report is written;
//   games/<game>/viewer/render.js  (browser) plain script, no imports, that registers
//                                            catarenaViewers['<game>'] = { render, extra? }.
// reports/html/viewer-shell.js draws the rest (title, step controls, the move list with latency
// and errors) and calls render(board, data, step) whenever the step changes. Frames are whatever
// the renderer needs, as JSON; keep them small (a 720-hand Hold'em table round must stay fast).

import type { Replay } from '../../records/match.ts';

export interface ViewerMove {
  ply: number;
  seat: number;
  /** The move as people write it: "h8", "e2e4" / "Nf3", "raise 200", "1♠", "♥Q". */
  text: string;
  latencyMs: number;
  /** The failure that replaced the bot's answer, if any ("timeout: …"). */
  error?: string;
  /** Anything else worth a word (a hand number, "stand-in"). */
  note?: string;
}

export interface ViewerData {
  game: string;
  variant: string;
  /** Match id (the replay's file name without .json). */
  id: string;
  /** Strategy id per seat, in seat order. */
  seats: string[];
  /** Seat names as the game calls them ("black", "white"; "N", "E", …). */
  seatNames: string[];
  moves: ViewerMove[];
  /**
   * frames[k]: what the board shows after k moves (frames[0]: the start), if the game keeps
   * snapshots; a renderer may instead rebuild step k from `extra` (Hold'em: per hand). The
   * viewer has moves.length + 1 steps either way.
   */
  frames: unknown[];
  /** One line: who won and why ("black wins: five in a row", "forfeit: white timed out"). */
  result: string;
  /** Game-specific extras (chess: pgn; bridge: the duplicate comparison). */
  extra?: Record<string, unknown>;
  /** The move list pairs the two seats' moves under one move number, as chess notation does. */
  pairedMoves?: boolean;
}

/**
 * Whose eyes a board is drawn for while its game is played: `seats` are the seats whose own
 * cards, hands or words may be shown (a person's seats; none: only what every seat sees, a
 * public spectator). A viewer given one builds its data from the rules' per-seat view, so what a
 * seat may not see is never in the data (nor in a page or an event stream made from it). Absent:
 * everything, as a replay for analysts. Games whose board hides nothing (descriptor `publicBoard`)
 * ignore it.
 */
export interface ViewerPerspective {
  seats: readonly number[];
}

/** A hidden card as a viewer's data writes it, where the renderer draws a card's back. */
export const HIDDEN_CARD = '?';

export interface ViewerModule {
  viewerData(replay: Replay, perspective?: ViewerPerspective): ViewerData;
}

/** How a game ended that a bot's failure decided, in words ("… timed out"). */
const FAILURE_WORDS: Record<string, string> = {
  timeout: 'timed out',
  http_error: 'answered with an HTTP error',
  malformed: 'sent a malformed answer',
  illegal: 'played an illegal move',
  crash: 'crashed',
  join_failed: 'could not join',
};

/**
 * One line for a two-seat game's result: "white wins: checkmate", "draw: stalemate",
 * "black wins: white timed out". `names` are the seats' names, `reasons` the game's reasons in words.
 */
export function twoSeatResultLine(
  result: Replay['result'],
  names: readonly string[],
  reasons: Record<string, string>,
): string {
  const head = result.winner === null ? 'draw' : `${names[result.winner]} wins`;
  if (result.termination === 'normal') return `${head}: ${reasons[result.reason] ?? result.reason.replace(/_/g, ' ')}`;
  const offender = result.offender === null ? 'a bot' : names[result.offender];
  return `${head}: ${offender} ${FAILURE_WORDS[result.termination] ?? result.termination}`;
}
