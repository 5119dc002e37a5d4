// Code similarity as MOSS measures it (Schleimer, Wilkerson and Aiken, "Winnowing: local
// algorithms for document fingerprinting", SIGMOD 2003): each source file becomes normalised
// tokens (./tokenize.ts), every k consecutive tokens a hash, and in every window of w consecutive
// hashes the smallest is kept. A bot's fingerprint is the set of hashes kept over its code files.
// The similarity of A to B is the share of A's fingerprint found in B's,
//   sim(A → B) = |fp(A) ∩ fp(B)| / |fp(A)|,
// asymmetric as MOSS reports it (a small bot copied whole into a large one is 100% of the large
// one's rival, not the reverse). Fingerprints of base code every agent was given (the sample bot)
// are removed from both sides first, as MOSS's -b does. docs/evolution.md defines it all.
import type { BotFile } from './bot-files.ts';
import { tokenize } from './tokenize.ts';

export interface WinnowOptions {
  /** Tokens per k-gram: shorter shared runs are noise. */
  k: number;
  /** Window of consecutive k-gram hashes; any shared run of w + k − 1 tokens is always found. */
  w: number;
}

export const WINNOW_DEFAULTS: WinnowOptions = { k: 12, w: 8 };

/** 32-bit FNV-1a of a token, cached: token hashes are stable across runs and machines. */
const tokenHashes = new Map<string, number>();
function tokenHash(t: string): number {
  let h = tokenHashes.get(t);
  if (h !== undefined) return h;
  h = 0x811c9dc5;
  for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193) >>> 0;
  tokenHashes.set(t, h);
  return h;
}

const BASE = 0x01000193;

/** The winnowed fingerprint (selected k-gram hashes) of a token sequence. */
export function winnow(tokens: readonly string[], o: WinnowOptions = WINNOW_DEFAULTS): number[] {
  const { k, w } = o;
  if (tokens.length < k) return [];
  // Rolling polynomial hash of each k-gram, mod 2^32.
  const count = tokens.length - k + 1;
  const hashes = new Uint32Array(count);
  let top = 1; // BASE^(k−1)
  for (let i = 1; i < k; i++) top = Math.imul(top, BASE) >>> 0;
  let h = 0;
  for (let i = 0; i < k; i++) h = (Math.imul(h, BASE) + tokenHash(tokens[i]!)) >>> 0;
  hashes[0] = h;
  for (let i = 1; i < count; i++) {
    h = (h - Math.imul(tokenHash(tokens[i - 1]!), top)) >>> 0;
    h = (Math.imul(h, BASE) + tokenHash(tokens[i + k - 1]!)) >>> 0;
    hashes[i] = h;
  }
  // Winnowing: the rightmost minimum of every window, recorded when the chosen position changes.
  const out: number[] = [];
  if (count <= w) {
    let min = 0;
    for (let i = 1; i < count; i++) if (hashes[i]! <= hashes[min]!) min = i;
    out.push(hashes[min]!);
    return out;
  }
  let min = -1;
  for (let end = w - 1; end < count; end++) {
    const start = end - w + 1;
    if (min < start) {
      min = start;
      for (let i = start + 1; i <= end; i++) if (hashes[i]! <= hashes[min]!) min = i;
      out.push(hashes[min]!);
    } else if (hashes[end]! <= hashes[min]!) {
      min = end;
      out.push(hashes[min]!);
    }
  }
  return out;
}

// A file's winnowed hashes by its language and text: the same files come back in every round and
// track (an agent's unchanged helpers, the sample bot of each track), and tokenizing them is most
// of a track's evolution report. Pure: the key is the whole input. Bounded by the text it keeps.
const winnowed = new Map<string, number[]>();
let winnowedChars = 0;
const WINNOWED_CHARS_KEPT = 4 << 20;

function fileHashes(text: string, lang: NonNullable<BotFile['lang']>, o: WinnowOptions): number[] {
  if (o.k !== WINNOW_DEFAULTS.k || o.w !== WINNOW_DEFAULTS.w) return winnow(tokenize(text, lang), o);
  const key = `${lang}\u0000${text}`;
  let hashes = winnowed.get(key);
  if (hashes) return hashes;
  hashes = winnow(tokenize(text, lang), o);
  if (key.length > WINNOWED_CHARS_KEPT) return hashes;
  winnowed.set(key, hashes);
  winnowedChars += key.length;
  for (const [old] of winnowed) {
    if (winnowedChars <= WINNOWED_CHARS_KEPT) break;
    winnowed.delete(old);
    winnowedChars -= old.length;
  }
  return hashes;
}

/** A bot's fingerprint: the union of its code files' winnowed hashes (data and docs do not count). */
export function fingerprintFiles(files: readonly BotFile[], o: WinnowOptions = WINNOW_DEFAULTS): Set<number> {
  const set = new Set<number>();
  for (const f of files) {
    if (!f.lang) continue;
    for (const h of fileHashes(f.text, f.lang, o)) set.add(h);
  }
  return set;
}

/** fp minus the base code's hashes. */
export function withoutBase(fp: ReadonlySet<number>, base?: ReadonlySet<number>): Set<number> {
  if (!base?.size) return new Set(fp);
  const out = new Set<number>();
  for (const h of fp) if (!base.has(h)) out.add(h);
  return out;
}

/** sim(A → B) = |A ∩ B| / |A|; null when A has no fingerprint (no code beyond the base). */
export function similarity(a: ReadonlySet<number>, b: ReadonlySet<number>): number | null {
  if (!a.size) return null;
  let shared = 0;
  for (const h of a) if (b.has(h)) shared++;
  return shared / a.size;
}
