// Counts busy bots, not matches: a bot request holds a slot while the bot computes, so that with
// C slots at most C bots think at once and a bot searching to its deadline never shares its core.
// The capacity may change while games run (the adaptive concurrency controller does so); a lower
// capacity takes effect as busy bots finish, a higher one at once.

export class CpuSlots {
  private limit: number;
  private busy = 0;
  private readonly waiters: Array<() => void> = [];
  /** Bot calls finished so far (the controller's measure of work done). */
  completed = 0;
  private busyIntegral = 0;
  private lastChange = performance.now();

  constructor(capacity: number) {
    CpuSlots.check(capacity);
    this.limit = capacity;
  }

  private static check(capacity: number): void {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`concurrency must be a positive integer, got ${capacity}`);
  }

  get capacity(): number {
    return this.limit;
  }

  /** Bots computing right now. */
  get inUse(): number {
    return this.busy;
  }

  /** Σ over time of busy slots, in slot-ms: the bots' service time so far. */
  get busyMs(): number {
    return this.busyIntegral + this.busy * (performance.now() - this.lastChange);
  }

  private account(): void {
    const now = performance.now();
    this.busyIntegral += this.busy * (now - this.lastChange);
    this.lastChange = now;
  }

  /** Requests waiting for a slot. */
  get waiting(): number {
    return this.waiters.length;
  }

  setCapacity(capacity: number): void {
    CpuSlots.check(capacity);
    this.limit = capacity;
    this.grant();
  }

  async acquire(): Promise<void> {
    if (this.busy < this.limit) {
      this.account();
      this.busy++;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    this.account();
    this.busy--;
    this.completed++;
    this.grant();
  }

  private grant(): void {
    while (this.busy < this.limit && this.waiters.length > 0) {
      this.account();
      this.busy++;
      this.waiters.shift()!();
    }
  }

  async with<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await fn();
    } finally {
      this.release();
    }
  }
}
