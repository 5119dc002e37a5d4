// waitAtMost: a bounded wait whose timer never outlives it. A pending timer keeps Node's event loop
// alive, so a finished `catarena arena` waited 3 s more for a stopped bot's timer (issue 42).
import { describe, expect, it } from 'vitest';
import { waitAtMost } from '../util/wait.ts';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('waitAtMost', () => {
  it('gives the value when the promise settles first, and leaves no timer behind', async () => {
    const before = timers();
    expect(await waitAtMost(Promise.resolve(7), 60_000)).toBe(7);
    expect(timers()).toBe(before);
  });

  it('gives undefined when the time passes first', async () => {
    expect(await waitAtMost(new Promise(() => {}), 5)).toBeUndefined();
  });
});
