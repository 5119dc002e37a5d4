// The journal's chain: each line of journal.jsonl ends with `"chain":"<hex>"`, the HMAC-SHA256,
// under the run's key (journal.key beside the journal, mode 0600), of the previous line's chain
// value and the line's content (the line without that field). Anyone without the key who
// changes, removes, inserts or reorders a line breaks the chain from there on; the key's holder
// (the user) can rewrite it. The field comes last and old readers ignore it, so a chained journal
// still reads as a list of MatchResult lines. docs/architecture.md "The run directory".
import { readTextIfExists } from '../../util/fs.ts';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { JournalIntegrity } from '../../records/journal-integrity.ts';
import type { MatchResult } from '../../records/match.ts';
import { RUN_FILES } from '../../records/run-layout.ts';

/** The chain value before the first line. */
export const CHAIN_GENESIS = 'catarena-journal-v1';
const CHAIN_FIELD = ',"chain":"';
/** The chain field's length at a line's end: `,"chain":"` + 64 hex digits + `"}`. */
const CHAIN_TAIL_LENGTH = CHAIN_FIELD.length + 64 + 2;
const HEX64 = /^[0-9a-f]{64}$/;

/** journal.key beside a journal file. */
export const keyFileOf = (journalFile: string) => path.join(path.dirname(journalFile), RUN_FILES.journalKey);

/** HMAC-SHA256 under `key` of the previous chain value and a line's content. */
export function chainValue(key: Buffer, prev: string, content: string): string {
  return createHmac('sha256', key).update(prev).update('\n').update(content).digest('hex');
}

/** A line's content (a JSON object's text) with its chain value added as the last field. */
export function withChain(content: string, chain: string): string {
  return `${content.slice(0, -1)},"chain":"${chain}"}`;
}

/** A line split into its content and chain value, or null when it carries none. */
export function splitChain(line: string): { content: string; chain: string } | null {
  const at = line.length - CHAIN_TAIL_LENGTH;
  if (at < 1 || !line.endsWith('"}') || !line.startsWith(CHAIN_FIELD, at)) return null;
  const chain = line.slice(at + CHAIN_FIELD.length, -2);
  return HEX64.test(chain) ? { content: `${line.slice(0, at)}}`, chain } : null;
}

/** The run's key, or null when the journal was written before lines were chained. */
export async function readKey(journalFile: string): Promise<Buffer | null> {
  try {
    return Buffer.from((await fs.readFile(keyFileOf(journalFile), 'utf8')).trim(), 'hex');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** readKey for synchronous readers (catarena serve's file tails). */
export function readKeySync(journalFile: string): Buffer | null {
  try {
    return Buffer.from(readFileSync(keyFileOf(journalFile), 'utf8').trim(), 'hex');
  } catch {
    return null;
  }
}

/** Makes the run's key (32 random bytes, readable by its owner only), or reads the one a racing writer made. */
export async function createKey(journalFile: string): Promise<Buffer> {
  const key = randomBytes(32);
  try {
    await fs.writeFile(keyFileOf(journalFile), `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return (await readKey(journalFile))!;
  }
}

/** Which game a line is about, for the message that names where the chain broke. */
function gameOf(content: string): string | undefined {
  try {
    const r = JSON.parse(content) as { id?: string; spec?: { seats?: string[] } };
    return r.id ? `game ${r.id}${r.spec?.seats ? `: ${r.spec.seats.join(' vs ')}` : ''}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Follows the chain line by line (Journal.open, serve's tail of a running journal). The first
 * break is kept; lines after it are still counted but not trusted.
 */
export class ChainVerifier {
  /** The chain value the next line must extend (the last line's own value, even after a break, so appends continue it). */
  head = CHAIN_GENESIS;
  lines = 0;
  private chained = 0;
  broken: Extract<JournalIntegrity, { state: 'tampered' }> | undefined;

  /** The chain value after line `headAfter` (counting lines pushed), when asked for (the run index's seal). */
  headAt: string | undefined;

  constructor(
    private readonly key: Buffer | null,
    private readonly headAfter?: number,
  ) {}

  /** Checks one complete, non-blank line; `lineNo` is its 1-based number in the file. */
  push(line: string, lineNo: number, parts = splitChain(line)): void {
    this.lines++;
    if (parts) this.chained++;
    const fail = (reason: string) => {
      this.broken ??= { state: 'tampered', lines: 0, line: lineNo, reason, game: gameOf(parts?.content ?? line) };
    };
    if (!this.key) {
      // No key: an old journal, unless some line carries a chain (then the key was removed).
      if (parts) fail('it carries a chain value but journal.key is missing');
      if (parts) this.head = parts.chain;
    } else if (!parts) fail('it carries no chain value');
    else {
      if (chainValue(this.key, this.head, parts.content) !== parts.chain)
        fail(
          'its chain value does not follow from its content and the line before: changed, removed, inserted or moved',
        );
      this.head = parts.chain;
    }
    if (this.lines === this.headAfter) this.headAt = this.head;
  }

  /** What the lines pushed so far say. */
  integrity(): JournalIntegrity {
    if (this.broken) return { ...this.broken, lines: this.lines };
    if (!this.key && !this.chained) return { state: 'unverified', lines: this.lines };
    return { state: 'verified', lines: this.lines };
  }
}

/** A refused journal: its chain breaks. The message says where and what to do. */
export class JournalTamperedError extends Error {
  /** Where the chain breaks and why, without the advice. */
  readonly finding: string;

  constructor(
    readonly file: string,
    readonly integrity: Extract<JournalIntegrity, { state: 'tampered' }>,
  ) {
    const finding =
      `${file}:${integrity.line}: the journal's chain breaks here (${integrity.reason}${integrity.game ? `; ${integrity.game}` : ''}): ` +
      "a result was changed, removed or added after it was written, by something without the run's key.";
    super(
      `${finding} catarena does not build results from it. Restore the run directory from a copy you trust, or, for a ` +
        'tourney, rebuild anyway with `catarena report --accept-tampered` (or resume, combine --accept-tampered): the reports then say so at the top.',
    );
    this.finding = finding;
  }
}

/** A journal's text read: its results by id (the last line for an id wins), its chain, and whether its last line is torn. */
export interface JournalScan {
  byId: Map<string, MatchResult>;
  verifier: ChainVerifier;
  /** The last line is a fragment a kill left (no newline, not JSON): skipped, not tampering. */
  torn: boolean;
}

/**
 * Reads a journal's text line by line. A line that is not JSON is a torn write when it is the
 * last one (skipped, as it always was), and damage anywhere else (an error that names the line).
 */
export function scanJournal(file: string, text: string, key: Buffer | null, headAfter?: number): JournalScan {
  const byId = new Map<string, MatchResult>();
  const verifier = new ChainVerifier(key, headAfter);
  const lines = text.split('\n');
  let torn = false;
  lines.forEach((line, index) => {
    if (!line.trim()) return;
    // The content is parsed, not the line: a result never carries its chain value (and no delete
    // turns thousands of results into slow dictionary objects).
    const parts = splitChain(line);
    let result: MatchResult;
    try {
      result = JSON.parse(parts?.content ?? line);
    } catch {
      if (lines.slice(index + 1).some((l) => l.trim()))
        throw new Error(`${file}:${index + 1} is not valid JSON; the journal is damaged (fix or remove that line)`);
      torn = true;
      return;
    }
    byId.set(result.id, result);
    verifier.push(line, index + 1, parts);
  });
  return { byId, verifier, torn };
}

/** Verifies a journal file without keeping its results (history, serve's run list): read-only. */
export async function verifyJournalFile(file: string): Promise<JournalIntegrity | null> {
  return (await readJournalChain(file))?.integrity ?? null;
}

/** A journal file's chain: what it says, and the chain value after line `headAfter`; null when there is no journal. */
export async function readJournalChain(
  file: string,
  headAfter?: number,
): Promise<{ integrity: JournalIntegrity; headAt?: string; key: Buffer | null } | null> {
  const text = await readTextIfExists(file);
  if (text === undefined) return null;
  const key = await readKey(file);
  const { verifier } = scanJournal(file, text, key, headAfter);
  return { integrity: verifier.integrity(), headAt: verifier.headAt, key };
}

/** The MAC that seals a journal's end (line count, last chain value) together with `about` (a run index entry's text). */
export function sealMac(key: Buffer, about: string, lines: number, head: string): string {
  return createHmac('sha256', key).update('seal\n').update(about).update(`\n${lines}\n${head}`).digest('hex');
}
