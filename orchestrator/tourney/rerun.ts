// catarena rerun <run-dir> [--out dir]: the same run again, every agent's model requests answered
// from the run's recording (util/exchange-tape/), so it costs no provider call. It goes through the
// tourney's own code path (runTourney, with a replaying tape at the capture points). At the end the
// rerun's games and W are compared with the original's, game by game (docs/rerun.md).
import fs from 'node:fs';
import path from 'node:path';
import type { MatchResult } from '../../records/match.ts';
import { RUN_DIRS, RUN_FILES } from '../../records/run-layout.ts';
import type { Divergence } from '../../util/exchange-tape/tape.ts';
import { TapeReplayer } from '../../util/exchange-tape/replayer.ts';
import type { Progress } from '../progress.ts';
import { RunDir } from '../run/run-dir.ts';
import { runTourney } from './tourney.ts';
import { rerunMarkdown } from './rerun-report.ts';
import { forkRun, type ForkOptions } from './fork.ts';
import { agentKindOfSpec, callsModel } from '../../agents/kinds.ts';

export interface RerunOptions {
  /** The recorded run. */
  from: string;
  /** The rerun's run directory (default: <from>-rerun-<time> beside it); must not exist or be empty. */
  out?: string;
  /** After an agent's request diverged, let its further requests reach the live endpoint (default: refused). */
  liveAfterDivergence?: boolean;
  /** A fork: this agent replaced by a new spec from a round on, live; the others replayed. */
  fork?: ForkOptions;
  progress?: Progress;
  signal?: AbortSignal;
}

/** A game whose result differs between the original and the rerun. */
export interface GameDifference {
  game: string;
  seats: string[];
  seed: number;
  original?: Pick<MatchResult, 'scores' | 'winner' | 'termination' | 'reason'>;
  rerun?: Pick<MatchResult, 'scores' | 'winner' | 'termination' | 'reason'>;
}

/** A W entry that differs: track, row strategy, column strategy, both values. */
export interface WDifference {
  track: string;
  row: string;
  column: string;
  original: number | null;
  rerun: number | null;
}

export interface RerunResult {
  from: string;
  runDir: string;
  /** The fork, if this rerun is one: the agent, its new spec, from which round. */
  fork?: ForkOptions;
  recorded: number;
  replayed: number;
  refused: number;
  forwarded: number;
  divergences: Divergence[];
  games: { compared: number; same: number; differences: GameDifference[] };
  W: { compared: number; differences: WDifference[] };
  identical: boolean;
}

function readJournal(runDir: string): MatchResult[] {
  const text = fs.readFileSync(path.join(runDir, RUN_FILES.journal), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as MatchResult);
}

/** A game's identity across the two runs: its rule set, seats (strategy ids) and seed; the match id also hashes code. */
const gameKey = (r: MatchResult) =>
  JSON.stringify([r.spec.game, r.spec.variant, r.spec.seats, r.spec.seed, r.spec.rep ?? 0, r.spec.duplicate ?? null]);
const outcome = (r: MatchResult) => ({
  scores: r.scores,
  winner: r.winner,
  termination: r.termination,
  reason: r.reason,
});

/** The games whose outcome differs (or that only one run played). */
export function compareGames(original: MatchResult[], rerun: MatchResult[]): RerunResult['games'] {
  const mine = new Map(rerun.map((r) => [gameKey(r), r]));
  const differences: GameDifference[] = [];
  let same = 0;
  for (const o of original) {
    const r = mine.get(gameKey(o));
    mine.delete(gameKey(o));
    const sameOutcome = r && JSON.stringify(outcome(o)) === JSON.stringify(outcome(r));
    if (sameOutcome) same++;
    else
      differences.push({
        game: `${o.spec.game}-${o.spec.variant}`,
        seats: o.spec.seats,
        seed: o.spec.seed,
        original: outcome(o),
        ...(r ? { rerun: outcome(r) } : {}),
      });
  }
  for (const r of mine.values())
    differences.push({
      game: `${r.spec.game}-${r.spec.variant}`,
      seats: r.spec.seats,
      seed: r.spec.seed,
      rerun: outcome(r),
    });
  return { compared: original.length, same, differences };
}

type WFile = { strategies?: string[]; W?: Array<Array<number | null>> };

/** The W entries that differ, track by track (W.json of each). */
export function compareW(from: string, rerunDir: string): RerunResult['W'] {
  const differences: WDifference[] = [];
  let compared = 0;
  const tracks = path.join(from, RUN_DIRS.tracks);
  for (const track of fs.existsSync(tracks) ? fs.readdirSync(tracks) : []) {
    const read = (dir: string): WFile => {
      try {
        return JSON.parse(fs.readFileSync(path.join(dir, RUN_DIRS.tracks, track, RUN_FILES.W), 'utf8')) as WFile;
      } catch {
        return {};
      }
    };
    const [a, b] = [read(from), read(rerunDir)];
    const ids = [...new Set([...(a.strategies ?? []), ...(b.strategies ?? [])])];
    const at = (w: WFile, row: string, col: string) => {
      const [i, j] = [w.strategies?.indexOf(row) ?? -1, w.strategies?.indexOf(col) ?? -1];
      return i < 0 || j < 0 ? null : (w.W?.[i]?.[j] ?? null);
    };
    for (const row of ids)
      for (const column of ids) {
        compared++;
        const [original, rerun] = [at(a, row, column), at(b, row, column)];
        const equal = original === rerun || (original !== null && rerun !== null && Math.abs(original - rerun) < 1e-12);
        if (!equal) differences.push({ track, row, column, original, rerun });
      }
  }
  return { compared, differences };
}

/** The rerun's directory: as asked (empty or new), else beside the original. */
function rerunDirOf(from: string, out: string | undefined): string {
  const dir = out ? path.resolve(out) : `${from}-rerun-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  if (fs.existsSync(dir) && fs.readdirSync(dir).length)
    throw new Error(`${dir} is not empty: give --out a new (or empty) folder for the rerun`);
  return dir;
}

export async function rerunRun(o: RerunOptions): Promise<RerunResult> {
  const from = path.resolve(o.from);
  if (!fs.existsSync(path.join(from, RUN_FILES.config)))
    throw new Error(`${from} holds no ${RUN_FILES.config}: catarena rerun takes a tourney's run directory`);
  const recorded = await new RunDir(from).readConfig();
  const fork = o.fork ? forkRun(recorded, o.fork) : undefined;
  const config = fork?.config ?? recorded;
  const runDir = rerunDirOf(from, o.out);
  const replay = new TapeReplayer(from, {
    rerunDir: runDir,
    liveAfterDivergence: o.liveAfterDivergence,
    ...(fork ? { live: fork.live } : {}),
  });
  if (!replay.recorded && config.agents.some((a) => callsModel(agentKindOfSpec(a))))
    throw new Error(
      `${from} has no recorded model exchanges (${RUN_DIRS.recordings}/): it ran with --no-record or before catarena recorded them`,
    );
  // The same config, played here: nothing reused from other runs, nothing queued, not indexed.
  const rerunConfig = { ...config, out: path.dirname(runDir), reuse: false };
  delete (rerunConfig as { queue?: string }).queue;
  await runTourney({
    config: rerunConfig,
    runDir,
    replay,
    index: false,
    ...(fork ? { agents: fork.agents } : {}),
    ...(o.progress ? { progress: o.progress } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  const games = compareGames(readJournal(from), readJournal(runDir));
  const W = compareW(from, runDir);
  const result: RerunResult = {
    from,
    runDir,
    ...(o.fork ? { fork: o.fork } : {}),
    recorded: replay.recorded,
    replayed: replay.replayed,
    refused: replay.refused,
    forwarded: replay.forwarded,
    divergences: replay.divergences,
    games,
    W,
    identical: !replay.divergences.length && !games.differences.length && !W.differences.length,
  };
  fs.writeFileSync(path.join(runDir, RUN_FILES.rerunJson), `${JSON.stringify(result, null, 2)}\n`);
  fs.writeFileSync(path.join(runDir, RUN_FILES.rerunMd), rerunMarkdown(result));
  return result;
}
