// The request bodies the arena sends bots, byte for byte: every turn of seeded random games of
// each game and rule set, serialized and hashed. Speeding up a wire adapter's body building must
// not change a byte of what bots receive; the hashes are those of the bodies before such changes.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { initSetup } from '../games/core/game.ts';
import { adapterFor } from '../games/registry.ts';
import { createRng } from '../util/rng.ts';

const SEATS: Record<string, number> = { gomoku: 2, chess: 2, holdem: 4, bridge: 4 };

function turnBodiesHash(game: string, variant: string, games: number): { hash: string; turns: number } {
  const adapter = adapterFor(game);
  const rules = adapter.game;
  const hash = createHash('sha256');
  let turns = 0;
  for (let g = 0; g < games; g++) {
    const seats = Array.from({ length: SEATS[game]! }, (_, i) => `strategy_${i}`);
    const spec = { game, variant, seats, seed: g, limits: {}, policy: 'strict' } as never;
    const pick = createRng(1000 + g);
    let s = rules.init(variant, createRng(g), initSetup(spec));
    for (let ply = 0; !rules.outcome(s) && ply < 400; ply++) {
      const seat = rules.toMove(s)!;
      const ctx = { gameId: `game_${g}`, gameServerUrl: 'http://127.0.0.1:9', options: undefined, seatIds: seats };
      hash.update(JSON.stringify(adapter.turn(s, seat, ctx)));
      turns++;
      const legal = rules.legalActions(s, seat);
      s = rules.apply(s, seat, legal[pick.int(0, legal.length - 1)]);
    }
  }
  return { hash: hash.digest('hex'), turns };
}

describe('turn bodies', () => {
  const cases: [string, string, number, string][] = [
    ['bridge', 'standard', 40, 'ad6cce7325a56963a178edebbcf345908ba9eef8657514f42b8e475feaa7004e'],
    ['bridge', 'variant', 40, '683414e76d590e66979fb25511b9732b4a62a2aeac4810051f08f1d47888d24e'],
    ['holdem', 'standard', 40, '470e5273156b310e4b8a9a60955723a4b3c3e74eea6396b8363d3793ca537af6'],
    ['holdem', 'variant', 40, '627940fce7a2b93b5587f276163ab906bd79766f602d9ca47e7a0668f1084f5c'],
    ['chess', 'standard', 10, '0209be219c3600323f3f255da15cad0baebeb33d3238d58b82bf64491764c7d0'],
    ['chess', 'variant', 10, 'c846c22170e815dbac48ec46d5eb53f71fe4ac1117d1ae2585090ae43288d285'],
    ['gomoku', 'standard', 20, '6cd44a712b2e801009a2dd4bae49a420b633066aa32c1e16b11db1bcff8923b4'],
    ['gomoku', 'variant', 20, '42a7856827705947421d15e534541ff4e12f739cace5a18a6789c749d59e3a4b'],
  ];
  for (const [game, variant, games, want] of cases)
    it(`${game}/${variant}: every turn's body of ${games} seeded random games is unchanged`, () => {
      const { hash, turns } = turnBodiesHash(game, variant, games);
      expect(turns).toBeGreaterThan(games * 10);
      expect(hash).toBe(want);
    });
});
