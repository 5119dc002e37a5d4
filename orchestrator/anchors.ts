// Anchor pools on disk (docs/anchors.md): games/<game>/anchors.json, read and checked; each
// anchor made into a bot folder (the reference bot with its params.json overridden); and a pool
// version fitted from its round robin (scripts/fit-anchors.mjs), played by the arena.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { checkVariant, gameDescriptor, rulesLabel } from '../games/registry.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import type { AnchorDef, AnchorPool, AnchorsFile, PoolFit } from '../records/anchors.ts';
import { fitPool } from '../reports/metrics/anchored.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { hashDir, writeFileAtomic } from '../util/fs.ts';
import { gamePath, referenceBotDir } from '../util/paths.ts';
import type { StrategyRef } from './executor/bot-fleet.ts';
import { runArena } from './arena.ts';
import type { Progress } from './progress.ts';

/** Where a game's pools are committed. */
export const anchorsFile = (game: string) => gamePath(game, 'anchors.json');

export async function readAnchors(game: string, file = anchorsFile(game)): Promise<AnchorsFile> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    throw new Error(`${game} has no anchor pools (${file} is missing); see docs/anchors.md`);
  }
  const data = JSON.parse(text) as AnchorsFile;
  if (data.game !== game || typeof data.pools !== 'object')
    throw new Error(`${file} is not ${game}'s anchors file (game: ${String(data.game)})`);
  return data;
}

/** The pool of a rule set: the newest fitted version, or the version asked for. */
export function poolOf(file: AnchorsFile, variant: string, version?: number): AnchorPool {
  const versions = file.pools[variant] ?? [];
  const fitted = versions.filter((p) => p.fit);
  const pool = version === undefined ? fitted.at(-1) : versions.find((p) => p.version === version);
  if (!pool)
    throw new Error(
      version === undefined
        ? `${file.game}/${variant} has no fitted anchor pool; fit one with scripts/fit-anchors.mjs (docs/anchors.md)`
        : `${file.game}/${variant} has no anchor pool version ${version} (versions: ${versions.map((p) => p.version).join(', ') || 'none'})`,
    );
  return pool;
}

/** Writes each anchor of the pool as a bot folder under `dir` (<dir>/<id>) and returns their refs. */
export async function materializeAnchors(
  game: string,
  anchors: readonly AnchorDef[],
  dir: string,
): Promise<StrategyRef[]> {
  const refs: StrategyRef[] = [];
  for (const anchor of anchors) {
    if (!/^[\w.-]+$/.test(anchor.id) || !/^[\w.-]+$/.test(anchor.bot))
      throw new Error(`anchor "${anchor.id}" (bot "${anchor.bot}"): ids and bot names are letters, digits, . _ -`);
    const to = path.join(dir, anchor.id);
    await fs.cp(referenceBotDir(game, anchor.bot), to, { recursive: true });
    if (anchor.params) {
      const file = path.join(to, 'params.json');
      const base = JSON.parse(await fs.readFile(file, 'utf8').catch(() => '{}')) as Record<string, unknown>;
      await fs.writeFile(file, `${JSON.stringify({ ...base, ...anchor.params }, null, 2)}\n`);
    }
    refs.push({ id: anchor.id, dir: to });
  }
  return refs;
}

/** Each anchor folder's sha256 (bot code and params). */
export async function anchorCode(refs: readonly StrategyRef[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const ref of refs) out[ref.id] = await hashDir(ref.dir);
  return out;
}

/** Refuses a pool whose anchors' code differs from what it was fitted with: its numbers would not hold. */
export function checkAnchorCode(game: string, variant: string, pool: AnchorPool, code: Record<string, string>): void {
  const changed = pool.anchors.filter((a) => pool.fit?.code[a.id] !== code[a.id]).map((a) => a.id);
  if (changed.length)
    throw new Error(
      `${game}/${variant} anchor pool v${pool.version}: the code or params of ${changed.join(', ')} changed since the pool was fitted, so its ratings no longer hold; ` +
        'add a new pool version and fit it with scripts/fit-anchors.mjs (docs/anchors.md)',
    );
}

/** A temporary folder for a run's anchor bots, removed by the returned function. */
export async function anchorsTempDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'catarena-anchors-'));
  return { dir, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

export interface FitPoolOptions {
  game: string;
  variant: string;
  /** The anchors file to read and write (default games/<game>/anchors.json). */
  file?: string;
  seed: number;
  concurrency: number | 'auto';
  sandbox: Sandbox;
  runDir: string;
  progress?: Progress;
  /** Colour-swapped pairs per pairing, table rounds, or one-board duplicate matches per pairing. */
  reps: number;
  /** Bootstrap samples for table pools (default 1000). */
  samples?: number;
  /** The clock for the fit's date (tests). */
  now?: () => Date;
}

/**
 * Plays the round robin of the rule set's newest pool version that has no fit yet, fits it and
 * writes the fit into the anchors file. A fitted version is never refitted: add a new version.
 */
export async function fitAnchorPool(options: FitPoolOptions): Promise<AnchorPool> {
  const { game, variant } = options;
  checkVariant(game, variant);
  const fileName = options.file ?? anchorsFile(game);
  const file = await readAnchors(game, fileName);
  const pool = (file.pools[variant] ?? []).at(-1);
  if (!pool) throw new Error(`${fileName} defines no pool for ${game}/${variant}`);
  if (pool.fit)
    throw new Error(
      `${game}/${variant} pool v${pool.version} is fitted already (${pool.fit.date}); its numbers stay: add a version ${pool.version + 1} to refit`,
    );
  const temp = await anchorsTempDir();
  try {
    const bots = await materializeAnchors(game, pool.anchors, temp.dir);
    const code = await anchorCode(bots);
    // Duplicate games: `reps` one-board matches per pairing (each a pairwise game of VPs).
    const duplicate = gameDescriptor(game).format === 'duplicate';
    const outcome = await runArena({
      game,
      variant,
      bots,
      reps: duplicate ? 1 : options.reps,
      ...(duplicate ? { matches: options.reps } : {}),
      seed: options.seed,
      concurrency: options.concurrency,
      limits: { ...DEFAULT_LIMITS, moveMs: gameDescriptor(game).defaults.moveTimeoutMs },
      policy: 'strict',
      runDir: options.runDir,
      sandbox: options.sandbox,
      progress: options.progress,
    });
    const model: PoolFit['model'] = gameDescriptor(game).format === 'tables' ? 'plackett-luce' : 'davidson';
    const level = 0.95;
    const fitted = fitPool(
      outcome.results,
      pool.anchors.map((a) => a.id),
      model,
      {
        level,
        seed: options.seed,
        samples: options.samples,
      },
    );
    pool.fit = {
      model,
      ...(fitted.drawParameter !== undefined ? { drawParameter: fitted.drawParameter } : {}),
      intervals: fitted.intervals,
      level,
      seed: options.seed,
      reps: options.reps,
      games: outcome.results.length,
      rules: rulesLabel(game),
      date: (options.now?.() ?? new Date()).toISOString(),
      code,
      ratings: fitted.ratings,
    };
    await writeFileAtomic(fileName, `${JSON.stringify(file, null, 2)}\n`);
    return pool;
  } finally {
    await temp.remove();
  }
}
