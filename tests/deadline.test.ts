// The deadline timer bots and port brokers are judged by: on time it expires on time; when this
// process stalls past it, what the other process sent meanwhile is read before it expires.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { deadlineTimer, STALL_GRACE_MS } from '../util/deadline.ts';

const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('deadlineTimer', () => {
  it('expires once, not before its time, and not at all once cleared', async () => {
    const t0 = performance.now();
    const fired: number[] = [];
    deadlineTimer(100, () => fired.push(performance.now() - t0));
    const cleared = deadlineTimer(50, () => fired.push(-1));
    cleared.clear();
    await new Promise((r) => setTimeout(r, 400));
    expect(fired).toHaveLength(1);
    expect(fired[0]).toBeGreaterThanOrEqual(95); // libuv's millisecond clock against performance.now()
  });

  it('fired late by a stall of this process, it first reads what another process sent meanwhile', async () => {
    // The other process writes 100 ms after it is ready; this one is busy from 50 to 1,050 ms (room
    // for the other one to write on a loaded machine).
    const child = spawn(
      process.execPath,
      ['-e', "process.stdout.write('ready\\n'); setTimeout(() => process.stdout.write('answer\\n'), 100)"],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const closed = once(child, 'close');
    await once(child.stdout!, 'data');
    const events: string[] = [];
    const t0 = performance.now();
    child.stdout!.on('data', (d: Buffer) => events.push(String(d).trim()));
    const expired = new Promise<number>((resolve) =>
      deadlineTimer(300, () => {
        events.push('expired');
        resolve(performance.now() - t0);
      }),
    );
    // Busy in the check phase (setImmediate): the next loop turn runs due timers before it polls.
    setTimeout(() => setImmediate(() => busy(1_000)), 50);
    const at = await expired;
    expect(events).toEqual(['answer', 'expired']);
    // The grace is short: it expires soon after the stall, not a new deadline later.
    expect(at).toBeLessThan(1_050 + STALL_GRACE_MS + 1_000);
    await closed;
  });

  it('a clear during the grace stops it', async () => {
    let fired = false;
    const d = deadlineTimer(20, () => (fired = true));
    busy(200); // the timer fires late: it re-arms for the grace
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 1));
    d.clear();
    await new Promise((r) => setTimeout(r, STALL_GRACE_MS * 3));
    expect(fired).toBe(false);
  });
});
