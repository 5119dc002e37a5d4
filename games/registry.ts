// Every game catarena can play: one descriptor per game folder (games/<game>/index.ts). A new
// game adds its folder and one line here (docs/adding-a-game.md).
import type { GameDescriptor } from './core/descriptor.ts';
import type { WireAdapter } from './core/wire.ts';
import { setGameDir } from '../util/paths.ts';
import { bridge } from './bridge/index.ts';
import { chess } from './chess/index.ts';
import { gomoku } from './gomoku/index.ts';
import { holdem } from './holdem/index.ts';
import { undercover } from './undercover/index.ts';

const GAMES: GameDescriptor[] = [gomoku, chess, holdem, bridge, undercover];

/**
 * Adds a game whose folder is outside games/ (a test's throwaway game), until `unregisterGame`.
 * The game then works like a listed one in this process (its folder gives env/, bots and modules).
 */
export function registerGame(descriptor: GameDescriptor, folder: string): void {
  if (GAMES.some((g) => g.id === descriptor.id)) throw new Error(`game "${descriptor.id}" is registered already`);
  GAMES.push(descriptor);
  setGameDir(descriptor.id, folder);
}

export function unregisterGame(game: string): void {
  const i = GAMES.findIndex((g) => g.id === game);
  if (i >= 0) GAMES.splice(i, 1);
  setGameDir(game, null);
}

export function gameIds(): string[] {
  return GAMES.map((g) => g.id);
}

/** The games a tourney plays when its config names none (descriptors with `inDefault: false` left out). */
export function defaultGameIds(): string[] {
  return GAMES.filter((g) => g.inDefault !== false).map((g) => g.id);
}

export function gameDescriptor(game: string): GameDescriptor {
  const descriptor = GAMES.find((g) => g.id === game);
  if (!descriptor) throw new Error(`unknown game "${game}"; available: ${gameIds().join(', ')}`);
  return descriptor;
}

// biome-ignore lint/suspicious/noExplicitAny: any game's types
export function adapterFor(game: string): WireAdapter<any, any> {
  return gameDescriptor(game).wire;
}

export function checkVariant(game: string, variant: string): void {
  const { variants } = adapterFor(game).game;
  if (!variants.includes(variant))
    throw new Error(`unknown variant "${variant}" for ${game}; available: ${variants.join(', ')}`);
}

/** A game's rules version (games/core/descriptor.ts `rulesVersion`; 1 before versions were counted). */
export function rulesVersion(game: string): number {
  return gameDescriptor(game).rulesVersion ?? 1;
}

/**
 * The rules a game is played under, as a run records them: "v2", with the rule-changing match
 * options that are set ("v2 adjudication=engine"). Two runs with different labels for a game are
 * not comparable game by game.
 */
export function rulesLabel(game: string, options?: Record<string, string | number>): string {
  const d = gameDescriptor(game);
  const set = (d.ruleOptions ?? []).filter((k) => options?.[k] !== undefined).map((k) => `${k}=${options![k]}`);
  return [`v${d.rulesVersion ?? 1}`, ...set].join(' ');
}

/** The version in a rules label ("v2 adjudication=engine" → 2); no label (a run indexed before labels were recorded) → 1. */
export function rulesVersionOfLabel(label: string | undefined): number {
  const m = label ? /^v(\d+)/.exec(label) : null;
  return m ? Number(m[1]) : 1;
}
