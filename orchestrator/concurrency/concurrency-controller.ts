// The adaptive concurrency controller: how many bots may compute at once when the user did not
// fix --concurrency. It never trusts a model of the machine alone (the cores are shared, bots may
// be single-threaded servers under a GIL, the orchestrator needs CPU too): it measures. Play is cut
// into windows of a few hundred ms; the rate of finished bot calls in a window is the throughput
// at the window's level. Now and then it probes one level up or down for one window and then
// returns for one window, so the probe is compared with the mean of the windows just before and
// just after it (drift from neighbours' load or the games' progress cancels). A probe up is kept
// only when it beats that mean by `margin`, a probe down when it is no worse than it (fewer busy
// bots is the safer setting when they are equal), each twice in a row (`confirmations`). A failed
// probe doubles the wait before the next (up to `maxHold` windows), so a level that hurts costs a
// shrinking share of the time.
// CPU counts as well: bots that use little CPU while they answer (I/O-bound, e.g. a bot that asks
// an LLM) may go up to `ioMax` levels, CPU-bound ones to `max` (the cores); and an idle core in
// the last window makes the next probe up come at once instead of after the hold.
//
// Pure logic (no clock, no I/O): `decide` gets one window's figures and returns the next level.
// orchestrator/concurrency/adaptive-slots.ts runs it against real slots, clocks and /proc.

export interface ControllerOptions {
  /** Lowest level (default 1). */
  min?: number;
  /** Highest level for CPU-bound bots (the cores). */
  max: number;
  /** Highest level when bots are I/O-bound (default 2 × max). */
  ioMax?: number;
  /** Level to start at (default min). */
  start?: number;
  /** A probe up must beat the bracketing mean by this share (default 0.05). */
  margin?: number;
  /** A probe down wins when it is at most this share below the bracketing mean (default 0: no worse). */
  dropTolerance?: number;
  /** Steady windows before the first probe and after a kept one (default 2). */
  hold?: number;
  /** Most steady windows between probes after failed ones (default 16). */
  maxHold?: number;
  /** Bot CPU per second of bot service below which bots count as I/O-bound (default 0.5). */
  ioBoundShare?: number;
  /** Probes in a row that must win before the level changes (default 2). */
  confirmations?: number;
}

export interface WindowStats {
  /** Bot calls finished per second in the window. */
  callsPerSec: number;
  /** Bots' CPU seconds per second of bot service (1 = a bot computes all the time it answers); undefined when unknown. */
  botCpuShare?: number;
  /** Idle CPU of the whole machine in the window, in cores; undefined when unknown. */
  idleCores?: number;
}

export type ControllerEvent =
  | { kind: 'probe'; from: number; to: number }
  | { kind: 'keep'; level: number; probe: number; base: number }
  | { kind: 'reject'; level: number; tried: number; probe: number; base: number };

type Phase =
  | { kind: 'steady'; windows: number }
  | { kind: 'probe'; from: number; to: number; before: number; wins: number }
  | { kind: 'return'; from: number; to: number; before: number; probe: number; wins: number };

export class ConcurrencyController {
  level: number;
  readonly min: number;
  private readonly opts: Required<Omit<ControllerOptions, 'start' | 'min'>>;
  private phase: Phase = { kind: 'steady', windows: 0 };
  private hold: number;
  private direction: 'up' | 'down' = 'up';
  private ioBound = false;
  /** What the controller did, for logs, tests and the bench. */
  readonly events: ControllerEvent[] = [];

  constructor(options: ControllerOptions) {
    this.min = options.min ?? 1;
    this.opts = {
      max: Math.max(this.min, options.max),
      ioMax: Math.max(this.min, options.ioMax ?? 2 * options.max),
      margin: options.margin ?? 0.05,
      dropTolerance: options.dropTolerance ?? 0,
      hold: options.hold ?? 2,
      maxHold: options.maxHold ?? 16,
      ioBoundShare: options.ioBoundShare ?? 0.5,
      confirmations: options.confirmations ?? 2,
    };
    this.hold = this.opts.hold;
    this.level = Math.min(this.opts.max, Math.max(this.min, options.start ?? this.min));
  }

  /** The highest level the controller may use now (CPU-bound: max; I/O-bound: ioMax). */
  get ceiling(): number {
    return this.ioBound ? this.opts.ioMax : this.opts.max;
  }

  /** The highest level it could ever use (for sizing the game pool). */
  get hardCeiling(): number {
    return Math.max(this.opts.max, this.opts.ioMax);
  }

  /** One finished window at the current level; returns the level for the next window. */
  decide(w: WindowStats): number {
    // Little CPU per second of service means waiting: on I/O (more bots may wait at once), or for a
    // core (more would only queue up); only an idle machine tells the first from the second.
    if (w.botCpuShare !== undefined && Number.isFinite(w.botCpuShare)) {
      this.ioBound = w.botCpuShare < this.opts.ioBoundShare && (w.idleCores === undefined || w.idleCores >= 0.5);
    }
    const phase = this.phase;
    if (phase.kind === 'probe') {
      this.level = phase.from;
      this.phase = {
        kind: 'return',
        from: phase.from,
        to: phase.to,
        before: phase.before,
        probe: w.callsPerSec,
        wins: phase.wins,
      };
      return this.level;
    }
    if (phase.kind === 'return') {
      const base = (phase.before + w.callsPerSec) / 2;
      const up = phase.to > phase.from;
      const won = up
        ? phase.probe > base * (1 + this.opts.margin)
        : phase.probe >= base * (1 - this.opts.dropTolerance);
      if (won && phase.wins + 1 < this.opts.confirmations && phase.to <= this.ceiling) {
        // Once is noise on a shared machine: probe again, bracketed by this window and the next.
        this.events.push({ kind: 'probe', from: phase.from, to: phase.to });
        this.phase = { kind: 'probe', from: phase.from, to: phase.to, before: w.callsPerSec, wins: phase.wins + 1 };
        this.level = phase.to;
        return this.level;
      }
      if (won) {
        this.level = phase.to;
        this.events.push({ kind: 'keep', level: phase.to, probe: phase.probe, base });
        this.hold = this.opts.hold;
        // Keep going the same way soon: the next level may be better still.
        this.phase = { kind: 'steady', windows: this.hold - 1 };
      } else {
        this.events.push({ kind: 'reject', level: phase.from, tried: phase.to, probe: phase.probe, base });
        this.hold = Math.min(this.opts.maxHold, this.hold * 2);
        this.direction = up ? 'down' : 'up';
        this.phase = { kind: 'steady', windows: 0 };
      }
      return this.clamp();
    }
    // Steady.
    phase.windows++;
    if (this.level > this.ceiling) return this.clamp();
    const idleCore = w.idleCores !== undefined && w.idleCores >= 0.8;
    const canUp = this.level < this.ceiling;
    const canDown = this.level > this.min;
    const upNow = canUp && idleCore && this.direction === 'up';
    if (!upNow && phase.windows < this.hold) return this.level;
    const blocked = this.direction === 'up' ? !canUp : !canDown;
    if (blocked) {
      // Nothing further this way: turn, and try the other way after a full hold.
      this.direction = this.direction === 'up' ? 'down' : 'up';
      phase.windows = 0;
      return this.level;
    }
    const to = this.direction === 'up' ? this.level + 1 : this.level - 1;
    this.events.push({ kind: 'probe', from: this.level, to });
    this.phase = { kind: 'probe', from: this.level, to, before: w.callsPerSec, wins: 0 };
    this.level = to;
    return this.level;
  }

  private clamp(): number {
    const ceiling = this.ceiling;
    if (this.level > ceiling) {
      this.level = ceiling;
      this.phase = { kind: 'steady', windows: 0 };
    }
    return this.level;
  }
}
