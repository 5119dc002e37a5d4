// A scheduled night's checkpoint in Redis, so that a night whose worker dies (or drains) resumes
// on whichever machine picks its job up, instead of starting from scratch there. While a night
// runs, its worker copies what a resume needs into Redis every few seconds: the journal (appended
// as it grows, whole lines only), each journaled game's replay, the strategies developed (each bot
// folder through the artifact store, its record beside), the run's id (so the games already
// queued under it are collected, not played again), its journal key and pinned rules. Another
// machine's worker restores them into its own folder before the tourney opens it; the tourney
// then resumes as it does on one machine. The folder left behind is marked `moved` (status.json)
// by a worker on its machine (markMovedRuns). What is not copied: workspaces, bot logs, live.jsonl,
// round logs (rebuilt from the journal and replays).
//
// The checkpoint holds the run's journal key: anything that can write Redis can already hand the
// coordinator forged results (replays come back through it), so Redis is trusted with results as
// it is; a restore still writes only paths of the shapes below, inside the run's folder.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { pathExists, writeFileAtomic } from '../../util/fs.ts';
import { isProcessGone, startTimeOf } from '../../util/procfs.mjs';
import { ArtifactStore } from '../queue/artifacts.ts';
import { connectQueue, PREFIX, QUEUE_GRACE_MS } from '../queue/connection.ts';
import { type NightRecord, recordNight } from '../queue/nights.ts';
import type { NightHooks } from '../queue/jobs.ts';
import { fireNightAlert } from './night-alerts.ts';
import type { RunStatus } from '../run/run-dir.ts';
import { isRoundDirName, ROUND_DIR_SOURCE, RUN_DIRS, RUN_FILES } from '../../records/run-layout.ts';

/** How long a checkpoint stays in Redis after its last write (as finished games' jobs: a week). */
const CHECKPOINT_TTL_S = 7 * 24 * 3600;
/** A finished night's checkpoint is kept a day (its job may still be re-run if its worker dies before BullMQ hears). */
const FINISHED_TTL_S = 24 * 3600;
/** Folders a night left on a machine, to be marked moved there: "host:folder" → where it continued. */
export const MOVED_KEY = `${PREFIX}:night-moved`;

export interface NightRef {
  schedule: string;
  /** The firing time (ISO). */
  firedAt: string;
}

const keysOf = (ref: NightRef) => {
  const base = `${PREFIX}:night:${ref.schedule}:${Date.parse(ref.firedAt)}`;
  return { meta: `${base}:meta`, files: `${base}:files`, journal: `${base}:journal`, bots: `${base}:bots` };
};

/** Where a night's folder is: one machine's path. */
export const holderOf = (runDir: string) => `${os.hostname()}:${runDir}`;

// The only paths a checkpoint carries (relative to the run folder); anything else is refused on restore.
const NAME = '[A-Za-z0-9_][\\w.@+-]*';
const STRATEGY = `${RUN_DIRS.tracks}/${NAME}/${ROUND_DIR_SOURCE}/${RUN_DIRS.strategies}/${NAME}`;
const FILE_PATH = new RegExp(
  `^(format\\.json|run-id|journal\\.key|rules\\.json|${RUN_DIRS.replays}/${NAME}\\.json\\.gz|${RUN_DIRS.tracks}/${NAME}/auto-reps\\.json|${STRATEGY}\\.(strategy\\.json|build\\.log))$`,
);
const BOT_PATH = new RegExp(`^${STRATEGY}$`);
/** A scheduled night's folder name (runScheduledTourney). */
const NIGHT_FOLDER = /^[\w.-]+-\d{8}-\d{6}$/;

/** A checkpoint's path inside `root`, or an error naming what was refused. */
function inside(root: string, rel: string, shape: RegExp): string {
  const target = path.resolve(root, rel);
  if (!shape.test(rel) || rel.split('/').includes('..') || !target.startsWith(`${root}${path.sep}`))
    throw new Error(`night checkpoint: refusing path ${JSON.stringify(rel).slice(0, 120)} (not a run folder file)`);
  return target;
}

/** Copies a running night's folder into Redis as it grows (see the top of this file). */
export class NightCheckpoint {
  private journalBytes = 0;
  private readonly sent = new Map<string, number>(); // file → mtime sent
  private readonly bots = new Set<string>();
  private readonly artifacts: ArtifactStore;
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> = Promise.resolve();
  private failed = false;

  constructor(
    private readonly redis: Redis,
    private readonly ref: NightRef,
    private readonly runDir: string,
    private readonly worker: string,
    private readonly report: (message: string) => void = () => {},
  ) {
    this.artifacts = new ArtifactStore(redis);
  }

  /** Claims the night for this folder and syncs every `intervalMs`. */
  async start(intervalMs: number): Promise<void> {
    const k = keysOf(this.ref);
    await this.redis.hset(k.meta, {
      holder: holderOf(this.runDir),
      host: os.hostname(),
      runDir: this.runDir,
      worker: this.worker,
      ended: '',
    });
    const tick = () => {
      this.syncing = this.syncing
        .then(() => this.sync())
        .then(
          () => {
            this.failed = false;
          },
          (err: Error) => {
            // Redis away, a file being replaced: the next tick tries again; said once per failure spell.
            if (!this.failed) this.report(`night checkpoint of ${this.runDir} not updated: ${err.message}`);
            this.failed = true;
          },
        );
      this.timer = setTimeout(tick, intervalMs);
      this.timer.unref();
    };
    tick();
  }

  /** A last sync, and how this machine's attempt ended (a resume elsewhere reads it). */
  async stop(ended: 'finished' | 'paused' | 'failed', waitMs = 5_000): Promise<void> {
    clearTimeout(this.timer);
    const k = keysOf(this.ref);
    const last = this.syncing
      .then(() => this.sync())
      .then(async () => {
        await this.redis.hset(k.meta, 'ended', ended);
        if (ended === 'finished')
          await Promise.all([k.meta, k.files, k.journal, k.bots].map((key) => this.redis.expire(key, FINISHED_TTL_S)));
      });
    await Promise.race([last.catch(() => {}), new Promise((r) => setTimeout(r, waitMs).unref())]);
  }

  /** Uploads what is new: strategies, the journal's new whole lines (their replays first), small files. */
  async sync(): Promise<void> {
    const k = keysOf(this.ref);
    for (const rel of [
      RUN_FILES.format,
      RUN_FILES.runId,
      RUN_FILES.journalKey,
      RUN_FILES.rules,
      ...(await this.trackFiles(RUN_FILES.autoReps)),
    ])
      await this.sendFile(k.files, rel);
    for (const bot of await this.strategies()) {
      if (this.bots.has(bot)) continue;
      const record = await fs.readFile(path.join(this.runDir, `${bot}.strategy.json`), 'utf8').catch(() => '');
      if (!isJson(record)) continue; // being written
      await this.redis.hset(k.bots, bot, await this.artifacts.put(path.join(this.runDir, bot)));
      await this.sendFile(k.files, `${bot}.build.log`);
      await this.redis.hset(k.files, `${bot}.strategy.json`, record);
      this.bots.add(bot);
    }
    await this.sendJournal(k);
    await this.redis
      .multi()
      .expire(k.meta, CHECKPOINT_TTL_S)
      .expire(k.files, CHECKPOINT_TTL_S)
      .expire(k.journal, CHECKPOINT_TTL_S)
      .expire(k.bots, CHECKPOINT_TTL_S)
      .exec();
  }

  /** The journal's whole new lines, after each one's replay (written before its line: RunDir.recordGame). */
  private async sendJournal(k: ReturnType<typeof keysOf>): Promise<void> {
    const file = path.join(this.runDir, RUN_FILES.journal);
    const size = (await fs.stat(file).catch(() => null))?.size ?? 0;
    if (size < this.journalBytes) {
      // Rewritten (a torn last line cut when the journal was opened): sent again from the start.
      await this.redis.del(k.journal);
      this.journalBytes = 0;
    }
    if (size === this.journalBytes) return;
    const handle = await fs.open(file, 'r');
    let text: string;
    try {
      const buffer = Buffer.alloc(size - this.journalBytes);
      await handle.read(buffer, 0, buffer.length, this.journalBytes);
      text = buffer.toString('utf8', 0, buffer.lastIndexOf(0x0a) + 1);
    } finally {
      await handle.close();
    }
    if (!text) return;
    for (const line of text.split('\n').filter(Boolean)) {
      const id = (JSON.parse(line) as { id: string }).id;
      await this.sendFile(k.files, `${RUN_DIRS.replays}/${id}.json.gz`);
    }
    await this.redis.append(k.journal, text);
    this.journalBytes += Buffer.byteLength(text);
  }

  private async sendFile(key: string, rel: string): Promise<void> {
    const file = path.join(this.runDir, rel);
    const stat = await fs.stat(file).catch(() => null);
    if (!stat || this.sent.get(rel) === stat.mtimeMs) return;
    await this.redis.hset(key, rel, await fs.readFile(file));
    this.sent.set(rel, stat.mtimeMs);
  }

  private async trackFiles(name: string): Promise<string[]> {
    const tracks = await fs.readdir(path.join(this.runDir, RUN_DIRS.tracks)).catch(() => [] as string[]);
    return tracks.map((t) => `${RUN_DIRS.tracks}/${t}/${name}`);
  }

  /** Strategy folders with a record (run-relative). */
  private async strategies(): Promise<string[]> {
    const out: string[] = [];
    for (const track of await fs.readdir(path.join(this.runDir, RUN_DIRS.tracks)).catch(() => [] as string[]))
      for (const round of await fs
        .readdir(path.join(this.runDir, RUN_DIRS.tracks, track))
        .catch(() => [] as string[])) {
        if (!isRoundDirName(round)) continue;
        const dir = `${RUN_DIRS.tracks}/${track}/${round}/${RUN_DIRS.strategies}`;
        for (const f of await fs.readdir(path.join(this.runDir, dir)).catch(() => [] as string[]))
          if (f.endsWith('.strategy.json')) out.push(`${dir}/${f.slice(0, -'.strategy.json'.length)}`);
      }
    return out;
  }
}

const isJson = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

export interface Restored {
  /** The folder (host:path) the night was running in, that folder's path there, and its worker. */
  from: string;
  runDir: string;
  worker: string;
  /** Games in the journal restored. */
  games: number;
  /** The earlier attempt ended without saying so: its worker was killed or lost. */
  killed: boolean;
}

/**
 * Restores a night's checkpoint into `runDir` when it was last running in another folder (another
 * machine, or another runs folder); undefined when there is none, or it was this folder's. A
 * folder of the same night already here (it ran here before it moved) is set aside first.
 */
export async function restoreNight(redis: Redis, ref: NightRef, runDir: string): Promise<Restored | undefined> {
  const k = keysOf(ref);
  const meta = await redis.hgetall(k.meta);
  if (!meta.holder || meta.holder === holderOf(runDir)) return undefined;
  if (await pathExists(runDir)) await fs.rename(runDir, `${runDir}.superseded-${Date.now()}`);
  const root = path.resolve(runDir);
  await fs.mkdir(root, { recursive: true });
  const files = await redis.hgetallBuffer(k.files);
  const bots = await redis.hgetall(k.bots);
  // Every path first: a forged one refuses the whole checkpoint before anything is written.
  for (const rel of Object.keys(files)) inside(root, rel, FILE_PATH);
  for (const rel of Object.keys(bots)) inside(root, rel, BOT_PATH);
  const cache = path.join(root, '.restore');
  const store = new ArtifactStore(redis);
  for (const [rel, hash] of Object.entries(bots)) {
    const target = inside(root, rel, BOT_PATH);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(await store.fetch(hash, cache), target);
  }
  await fs.rm(cache, { recursive: true, force: true });
  for (const [rel, data] of Object.entries(files)) {
    const target = inside(root, rel, FILE_PATH);
    await fs.mkdir(path.dirname(target), { recursive: true });
    if (rel.endsWith('.strategy.json')) {
      // Its folder is here now (the record names where it lives).
      const record = { ...JSON.parse(data.toString('utf8')), dir: target.slice(0, -'.strategy.json'.length) };
      await fs.writeFile(target, `${JSON.stringify(record, null, 2)}\n`);
    } else await fs.writeFile(target, data, rel === RUN_FILES.journalKey ? { mode: 0o600 } : {});
  }
  const journal = (await redis.getBuffer(k.journal)) ?? Buffer.alloc(0);
  await fs.writeFile(path.join(root, RUN_FILES.journal), journal);
  const from = meta.holder;
  await redis.hset(MOVED_KEY, from, JSON.stringify({ to: holderOf(runDir), at: new Date().toISOString() }));
  return {
    from,
    runDir: meta.runDir ?? from,
    worker: meta.worker ?? '?',
    games: journal.toString('utf8').split('\n').filter(Boolean).length,
    killed: !meta.ended,
  };
}

/**
 * Marks the folders this machine left behind as `moved` (status.json), with where the night
 * continued, unless their process still runs. Called by workers as they start and now and then.
 */
export async function markMovedRuns(redis: Redis, report: (message: string) => void): Promise<void> {
  const host = `${os.hostname()}:`;
  for (const [from, value] of Object.entries(await redis.hgetall(MOVED_KEY))) {
    if (!from.startsWith(host)) continue;
    const dir = from.slice(host.length);
    const file = path.join(dir, RUN_FILES.status);
    const status = JSON.parse(await fs.readFile(file, 'utf8').catch(() => 'null')) as RunStatus | null;
    // Only a scheduled night's folder (<schedule>-<yyyymmdd>-<hhmmss>, a tourney's status): an entry
    // naming any other folder (a forged one) changes nothing.
    if (!path.isAbsolute(dir) || !NIGHT_FOLDER.test(path.basename(dir)) || (status && status.kind !== 'tourney')) {
      await redis.hdel(MOVED_KEY, from);
      continue;
    }
    if (status?.state === 'running' && !isProcessGone(status.pid) && startTimeOf(status.pid) === status.pidStart)
      continue; // still running here: marked once it stops
    const { to } = JSON.parse(value) as { to: string };
    if (status && status.state !== 'moved') {
      const moved: RunStatus = {
        ...status,
        state: 'moved',
        movedTo: to,
        updatedAt: new Date().toISOString(),
        message: `this night continued in ${to} (resumed from this folder's journal there); ${status.state === 'running' ? 'its process here was killed' : `it was ${status.state} here`}`,
      };
      await writeFileAtomic(file, `${JSON.stringify(moved, null, 2)}\n`);
      report(`${dir}: marked moved; the night continued in ${to}`);
    }
    await redis.hdel(MOVED_KEY, from);
  }
}

/** How often a running night's checkpoint is brought up to date. */
export const CHECKPOINT_EVERY_MS = 2_000;

export interface OpenedCheckpoint {
  /** Set when the night was restored from another folder's checkpoint. */
  resumed?: Restored;
  /** Ends the checkpoint: a last sync, how this attempt ended, and the connection closed. */
  stop(ended: 'finished' | 'paused' | 'failed'): Promise<void>;
}

/** Restores a night that ran elsewhere (see restoreNight), then checkpoints this folder as it runs. */
export async function openNightCheckpoint(
  redis: Redis,
  ref: NightRef,
  runDir: string,
  worker: string,
  report: (message: string) => void,
  everyMs = CHECKPOINT_EVERY_MS,
): Promise<OpenedCheckpoint> {
  const resumed = await restoreNight(redis, ref, runDir);
  const checkpoint = new NightCheckpoint(redis, ref, runDir, worker, report);
  await checkpoint.start(everyMs);
  return { ...(resumed ? { resumed } : {}), stop: (ended) => checkpoint.stop(ended) };
}

/**
 * What runScheduledTourney calls around a night: restores it when it ran in another folder
 * (recording the earlier attempt as killed when its worker ended without saying so), checkpoints
 * it while it runs, and returns the fields of its `started` record.
 */
export async function holdNight(
  url: string,
  night: NightRef & { runDir: string },
  options: {
    worker: string;
    report: (message: string) => void;
    /** The schedule's alert hooks: fired when the earlier attempt is found killed. */
    hooks?: NightHooks;
    /** How long Redis may be unreachable as the night starts (default QUEUE_GRACE_MS). */
    graceMs?: number;
  },
): Promise<{ started: Pick<NightRecord, 'resumedFrom' | 'resumedGames'>; stop: OpenedCheckpoint['stop'] }> {
  const { worker, report, hooks, graceMs = QUEUE_GRACE_MS } = options;
  // Redis away for a moment as the night starts is waited for, as the night's own games are.
  const redis = await connectQueue(url, { graceMs, report });
  try {
    const opened = await openNightCheckpoint(redis, night, night.runDir, worker, report);
    const { resumed } = opened;
    if (resumed) {
      report(
        `scheduled tourney "${night.schedule}" resumes here from ${resumed.from} (worker ${resumed.worker}): ${resumed.games} game(s) from its journal`,
      );
      if (resumed.killed) {
        const killed = {
          schedule: night.schedule,
          firedAt: night.firedAt,
          state: 'killed' as const,
          runDir: resumed.runDir,
          worker: resumed.worker,
          reason: `worker ${resumed.worker} stopped without ending the night (killed or lost); it continues in ${holderOf(night.runDir)} from ${resumed.games} journaled game(s)`,
        };
        await recordNight(redis, killed);
        await fireNightAlert({ ...killed, at: new Date().toISOString() }, hooks, { report });
      }
      await markMovedRuns(redis, report); // the folder left behind, when it is on this machine
    }
    return {
      started: resumed ? { resumedFrom: resumed.from, resumedGames: resumed.games } : {},
      stop: async (ended) => {
        await opened.stop(ended);
        redis.disconnect();
      },
    };
  } catch (err) {
    redis.disconnect();
    throw err;
  }
}
