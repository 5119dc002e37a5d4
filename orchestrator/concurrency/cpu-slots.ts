// Counts busy bots, not matches: a bot request holds a slot while the bot computes, so that with
// C slots at most C bots think at once and a bot searching to its deadline never shares its core.
// The capacity may change while games run (the adaptive concurrency controller does so); a lower
// capacity takes effect as busy bots finish, a higher one at once.
// A call names its bot (the instance's client): a call to a bot already answering another game's
// call waits for that bot first, holding no slot, and takes a slot only once the bot is free. So
// games that share bots (a table of every strategy) may overlap without a slot held by a call that
// only waits, and a bot's move clock (started when the request is sent) never counts another
// game's move.

export class CpuSlots {
  private limit: number;
  private busy = 0;
  private readonly waiters: Array<() => void> = [];
  /** Bot calls finished so far (the controller's measure of work done). */
  completed = 0;
  private busyIntegral = 0;
  private lastChange = performance.now();
  /** Per bot with a call under way: the calls queued behind it. */
  private readonly bots = new Map<object, Array<() => void>>();
  /** Bots called since the last `takeCalled`; kept only once someone asks (the adaptive controller). */
  private called: Set<object> | undefined;

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

  /** Calls waiting for their bot to finish another call (they hold no slot). */
  get waitingForBot(): number {
    let n = 0;
    for (const queue of this.bots.values()) n += queue.length;
    return n;
  }

  /**
   * The bots called since the last call of this, and those with a call under way: the only ones
   * that may have computed since. Who reads the bots' CPU reads just these. The first call starts
   * the record (until then there is none to keep), so it names only the bots under way.
   */
  takeCalled(): Set<object> {
    const called = this.called ?? new Set<object>();
    for (const bot of this.bots.keys()) called.add(bot);
    this.called = new Set();
    return called;
  }

  /** Waits until `bot` answers no other call, then holds it (no slot) until `releaseBot`. */
  async acquireBot(bot: object): Promise<void> {
    this.called?.add(bot);
    const queue = this.bots.get(bot);
    if (!queue) {
      this.bots.set(bot, []);
      return;
    }
    await new Promise<void>((resolve) => queue.push(resolve));
  }

  /** Hands `bot` to the next call waiting for it, if any. */
  releaseBot(bot: object): void {
    const queue = this.bots.get(bot);
    const next = queue?.shift();
    if (next) next();
    else this.bots.delete(bot);
  }

  /** A call to `bot` that computes nothing the slots count (a join, a leave): waits for the bot, holds no slot. */
  async withBot<T>(bot: object, fn: () => Promise<T>): Promise<T> {
    await this.acquireBot(bot);
    try {
      return await fn();
    } finally {
      this.releaseBot(bot);
    }
  }

  /** A slot, after the bot (when given) is free: its holder may compute. */
  async acquire(bot?: object): Promise<void> {
    if (bot) await this.acquireBot(bot);
    if (this.busy < this.limit) {
      this.account();
      this.busy++;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  release(bot?: object): void {
    this.account();
    this.busy--;
    this.completed++;
    this.grant();
    if (bot) this.releaseBot(bot);
  }

  private grant(): void {
    while (this.busy < this.limit && this.waiters.length > 0) {
      this.account();
      this.busy++;
      this.waiters.shift()!();
    }
  }

  async with<T>(fn: () => Promise<T>, bot?: object): Promise<T> {
    await this.acquire(bot);
    try {
      return await fn();
    } finally {
      this.release(bot);
    }
  }
}
