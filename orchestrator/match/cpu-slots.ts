// Counts busy bots, not matches: a bot request holds a slot while the bot computes, so that with
// C slots at most C bots think at once and a bot searching to its deadline never shares its core.

export class CpuSlots {
  private free: number;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`concurrency must be a positive integer, got ${capacity}`);
    this.free = capacity;
  }

  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.free++;
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
