// The one loader of a game folder's higher-layer modules (descriptor `modules`): the layer that
// uses a module calls loadGameModule and owns its type; the descriptor never imports it.
// tests/layers.test.ts counts every loadGameModule(…, kind) call as an import of each game's module
// of that kind, so these loads obey the layer table like static imports.
import { gameModuleUrl } from '../util/paths.ts';
import type { GameDescriptor } from './core/descriptor.ts';
import { gameDescriptor } from './registry.ts';

/** The modules loaded by import(), and the export each must have. */
export const GAME_MODULE_EXPORTS = {
  offlineKit: 'offlineKit',
  catarenaReport: 'writeCatarenaReport',
  viewer: 'viewerData',
} as const satisfies Partial<Record<keyof GameDescriptor['modules'], string>>;

export type GameModuleKind = keyof typeof GAME_MODULE_EXPORTS;

/**
 * The export of a game's module of this kind (T: what the calling layer expects of it), or null
 * when the game's descriptor names none.
 */
export async function loadGameModule<T>(game: string, kind: GameModuleKind): Promise<T | null> {
  const rel = gameDescriptor(game).modules[kind];
  if (!rel) return null;
  const name = GAME_MODULE_EXPORTS[kind];
  const mod = (await import(gameModuleUrl(game, rel))) as Record<string, unknown>;
  if (mod[name] === undefined)
    throw new Error(`games/${game}/${rel} does not export ${name} (its descriptor names it as modules.${kind})`);
  return mod[name] as T;
}
