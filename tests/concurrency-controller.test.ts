// The adaptive concurrency controller's decisions on simulated machines (deterministic: seeded
// noise), and the busy-bot slots whose capacity it sets.
import { describe, expect, it } from 'vitest';
import {
  ConcurrencyController,
  type ControllerOptions,
  type WindowStats,
} from '../orchestrator/concurrency/concurrency-controller.ts';
import { CpuSlots } from '../orchestrator/concurrency/cpu-slots.ts';
import { AdaptiveSlots } from '../orchestrator/concurrency/adaptive-slots.ts';
import { controllerOptions } from '../orchestrator/executor/local.ts';
import { createRng } from '../util/rng.ts';

/** Seeded noise in [0, 1). */
function rng(seed: number) {
  const r = createRng(seed);
  return () => r.float();
}

/**
 * Runs the controller for `windows` windows on a machine whose calls/s at a level is `rate(level,
 * window)`, times uniform noise of ±noise. Returns the levels used, and the work done relative to
 * the best fixed level (the sum of true rates over the windows).
 */
function simulate(
  options: ControllerOptions,
  rate: (level: number, window: number) => number,
  windows: number,
  extra: (level: number) => Partial<WindowStats> = () => ({}),
  noise = 0,
  seed = 1,
) {
  const c = new ConcurrencyController(options);
  const random = rng(seed);
  const levels: number[] = [];
  let work = 0;
  for (let w = 0; w < windows; w++) {
    levels.push(c.level);
    const truth = rate(c.level, w);
    work += truth;
    c.decide({ callsPerSec: truth * (1 + noise * (2 * random() - 1)), ...extra(c.level) });
  }
  const ceiling = Math.max(options.max, options.ioMax ?? 2 * options.max);
  let bestFixed = 0;
  for (let level = options.min ?? 1; level <= ceiling; level++) {
    let sum = 0;
    for (let w = 0; w < windows; w++) sum += rate(level, w);
    bestFixed = Math.max(bestFixed, sum);
  }
  const share = (level: number) => levels.filter((l) => l === level).length / windows;
  return { c, levels, share, relative: work / bestFixed };
}

const table = (rates: Record<number, number>) => (level: number) => rates[level] ?? 0;

describe('adaptive concurrency controller', () => {
  it('starts at 1 and stays there (but for rare probes) when 2 busy bots are slower than 1', () => {
    const { levels, share, relative } = simulate({ max: 2 }, table({ 1: 40, 2: 30 }), 200);
    expect(levels[0]).toBe(1);
    expect(share(1)).toBeGreaterThan(0.9);
    expect(relative).toBeGreaterThan(0.97);
  });

  it('goes to 2 within a few windows when 2 is clearly faster, and stays', () => {
    const { levels, share, relative } = simulate({ max: 2 }, table({ 1: 40, 2: 75 }), 200);
    expect(levels.indexOf(2)).toBeLessThan(6);
    expect(levels.slice(10).every((l) => l === 2 || l === 1)).toBe(true);
    expect(share(2)).toBeGreaterThan(0.85);
    expect(relative).toBeGreaterThan(0.9);
  });

  it('does not take a level that gains less than the margin', () => {
    const { share } = simulate({ max: 4 }, table({ 1: 40, 2: 75, 3: 76, 4: 77 }), 300);
    expect(share(2)).toBeGreaterThan(0.8);
    expect(share(3) + share(4)).toBeLessThan(0.12);
  });

  it('never goes above the cores for CPU-bound bots', () => {
    const { levels } = simulate(
      { max: 2 },
      (level) => 40 * level,
      200,
      () => ({ botCpuShare: 0.95, idleCores: 0 }),
    );
    expect(Math.max(...levels)).toBe(2);
  });

  it('goes above the cores for I/O-bound bots on an idle machine, up to ioMax', () => {
    const { levels, c } = simulate(
      { max: 2, ioMax: 4 },
      (level) => 40 * level,
      200,
      () => ({ botCpuShare: 0.05, idleCores: 1.6 }),
    );
    expect(Math.max(...levels)).toBe(4);
    expect(c.level).toBe(4);
  });

  it('treats bots starved of CPU (low CPU share, no idle core) as CPU-bound', () => {
    const { levels } = simulate(
      { max: 2, ioMax: 4 },
      (level) => 40 * level,
      200,
      () => ({ botCpuShare: 0.3, idleCores: 0.05 }),
    );
    expect(Math.max(...levels)).toBe(2);
  });

  it('probes up at once when a core is idle', () => {
    const c = new ConcurrencyController({ max: 2 });
    expect(c.decide({ callsPerSec: 40, idleCores: 1 })).toBe(2);
  });

  it('holds longer after each failed probe (exponential back-off)', () => {
    const { c } = simulate({ max: 2, hold: 2, maxHold: 16 }, table({ 1: 40, 2: 20 }), 400);
    const probes = c.events.filter((e) => e.kind === 'probe').length;
    // With a constant hold of 2 there would be a probe every 4 windows (100); back-off leaves far fewer.
    expect(probes).toBeLessThan(30);
    expect(c.events.some((e) => e.kind === 'keep')).toBe(false);
  });

  it('under ±10% noise: rarely at 2 when 2 hurts by 25%, mostly at 2 when it helps by 40%, never worse than 1 by much', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const hurts = simulate({ max: 2 }, table({ 1: 40, 2: 30 }), 300, undefined, 0.1, seed);
      expect(hurts.share(2)).toBeLessThan(0.15);
      expect(hurts.relative).toBeGreaterThan(0.96);
      const helps = simulate({ max: 2 }, table({ 1: 40, 2: 56 }), 300, undefined, 0.1, seed);
      expect(helps.share(2)).toBeGreaterThan(0.7);
      expect(helps.relative).toBeGreaterThan(0.9);
    }
  });

  it('follows a change of the machine: 1 is best while neighbours are busy, 2 once they leave', () => {
    const rate = (level: number, w: number) =>
      w < 150 ? table({ 1: 40, 2: 30 })(level) : table({ 1: 40, 2: 76 })(level);
    const { levels } = simulate({ max: 2 }, rate, 400);
    const early = levels.slice(20, 150).filter((l) => l === 2).length / 130;
    const late = levels.slice(250).filter((l) => l === 2).length / 150;
    expect(early).toBeLessThan(0.15);
    expect(late).toBeGreaterThan(0.85);
  });

  it('drops a level that does not pay for itself', () => {
    // Start at 2 where 1 does as well: the controller comes down and stays mostly at 1.
    const { share } = simulate({ max: 2, start: 2 }, table({ 1: 40, 2: 40 }), 300);
    expect(share(1)).toBeGreaterThan(0.7);
  });

  it("the tourney's settings on 2 cores: one probe down in a 15-window (6 s) run where 2 is best; at 1 from window 12 where 1 is", () => {
    const helps = simulate(controllerOptions(2), table({ 1: 40, 2: 64 }), 15);
    expect(helps.levels[0]).toBe(2);
    expect(helps.c.events.filter((e) => e.kind === 'probe')).toHaveLength(1);
    expect(helps.relative).toBeGreaterThan(0.95);
    const hurts = simulate(controllerOptions(2), table({ 1: 40, 2: 30 }), 200);
    expect(hurts.levels.indexOf(1)).toBeLessThan(10);
    // Two probes down must win before the level changes (confirmations): 1 from window 12 on, but for rare probes up.
    expect(hurts.levels.slice(12).filter((l) => l === 1).length / (200 - 12)).toBeGreaterThan(0.9);
    expect(hurts.relative).toBeGreaterThan(0.9);
  });

  it('with a single core has nothing to decide', () => {
    const { levels } = simulate({ max: 1, ioMax: 1 }, (level) => 40 * level, 50);
    expect(new Set(levels)).toEqual(new Set([1]));
  });
});

describe('CpuSlots with a changing capacity', () => {
  it('grants waiters when the capacity grows, and lowers it as busy bots finish', async () => {
    const slots = new CpuSlots(1);
    await slots.acquire();
    let second = false;
    const waiting = slots.acquire().then(() => (second = true));
    await Promise.resolve();
    expect(second).toBe(false);
    slots.setCapacity(2);
    await waiting;
    expect(slots.inUse).toBe(2);
    slots.setCapacity(1);
    let third = false;
    const later = slots.acquire().then(() => (third = true));
    slots.release(); // 1 busy, capacity 1: the third still waits
    await Promise.resolve();
    expect(third).toBe(false);
    slots.release();
    await later;
    expect(slots.inUse).toBe(1);
    expect(slots.completed).toBe(2);
    expect(() => slots.setCapacity(0)).toThrow(/positive integer/);
  });

  it('names the bots called since it was last asked, and those still answering', async () => {
    const slots = new CpuSlots(2);
    const [a, b, c] = [{}, {}, {}];
    await slots.with(async () => {}, c);
    expect(slots.takeCalled()).toEqual(new Set()); // no record before the first call of it
    await slots.with(async () => {}, a);
    await slots.acquire(b); // still answering
    expect(slots.takeCalled()).toEqual(new Set([a, b]));
    await slots.withBot(c, async () => {});
    expect(slots.takeCalled()).toEqual(new Set([b, c]));
    slots.release(b);
    expect(slots.takeCalled()).toEqual(new Set());
  });

  it('counts busy time in slot-ms', async () => {
    const slots = new CpuSlots(2);
    await slots.acquire();
    await slots.acquire();
    await new Promise((r) => setTimeout(r, 50));
    slots.release();
    slots.release();
    expect(slots.busyMs).toBeGreaterThan(90);
    expect(slots.busyMs).toBeLessThan(2_000); // wide: a loaded machine can delay the timer
  });
});

describe('AdaptiveSlots', () => {
  /** Bot calls of ~2 ms for 150 ms, a 300 ms pause with no work, calls again; returns the windows measured as [start, end] and the pause. */
  async function measure(sayUnderfed: boolean) {
    const slots = new CpuSlots(1);
    const windows: Array<[number, number]> = [];
    let paused = false;
    const adaptive = new AdaptiveSlots(slots, new ConcurrencyController({ max: 1, ioMax: 1 }), {
      windowMs: 40,
      callsPerLevel: 4,
      tickMs: 5,
      ...(sayUnderfed ? { underfed: () => paused } : {}),
      onWindow: ({ ms }) => windows.push([performance.now() - ms, performance.now()]),
    });
    // At least `ms`, and on until `done` (at most 10 s): a loaded machine's timers fire late, and
    // 150 ms may then hold too few calls for a window.
    const work = async (ms: number, done: () => boolean) => {
      const least = performance.now() + ms;
      const most = least + 10_000;
      while ((performance.now() < least || !done()) && performance.now() < most) {
        await slots.acquire();
        await new Promise((r) => setTimeout(r, 2));
        slots.release();
      }
    };
    adaptive.start();
    await work(150, () => windows.length > 0);
    const pause: [number, number] = [performance.now(), 0];
    paused = true;
    await new Promise((r) => setTimeout(r, 300));
    paused = false;
    pause[1] = performance.now();
    await work(200, () => windows.some(([start]) => start > pause[1]));
    adaptive.stop();
    return { windows, pause };
  }

  it('drops a window that was mostly underfed (a queue worker short of games), so a pause is not measured as a slow level', async () => {
    const spans = ({ windows, pause }: Awaited<ReturnType<typeof measure>>) =>
      windows.filter(([start, end]) => start < pause[1] - 50 && end > pause[1]);
    const told = await measure(true);
    expect(told.windows.filter(([, end]) => end <= told.pause[0]).length).toBeGreaterThan(0); // fed windows count
    expect(told.windows.filter(([start]) => start > told.pause[1]).length).toBeGreaterThan(0); // measured again after the pause
    expect(spans(told)).toEqual([]);
    const control = await measure(false); // untold, the first window after the pause began before it ended
    expect(spans(control).length).toBe(1);
  });
});
