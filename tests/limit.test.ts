// limitConcurrency: never more than n at once, waiters in call order, a failure frees its slot.
import { describe, expect, it } from 'vitest';
import { limitConcurrency } from '../util/limit.ts';

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('limitConcurrency', () => {
  it('runs at most n at once, starts waiters in call order, and frees the slot of a failed call', async () => {
    const limit = limitConcurrency(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const gates: Array<() => void> = [];
    const calls = [0, 1, 2, 3, 4].map((i) =>
      limit(async () => {
        started.push(i);
        running++;
        most = Math.max(most, running);
        await new Promise<void>((r) => gates.push(r));
        running--;
        if (i === 1) throw new Error('call 1 fails');
        return i;
      }),
    );
    const settledAll = Promise.allSettled(calls); // observed now, so call 1's rejection is handled
    await tick();
    expect(started).toEqual([0, 1]);
    gates.shift()!(); // 0 ends
    await tick();
    expect(started).toEqual([0, 1, 2]);
    // A newcomer arriving now waits behind 3 and 4 (a freed slot goes to the first waiter).
    const late = limit(async () => (started.push(5), 5));
    gates.shift()!(); // 1 fails
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    while (gates.length || started.length < 6) {
      gates.shift()?.();
      await tick();
    }
    const settled = [...(await settledAll), ...(await Promise.allSettled([late]))];
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : 'failed'))).toEqual([0, 'failed', 2, 3, 4, 5]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('refuses a limit that is not a positive integer', () => {
    expect(() => limitConcurrency(0)).toThrow(/positive integer/);
  });
});
