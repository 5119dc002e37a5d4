// `catarena probe <run-dir>` (docs/probe.md): samples endgame decision points from a tournament
// run's replays, asks every strategy of the run (each bot started again in the run's sandbox)
// and optionally LLM-players for their action on each, twice, through the game's own wire
// protocol, and reduces the answers to a consistency matrix per track: the share of identical
// actions between any two of them (the paper's Figures 3, 6 and 7), and of each with itself.
import os from 'node:os';
import path from 'node:path';
import { adapterFor } from '../../games/registry.ts';
import { trackName, type TrackId } from '../../records/tourney.ts';
import {
  codeVsLlmPairs,
  consistencyMatrix,
  failuresOf,
  roundPairs,
  type ProbeActions,
  type ProbeSubject,
  type ProbeTrackResult,
} from '../../reports/probe-consistency.ts';
import { sandboxForBots } from '../config/sandbox-choice.ts';
import type { Sandbox } from '../../sandbox/types.ts';
import { limitConcurrency } from '../../util/limit.ts';
import { gameSettings, tracksOf } from '../config/tourney-config.ts';
import { BotFleet } from '../executor/bot-fleet.ts';
import { GameServerPool } from '../game-server/game-servers.ts';
import { RunDir } from '../run/run-dir.ts';
import { askSubject } from './ask-states.ts';
import { buildLlmPlayerBot, parseLlmPlayers } from './llm-player-bots.ts';
import { writeProbeTrack } from './probe-files.ts';
import { probeRulesFor } from './probe-rules.ts';
import { sampleEndgameStates } from './sample-states.ts';
import { AGENT_KINDS } from '../../agents/kinds.ts';
import { RUN_DIRS } from '../../records/run-layout.ts';

export const DEFAULT_PROBE_STATES = 100;

export interface ProbeOptions {
  runDir: string;
  /** States per track (default 100). */
  states?: number;
  /** Sampling seed (default: the run's seed). */
  seed?: number;
  /** Only these games of the run (default: all). */
  games?: string[];
  /** LLM-players to ask as well: llm-player:<provider>/<model>[#id]. */
  llmPlayers?: string[];
  /** Their endpoint (CATARENA_LLM_BASE_URL overrides it, as in a tourney). */
  llmBaseUrl?: string;
  /** Deadline of one action (default: the run's move deadline for the game). */
  timeoutMs?: number;
  /** Bots asked at once (default: the cores). */
  concurrency?: number;
  /** Progress lines (stderr in the CLI). */
  onProgress?: (line: string) => void;
}

export interface ProbeOutcome {
  results: ProbeTrackResult[];
  /** probe/<track>/ of each probed track. */
  dirs: string[];
  /** Tracks not probed, with why. */
  notProbed: Array<{ track: string; reason: string }>;
}

export async function runProbe(options: ProbeOptions): Promise<ProbeOutcome> {
  const run = new RunDir(options.runDir);
  const config = await run.readConfig();
  if (!(await run.hasJournal()))
    throw new Error(
      `${run.root} has no journal.jsonl: no game of this run was played, so there are no replays to probe`,
    );
  const games = options.games ?? config.games;
  const unknown = games.filter((g) => !config.games.includes(g));
  if (unknown.length)
    throw new Error(`--games: ${unknown.join(', ')} not played in this run; it played ${config.games.join(', ')}`);
  const llmAgents = parseLlmPlayers(options.llmPlayers ?? [], options.llmBaseUrl);
  const count = options.states ?? DEFAULT_PROBE_STATES;
  const seed = options.seed ?? config.seed;
  const progress = options.onProgress ?? (() => {});
  const journal = await run.openJournal();
  const sandbox = sandboxForBots(config.sandbox, { authors: config.agents }, { docker: config.docker });
  const hosts = new GameServerPool();
  const outcome: ProbeOutcome = { results: [], dirs: [], notProbed: [] };
  try {
    for (const track of tracksOf(config).filter((t) => games.includes(t.game))) {
      const name = trackName(track);
      const results = journal.results().filter((r) => r.spec.game === track.game && r.spec.variant === track.variant);
      if (!results.length) {
        outcome.notProbed.push({ track: name, reason: 'no games in the journal' });
        progress(`${name}: no games in the journal, skipped`);
        continue;
      }
      const probed = await probeTrack({
        run,
        track,
        results,
        count,
        seed,
        llmAgents,
        options,
        sandbox,
        hosts,
        moveTimeoutMs: gameSettings(config, track.game).moveTimeoutMs,
        startTimeoutMs: config.startTimeoutMs,
      });
      if ('reason' in probed) {
        outcome.notProbed.push({ track: name, reason: probed.reason });
        progress(`${name}: ${probed.reason}, skipped`);
        continue;
      }
      outcome.results.push(probed.result);
      outcome.dirs.push(probed.dir);
    }
  } finally {
    await hosts.closeAll();
    await sandbox.close();
  }
  if (!outcome.results.length) {
    throw new Error(
      `nothing to probe in ${run.root}: ${outcome.notProbed.map((n) => `${n.track}: ${n.reason}`).join('; ') || 'no tracks'}`,
    );
  }
  return outcome;
}

interface TrackJob {
  run: RunDir;
  track: TrackId;
  results: ReturnType<Awaited<ReturnType<RunDir['openJournal']>>['results']>;
  count: number;
  seed: number;
  llmAgents: ReturnType<typeof parseLlmPlayers>;
  options: ProbeOptions;
  sandbox: Sandbox;
  hosts: GameServerPool;
  moveTimeoutMs: number;
  startTimeoutMs: number;
}

/** The track's strategies with a bot, and each LLM-player's bot built for the probe; failed builds are skipped with their reason. */
async function probeSubjects(job: TrackJob, timeoutMs: number) {
  const { run, track } = job;
  const name = trackName(track);
  const subjects: ProbeSubject[] = [];
  const dirs = new Map<string, string>();
  const skipped: ProbeTrackResult['skipped'] = [];
  for (const s of await run.strategies(name)) {
    if (s.status === 'failed') {
      skipped.push({
        subject: s.id,
        reason: `failed build: ${(s.failure ?? 'no reason recorded').replace(/\s+/g, ' ').slice(0, 200)}`,
      });
      continue;
    }
    subjects.push({ id: s.id, kind: 'strategy', agent: s.agent, round: s.round });
    dirs.set(s.id, run.strategyDir(name, s.round, s.agent));
  }
  for (const agent of job.llmAgents) {
    const bot = await buildLlmPlayerBot(agent, path.join(run.probeDir(name), 'llm-players'), track, timeoutMs);
    subjects.push({ id: bot.id, kind: AGENT_KINDS.llmPlayer.name, agent: agent.id, round: null });
    dirs.set(bot.id, bot.dir);
  }
  return { subjects, dirs, skipped };
}

/** Every subject's bot asked for its action on every sampled state, twice, a few bots at a time. */
async function askSubjects(
  job: TrackJob,
  subjects: ProbeSubject[],
  dirs: Map<string, string>,
  states: Parameters<typeof askSubject>[2],
  o: { rules: ReturnType<typeof probeRulesFor>; timeoutMs: number; progress: (line: string) => void },
): Promise<ProbeActions['answers']> {
  const { run, track, options } = job;
  const name = trackName(track);
  const adapter = adapterFor(track.game);
  const host = await job.hosts.get(track.game, track.variant);
  const access = host.botAccess();
  const fleet = new BotFleet({
    sandbox: job.sandbox,
    health: adapter.health,
    startTimeoutMs: job.startTimeoutMs,
    logDir: path.join(run.probeDir(name), RUN_DIRS.botLogs),
    env: access.env,
    hostPorts: access.hostPorts,
  });
  fleet.add(subjects.map((s) => ({ id: s.id, dir: dirs.get(s.id)! })));
  const answers: ProbeActions['answers'] = {};
  const limit = limitConcurrency(options.concurrency ?? Math.max(1, os.availableParallelism()));
  let done = 0;
  try {
    await Promise.all(
      subjects.map((s) =>
        limit(async () => {
          const t0 = performance.now();
          answers[s.id] = await askSubject(fleet, s.id, states, {
            adapter,
            host,
            rules: o.rules,
            timeoutMs: o.timeoutMs,
          });
          await fleet.evict(s.id);
          const failed = failuresOf(s.id, answers[s.id]!).failed;
          o.progress(
            `${name}: ${++done}/${subjects.length} ${s.id} answered ${states.length * 2 - failed}/${states.length * 2} (${failed} failed) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
          );
        }),
      ),
    );
  } finally {
    await fleet.stopAll();
  }
  return answers;
}

async function probeTrack(job: TrackJob): Promise<{ result: ProbeTrackResult; dir: string } | { reason: string }> {
  const { run, track, options } = job;
  const name = trackName(track);
  const progress = options.onProgress ?? (() => {});
  const started = performance.now();
  const rules = probeRulesFor(track.game);
  const sample = await sampleEndgameStates(run, job.results, job.count, job.seed);
  const sampleMs = Math.round(performance.now() - started);
  if (sample.missingReplays === job.results.length)
    return { reason: `none of its ${job.results.length} games has its replay in ${run.replaysDir}` };
  if (!sample.states.length)
    return {
      reason: `no endgame decision points in its ${job.results.length} replays${sample.missingReplays ? ` (${sample.missingReplays} replay files missing)` : ''}`,
    };
  const timeoutMs = options.timeoutMs ?? job.moveTimeoutMs;
  const { subjects, dirs, skipped } = await probeSubjects(job, timeoutMs);
  if (!subjects.length) return { reason: 'no strategy with a bot (every build failed)' };
  const asks = subjects.length * sample.states.length * 2;
  progress(
    `${name}: ${sample.states.length} of ${sample.candidates} endgame states sampled from ${job.results.length} games in ${(sampleMs / 1000).toFixed(1)} s; asking ${subjects.length} bot(s) each twice (${asks} actions, ${timeoutMs} ms deadline)`,
  );

  const answers = await askSubjects(job, subjects, dirs, sample.states, { rules, timeoutMs, progress });

  const ids = subjects.map((s) => s.id);
  const matrix = consistencyMatrix(ids, answers);
  const result: ProbeTrackResult = {
    track: name,
    game: track.game,
    variant: track.variant,
    seed: job.seed,
    requested: job.count,
    candidates: sample.candidates,
    sampled: sample.states.length,
    endgame: rules.endgame,
    actionKey: rules.actionKey,
    subjects,
    matrix,
    failures: ids.map((id) => failuresOf(id, answers[id]!)),
    rounds: roundPairs(subjects, matrix),
    codeVsLlm: codeVsLlmPairs(subjects, matrix),
    skipped,
    wallMs: Math.round(performance.now() - started),
    sampleMs,
    asks,
    createdAt: new Date().toISOString(),
  };
  const states = sample.states.map(({ id, replay, ply, seat, seatName, playedBy, played, where }) => ({
    id,
    replay,
    ply,
    seat,
    seatName,
    playedBy,
    played,
    where,
  }));
  const dir = await writeProbeTrack(run, result, { track: name, states, subjects, answers });
  return { result, dir };
}
