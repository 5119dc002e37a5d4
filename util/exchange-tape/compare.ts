// When a rerun's request "is" the recorded one (docs/rerun.md#what-counts-as-a-difference): the
// method, the path and the body, with the volatile parts of each left out. Headers never count
// (keys are redacted, SDK versions and request ids change). In the body:
//   - keys that identify a session, not a question: metadata, user, user_id, session_id,
//     prompt_cache_key, safety_identifier, request_id, idempotency_key (Claude Code's metadata.user_id
//     holds a session uuid; OpenAI's prompt_cache_key and user are per-run routing hints);
//   - inside strings: UUIDs, ISO-8601 timestamps, loopback ports (127.0.0.1:41234: bots and game
//     servers get free ports), the run directory and temporary directories, durations ("in 812 ms").
// Everything else (the prompt, the tools, the model, its sampling) must be equal.

const VOLATILE_KEYS = new Set([
  'metadata',
  'user',
  'user_id',
  'session_id',
  'prompt_cache_key',
  'safety_identifier',
  'request_id',
  'idempotency_key',
]);

const MASKS: Array<[RegExp, string]> = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+/g, '<loopback>'],
  [/\/tmp\/[^\s"'`/]+/g, '<tmp>'],
  [/\b\d+(\.\d+)? ?(ms|s|seconds?)\b/g, '<duration>'],
];

/** What of a request is compared: "METHOD /path" and the normalised body. */
export interface ComparableRequest {
  method: string;
  path: string;
  body: unknown;
}

/** A string with its volatile parts masked; `roots` (the run directories) become <run>. */
export function maskString(s: string, roots: string[]): string {
  let out = s;
  for (const root of roots) if (root) out = out.split(root).join('<run>');
  for (const [re, mask] of MASKS) out = out.replace(re, mask);
  return out;
}

function normalizeValue(value: unknown, roots: string[]): unknown {
  if (typeof value === 'string') return maskString(value, roots);
  if (Array.isArray(value)) return value.map((v) => normalizeValue(v, roots));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort())
      if (!VOLATILE_KEYS.has(key)) out[key] = normalizeValue((value as Record<string, unknown>)[key], roots);
    return out;
  }
  return value;
}

/** The request as compared: its body parsed as JSON where it is (else its text), masked. */
export function comparable(method: string, url: string, body: Buffer, roots: string[]): ComparableRequest {
  const text = body.toString('utf8');
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : '';
  } catch {
    // not JSON: compared as text
  }
  const u = new URL(url, 'http://x');
  return { method: method.toUpperCase(), path: maskString(u.pathname, roots), body: normalizeValue(parsed, roots) };
}

/** A stable key of a comparable request (equal requests, equal keys). */
export function requestKey(r: ComparableRequest): string {
  return JSON.stringify(r);
}

/** One difference between two JSON values: where, and each side (undefined: absent). */
export interface JsonDifference {
  path: string;
  recorded: unknown;
  rerun: unknown;
}

/** The leaves where two JSON values differ, at most `limit`, by path ($.messages[3].content). */
export function jsonDiff(recorded: unknown, rerun: unknown, limit = 40, at = '$'): JsonDifference[] {
  const out: JsonDifference[] = [];
  const walk = (a: unknown, b: unknown, p: string) => {
    if (out.length >= limit) return;
    if (a === b) return;
    const bothArrays = Array.isArray(a) && Array.isArray(b);
    const bothObjects =
      !!a && !!b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b);
    if (bothArrays) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${p}[${i}]`);
    } else if (bothObjects) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
      for (const k of keys) walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${p}.${k}`);
    } else out.push({ path: p, recorded: a, rerun: b });
  };
  walk(recorded, rerun, at);
  return out;
}
