// Shared CLI option parsing: numbers with ranges, bot references, run directories. Errors name
// the option and say what is accepted.
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { InvalidArgumentError } from 'commander';
import { referenceBotDir } from '../../util/paths.ts';

export function defaultConcurrency(): number {
  return Math.max(1, os.availableParallelism());
}

/** --concurrency: a whole number of games and thinking bots at once, or auto (adapted to measured throughput). */
export function concurrencyOption(value: string): number | 'auto' {
  return value.trim().toLowerCase() === 'auto' ? 'auto' : intOption(1, 256)(value);
}

export function intOption(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(
        `expected a whole number from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'up' : max}`,
      );
    return n;
  };
}

/** A bot argument: a folder, or builtin:<name> for a reference bot of the game. */
export function resolveBotDir(arg: string, game: string): string {
  const builtin = /^builtin:(.+)$/.exec(arg);
  if (builtin) return referenceBotDir(game, builtin[1]!);
  return path.resolve(arg);
}

export function newRunDir(out: string, kind: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return path.resolve(out, `${kind}-${stamp}-${randomBytes(2).toString('hex')}`);
}
