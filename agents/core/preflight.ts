// Checks an agent can make before any money is spent (`catarena doctor`, `tourney --check`): is
// its endpoint reachable and does it accept the key? One request that costs no tokens: the
// provider's model list (OpenAI and compatible servers GET {base}/models, Anthropic GET
// {base}/v1/models, Google GET {base}/v1beta/models). Where a server has no such list (404), it is
// reachable but the key is only checked by the first real call.

export interface PreflightCheck {
  /** What was checked, e.g. "endpoint (via the egress proxy)". */
  check: string;
  ok: boolean;
  detail: string;
}

/** The API family an endpoint speaks. */
export type EndpointApi = 'openai' | 'anthropic' | 'google';

export interface EndpointProbe {
  api: EndpointApi;
  /** The base URL as the agent uses it (OpenAI's includes /v1). */
  baseUrl: string;
  /** The key's header, set by the caller (or added by a proxy on the way). */
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** The model-list URL of an endpoint. */
export function modelListUrl(api: EndpointApi, baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (api === 'openai') return `${base}/models`;
  if (api === 'anthropic') return `${base.replace(/\/v1$/, '')}/v1/models`;
  return `${base.replace(/\/v1(beta)?$/, '')}/v1beta/models`;
}

/** One GET of the model list; never throws. The detail never contains the key. */
export async function probeEndpoint(p: EndpointProbe): Promise<{ ok: boolean; detail: string }> {
  const url = modelListUrl(p.api, p.baseUrl);
  const headers = { ...(p.api === 'anthropic' ? { 'anthropic-version': '2023-06-01' } : {}), ...p.headers };
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(p.timeoutMs ?? 8_000) });
    await res.body?.cancel();
    if (res.ok) return { ok: true, detail: `reachable, key accepted (GET ${new URL(url).pathname}: HTTP ${res.status})` };
    if (res.status === 401 || res.status === 403) return { ok: false, detail: `the key was refused (HTTP ${res.status} from GET ${new URL(url).pathname})` };
    if (res.status === 404) return { ok: true, detail: `reachable (it has no model list: HTTP 404); the key is checked by the first call` };
    if (res.status === 502 || res.status === 504) return { ok: false, detail: `not reachable: a proxy on the way could not reach it (HTTP ${res.status} from GET ${new URL(url).pathname})` };
    return { ok: false, detail: `HTTP ${res.status} from GET ${url}` };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === 'TimeoutError' ? 'timed out' : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { ok: false, detail: `not reachable: ${url} (${why})` };
  }
}
