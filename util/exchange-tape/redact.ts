// What a recording of a model exchange must never hold: API keys. Redacted at the point of capture
// (util/exchange-tape/tape.ts), before anything is hashed or written: the key headers' values, a
// `key=` query parameter (Gemini's), and, anywhere in a body, the value of every secret variable of
// the orchestrator's environment (a key an agent echoed into a tool result).

/** Headers that carry a key or a credential; their values are recorded as `***`. */
export const SECRET_HEADERS = new Set([
  'x-api-key',
  'authorization',
  'x-goog-api-key',
  'api-key',
  'proxy-authorization',
  'cookie',
  'set-cookie',
]);

/** Headers a replay must not copy from the recording (the connection's own, or what fetch already decoded). */
const UNRECORDED_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'host']);

export const REDACTED = '***';

/** The names of environment variables whose values are secrets: keys, tokens, passwords. */
const SECRET_NAME = /(API_KEY|_KEY|TOKEN|SECRET|PASSWORD)$/;

/** The secret values of `env` (at least 8 characters, longest first, so a key containing another is masked whole). */
export function secretValues(env: Record<string, string | undefined> = process.env): string[] {
  const values = Object.entries(env)
    .filter(([name, value]) => SECRET_NAME.test(name) && typeof value === 'string' && value.trim().length >= 8)
    .map(([, value]) => value!.trim());
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

/** The headers with every credential's value replaced, names lower-cased, connection headers left out. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const key = name.toLowerCase();
    if (UNRECORDED_HEADERS.has(key)) continue;
    out[key] = SECRET_HEADERS.has(key) ? REDACTED : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** The URL with a `key=` query parameter's value replaced (Gemini takes its key there too). */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:key|api_key|api-key)=)[^&#]*/gi, `$1${REDACTED}`);
}

/** The bytes with every secret value replaced (a body that holds no secret is returned as it is). */
export function redactBody(body: Buffer, secrets: string[]): Buffer {
  if (!secrets.length || !body.length) return body;
  let text: string | undefined;
  for (const secret of secrets) {
    if (body.indexOf(secret) < 0 && !text?.includes(secret)) continue;
    text = (text ?? body.toString('latin1')).split(secret).join(REDACTED);
  }
  return text === undefined ? body : Buffer.from(text, 'latin1');
}
