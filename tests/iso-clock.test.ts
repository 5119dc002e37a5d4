// util/iso-clock.ts: isoNow() is Date's toISOString of the current millisecond, reused only
// within that millisecond (a stale stamp would misdate live.jsonl lines and history entries).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoNow } from '../util/iso-clock.ts';

describe('isoNow', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is new Date().toISOString(), and changes as soon as the millisecond does', () => {
    vi.useFakeTimers({ now: new Date('2026-12-07T10:00:00.000Z') });
    expect(isoNow()).toBe('2026-12-07T10:00:00.000Z');
    expect(isoNow()).toBe(new Date().toISOString());
    vi.advanceTimersByTime(1);
    expect(isoNow()).toBe('2026-12-07T10:00:00.001Z');
    vi.setSystemTime(new Date('2025-01-01T00:00:00.000Z')); // the clock set back
    expect(isoNow()).toBe('2025-01-01T00:00:00.000Z');
  });

  it('follows the real clock', async () => {
    const before = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const stamp = Date.parse(isoNow());
    expect(stamp).toBeGreaterThanOrEqual(before + 4);
    expect(stamp).toBeLessThanOrEqual(Date.now());
  });
});
