// `--reuse`: a game whose spec (seats, seed, rule set, options, limits, policy), rules version
// (games/core/descriptor.ts `rulesVersion`: the same moves may end otherwise under other rules),
// seated code (content hashes) and sandbox kind (the one the earlier game's bots really ran in)
// equal a game of an earlier indexed run is not played again; its result and replay are copied,
// marked with the run they came from. Games that a crash, timeout or stand-in decided are always
// played again. An earlier run whose journal's chain breaks is refused (never accepted: its games
// would carry a forged result into the new run).
import path from 'node:path';
import { contentId } from '../../util/content-id.ts';
import type { MatchResult, MatchSpec } from '../../records/match.ts';
import type { StrategyRecord } from '../../records/tourney.ts';
import { tracksOf } from '../config/tourney-config.ts';
import { rulesVersion, rulesVersionOfLabel } from '../../games/registry.ts';
import { JournalTamperedError } from './journal-chain.ts';
import { RunDir } from './run-dir.ts';
import { readIndexFile, rulesOfEntry } from './run-index.ts';

/** What a seat's strategy is for reuse: its code, and whether it built (a failed build forfeits). */
export const codeOf = (record: StrategyRecord) => (record.status === 'ok' ? record.hash : `failed:${record.hash}`);

/** `rules`: the version of spec.game's rules the game was (or would be) played under. */
export function reuseKey(
  spec: MatchSpec,
  code: (strategyId: string) => string | undefined,
  sandbox: string,
  rules: number,
): string | null {
  const seats = spec.seats.map(code);
  if (seats.some((c) => c === undefined)) return null;
  return contentId({ spec, seats, sandbox, rules }, 32);
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
  private constructor(
    private readonly found: Map<string, { run: RunDir; result: MatchResult }>,
    readonly runs: number,
  ) {}

  /** Loads the results of every run indexed beside `run` (except itself) that can be reused. */
  static async open(run: RunDir): Promise<ReuseCache> {
    const found = new Map<string, { run: RunDir; result: MatchResult }>();
    const entries = (await readIndexFile(run.indexFile)).filter((e) => path.resolve(e.runDir) !== run.root);
    let runs = 0;
    for (const entry of entries) {
      const earlier = new RunDir(entry.runDir);
      const config = await earlier.readConfig().catch(() => null);
      if (!config) continue;
      const code = new Map<string, string>();
      for (const track of tracksOf(config)) for (const r of await earlier.strategies(track)) code.set(r.id, codeOf(r));
      const journal = await earlier.openJournal().catch((err: unknown) => {
        // A game copied from a journal whose chain breaks would carry a forged result into this run.
        if (err instanceof JournalTamperedError)
          throw new Error(
            `--reuse copies games from the earlier runs indexed in ${run.indexFile}, and ${err.finding} ` +
              `Run without --reuse, or take that run out of the index (its line in ${run.indexFile}) once you know what changed it.`,
          );
        return null;
      });
      if (!journal) continue;
      runs++;
      const rules = rulesOfEntry(entry);
      for (const result of journal.results().filter(reusable)) {
        const key = reuseKey(
          result.spec,
          (id) => code.get(id),
          result.sandbox ?? config.sandbox,
          rulesVersionOfLabel(rules[result.spec.game]),
        );
        if (key && !found.has(key)) found.set(key, { run: earlier, result });
      }
    }
    return new ReuseCache(found, runs);
  }

  get size(): number {
    return this.found.size;
  }

  /** The earlier result for this game, recorded in `run` (replay and journal), or null. */
  async take(
    spec: MatchSpec,
    code: (strategyId: string) => string | undefined,
    sandbox: string,
    run: RunDir,
  ): Promise<MatchResult | null> {
    const key = reuseKey(spec, code, sandbox, rulesVersion(spec.game));
    const hit = key ? this.found.get(key) : undefined;
    if (!hit) return null;
    const replay = await hit.run.readReplay(hit.result.id).catch(() => null);
    if (!replay) return null; // the earlier run's replay is gone: play the game again
    const result: MatchResult = { ...hit.result, reusedFrom: path.basename(hit.run.root) };
    await run.recordReused(result, replay);
    return result;
  }
}
