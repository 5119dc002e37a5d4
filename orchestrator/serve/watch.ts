// Follows one run directory for `catarena serve`'s live page, reading and never writing: the
// journal and live.jsonl are tailed (fs.watch, and a check every second in case a change is
// missed) from the last offset read, so a game's end reaches the page as its journal line is
// written. Games in flight are rebuilt from live.jsonl's start / move / end lines; their boards
// (the game's replay viewer data) are sent at most every BOARD_MS per game, each drawn from the
// view the spectator setting and the run's human seats allow (spectator.ts): what that view may
// not see is never in a message.
import fs from 'node:fs';
import path from 'node:path';
import type { MatchResult } from '../../records/match.ts';
import { progressText, type LiveRecord, type RunStatus } from '../run/run-dir.ts';
import { liveViewerData, type LiveGameView } from '../../reports/html/live-viewer.ts';
import { agentRows, journalCheck, runLinks, runState, type AgentRow } from './runs.ts';
import { boardPerspective, pageSpec, runHumans, spectatorFor, spectatorNote, type Spectator } from './spectator.ts';
import { ChainVerifier, readKeySync } from '../run/journal-chain.ts';
import type { JournalIntegrity } from '../../records/journal-integrity.ts';
import { RUN_FILES } from '../../records/run-layout.ts';
import { viewerModuleOf } from '../../reports/html/replay-page.ts';

/** The most boards in flight a page is sent (the rest are counted). */
export const MAX_BOARDS = 6;
/**
 * A game's board is sent at most this often while it is played, and never more often than
 * BOARD_COST times the time its last board took to compute: a long game (a Hold'em table round of
 * thousands of moves) is redrawn less often, so one watcher costs the server little CPU.
 */
export const BOARD_MS = 250;
export const BOARD_COST = 40;
/** A page is never more than this behind a game that waits (a person thinking), however dear its board. */
export const BOARD_MAX_MS = 5_000;
/** Agents are looked up every AGENT_EVERY seconds (a scan of the tracks' folders). */
const AGENT_EVERY = 3;

/** What following runs has cost this process (GET /api/stats; the benchmark reads it). */
export const watchStats = { boards: 0, boardMs: 0, agentScans: 0, agentScanMs: 0, lines: 0 };

/** How many agents the run's config names (each develops one strategy per track and round). */
function readAgentCount(dir: string): number | undefined {
  try {
    const config = JSON.parse(fs.readFileSync(path.join(dir, RUN_FILES.config), 'utf8')) as { agents?: unknown[] };
    return Array.isArray(config.agents) ? config.agents.length : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Appended lines of a file that only grows (a torn last line waits for its end). A file replaced
 * (another inode, as a rename writes it, or shorter than what was read) is read again from its
 * first line, and those lines come with `reset` true (even none: the file may be empty now).
 */
export class FileTail {
  private offset = 0;
  private partial = '';
  private ino = -1;
  private watcher?: fs.FSWatcher;

  constructor(
    readonly file: string,
    private readonly onLines: (lines: string[], reset: boolean) => void,
  ) {}

  /** Reads what was appended since the last read. */
  poll(): void {
    let fd: number;
    try {
      fd = fs.openSync(this.file, 'r');
    } catch {
      return;
    }
    try {
      const st = fs.fstatSync(fd);
      const reset = (this.ino !== -1 && st.ino !== this.ino) || st.size < this.offset;
      if (reset) {
        this.offset = 0; // replaced: read again
        this.partial = '';
        this.unwatch(); // the watch follows the old inode
      }
      this.ino = st.ino;
      if (!this.watcher) {
        try {
          this.watcher = fs.watch(this.file, () => this.poll());
          this.watcher.on('error', () => this.unwatch());
        } catch {
          // no inotify: the interval reads it
        }
      }
      if (st.size === this.offset) {
        if (reset) this.onLines([], true);
        return;
      }
      const buf = Buffer.alloc(st.size - this.offset);
      fs.readSync(fd, buf, 0, buf.length, this.offset);
      this.offset = st.size;
      const text = this.partial + buf.toString('utf8');
      const lines = text.split('\n');
      this.partial = lines.pop() ?? '';
      const full = lines.filter((l) => l.trim());
      if (full.length || reset) this.onLines(full, reset);
    } finally {
      fs.closeSync(fd);
    }
  }

  unwatch(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}

/** A result as the page needs it for W, the leaderboard and the failures. */
export interface CompactResult {
  id: string;
  track: string;
  seats: string[];
  scores: number[];
  places?: number[];
  winner: number | null;
  termination: string;
  reason: string;
  offender: number | null;
  durationMs: number;
  at: number;
}

const compact = (r: MatchResult): CompactResult => ({
  id: r.id,
  track: `${r.spec.game}-${r.spec.variant}`,
  seats: r.spec.seats,
  scores: r.scores,
  ...(r.places ? { places: r.places } : {}),
  winner: r.winner,
  termination: r.termination,
  reason: r.reason,
  offender: r.offender,
  durationMs: r.durationMs,
  at: Date.now(),
});

export type WatchMessage = Record<string, unknown> & { type: string };

/** A game being played: its moves so far, when its last board was sent and what it cost, its next board's timer. */
type GameInFlight = LiveGameView & { at: string; lastSent: number; costMs: number; timer?: NodeJS.Timeout };

/** One run followed for every page watching it; stopped when the last page leaves. */
export class RunWatch {
  readonly results: CompactResult[] = [];
  private readonly seen = new Set<string>();
  /** Games started and not ended, by server game id; `at` is when each started (live.jsonl's time). */
  readonly inFlight = new Map<string, GameInFlight>();
  readonly progress: string[] = [];
  /** The run's warnings ('! …' progress lines: a bot that could not start, a queue that went away). */
  readonly warnings: string[] = [];
  private agents: AgentRow[] = [];
  private agentsText = '';
  private state = '';
  private linksText = '';
  private readonly journal: FileTail;
  private readonly live: FileTail;
  private readonly interval: NodeJS.Timeout;
  private readonly listeners = new Set<(m: WatchMessage) => void>();
  private ready = false;
  private ticks = 0;
  /** The journal's chain as its lines arrive (made at the first line: the key is written before it). */
  private chain?: ChainVerifier;
  private journalLines = 0;
  /** Where the journal was found tampered with, once said. */
  private tampered?: number;
  private agentCount?: number;

  /** The run's human seats, once its arena.json or config.json says. */
  private humansKnown: string[] | null = null;

  /** `spectator`: the server's --spectator, if given (else by the run: spectator.ts spectatorFor). */
  constructor(
    readonly dir: string,
    private readonly spectator?: Spectator,
  ) {
    this.journal = new FileTail(path.join(dir, RUN_FILES.journal), (lines, reset) => {
      if (reset) {
        this.chain = undefined;
        this.journalLines = 0;
      }
      this.onJournal(lines);
    });
    this.live = new FileTail(path.join(dir, RUN_FILES.live), (lines, reset) =>
      reset ? this.onLiveReplaced(lines) : this.onLive(lines),
    );
    this.journal.poll();
    this.live.poll();
    this.dropAbandoned(runState(this.dir));
    this.ready = true;
    this.interval = setInterval(() => void this.tick(), 1_000);
    void this.tick();
  }

  subscribe(listener: (m: WatchMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get watchers(): number {
    return this.listeners.size;
  }

  /** Who plays in person in this run (read again until the run says). */
  get humans(): string[] {
    this.humansKnown ??= runHumans(this.dir);
    return this.humansKnown ?? [];
  }

  /** The setting this run is watched with, and the page's line about it. */
  view(): { mode: Spectator; humans: string[]; note: string } {
    const mode = spectatorFor(this.spectator, this.humans);
    return { mode, humans: this.humans, note: spectatorNote(mode, this.humans) };
  }

  /** The game's viewer module, loaded (the first board of a game waits for it). */
  private viewerLoaded(game: string): Promise<unknown> {
    return viewerModuleOf(game).catch(() => null);
  }

  /** A game's board message: its spec and viewer data as this run's view may see them. */
  private async boardOf(g: LiveGameView): Promise<{ spec: unknown; data: unknown }> {
    const perspective = boardPerspective(g.spec, this.humans, this.view().mode);
    return { spec: pageSpec(g.spec, perspective), data: await liveViewerData(g, 'in progress', perspective) };
  }

  /** Everything a page needs when it connects. */
  async snapshot(): Promise<WatchMessage> {
    const run = runState(this.dir);
    this.dropAbandoned(run);
    const boards = await Promise.all(
      [...this.inFlight.values()]
        .slice(-MAX_BOARDS)
        .map(async (g) => ({ id: g.id, ...(await this.boardOf(g)), moves: g.moves.length })),
    );
    return {
      type: 'snapshot',
      spectator: this.view(),
      state: run.state,
      links: runLinks(this.dir),
      results: this.results,
      boards,
      inFlight: this.inFlight.size,
      progress: this.progress.slice(-30),
      warnings: this.warnings.slice(-50),
      agents: this.agents,
    };
  }

  close(): void {
    clearInterval(this.interval);
    this.journal.unwatch();
    this.live.unwatch();
    for (const g of this.inFlight.values()) clearTimeout(g.timer);
  }

  private emit(message: WatchMessage): void {
    for (const l of this.listeners) l(message);
  }

  private async tick(): Promise<void> {
    this.journal.poll();
    this.live.poll();
    // A line rewritten in place (same size, so no new lines to tail) shows here within seconds.
    const checked = await journalCheck(path.join(this.dir, RUN_FILES.journal));
    if (checked?.state === 'tampered') this.sayTampered(checked);
    const run = runState(this.dir);
    this.dropAbandoned(run);
    const { state } = run;
    const links = runLinks(this.dir);
    const linksText = JSON.stringify(links);
    if (state !== this.state) {
      this.state = state;
      this.emit({ type: 'state', state, links });
    } else if (linksText !== this.linksText) this.emit({ type: 'links', links }); // report.html is written after the state
    this.linksText = linksText;
    if (++this.ticks % AGENT_EVERY !== 1 && AGENT_EVERY > 1) return;
    const t0 = performance.now();
    this.agentCount ??= readAgentCount(this.dir);
    const agents = await agentRows(this.dir, this.agentCount);
    watchStats.agentScans++;
    watchStats.agentScanMs += performance.now() - t0;
    const text = JSON.stringify(agents);
    if (text !== this.agentsText) {
      this.agentsText = text;
      this.agents = agents;
      this.emit({ type: 'agents', agents });
    }
  }

  /** A tampered journal is said once, as a warning on the page; its results from that line on are not shown. */
  private sayTampered(integrity: Extract<JournalIntegrity, { state: 'tampered' }>): void {
    if (this.tampered !== undefined) return;
    this.tampered = integrity.line;
    const text = `! journal.jsonl was tampered with at line ${integrity.line} (${integrity.reason}${integrity.game ? `; ${integrity.game}` : ''}): results from that line on are not shown, and catarena report refuses the journal`;
    this.warnings.push(text);
    if (this.ready) this.emit({ type: 'warning', text });
  }

  private onJournal(lines: string[]): void {
    watchStats.lines += lines.length;
    const fresh: CompactResult[] = [];
    this.chain ??= new ChainVerifier(readKeySync(path.join(this.dir, RUN_FILES.journal)));
    for (const line of lines) {
      this.chain.push(line, ++this.journalLines);
      if (this.chain.broken) {
        this.sayTampered(this.chain.broken);
        continue;
      }
      try {
        const r = JSON.parse(line) as MatchResult;
        if (this.seen.has(r.id)) continue;
        this.seen.add(r.id);
        const c = compact(r);
        this.results.push(c);
        fresh.push(c);
      } catch {
        // a torn line from a kill
      }
    }
    if (fresh.length && this.ready) this.emit({ type: 'results', results: fresh });
  }

  private onLive(lines: string[]): void {
    watchStats.lines += lines.length;
    for (const line of lines) {
      let r: LiveRecord;
      try {
        r = JSON.parse(line) as LiveRecord;
      } catch {
        continue;
      }
      if (r.type === 'phase' || r.type === 'tick') {
        const text = progressText(r);
        if (r.type === 'tick' && this.progress.length && /^\d+\/\d+ games/.test(this.progress.at(-1)!))
          this.progress[this.progress.length - 1] = text;
        else this.progress.push(text);
        if (this.progress.length > 200) this.progress.splice(0, 100);
        if (this.ready) this.emit({ type: 'progress', text, replace: r.type === 'tick' });
        if (r.type === 'phase' && text.startsWith('!') && !this.warnings.includes(text)) {
          this.warnings.push(text); // once: a replaced live.jsonl holds it again
          if (this.ready) this.emit({ type: 'warning', text });
        }
      } else if (r.type === 'start') {
        if (this.humansKnown === null && this.ready && runHumans(this.dir) !== null)
          this.emit({ type: 'spectator', spectator: this.view() }); // the run said who plays after the page connected
        this.inFlight.set(r.gameId, {
          id: r.id,
          gameId: r.gameId,
          spec: r.spec,
          setup: r.setup,
          at: r.at,
          moves: [],
          lastSent: 0,
          costMs: 0,
        });
        if (this.ready) this.board(r.gameId);
      } else if (r.type === 'move') {
        const g = this.inFlight.get(r.gameId);
        if (!g) continue;
        g.moves.push(r.move);
        if (this.ready) this.board(r.gameId);
      } else if (r.type === 'end') {
        const g = this.inFlight.get(r.gameId);
        if (!g) continue;
        clearTimeout(g.timer);
        this.inFlight.delete(r.gameId);
        if (this.ready)
          this.emit({
            type: 'ended',
            id: g.id,
            inFlight: this.inFlight.size,
            termination: r.termination,
            reason: r.reason,
            seats: g.spec.seats,
            track: `${g.spec.game}-${g.spec.variant}`,
          });
      }
    }
  }

  /**
   * live.jsonl was replaced (a finished tourney keeps only its progress lines): its lines are read
   * again from the first, so the progress and the games in flight are rebuilt from them, and the
   * page is sent the whole of both at once rather than each line again.
   */
  private onLiveReplaced(lines: string[]): void {
    for (const g of this.inFlight.values()) clearTimeout(g.timer);
    const before = [...this.inFlight.values()].map((g) => g.id);
    this.inFlight.clear();
    this.progress.length = 0;
    const ready = this.ready;
    this.ready = false; // one message below, not one per line
    try {
      this.onLive(lines);
    } finally {
      this.ready = ready;
    }
    this.dropAbandoned(runState(this.dir), false);
    const still = new Set([...this.inFlight.values()].map((g) => g.id));
    if (this.ready)
      this.emit({
        type: 'progress-all',
        progress: this.progress.slice(-30),
        dropped: before.filter((id) => !still.has(id)),
        inFlight: this.inFlight.size,
      });
  }

  /**
   * Games in flight are those started by the run's current process and not ended: when the run is
   * no longer running (finished, killed, failed), none; when it runs again (a resume), only games
   * started since it did. A killed run's games never get an end line, so without this they
   * would stay "in flight" for ever. Says which went (`emit` false: the caller does).
   */
  private dropAbandoned({ state, status }: { state: string; status?: RunStatus }, emit = true): void {
    if (!this.inFlight.size) return;
    const since = status?.startedAt ?? '';
    const dropped: string[] = [];
    for (const [gameId, g] of this.inFlight) {
      if (state === 'running' && !(status && g.at < since)) continue;
      clearTimeout(g.timer);
      this.inFlight.delete(gameId);
      dropped.push(g.id);
    }
    if (dropped.length && emit && this.ready)
      this.emit({ type: 'dropped', ids: dropped, inFlight: this.inFlight.size });
  }

  /** Sends a game's board now, or once BOARD_MS has passed since the last one. */
  private board(gameId: string): void {
    const g = this.inFlight.get(gameId);
    if (!g || g.timer || !this.listeners.size) return;
    const visible = [...this.inFlight.keys()].slice(-MAX_BOARDS).includes(gameId);
    if (!visible) return;
    const every = Math.min(BOARD_MAX_MS, Math.max(BOARD_MS, BOARD_COST * g.costMs));
    const wait = Math.max(0, g.lastSent + every - Date.now());
    g.timer = setTimeout(() => void this.sendBoard(gameId, g), wait);
  }

  /**
   * Draws and sends one board of the moves so far. `g.timer` stays set until it is sent, so a
   * game's boards go out one at a time and in order (a slow board sent after a later one would
   * leave the page behind); moves that came meanwhile get the next board, none after 'ended'.
   */
  private async sendBoard(gameId: string, g: GameInFlight): Promise<void> {
    if (!this.inFlight.has(gameId)) return void (g.timer = undefined);
    g.lastSent = Date.now();
    const moves = g.moves.length;
    await this.viewerLoaded(g.spec.game); // once, and not a board's cost: it would hold back the next ones
    const t0 = performance.now();
    const board = await this.boardOf({ ...g, moves: g.moves.slice(0, moves) });
    g.costMs = performance.now() - t0;
    watchStats.boards++;
    watchStats.boardMs += g.costMs;
    g.timer = undefined;
    if (!this.inFlight.has(gameId)) return;
    this.emit({ type: 'board', id: g.id, ...board, moves, inFlight: this.inFlight.size });
    if (g.moves.length > moves) this.board(gameId);
  }
}
