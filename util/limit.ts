// A concurrency limit for async work: at most `n` calls of the returned function run at once,
// the rest wait in call order.
export function limitConcurrency(n: number): <T>(work: () => Promise<T>) => Promise<T> {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`limitConcurrency: expected a positive integer, got ${n}`);
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    // A finishing call hands its slot straight to the first waiter, so a newcomer cannot slip in between.
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
