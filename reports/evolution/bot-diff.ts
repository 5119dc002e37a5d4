// What changed in a bot between two rounds: files added, removed and changed, lines added and
// removed, and a unified diff of the source (`diff -u` per file, a/ and b/ prefixes) over the
// files ./bot-files.ts reads; vendored, generated, binary and large files are only named.
import type { BotFiles } from './bot-files.ts';
import { diffLines, splitLines, unifiedHunks } from './line-diff.ts';

export interface FileChange {
  path: string;
  status: 'added' | 'removed' | 'changed';
  added: number;
  removed: number;
  /** The edit was too large to search: shown as a whole replacement. */
  replaced?: boolean;
}

export interface BotDiff {
  files: { added: number; removed: number; changed: number; unchanged: number };
  lines: { added: number; removed: number };
  changes: FileChange[];
  /** The unified diff of every changed file; empty when nothing changed. */
  unified: string;
  /** Files left out on the new side (vendored, generated, binary, large), by path. */
  skipped: string[];
}

/** The diff from `before` (null: no earlier bot, so every file is added) to `after`. */
export function diffBots(before: BotFiles | null, after: BotFiles): BotDiff {
  const a = new Map((before?.files ?? []).map((f) => [f.path, f.text]));
  const b = new Map(after.files.map((f) => [f.path, f.text]));
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  const changes: FileChange[] = [];
  const out: string[] = [];
  let unchanged = 0;
  for (const p of paths) {
    const old = a.get(p);
    const now = b.get(p);
    if (old === now) {
      unchanged++;
      continue;
    }
    const d = diffLines(splitLines(old ?? ''), splitLines(now ?? ''));
    const status = old === undefined ? 'added' : now === undefined ? 'removed' : 'changed';
    changes.push({ path: p, status, added: d.added, removed: d.removed, ...(d.replaced ? { replaced: true } : {}) });
    out.push(
      `--- ${old === undefined ? '/dev/null' : `a/${p}`}`,
      `+++ ${now === undefined ? '/dev/null' : `b/${p}`}`,
      ...unifiedHunks(d.ops),
    );
  }
  const count = (s: FileChange['status']) => changes.filter((c) => c.status === s).length;
  return {
    files: { added: count('added'), removed: count('removed'), changed: count('changed'), unchanged },
    lines: { added: changes.reduce((n, c) => n + c.added, 0), removed: changes.reduce((n, c) => n + c.removed, 0) },
    changes,
    unified: out.length ? `${out.join('\n')}\n` : '',
    skipped: after.skipped.map((s) => `${s.path} (${s.why})`),
  };
}
