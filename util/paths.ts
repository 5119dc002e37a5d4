// Where the project's own files are: the root (found by walking up to package.json, so the same
// answer comes from the TypeScript sources and from compiled JavaScript in .build/), the games
// folder with its rules, environments and reference bots, and modules inside a game folder.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'games'))) return dir;
    if (path.dirname(dir) === dir)
      throw new Error(`catarena: no project root (package.json beside games/) above ${from}`);
  }
}

export const PROJECT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
export const GAMES_DIR = path.join(PROJECT_ROOT, 'games');

/** Folders of games registered from outside games/ (games/registry.ts registerGame; tests). */
const OTHER_GAME_DIRS = new Map<string, string>();

/** Where a game registered from outside games/ lives. */
export function setGameDir(game: string, dir: string | null): void {
  if (dir === null) OTHER_GAME_DIRS.delete(game);
  else OTHER_GAME_DIRS.set(game, path.resolve(dir));
}

/** A game's folder, or a path inside it (env/, bots/heuristic …). */
export const gamePath = (game: string, ...parts: string[]) =>
  path.join(OTHER_GAME_DIRS.get(game) ?? path.join(GAMES_DIR, game), ...parts);

/** A reference bot's folder: games/<game>/bots/<name>. */
export const referenceBotDir = (game: string, name: string) => gamePath(game, 'bots', name);

/**
 * The import() URL of a module inside a game folder (a descriptor names it by its .ts path):
 * beside this file's own tree, so compiled code loads the compiled module.
 */
export function gameModuleUrl(game: string, rel: string): string {
  const other = OTHER_GAME_DIRS.get(game);
  if (other) return pathToFileURL(path.join(other, rel)).href;
  const url = new URL(`../games/${game}/${rel}`, import.meta.url).href;
  return import.meta.url.endsWith('.js') ? url.replace(/\.ts$/, '.js') : url;
}
