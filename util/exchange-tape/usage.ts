// The token usage a model's answer reports, for the recording's index: OpenAI's and Anthropic's
// `usage`, Gemini's `usageMetadata`, in a JSON body or in the last server-sent event carrying one
// (streams send it at the end; Anthropic splits it over message_start and message_delta, merged).
import zlib from 'node:zlib';

type Usage = Record<string, unknown>;

/** The bytes as text, decoded from the content-encoding the egress proxy recorded them with. */
export function decodedText(body: Buffer, encoding: string | undefined): string {
  try {
    if (encoding === 'gzip') return zlib.gunzipSync(body).toString('utf8');
    if (encoding === 'br') return zlib.brotliDecompressSync(body).toString('utf8');
    if (encoding === 'deflate') return zlib.inflateSync(body).toString('utf8');
  } catch {
    return '';
  }
  return body.toString('utf8');
}

function usageIn(value: unknown): Usage | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const o = value as Record<string, unknown>;
  const found = o.usage ?? o.usageMetadata ?? (o.message as Record<string, unknown> | undefined)?.usage;
  if (found && typeof found === 'object') return found as Usage;
  const response = o.response as Record<string, unknown> | undefined; // Responses API stream events
  return response?.usage && typeof response.usage === 'object' ? (response.usage as Usage) : undefined;
}

/** The usage an answer reports, or undefined. */
export function usageOf(text: string): Usage | undefined {
  try {
    return usageIn(JSON.parse(text));
  } catch {
    // a stream: each `data:` line is an event
  }
  let merged: Usage | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    try {
      const usage = usageIn(JSON.parse(line.slice(5).trim()));
      if (usage) merged = { ...merged, ...usage };
    } catch {
      // [DONE] or a partial event
    }
  }
  return merged;
}
