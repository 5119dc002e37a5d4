// The append-only match journal: one JSON line per finished game, written when it ends. It is the
// source of truth for results: W, reports and resume are all rebuilt from it. Each line is
// chained to the one before under the run's key (journal-chain.ts), so a result changed by
// anything that cannot read the key shows, and the journal is refused unless the caller accepts it.
import { appendFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { JournalIntegrity, JournalSeal } from '../../records/journal-integrity.ts';
import type { MatchResult } from '../../records/match.ts';
import {
  chainValue,
  createKey,
  JournalTamperedError,
  readKey,
  scanJournal,
  sealMac,
  withChain,
} from './journal-chain.ts';

export interface JournalOptions {
  /**
   * Open a journal whose chain breaks (`--accept-tampered`): its results are used as they are and
   * `integrity` says where it broke. Default: refused with a JournalTamperedError.
   */
  acceptTampered?: boolean;
}

export class Journal {
  private readonly byId: Map<string, MatchResult>;
  /** Lines waiting for the write in flight: appends run one batch after the other, so file order is chain order. */
  private pending: Array<{ content: string; resolve: () => void; reject: (err: unknown) => void }> = [];
  private flushing: Promise<void> | undefined;
  /** The last batch written (seal and recheck wait for it). */
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    readonly file: string,
    scanned: Map<string, MatchResult>,
    private key: Buffer | null,
    /** The last line's chain value: the next line extends it. */
    private head: string,
    private state: JournalIntegrity,
    /** Bytes of a torn last line (a game cut off by a kill) dropped when the journal was opened; 0 if none. */
    readonly droppedBytes = 0,
  ) {
    this.byId = scanned;
  }

  /**
   * Opens (or creates) a journal, loading what is there and verifying its chain. A torn last line
   * from a kill (a fragment that is not JSON) is not tampering: it is skipped and cut off, so the
   * next line starts on a fresh line.
   */
  static async open(file: string, options: JournalOptions = {}): Promise<Journal> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    let text = '';
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const key = await readKey(file);
    const { byId, verifier, torn } = scanJournal(file, text, key);
    const integrity = verifier.integrity();
    if (integrity.state === 'tampered' && !options.acceptTampered) throw new JournalTamperedError(file, integrity);
    const kept = Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1));
    if (torn) await fs.truncate(file, kept);
    else if (text.length && !text.endsWith('\n')) await fs.appendFile(file, '\n');
    return new Journal(file, byId, key, verifier.head, integrity, torn ? Buffer.byteLength(text) - kept : 0);
  }

  /** What the chain says about the lines read and appended (verified, unverified: an old journal, or tampered at a line). */
  get integrity(): JournalIntegrity {
    return this.state;
  }

  /**
   * The file verified again now (after the appends in flight): what a run reports when something
   * changed its journal while it played. The results in memory are the games as played.
   */
  async recheck(): Promise<JournalIntegrity> {
    await this.writing;
    // Against the key in memory: a journal re-chained under a key written over journal.key shows too.
    const onDisk = await readKey(this.file);
    if (this.key && !onDisk?.equals(this.key))
      return { state: 'tampered', lines: this.state.lines, line: 1, reason: 'journal.key was replaced or removed' };
    const text = await fs.readFile(this.file, 'utf8').catch(() => null);
    return text === null ? this.state : scanJournal(this.file, text, this.key).verifier.integrity();
  }

  /**
   * The journal's end (its line count and last chain value) sealed with `about` (the run index
   * entry's text) under the run's key, so neither the entry nor the journal's last lines can be
   * changed or dropped unseen; null for an old, unchained journal.
   */
  async seal(about: string): Promise<JournalSeal | null> {
    await this.writing;
    if (!this.key) return null;
    const { lines } = this.state;
    return { lines, head: this.head, mac: sealMac(this.key, about, lines, this.head) };
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): MatchResult | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.byId.size;
  }

  results(): MatchResult[] {
    return [...this.byId.values()];
  }

  async append(result: MatchResult): Promise<void> {
    if (this.byId.has(result.id)) return; // idempotent: a re-run game is not counted twice
    this.byId.set(result.id, result);
    const { chain: _chain, ...line } = result as MatchResult & { chain?: string };
    const written = new Promise<void>((resolve, reject) =>
      this.pending.push({ content: JSON.stringify(line), resolve, reject }),
    );
    if (!this.flushing) this.writing = this.flushing = this.flush();
    await written;
  }

  /**
   * Writes the waiting lines, chained in order, one append per batch: games that end together
   * cost one write, and file order is chain order.
   */
  private async flush(): Promise<void> {
    // Goes on a microtask later: lines appended in the same turn join the batch, and `flushing` is
    // set before this clears it (the append below is synchronous).
    await undefined;
    while (this.pending.length) {
      const batch = this.pending.splice(0);
      try {
        // A new journal gets a key; an old one (lines, no key) goes on unchained, as it was written.
        if (!this.key && this.state.lines === 0) this.key = await createKey(this.file);
        let head = this.head;
        const text = batch
          .map(({ content }) => {
            if (!this.key) return `${content}\n`;
            head = chainValue(this.key, head, content);
            return `${withChain(content, head)}\n`;
          })
          .join('');
        // Synchronous: one append per batch of finished games, where a promise would be three hops
        // (open, write, close) to libuv's pool, each costing more CPU than the write itself here.
        appendFileSync(this.file, text);
        this.head = head;
        const state =
          this.state.state === 'unverified' && this.key ? { state: 'verified' as const, lines: 0 } : this.state;
        this.state = { ...state, lines: state.lines + batch.length };
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.flushing = undefined;
  }
}
