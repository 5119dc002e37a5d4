// Every game catarena can play, with its wire adapter. A game folder adds itself here.
import type { WireAdapter } from './core/wire.ts';
import { bridgeWire } from './bridge/wire.ts';
import { chessWire } from './chess/wire.ts';
import { gomokuWire } from './gomoku/wire.ts';
import { holdemWire } from './holdem/wire.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const ADAPTERS: Record<string, WireAdapter<any, any>> = {
  gomoku: gomokuWire,
  chess: chessWire,
  holdem: holdemWire,
  bridge: bridgeWire,
};

export function gameIds(): string[] {
  return Object.keys(ADAPTERS);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function adapterFor(game: string): WireAdapter<any, any> {
  const adapter = ADAPTERS[game];
  if (!adapter) throw new Error(`unknown game "${game}"; available: ${gameIds().join(', ')}`);
  return adapter;
}

export function checkVariant(game: string, variant: string): void {
  const adapter = adapterFor(game);
  if (!adapter.game.variants.includes(variant)) {
    throw new Error(`unknown variant "${variant}" for ${game}; available: ${adapter.game.variants.join(', ')}`);
  }
}
