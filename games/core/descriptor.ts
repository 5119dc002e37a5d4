// What a game folder exports (games/<game>/index.ts): everything the rest of catarena needs to
// know about one game, so that adding a game is its folder plus one line in games/registry.ts.
// See docs/adding-a-game.md.
import type { MatchResult, Replay } from '../../records/match.ts';
import type { ProbeRules } from './probe.ts';
import type { WireAdapter } from './wire.ts';

/**
 * How strategies meet: `pairs` (round-robin of colour-swapped games), `tables` (batch tables of
 * many seats, projected pairwise into W), `duplicate` (team matches over both rooms of each board).
 */
export type GameFormat = 'pairs' | 'tables' | 'duplicate';

/** Named presets of tourney settings (`paper`: the paper's Table 6); each game says its part. */
export const PRESET_NAMES = ['paper'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/** Per-game settings a tourney uses when neither the config nor a flag sets them. */
export interface GameSettings {
  /** Colour-swapped pairs per pairing; table rounds per table (tables); boards per match (duplicate). */
  reps: number;
  /** Per-move deadline. */
  moveTimeoutMs: number;
}

/**
 * How a `duplicate` game scores (Bridge: net North–South points per room, IMPs per board, VPs on
 * the 20-point scale per match; reports/metrics/duplicate.ts).
 */
export interface DuplicateScoring {
  /** A room's result for the team sitting North–South (Bridge: its net score). */
  roomScore(result: MatchResult): number;
  /** A board's score for team A (NS in the open room, EW in the closed one) from the open room's score minus the closed room's (Bridge: IMPs). */
  boardScore(diff: number): number;
  /** What the other team gets for each room a team forfeited under `strict` (Bridge: 3 IMPs, WBF Law 12C). */
  forfeitScore: number;
  /** The two teams' match points for team A's margin over `boards` boards (Bridge: VPs). */
  matchPoints(margin: number, boards: number): [number, number];
  /** The match points the two teams share (W[A,B] = A's match points / this). */
  matchPointsTotal: number;
}

/** A technique the evolution report recognises in bot code (reports/evolution/bot-profile.ts). */
export interface BotTechnique {
  id: string;
  label: string;
  re: RegExp;
}

/** A game record format other programs read (`catarena export`; chess: PGN). */
export interface GameRecordExport {
  /** The format's name, as the export flag says it (`pgn`). */
  format: string;
  /** One game's record; `representable` false for a game the format cannot express (written only with --all). */
  record(replay: Replay, options: { event?: string }): { text: string; representable: boolean };
  /** The file of many records. */
  file(records: readonly string[]): string;
}

/**
 * A `tables` game's table size: at most `maxSeats` players per table; `catarena validate` checks
 * bots at a table of `validationSeats`.
 */
export interface TableSeats {
  maxSeats: number;
  validationSeats: number;
}

/**
 * A game's format, said once: a `tables` game gives its table size with it, no other format has
 * one (the type refuses a descriptor where the two disagree).
 */
export type FormatTrait = { format: 'pairs' | 'duplicate'; tables?: never } | { format: 'tables'; tables: TableSeats };

export type GameDescriptor = GameDescriptorFields & FormatTrait;

/** Everything in a descriptor but its format (FormatTrait). */
export interface GameDescriptorFields {
  id: string;
  /** The rules and the CATArena wire protocol (the rules are `wire.game`). */
  // biome-ignore lint/suspicious/noExplicitAny: any game's types
  wire: WireAdapter<any, any>;
  /** How the format `duplicate` scores boards and matches (required for that format). */
  duplicate?: DuplicateScoring;
  /** What one journal game is, where it is not a whole game, for reports and `catarena play` (Bridge: 'board-rooms'). */
  unit?: string;
  defaults: GameSettings;
  /** This game's part of each named preset. */
  presets: Record<PresetName, Partial<GameSettings>>;
  /**
   * The LLM-player's deadline and reps in this game under each named preset (config
   * `llmPlayer.perGame.<game>`; the paper's Table 6); empty: the LLM-player defaults
   * (orchestrator/config/tourney-config.ts llmPlayerSettings).
   */
  llmPlayerPresets: Record<PresetName, Partial<GameSettings>>;
  /** False: a tourney plays the game only when `games` names it (default: it is in the default list). */
  inDefault?: boolean;
  /**
   * The version of the rules, raised with every change that can alter the result of a game played
   * with the same moves (absent: 1, the rules before versions were counted). `--reuse` never copies
   * a game of another version, and `catarena history` says when runs played different versions.
   */
  rulesVersion?: number;
  /** Match options (`perGame.<game>.options`) that change the rules, not only what bots are told (chess: `adjudication`). */
  ruleOptions?: readonly string[];
  /** Errors for bad match options, checked when a tourney config is resolved (none: anything goes). */
  optionErrors?(options: Record<string, string | number>): string[];
  /** What agents are told: the unit a bot answers, and what last round's log files are (compat §6). */
  workspace: { answers: 'move' | 'action'; logFiles: string };
  /** CATArena's GET /games/{id}/state body for a state, where the game has one (reports' final_state). */
  stateBody?(state: unknown): unknown;
  /**
   * The LLM-player's turn builder, `player/<game>-player.mjs`, and the files of the game folder it
   * needs beside it (chess: the move generator); copied next to the LLM-player's bot by base name.
   */
  playerLibs?: string[];
  /** Techniques the evolution report looks for in this game's bots, beside every game's. */
  techniques?: BotTechnique[];
  /** True when the replay viewer's board shows nothing a seat may not see (a human seat sees it live; otherwise only once the game is over). */
  publicBoard?: boolean;
  /**
   * How a person playing a human seat moves on the board (orchestrator/human/human-page.js):
   * `points` clicks an intersection ([row, column]; Gomoku), `squares` a piece then a square (UCI;
   * chess); absent: buttons of the legal actions and a JSON field.
   */
  humanBoardInput?: 'points' | 'squares';
  /** Its games as records other programs read (`catarena export`). */
  export?: GameRecordExport;
  /** What `catarena probe` counts as an endgame decision and as the same action (absent: games/core/probe.ts DEFAULT_PROBE_RULES). */
  probe?: ProbeRules;
  /**
   * Modules of higher layers inside the game folder, named by path (the layer that uses one loads
   * it; the descriptor never imports them): the offline agents' kit, CATArena's round report
   * files, the replay viewer's data (Node, games/core/viewer.ts) and its renderer (a browser
   * script, read as text).
   */
  modules: {
    offlineKit?: string;
    catarenaReport?: string;
    viewer?: string;
    viewerScript?: string;
    /**
     * The human seat's board for a game that hides cards or words (a browser script, read as text):
     * it registers catarenaSeats['<game>'] = { render(panel, msg, kit) } and draws the seat's own
     * request as a table a person plays from (orchestrator/human/human-page.js).
     */
    humanSeat?: string;
  };
}
