// `tourney --anchors`: after the last round, every strategy that played is rated on its game's
// anchor pool (orchestrator/rate.ts, docs/anchors.md), so runs with different fields compare on
// one scale. Each rating's games are a rate run under anchor-ratings/<track>/<agent>-r<round>/; the
// ratings go to anchored.json as they come, so a resumed run rates only what is missing.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AnchoredStrategy } from '../../records/anchors.ts';
import { DEFAULT_LIMITS } from '../../records/match.ts';
import { RUN_DIRS, RUN_FILES } from '../../records/run-layout.ts';
import type { StrategyRecord } from '../../records/tourney.ts';
import type { Sandbox } from '../../sandbox/types.ts';
import { readTextIfExists } from '../../util/fs.ts';
import { deriveSeed } from '../../util/rng.ts';
import { anchorsFile, poolOf, readAnchors } from '../anchors.ts';
import { gameSettings, type TourneyConfig } from '../config/tourney-config.ts';
import type { Progress } from '../progress.ts';
import { rateBot } from '../rate.ts';

export interface RateStrategiesOptions {
  root: string;
  config: TourneyConfig;
  /** Per track name: its game, variant and each round's strategies. */
  tracks: Array<{ name: string; game: string; variant: string; rounds: StrategyRecord[][] }>;
  sandbox: Sandbox;
  progress?: Progress;
  signal?: AbortSignal;
}

/** The ratings a run has (anchored.json), none when it has not rated. */
export async function readAnchored(root: string): Promise<AnchoredStrategy[]> {
  const text = await readTextIfExists(path.join(root, RUN_FILES.anchored));
  return text ? (JSON.parse(text) as AnchoredStrategy[]) : [];
}

/** Why a track's strategies cannot be rated (no pools for its game, none fitted for its rule set, a bad file), or undefined. */
async function poolProblem(game: string, variant: string): Promise<string | undefined> {
  try {
    poolOf(await readAnchors(game, anchorsFile(game)), variant);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

export async function rateStrategies(o: RateStrategiesOptions): Promise<AnchoredStrategy[]> {
  const settings = o.config.anchors!;
  const done = await readAnchored(o.root);
  const key = (track: string, agent: string, round: number) => `${track}/${agent}/${round}`;
  const have = new Set(done.map((a) => key(a.track, a.agent, a.round)));
  for (const track of o.tracks) {
    const problem = await poolProblem(track.game, track.variant);
    if (problem) {
      o.progress?.phase(`anchors: ${track.name}'s strategies are not rated: ${problem}`);
      continue;
    }
    for (const [k, strategies] of track.rounds.entries())
      for (const s of strategies) {
        if (s.status === 'failed' || have.has(key(track.name, s.agent, k + 1))) continue;
        if (o.signal?.aborted) return done;
        o.progress?.phase(`anchors: rating ${s.agent}@${k + 1} on ${track.name}`);
        const id = `${s.agent}-r${k + 1}`;
        const rating = await rateBot({
          game: track.game,
          variant: track.variant,
          bot: { id, dir: s.dir },
          seed: deriveSeed(o.config.seed, 'anchors', track.name, id),
          targetWidth: settings.targetWidth,
          maxGames: settings.maxGames,
          concurrency: o.config.concurrency,
          limits: { ...DEFAULT_LIMITS, moveMs: gameSettings(o.config, track.game).moveTimeoutMs },
          policy: o.config.policy,
          runDir: path.join(o.root, RUN_DIRS.anchorRatings, track.name, id),
          sandbox: o.sandbox,
          startTimeoutMs: o.config.startTimeoutMs,
          ...(o.progress ? { progress: o.progress } : {}),
          ...(o.signal ? { signal: o.signal } : {}),
        });
        if (rating.stopped === 'interrupted') return done;
        done.push({ track: track.name, agent: s.agent, round: k + 1, rating });
        await fs.writeFile(path.join(o.root, RUN_FILES.anchored), `${JSON.stringify(done, null, 2)}\n`);
      }
  }
  return done;
}
