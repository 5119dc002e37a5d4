// Runs the concurrency controller against live play: every few ms it looks at the busy-bot slots;
// once a window is long enough (time and finished bot calls) it measures the window (calls/s, the
// bots' CPU per second of service, the machine's idle CPU) and sets the slots' capacity to the
// level the controller chooses. It also keeps the level's timeline, for the mean concurrency.
import { CLOCK_TICKS, machineCpuTicks } from '../../util/procfs.mjs';
import type { ConcurrencyController, WindowStats } from './concurrency-controller.ts';
import type { CpuSlots } from './cpu-slots.ts';

export interface AdaptiveSlotsOptions {
  /**
   * The bots' CPU ms so far (cumulative); undefined when unknown. `called`: the bots (as given to
   * the slots) called since the last reading; the others have not computed since and may be left
   * at their last figure.
   */
  botCpuMs?: (called: ReadonlySet<object>) => number | undefined;
  /** Shortest window (default 400 ms). */
  windowMs?: number;
  /** Fewest finished bot calls per window and level (default 8: 8 at level 1, 16 at level 2, …). */
  callsPerLevel?: number;
  /** How often the window is checked (default 25 ms). */
  tickMs?: number;
  /**
   * True while less work is in flight than the level could use (the last games of a track; a queue
   * worker short of games: an idle queue, the end of a run, other workers taking the jobs). A
   * window that was so for more than a quarter of its ticks measures the supply of work, not the
   * level: it is dropped.
   */
  underfed?: () => boolean;
  /** Called after each window with the figures and the level chosen (logs, the bench). */
  onWindow?: (w: WindowStats & { level: number; next: number; ms: number }) => void;
}

/** Idle CPU of the whole machine (idle + iowait), in ms summed over cores, from /proc/stat; undefined elsewhere. */
export function systemIdleMs(): number | undefined {
  const ticks = machineCpuTicks();
  return ticks ? (ticks.idle * 1000) / CLOCK_TICKS : undefined;
}

export class AdaptiveSlots {
  private timer: NodeJS.Timeout | undefined;
  private window:
    | { at: number; calls: number; busyMs: number; botCpu?: number; idle?: number; ticks: number; underfed: number }
    | undefined;
  /** No window opens before this many calls have finished: the first (bots starting), and after a change those begun at the old level. */
  private settleAt = 1;
  private readonly started = performance.now();
  /** [ms since start, level] at every change, starting with the first level. */
  readonly timeline: Array<[number, number]> = [];

  constructor(
    readonly slots: CpuSlots,
    readonly controller: ConcurrencyController,
    private readonly options: AdaptiveSlotsOptions = {},
  ) {
    slots.setCapacity(controller.level);
    this.timeline.push([0, controller.level]);
  }

  start(): void {
    this.timer ??= setInterval(() => this.tick(), this.options.tickMs ?? 25);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.window = undefined; // a window open across a pause would measure the pause
  }

  /** Time-weighted mean level from the start until now. */
  meanLevel(): number {
    const now = performance.now() - this.started;
    if (now <= 0) return this.controller.level;
    let sum = 0;
    this.timeline.forEach(([at, level], i) => {
      const until = this.timeline[i + 1]?.[0] ?? now;
      sum += level * (until - at);
    });
    return sum / now;
  }

  /** Opens a window; `botCpu` and `idle` when the closing window has just read them. */
  private open(botCpu = this.botCpuMs(), idle = systemIdleMs()): void {
    this.window = {
      at: performance.now(),
      calls: this.slots.completed,
      busyMs: this.slots.busyMs,
      botCpu,
      idle,
      ticks: 0,
      underfed: 0,
    };
  }

  private botCpuMs(): number | undefined {
    return this.options.botCpuMs?.(this.slots.takeCalled());
  }

  private tick(): void {
    if (!this.window) {
      if (this.slots.completed >= this.settleAt) this.open();
      return;
    }
    this.window.ticks++;
    if (this.options.underfed?.()) this.window.underfed++;
    const now = performance.now();
    const ms = now - this.window.at;
    const calls = this.slots.completed - this.window.calls;
    const level = this.slots.capacity;
    const windowMs = this.options.windowMs ?? 400;
    const enough =
      (ms >= windowMs && calls >= (this.options.callsPerLevel ?? 8) * level) || (ms >= 20 * windowMs && calls >= 2);
    if (!enough) return;
    if (this.window.underfed * 4 > this.window.ticks) {
      this.open();
      return;
    }
    const botCpu = this.botCpuMs();
    const idle = systemIdleMs();
    const busyMs = this.slots.busyMs - this.window.busyMs;
    const botCpuDelta =
      botCpu !== undefined && this.window.botCpu !== undefined ? botCpu - this.window.botCpu : undefined;
    const stats: WindowStats = {
      callsPerSec: (calls * 1000) / ms,
      ...(botCpuDelta !== undefined && botCpuDelta >= 0 && busyMs > 0 ? { botCpuShare: botCpuDelta / busyMs } : {}),
      ...(idle !== undefined && this.window.idle !== undefined
        ? { idleCores: Math.max(0, idle - this.window.idle) / ms }
        : {}),
    };
    const next = this.controller.decide(stats);
    this.options.onWindow?.({ ...stats, level, next, ms });
    if (next !== level) {
      // Calls begun at the old level finish in the first moments of the new one: not its figures.
      this.settleAt = this.slots.completed + this.slots.inUse;
      this.slots.setCapacity(next);
      this.timeline.push([now - this.started, next]);
      this.window = undefined;
    } else {
      this.open(botCpu, idle);
    }
  }
}
