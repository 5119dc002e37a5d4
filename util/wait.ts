// Waiting with a bound. A timer left pending after the race keeps Node's event loop, and so a
// finished command, alive until it fires: waitAtMost clears it.

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `promise`'s value, or undefined once `ms` have passed first; the timer never outlives the wait. */
export function waitAtMost<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
