// What a worker checks now and then, beside playing: schedules that Redis lost with its data
// (lost-schedules.ts), and folders of nights that continued on another machine, to be marked
// moved (night-checkpoint.ts). At start, whenever its connection to Redis is ready again (Redis
// restarted), and every `everyMs`.
import type { Redis } from 'ioredis';
import { checkLostSchedules } from './lost-schedules.ts';
import { markMovedRuns } from './night-checkpoint.ts';

/** Default interval of a worker's housekeeping. */
export const HOUSEKEEPING_EVERY_MS = 15_000;

export function startHousekeeping(options: {
  redis: Redis;
  url: string;
  workDir: string;
  worker: string;
  report: (message: string) => void;
  everyMs?: number;
}): { stop(): void; check(): Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  const check = () =>
    (running ??= (async () => {
      try {
        await checkLostSchedules(options);
        await markMovedRuns(options.redis, options.report);
      } catch {
        // Redis away: the next check (on reconnect, or the next interval) tries again
      } finally {
        running = undefined;
      }
    })());
  const onReady = () => {
    if (!stopped) void check();
  };
  options.redis.on('ready', onReady);
  const timer = setInterval(onReady, options.everyMs ?? HOUSEKEEPING_EVERY_MS);
  timer.unref();
  void check();
  return {
    check,
    stop: () => {
      stopped = true;
      clearInterval(timer);
      options.redis.off('ready', onReady);
    },
  };
}
