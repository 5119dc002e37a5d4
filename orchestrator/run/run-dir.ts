// The run directory, the source of truth of a run: this module alone knows its paths and file
// formats. A tourney writes
//   format.json (the layout's version, run-format.ts), config.json, rules.json, run-id, journal.jsonl (+ journal.key, its chain's secret, 0600), replays/<match id>.json.gz, bot-logs/<track>/,
//   tracks/<game>-<variant>/round_<n>/{workspaces,strategies,logs}/ (+ W.json, W.csv, metrics.json,
//   evolution.json, similarity.json, strategies/<agent>.diff; auto-reps.json with reps 'auto'),
//   metrics.json, report.md, report.html, replays/replay.html + viewer.js (the one replay page), views.js and
//   view-<track>-<n>.js (the games' viewer data, rebuilt by `catarena report`), store/ (one copy of each file of the
//   finished run's workspaces and round logs, hard-linked where they are; log files of 8 KiB or more
//   compressed, linked as <name>.gz)
//   (+ probe/<game>-<variant>/ from `catarena probe`), and for `catarena serve` status.json (running,
//   finished, interrupted, with the pid) and live.jsonl (games in flight, moves, progress lines)
// With --repeats K: config.json (with repeats: K), repeats/<r>/ (each a run as above, seed + r − 1),
// and combined.json, report.md, report.html over the repeats at the top.
// and an arena or play run journal.jsonl, replays/, logs/, arena.json, results.json and the
// cross-table files; the parent folder keeps index.jsonl, one line per finished tourney.
import fs from 'node:fs/promises';
import { createReadStream, createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import readline from 'node:readline';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { MatchResult, Replay } from '../../records/match.ts';
import { trackName, type AutoRepsLog, type StrategyRecord, type TrackId } from '../../records/tourney.ts';
import { pathExists, writeFileAtomic } from '../../util/fs.ts';
import { readReplayFile, writeReplayFile } from '../../records/replay-files.ts';
import type { TourneyConfig } from '../config/tourney-config.ts';
import { Journal, type JournalOptions } from './journal.ts';
import { keyFileOf } from './journal-chain.ts';
import { dropUnlinked, GZ_EXT, linkIntoStore, type StoreStats } from './file-store.ts';
import type { LiveEvent } from '../../records/live.ts';
import { startTimeOf } from '../../util/procfs.mjs';
import { publicQueueUrl } from '../queue/url.ts';
import { claimRunFormat, FORMAT_FILE } from './run-format.ts';
import { CATARENA_VERSION } from '../../util/version.ts';
import { isRoundDirName, roundDirName, RUN_DIRS, RUN_FILES } from '../../records/run-layout.ts';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const track = (t: TrackId | string) => (typeof t === 'string' ? t : trackName(t));

/** How long live.jsonl lines wait to be written together (the serve page redraws boards every 250 ms). */
const LIVE_FLUSH_MS = 100;

/** The index of finished runs, in the folder that holds the run directories. */
export const INDEX_FILE = RUN_FILES.index;

/** status.json: whether the run's process is running, and how it ended (`catarena serve` reads it). */
export interface RunStatus {
  /** moved: a scheduled night this folder began continued in another folder (`movedTo`), orchestrator/worker/night-checkpoint.ts. */
  state: 'running' | 'finished' | 'interrupted' | 'failed' | 'moved';
  kind: string;
  pid: number;
  /** The process's start time (/proc), so a reused pid is not taken for the run. */
  pidStart: string | null;
  host: string;
  startedAt: string;
  updatedAt: string;
  message?: string;
  /** Where a moved night continued: "host:folder". */
  movedTo?: string;
}

/** orchestrator/progress.ts's Progress (not imported: that folder imports this one). */
interface Progress {
  phase(text: string): void;
  tick(done: number, total: number, note?: string): void;
  done(): void;
}

/** A line of live.jsonl: a game event without the rules' state, or a progress line. */
export type LiveRecord =
  | (LiveEvent extends infer E ? (E extends unknown ? Omit<E, 'state'> : never) : never)
  | { type: 'phase'; text: string; at: string }
  | { type: 'tick'; done: number; total: number; note?: string; at: string };

/** A progress record of live.jsonl as a line of text: the phase, or "done/total games  note". */
export const progressText = (r: Extract<LiveRecord, { type: 'phase' | 'tick' }>): string =>
  r.type === 'phase' ? r.text : `${r.done}/${r.total} games${r.note ? `  ${r.note}` : ''}`;

export class RunDir {
  readonly root: string;
  private journal?: Promise<Journal>;
  private live?: WriteStream;
  /** live.jsonl lines not yet written: written together every LIVE_FLUSH_MS, not one write per move. */
  private livePending: string[] = [];
  private liveTimer?: NodeJS.Timeout;
  private startedAt?: string;
  /** The store pass in progress (storing()). */
  private storeQueue: Promise<unknown> = Promise.resolve();

  /** `journal`: how its journal is opened (`acceptTampered`: `--accept-tampered`; by default a broken chain is refused). */
  constructor(
    root: string,
    private readonly options: { journal?: JournalOptions } = {},
  ) {
    this.root = path.resolve(root);
  }

  /** index.jsonl beside this run directory. */
  get indexFile(): string {
    return path.join(path.dirname(this.root), INDEX_FILE);
  }

  get configFile(): string {
    return path.join(this.root, RUN_FILES.config);
  }

  get reportFile(): string {
    return path.join(this.root, RUN_FILES.reportMd);
  }

  /** report.html, the same report as one self-contained page with charts and replay links. */
  get reportHtmlFile(): string {
    return path.join(this.root, RUN_FILES.reportHtml);
  }

  /** With --repeats: repeat r's sub-run, laid out exactly like a single run (repeats/<r>/). */
  repeatDir(r: number): string {
    return path.join(this.root, RUN_DIRS.repeats, String(r));
  }

  /** The combined report's numbers over repeats (combined.json; `--repeats`, `catarena combine`). */
  get combinedFile(): string {
    return path.join(this.root, RUN_FILES.combined);
  }

  /** Whether the run's summary (metrics.json) has been written: its last step finished. */
  hasSummary(): Promise<boolean> {
    return pathExists(path.join(this.root, RUN_FILES.metrics));
  }

  /** The summary a finished run wrote (metrics.json). */
  async readSummary<T>(): Promise<T> {
    return JSON.parse(await fs.readFile(path.join(this.root, RUN_FILES.metrics), 'utf8')) as T;
  }

  /** The combined report over repeats: combined.json, report.md and report.html at the top. */
  async writeCombined(combined: unknown, markdown: string, html: string): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    await fs.writeFile(this.combinedFile, json(combined));
    await fs.writeFile(this.reportFile, markdown);
    await fs.writeFile(this.reportHtmlFile, html);
  }

  get replaysDir(): string {
    return path.join(this.root, RUN_DIRS.replays);
  }

  trackDir(t: TrackId | string): string {
    return path.join(this.root, RUN_DIRS.tracks, track(t));
  }

  roundDir(t: TrackId | string, round: number): string {
    return path.join(this.trackDir(t), roundDirName(round));
  }

  /** What the agent saw while developing its round-n strategy. */
  workspaceDir(t: TrackId | string, round: number, agent: string): string {
    return path.join(this.roundDir(t, round), RUN_DIRS.workspaces, agent);
  }

  /** The strategy as played; its record and build log sit beside it. */
  strategyDir(t: TrackId | string, round: number, agent: string): string {
    return path.join(this.roundDir(t, round), RUN_DIRS.strategies, agent);
  }

  /** Round n's logs: CATArena's report files and round_report.json, for round n+1's agents. */
  logsDir(t: TrackId | string, round: number): string {
    return path.join(this.roundDir(t, round), RUN_DIRS.logs);
  }

  /** With opponentCode hidden: round n's logs of one agent's games only, for its round n+1 workspace. */
  ownLogsDir(t: TrackId | string, round: number, agent: string): string {
    return path.join(this.roundDir(t, round), RUN_DIRS.ownLogs, agent);
  }

  /**
   * Whether round n's logs are complete: round_report.json is written last, by rename, and a
   * finished run may keep it compressed. A resume does not write them again (under new names: the
   * CATArena files carry the time they were written).
   */
  async roundLogsWritten(t: TrackId | string, round: number, agent?: string): Promise<boolean> {
    const dir = agent === undefined ? this.logsDir(t, round) : this.ownLogsDir(t, round, agent);
    const file = path.join(dir, RUN_FILES.roundReport);
    return (await pathExists(file)) || pathExists(`${file}${GZ_EXT}`);
  }

  /** Captured output of the bots of a track (tourney), or of every bot (arena: `logs/`). */
  botLogsDir(t?: TrackId | string): string {
    return t === undefined ? path.join(this.root, RUN_DIRS.logs) : path.join(this.root, RUN_DIRS.botLogs, track(t));
  }

  /** `catarena probe`'s outputs (probe/), or one track's (probe/<game>-<variant>/: consistency.json|.csv|.svg, actions.json). */
  probeDir(t?: TrackId | string): string {
    return t === undefined ? path.join(this.root, RUN_DIRS.probe) : path.join(this.root, RUN_DIRS.probe, track(t));
  }

  // ------------------------------------------------------------------------------------------
  // The journal and replays

  /** The journal, opened once per RunDir; a broken chain is refused (JournalTamperedError) unless accepted. */
  openJournal(): Promise<Journal> {
    this.journal ??= fs
      .mkdir(this.root, { recursive: true })
      .then(async () => {
        await claimRunFormat(this.root, CATARENA_VERSION, await pathExists(this.journalFile));
      })
      .then(() => Journal.open(this.journalFile, this.options.journal));
    return this.journal;
  }

  get journalFile(): string {
    return path.join(this.root, RUN_FILES.journal);
  }

  /** journal.key: the run's secret that chains the journal's lines (mode 0600; bots never see the run directory). */
  get journalKeyFile(): string {
    return keyFileOf(this.journalFile);
  }

  /** Whether the directory has a journal (a run of some kind has been here). */
  hasJournal(): Promise<boolean> {
    return pathExists(this.journalFile);
  }

  /** A finished game: its replay first, then its journal line (the journal only names games whose replay exists). */
  async recordGame(replay: Replay): Promise<void> {
    await this.writeReplay(replay);
    await (await this.openJournal()).append(replay.result);
  }

  /** A result copied from an earlier run (`--reuse`): its replay, marked, then its journal line. */
  async recordReused(result: MatchResult, replay: Replay): Promise<void> {
    await this.writeReplay({ ...replay, result });
    await (await this.openJournal()).append(result);
  }

  /** A game's replay: replays/<id>.json.gz, or replays/<id>.json in a run written before replays were compressed. */
  readReplay(matchId: string): Promise<Replay> {
    return readReplayFile(this.replaysDir, matchId);
  }

  private async writeReplay(replay: Replay): Promise<void> {
    mkdirSync(this.replaysDir, { recursive: true }); // once per game: no hop to libuv's pool (records/replay-files.ts)
    await writeReplayFile(this.replaysDir, replay);
  }

  /** The content-addressed store of a finished run's workspaces and round logs (orchestrator/run/file-store.ts). */
  get storeDir(): string {
    return path.join(this.root, RUN_DIRS.store);
  }

  /** The folders a finished run keeps in its store: every track's (or one track's) round workspaces and round logs. */
  async storedDirs(track?: string): Promise<string[]> {
    const out: string[] = [];
    const tracks = track
      ? [track]
      : await fs.readdir(path.join(this.root, RUN_DIRS.tracks)).catch(() => [] as string[]);
    for (const t of tracks) {
      for (const round of (await fs.readdir(this.trackDir(t)).catch(() => [] as string[])).filter(isRoundDirName)) {
        out.push(
          ...[RUN_DIRS.workspaces, RUN_DIRS.logs, RUN_DIRS.ownLogs].map((dir) =>
            path.join(this.trackDir(t), round, dir),
          ), // own-logs: opponentCode hidden
        );
      }
    }
    return out;
  }

  /**
   * Once the run is over (no agent develops in its workspaces any more): one copy of each distinct
   * file of its workspaces and round logs, hard-linked from where it was, the larger log files
   * (round logs and the workspaces' copies of them) compressed (<name>.gz), and store files nothing
   * links to any more (a resume rewrote their logs) removed. Safe to repeat: files a finished
   * track's pass linked (linkTrackFiles) are only looked at again.
   */
  linkFinishedFiles(options: { dryRun?: boolean } = {}): Promise<StoreStats & { unlinkedFreed: number }> {
    return this.storing(async () => {
      const stats = await linkIntoStore(this.storeDir, await this.storedDirs(), {
        ...options,
        compress: (file) => this.isLogFile(file),
      });
      return { ...stats, unlinkedFreed: await dropUnlinked(this.storeDir, options) };
    });
  }

  /**
   * A finished track's workspaces and round logs into the store, as linkFinishedFiles does for the
   * whole run, while the other tracks still play (nothing writes a finished track's folders): the
   * end of the run then only looks them over.
   */
  linkTrackFiles(track: string): Promise<StoreStats> {
    return this.storing(async () =>
      linkIntoStore(this.storeDir, await this.storedDirs(track), { compress: (file) => this.isLogFile(file) }),
    );
  }

  /** One pass over the store at a time: two tracks may hold the same file, and one store file is made for both. */
  private storing<T>(pass: () => Promise<T>): Promise<T> {
    const run = this.storeQueue.then(pass);
    this.storeQueue = run.catch(() => {});
    return run;
  }

  /** A file of a round's logs (or an agent's own-logs), or of a workspace's copy of them (round_<n>/workspaces/<agent>/logs/). */
  isLogFile(file: string): boolean {
    const rel = path.relative(this.root, file).split(path.sep);
    const round = rel.findIndex(isRoundDirName);
    if (round < 0 || rel[0] !== RUN_DIRS.tracks) return false;
    const inRound = rel.slice(round + 1);
    return (
      inRound[0] === RUN_DIRS.logs ||
      inRound[0] === RUN_DIRS.ownLogs ||
      (inRound[0] === RUN_DIRS.workspaces && inRound[2] === RUN_DIRS.logs)
    );
  }

  // ------------------------------------------------------------------------------------------
  // Live view: status.json and live.jsonl, written for `catarena serve`, never read back by the run

  get statusFile(): string {
    return path.join(this.root, RUN_FILES.status);
  }

  /** live.jsonl: games started, moves, games ended, and the run's progress lines, appended as they happen. */
  get liveFile(): string {
    return path.join(this.root, RUN_FILES.live);
  }

  /**
   * Refuses to play a `play`/`arena` run here unless the folder is new, empty, or this game's
   * play/arena run (a resume): a folder of someone's files, `/` or $HOME would otherwise get
   * journal.jsonl, results.json, crosstable.* and status.json written over or appended to.
   * Nothing is written before the check.
   */
  async checkArenaRunDir(game: string, variant: string): Promise<void> {
    // Whatever lies there: a run in / or the home folder would mix its files with everything else.
    const real = path.resolve(this.root);
    if (real === path.parse(real).root || real === path.resolve(os.homedir()))
      throw new Error(
        `--run-dir ${this.root} is ${real === path.parse(real).root ? 'the root folder' : 'your home folder'}: give a folder of its own, or leave --run-dir out`,
      );
    let entries: string[];
    try {
      if (!(await fs.stat(this.root)).isDirectory())
        throw new Error(`--run-dir ${this.root} is a file; give a new or empty folder (or leave --run-dir out)`);
      entries = await fs.readdir(this.root);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    if (!entries.length) return;
    const readJson = async (name: string): Promise<Record<string, unknown> | null> => {
      try {
        const value: unknown = JSON.parse(await fs.readFile(path.join(this.root, name), 'utf8'));
        return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
      } catch {
        return null;
      }
    };
    const [arena, status] = [await readJson(RUN_FILES.arena), await readJson(RUN_FILES.status)];
    if (entries.includes(RUN_FILES.config) || status?.kind === 'tourney')
      throw new Error(
        `--run-dir ${this.root} is a "catarena tourney" run, not a play/arena run; nothing was written. Resume it with: catarena resume ${this.root}`,
      );
    const isArena =
      (arena && typeof arena.game === 'string' && Array.isArray(arena.bots)) ||
      status?.kind === 'arena' ||
      entries.every((e) => e === FORMAT_FILE); // a run stopped before its first file
    if (!isArena) {
      const some = entries.slice(0, 3).join(', ');
      throw new Error(
        `--run-dir ${this.root} is not a catarena run: it holds ${entries.length} other file(s) (${some}${entries.length > 3 ? ', …' : ''}), and nothing was written there. Give a new or empty folder, or leave --run-dir out for a new run under --out`,
      );
    }
    // Another rule set of the same game may join (each game's spec is in the journal: export
    // --pgn reads both chess variants of one run); another game may not.
    if (arena && arena.game !== game)
      throw new Error(
        `--run-dir ${this.root} is a ${String(arena.game)}/${String(arena.variant)} run; this is ${game}/${variant}. Resume it with the same game, or give a new folder`,
      );
  }

  /** Records that this process runs the run (`running`), or how it ended. */
  async markStatus(state: RunStatus['state'], kind: string, message?: string): Promise<void> {
    const now = new Date().toISOString();
    this.startedAt ??= now;
    const status: RunStatus = {
      state,
      kind,
      pid: process.pid,
      pidStart: startTimeOf(process.pid),
      host: os.hostname(),
      startedAt: this.startedAt,
      updatedAt: now,
      ...(message ? { message } : {}),
    };
    await fs.mkdir(this.root, { recursive: true });
    if (state !== 'running' && this.live && !this.live.writableEnded) {
      this.flushLive();
      await new Promise<void>((resolve) => this.live!.end(resolve));
    }
    if (state === 'finished' && kind === 'tourney') await compactLiveFile(this.liveFile); // a play/arena run keeps its few games' lines
    await writeFileAtomic(this.statusFile, json(status));
  }

  /** Appends one line to live.jsonl (the rules' state, in-process only, is left out). */
  readonly appendLive = (record: LiveEvent | LiveRecord): void => {
    if (record.type === 'turn') return; // who is asked shows in-process (a human seat's page); the file keeps what happened
    if (!this.live) {
      ensureDir(this.root);
      this.live = createWriteStream(this.liveFile, { flags: 'a' });
      this.live.on('error', () => {}); // the live view is best effort: it never stops a run
    }
    if (this.live.writableEnded) return;
    const { state: _state, ...line } = record as LiveEvent & { state?: unknown };
    this.livePending.push(`${JSON.stringify(line)}\n`);
    this.liveTimer ??= setTimeout(() => this.flushLive(), LIVE_FLUSH_MS).unref();
  };

  private flushLive(): void {
    clearTimeout(this.liveTimer);
    this.liveTimer = undefined;
    if (!this.livePending.length || !this.live || this.live.writableEnded) return;
    this.live.write(this.livePending.join(''));
    this.livePending = [];
  }

  /** `progress` that also appends its phase and tick lines to live.jsonl. */
  teeProgress(progress?: Progress): Progress {
    const at = () => new Date().toISOString();
    return {
      phase: (text) => {
        this.appendLive({ type: 'phase', text, at: at() });
        progress?.phase(text);
      },
      tick: (done, total, note) => {
        this.appendLive({ type: 'tick', done, total, ...(note ? { note } : {}), at: at() });
        progress?.tick(done, total, note);
      },
      done: () => progress?.done(),
    };
  }

  // ------------------------------------------------------------------------------------------
  // Tourney config and strategies

  /** Writes config.json; a queue URL's password is left out (a resume takes it from CATARENA_REDIS_PASSWORD or --queue). */
  async writeConfig(config: TourneyConfig): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    await fs.writeFile(
      this.configFile,
      json(config.queue ? { ...config, queue: publicQueueUrl(config.queue) } : config),
    );
  }

  /**
   * Records the rules each game is played under (rules.json: games/registry.ts rulesLabel) when a
   * run starts, and on a resume refuses to go on under other rules: its finished games would mix
   * with games whose same moves may end otherwise. A run started before rules were recorded played
   * every game under "v1". A run with no finished game yet simply takes the new rules.
   */
  async pinRules(rules: Record<string, string>): Promise<void> {
    const file = path.join(this.root, RUN_FILES.rules);
    const started = await pathExists(this.configFile);
    const played = started && (await this.hasJournal()) && (await this.openJournal()).results().length > 0;
    if (played) {
      const before: Record<string, string> = (await pathExists(file))
        ? JSON.parse(await fs.readFile(file, 'utf8'))
        : Object.fromEntries(Object.keys(rules).map((g) => [g, 'v1']));
      const changed = Object.keys(rules).filter((g) => before[g] !== undefined && before[g] !== rules[g]);
      if (changed.length) {
        const what = changed.map((g) => `${g} ${before[g]} → ${rules[g]}`).join(', ');
        throw new Error(
          `${this.root} was started under other rules than this catarena plays (${what}; docs/catarena-compat.md §15): resuming would mix games played under both in one W. Start a new run instead (catarena tourney with the same config; --reuse will not copy games played under other rules).`,
        );
      }
      if (!Object.keys(rules).some((g) => before[g] === undefined)) return;
      rules = { ...before, ...rules };
    }
    await fs.mkdir(this.root, { recursive: true });
    await fs.writeFile(file, json(rules));
  }

  /** The stored tourney config; a play/arena run or a stray folder gets an error that says what it is. */
  async readConfig(): Promise<TourneyConfig> {
    let text: string;
    try {
      text = await fs.readFile(this.configFile, 'utf8');
    } catch {
      throw new Error(
        (await this.hasJournal())
          ? `${this.root} is a "catarena play" or "arena" run (a journal but no config.json); resume it by running the same command again with --run-dir ${this.root}`
          : `${this.root} is not a tournament run directory (no config.json)`,
      );
    }
    // The schema (zod, ~0.15 s of CPU to load) only when a tourney's config is read: play and arena runs never do.
    const { TourneyConfigSchema } = await import('../config/tourney-config.ts');
    return TourneyConfigSchema.parse(JSON.parse(text));
  }

  /** When the run started (its config was written). */
  async createdAt(): Promise<string> {
    return (await fs.stat(this.configFile)).birthtime.toISOString();
  }

  /** Every strategy record of a track, by round then agent. */
  async strategies(t: TrackId | string): Promise<StrategyRecord[]> {
    const out: StrategyRecord[] = [];
    const rounds = await fs.readdir(this.trackDir(t)).catch(() => [] as string[]);
    for (const round of rounds.filter(isRoundDirName)) {
      const dir = path.join(this.trackDir(t), round, RUN_DIRS.strategies);
      for (const file of (await fs.readdir(dir).catch(() => [] as string[])).filter((f) =>
        f.endsWith('.strategy.json'),
      )) {
        const record = await loadStrategyRecord(path.join(dir, file.replace(/\.strategy\.json$/, '')));
        if (record) out.push(record);
      }
    }
    return out.sort((a, b) => a.round - b.round || a.agent.localeCompare(b.agent));
  }

  /**
   * The run's identity for queue job ids: its directory's name plus a random suffix, made once and
   * kept in the run directory, so two runs in folders of the same name never share a job.
   */
  async identity(): Promise<string> {
    const file = path.join(this.root, RUN_FILES.runId);
    try {
      return (await fs.readFile(file, 'utf8')).trim();
    } catch {
      const id = `${path.basename(this.root)}-${randomBytes(4).toString('hex')}`;
      await fs.mkdir(this.root, { recursive: true });
      await fs.writeFile(file, `${id}\n`);
      return id;
    }
  }

  // ------------------------------------------------------------------------------------------
  // Outputs

  /** A track's W (JSON and CSV) and metrics. */
  async writeTrackOutputs(t: TrackId | string, outputs: { W: unknown; csv: string; metrics: unknown }): Promise<void> {
    const dir = this.trackDir(t);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, RUN_FILES.W), json(outputs.W));
    await fs.writeFile(path.join(dir, RUN_FILES.WCsv), outputs.csv);
    await fs.writeFile(path.join(dir, RUN_FILES.metrics), json(outputs.metrics));
  }

  /**
   * The track's strategy evolution (reports/evolution/): evolution.json (per agent and round: diff
   * summary, ΔG, profile, what the agent looked at), similarity.json (the similarity matrices per
   * round and the flags), and each strategy's full diff from its previous round beside its record
   * (round_<n>/strategies/<agent>.diff).
   */
  async writeEvolution(
    t: TrackId | string,
    outputs: { evolution: unknown; similarity: unknown; diffs: Array<{ round: number; agent: string; text: string }> },
  ): Promise<void> {
    const dir = this.trackDir(t);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, RUN_FILES.evolution), json(outputs.evolution));
    await fs.writeFile(path.join(dir, RUN_FILES.similarity), json(outputs.similarity));
    for (const d of outputs.diffs) await fs.writeFile(this.strategyDiffFile(t, d.round, d.agent), d.text);
  }

  /** A strategy's unified diff from the same agent's previous-round strategy. */
  strategyDiffFile(t: TrackId | string, round: number, agent: string): string {
    return `${this.strategyDir(t, round, agent)}.diff`;
  }

  /** With reps 'auto': the track's batches and why they stopped (tracks/<track>/auto-reps.json). */
  async writeAutoReps(t: TrackId | string, log: AutoRepsLog): Promise<void> {
    await fs.mkdir(this.trackDir(t), { recursive: true });
    await fs.writeFile(path.join(this.trackDir(t), RUN_FILES.autoReps), json(log));
  }

  async readAutoReps(t: TrackId | string): Promise<AutoRepsLog | undefined> {
    try {
      return JSON.parse(await fs.readFile(path.join(this.trackDir(t), RUN_FILES.autoReps), 'utf8')) as AutoRepsLog;
    } catch {
      return undefined;
    }
  }

  /** The run's summary (metrics.json) and its Markdown report. */
  async writeSummary(summary: unknown, markdown: string): Promise<void> {
    await fs.writeFile(path.join(this.root, RUN_FILES.metrics), json(summary));
    await fs.writeFile(this.reportFile, markdown);
  }

  async writeReportHtml(html: string): Promise<void> {
    await fs.writeFile(this.reportHtmlFile, html);
  }

  /** A play/arena run's settings, results and cross-table. */
  async writeArenaFile(
    name: typeof RUN_FILES.arena | typeof RUN_FILES.results | typeof RUN_FILES.rate,
    value: unknown,
  ): Promise<void> {
    await fs.mkdir(this.root, { recursive: true });
    await fs.writeFile(path.join(this.root, name), json(value));
  }

  async writeText(name: typeof RUN_FILES.crosstableCsv | typeof RUN_FILES.crosstableTxt, text: string): Promise<void> {
    await fs.writeFile(path.join(this.root, name), text);
  }
}

/**
 * A finished run's live.jsonl keeps its progress lines only: its games' start, move and end lines
 * were for the games in flight, and every finished game is in the journal and its replay. Read
 * and written as streams, so a paper-scale file never sits in memory. Returns the bytes freed
 * (with dryRun: that would be).
 */
export async function compactLiveFile(file: string, options: { dryRun?: boolean } = {}): Promise<number> {
  const before = await fs.stat(file).catch(() => null);
  if (!before) return 0;
  const tmp = `${file}.tmp`;
  const out = options.dryRun ? null : createWriteStream(tmp);
  let kept = 0;
  const lines = readline.createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    // Progress lines start {"type":"phase" or {"type":"tick" (JSON.stringify's key order); a torn line is dropped.
    if (!(line.startsWith('{"type":"phase"') || line.startsWith('{"type":"tick"')) || !line.endsWith('}')) continue;
    kept += Buffer.byteLength(line) + 1;
    if (out && !out.write(`${line}\n`)) await once(out, 'drain');
  }
  if (!out) return before.size - kept;
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  await fs.rename(tmp, file);
  return before.size - kept;
}

function ensureDir(dir: string): void {
  // A synchronous mkdir once per run, before the first live line: the stream opens at once.
  mkdirSync(dir, { recursive: true });
}

// ------------------------------------------------------------------------------------------------
// Strategy records: <strategy dir>.strategy.json and <strategy dir>.build.log beside the bot folder

export async function saveStrategyRecord(record: StrategyRecord): Promise<void> {
  await fs.writeFile(`${record.dir}.strategy.json`, json(record));
  await fs.writeFile(`${record.dir}.build.log`, record.buildLog);
}

export async function loadStrategyRecord(strategyDir: string): Promise<StrategyRecord | null> {
  try {
    return JSON.parse(await fs.readFile(`${strategyDir}.strategy.json`, 'utf8')) as StrategyRecord;
  } catch {
    return null;
  }
}
