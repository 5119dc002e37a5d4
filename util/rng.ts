// Seeded randomness for games and schedules. Every random choice in catarena comes from an Rng
// built from an explicit seed, so a match replays exactly from its spec.
import { hash } from 'node:crypto';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';

export interface Rng {
  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** Uniform float in [0, 1). */
  float(): number;
  /** Fisher–Yates shuffle of a copy. */
  shuffle<T>(items: readonly T[]): T[];
}

class PureRng implements Rng {
  constructor(private readonly gen: JumpableRandomGenerator) {}
  int(min: number, max: number): number {
    return uniformInt(this.gen, min, max);
  }
  float(): number {
    return uniformInt(this.gen, 0, 2 ** 30 - 1) / 2 ** 30;
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

export function createRng(seed: number): Rng {
  return new PureRng(xoroshiro128plus(seed | 0));
}

/**
 * A 32-bit seed derived from any parts (run seed, game, pairing …), stable across machines.
 * crypto.hash, not createHash: the one-shot call costs half as much CPU (a Hash object per call
 * otherwise), and Hold'em derives one per hand.
 */
export function deriveSeed(...parts: Array<string | number>): number {
  return hash('sha256', parts.map(String).join('\u0000'), 'buffer').readInt32BE(0);
}
