// Stable content hashes: equal JSON content (whatever its key order) gives equal ids, so match
// specs, reuse keys and warm-bot keys can be compared across runs and machines.
import { createHash } from 'node:crypto';

/** A short stable hex id for JSON-serialisable content (match ids, strategy hashes). */
export function contentId(value: unknown, length = 16): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex').slice(0, length);
}

/** JSON with sorted object keys, so equal content hashes equally. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(obj[k])}`).join(',')}}`;
}
