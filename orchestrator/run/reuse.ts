// `--reuse`: a game whose spec (seats, seed, rules, limits, policy), seated code (content hashes)
// and sandbox kind (the one the earlier game's bots really ran in) equal a game of an earlier
// indexed run is not played again; its result and replay are copied, marked with the run they
// came from. Games that a crash, timeout or stand-in decided are always played again.
import fs from 'node:fs/promises';
import path from 'node:path';
import { contentId } from '../../games/core/rng.ts';
import type { MatchResult, MatchSpec } from '../match/types.ts';
import { readRunConfig, strategiesOf } from '../tourney/summarize.ts';
import { trackName, type StrategyRecord } from '../tourney/types.ts';
import { tracksOf } from '../tourney/config.ts';
import { Journal } from './journal.ts';
import { INDEX_FILE, readIndexFile } from './run-index.ts';

/** What a seat's strategy is for reuse: its code, and whether it built (a failed build forfeits). */
export const codeOf = (record: StrategyRecord) => (record.status === 'ok' ? record.hash : `failed:${record.hash}`);

export function reuseKey(spec: MatchSpec, code: (strategyId: string) => string | undefined, sandbox: string): string | null {
  const seats = spec.seats.map(code);
  if (seats.some((c) => c === undefined)) return null;
  return contentId({ spec, seats, sandbox }, 32);
}

/**
 * Only games that say something about the code: none whose bot crashed, timed out, never joined
 * or was played by a stand-in, since those can come from the machine (load, a bot that gave up
 * after restarts) rather than from the strategy.
 */
function reusable(result: MatchResult): boolean {
  if (result.standIns?.length) return false;
  return result.seatStats.every((s) => !s.errors.crash && !s.errors.timeout && !s.errors.join_failed);
}

export class ReuseCache {
  private constructor(private readonly found: Map<string, { runDir: string; result: MatchResult }>, readonly runs: number) {}

  /** Loads the results of every run indexed beside `runDir` (except itself) that can be reused. */
  static async open(runDir: string): Promise<ReuseCache> {
    const found = new Map<string, { runDir: string; result: MatchResult }>();
    const entries = (await readIndexFile(path.join(path.dirname(runDir), INDEX_FILE))).filter((e) => path.resolve(e.runDir) !== path.resolve(runDir));
    let runs = 0;
    for (const entry of entries) {
      const config = await readRunConfig(entry.runDir).catch(() => null);
      if (!config) continue;
      const code = new Map<string, string>();
      for (const track of tracksOf(config)) for (const r of await strategiesOf(entry.runDir, trackName(track))) code.set(r.id, codeOf(r));
      const journal = await Journal.open(path.join(entry.runDir, 'journal.jsonl')).catch(() => null);
      if (!journal) continue;
      runs++;
      for (const result of journal.results().filter(reusable)) {
        const key = reuseKey(result.spec, (id) => code.get(id), result.sandbox ?? config.sandbox);
        if (key && !found.has(key)) found.set(key, { runDir: entry.runDir, result });
      }
    }
    return new ReuseCache(found, runs);
  }

  get size(): number {
    return this.found.size;
  }

  /** The earlier result for this game, its replay copied into `runDir/replays`, or null. */
  async take(spec: MatchSpec, code: (strategyId: string) => string | undefined, sandbox: string, runDir: string): Promise<MatchResult | null> {
    const key = reuseKey(spec, code, sandbox);
    const hit = key ? this.found.get(key) : undefined;
    if (!hit) return null;
    const file = `${hit.result.id}.json`;
    const replay = JSON.parse(await fs.readFile(path.join(hit.runDir, 'replays', file), 'utf8').catch(() => 'null'));
    if (!replay) return null; // the earlier run's replay is gone: play the game again
    const result: MatchResult = { ...hit.result, reusedFrom: path.basename(hit.runDir) };
    await fs.mkdir(path.join(runDir, 'replays'), { recursive: true });
    await fs.writeFile(path.join(runDir, 'replays', file), JSON.stringify({ ...replay, result }));
    return result;
  }
}
