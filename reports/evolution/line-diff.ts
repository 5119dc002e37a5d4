// A line diff (Myers' O(ND) greedy algorithm, "An O(ND) Difference Algorithm and Its Variations",
// 1986) and its unified form with context, as `diff -u` prints it. Common head and tail lines are
// stripped first; an edit distance above `maxEdits`, or one whose search would cost more than
// `maxWork` line comparisons, is reported as a whole replacement instead of searched for, so a
// rewritten 20,000-line file costs a bounded time (about 0.1 s).

export type Op = { kind: ' ' | '-' | '+'; line: string };

export interface LineDiff {
  ops: Op[];
  added: number;
  removed: number;
  /** The edit distance exceeded maxEdits: the middle is shown as removed, then added. */
  replaced: boolean;
}

export function splitLines(text: string): string[] {
  if (!text) return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function diffLines(a: readonly string[], b: readonly string[], maxEdits = 4000, maxWork = 2e7): LineDiff {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const A = a.slice(head, a.length - tail);
  const B = b.slice(head, b.length - tail);
  const keep = (lines: readonly string[]) => lines.map((line): Op => ({ kind: ' ', line }));
  const middle = myers(A, B, Math.min(maxEdits, Math.floor(maxWork / Math.max(1, A.length + B.length))));
  const replaced = middle === null;
  const mid = middle ?? [...A.map((line): Op => ({ kind: '-', line })), ...B.map((line): Op => ({ kind: '+', line }))];
  const ops = [...keep(a.slice(0, head)), ...mid, ...keep(a.slice(a.length - tail))];
  let added = 0;
  let removed = 0;
  for (const op of mid) {
    if (op.kind === '+') added++;
    else if (op.kind === '-') removed++;
  }
  return { ops, added, removed, replaced };
}

/** The shortest edit script from A to B, or null when it needs more than maxEdits edits. */
function myers(A: readonly string[], B: readonly string[], maxEdits: number): Op[] | null {
  const n = A.length;
  const m = B.length;
  if (n === 0 || m === 0)
    return [...A.map((line): Op => ({ kind: '-', line })), ...B.map((line): Op => ({ kind: '+', line }))];
  // Lines as integers, so the inner loop compares numbers.
  const ids = new Map<string, number>();
  const id = (s: string) => {
    let v = ids.get(s);
    if (v === undefined) ids.set(s, (v = ids.size));
    return v;
  };
  const a = Int32Array.from(A, id);
  const b = Int32Array.from(B, id);
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] holds v[-d..d] after step d: O(D²) memory, bounded by maxEdits.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(v.slice(offset - d, offset + d + 1));
        return backtrack(trace, A, B);
      }
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  return null;
}

function backtrack(trace: Int32Array[], A: readonly string[], B: readonly string[]): Op[] {
  const ops: Op[] = [];
  let x = A.length;
  let y = B.length;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d - 1]!; // v[-(d-1)..d-1]
    const at = (k: number) => prev[k + d - 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', line: A[--x]! });
      y--;
    }
    if (down) ops.push({ kind: '+', line: B[--y]! });
    else ops.push({ kind: '-', line: A[--x]! });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: ' ', line: A[--x]! });
    y--;
  }
  return ops.reverse();
}

export interface Hunk {
  aStart: number;
  aLines: number;
  bStart: number;
  bLines: number;
  ops: Op[];
}

/** The changes grouped into hunks with `context` unchanged lines around each, as diff -u does. */
export function hunks(ops: readonly Op[], context = 3): Hunk[] {
  const out: Hunk[] = [];
  const changed = ops.map((o) => o.kind !== ' ');
  let i = 0;
  // Line numbers (1-based) before each op.
  const aAt: number[] = [];
  const bAt: number[] = [];
  let an = 1;
  let bn = 1;
  for (const o of ops) {
    aAt.push(an);
    bAt.push(bn);
    if (o.kind !== '+') an++;
    if (o.kind !== '-') bn++;
  }
  while (i < ops.length) {
    if (!changed[i]) {
      i++;
      continue;
    }
    const start = Math.max(0, i - context);
    let end = i;
    // Extend while the next change is within 2 × context unchanged lines.
    for (;;) {
      while (end < ops.length && changed[end]) end++;
      let gap = end;
      while (gap < ops.length && !changed[gap] && gap - end < 2 * context + 1) gap++;
      if (gap < ops.length && changed[gap] && gap - end <= 2 * context) end = gap;
      else break;
    }
    const stop = Math.min(ops.length, end + context);
    const slice = ops.slice(start, stop);
    const aLines = slice.filter((o) => o.kind !== '+').length;
    const bLines = slice.filter((o) => o.kind !== '-').length;
    out.push({
      aStart: aLines ? aAt[start]! : aAt[start]! - 1,
      aLines,
      bStart: bLines ? bAt[start]! : bAt[start]! - 1,
      bLines,
      ops: slice,
    });
    i = stop;
  }
  return out;
}

/** A file's unified diff (without the ---/+++ header). */
export function unifiedHunks(ops: readonly Op[], context = 3): string[] {
  const lines: string[] = [];
  for (const h of hunks(ops, context)) {
    lines.push(`@@ -${h.aStart},${h.aLines} +${h.bStart},${h.bLines} @@`);
    for (const o of h.ops) lines.push(`${o.kind}${o.line}`);
  }
  return lines;
}
