// Ctrl-C once: stop scheduling, finish the games in flight, keep everything. Twice: quit now.
import { printErr } from './print.ts';
export function withInterrupt<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts === 1) {
      printErr('\ncatarena: stopping after the games in flight (Ctrl-C again to quit now)');
      controller.abort();
    } else process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return work(controller.signal).finally(() => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  });
}
