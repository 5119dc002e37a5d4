// Checks an agent can make before any money is spent (`catarena doctor`, and every tourney before
// it starts unless --no-check): is its endpoint reachable, does it accept the key, and does it
// serve the model named? One request that costs no tokens: the provider's model list (OpenAI and
// compatible servers GET {base}/models, all models in one list; Anthropic GET {base}/v1/models,
// paged, limit 1 to 1000, default 20, has_more/last_id (platform.claude.com/docs/en/api/models/list);
// Google GET {base}/v1beta/models, pageSize at most 1000, default 50, nextPageToken, each model's
// `name` "models/<id>" (ai.google.dev/api/rest/v1beta/models/list)). A model absent from the list
// is looked up once more where the provider resolves aliases (Anthropic's GET /v1/models/{id}:
// "Model identifier or alias", platform.claude.com/docs/en/api/models/retrieve; Google's next
// pages). Where a server has no list (404), it is reachable but the key and the model are only
// checked by the first real call. Where the key may not list models (a 403, or OpenAI's 401 "You
// have insufficient permissions for this operation. Missing scopes: api.model.read" for a
// restricted key that can still generate: community.openai.com "Missing scopes" threads), the check
// warns and the run goes on. A base URL without its version (http://host:8000 for a server that
// serves /v1) is named, with the URL to set, when the versioned one answers.

import { outboundFetch } from '../../util/outbound-http.ts';
import { familyName, lookupModel, MODEL_TABLE, modelTableWarning, type ModelTable } from './models.ts';

export interface PreflightCheck {
  /** What was checked, e.g. "endpoint (via the egress proxy)". */
  check: string;
  ok: boolean;
  detail: string;
  /** Ready, but worth a look before money is spent (e.g. a CLI agent naming no model). */
  warn?: boolean;
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
  /** The model the agent will ask for: it must be in the endpoint's model list. */
  model?: string;
  /**
   * The list is `{baseUrl}/models` whatever the API: the client posts under the base exactly as
   * given (the LLM-player's bot: {base}/chat/completions, {base}/messages, {base}/models/…).
   */
  exactBase?: boolean;
  /**
   * The version the client's base URL must end with ('/v1', '/v1beta') and the variable that set
   * it: a base without it whose list is not found, while `{base}{segment}/models` answers, fails
   * with the URL to set.
   */
  version?: { segment: string; variable: string };
}

/** What a probe found: ok, or ok with a warning (listing forbidden), or not. */
export interface ProbeResult {
  ok: boolean;
  detail: string;
  warn?: boolean;
}

/** The model-list URL of an endpoint. */
export function modelListUrl(api: EndpointApi, baseUrl: string, exactBase = false): string {
  const base = baseUrl.replace(/\/+$/, '');
  if (api === 'openai' || exactBase) return `${base}/models`;
  if (api === 'anthropic') return `${base.replace(/\/v1$/, '')}/v1/models`;
  return `${base.replace(/\/v1(beta)?$/, '')}/v1beta/models`;
}

/** The model ids of one page of a model list, and how to ask for the next page, if any. */
// biome-ignore lint/suspicious/noExplicitAny: a models list of any provider's shape, read field by field
function modelIds(api: EndpointApi, body: any): { ids: string[]; next?: string } {
  if (api === 'google') {
    const ids = (Array.isArray(body?.models) ? body.models : [])
      .map((m: { name?: unknown } | null) => String(m?.name ?? '').replace(/^models\//, ''))
      .filter(Boolean);
    return {
      ids,
      ...(typeof body?.nextPageToken === 'string' && body.nextPageToken
        ? { next: `pageToken=${encodeURIComponent(body.nextPageToken)}` }
        : {}),
    };
  }
  const ids = (Array.isArray(body?.data) ? body.data : [])
    .map((m: { id?: unknown } | null) => String(m?.id ?? ''))
    .filter(Boolean);
  return {
    ids,
    ...(api === 'anthropic' && body?.has_more && body?.last_id
      ? { next: `after_id=${encodeURIComponent(body.last_id)}` }
      : {}),
  };
}

/** A refusal to list that is no refusal of the key (OpenAI's restricted keys without api.model.read). */
const LISTING_FORBIDDEN = /insufficient permissions|missing scopes?:/i;

/**
 * A base URL without the version its client needs (http://host:8000 where the server serves
 * /v1): when `{base}{segment}/models` answers, the probe fails naming the URL to set; else nothing.
 */
async function missingVersion(
  p: EndpointProbe,
  get: (u: string) => Promise<Response>,
): Promise<ProbeResult | undefined> {
  const base = p.baseUrl.replace(/\/+$/, '');
  if (!p.version || base.endsWith(p.version.segment)) return undefined;
  const withVersion = `${base}${p.version.segment}`;
  const res = await get(`${withVersion}/models`).catch(() => undefined);
  await res?.body?.cancel();
  if (!res || (res.status !== 200 && res.status !== 401 && res.status !== 403)) return undefined;
  return {
    ok: false,
    detail: `${base} serves no API at its root (GET ${new URL(`${base}/models`).pathname}: HTTP 404), but ${withVersion} does: set ${p.version.variable}=${withVersion} (every call would go to ${base}/… and fail)`,
  };
}

/** The largest page each API gives (Anthropic's limit and Google's pageSize go up to 1000). */
const PAGE_QUERY: Record<EndpointApi, string> = { openai: '', anthropic: 'limit=1000', google: 'pageSize=1000' };

/** One GET of the model list (a few more for paged lists and aliases); never throws. The detail never contains the key. */
export async function probeEndpoint(p: EndpointProbe): Promise<ProbeResult> {
  const url = modelListUrl(p.api, p.baseUrl, p.exactBase);
  const headers = { ...(p.api === 'anthropic' ? { 'anthropic-version': '2023-06-01' } : {}), ...p.headers };
  // Node's own fetch ignores HTTP(S)_PROXY: behind a host proxy the preflight would call the
  // endpoint unreachable. outboundFetch honours it (and NO_PROXY); a loopback endpoint (the CLI
  // agents' own egress proxy, a local server) is always asked directly.
  const fetchVia = outboundFetch();
  const get = (u: string): Promise<Response> =>
    fetchVia(u, { headers, signal: AbortSignal.timeout(p.timeoutMs ?? 8_000) });
  const withQuery = (q: string) => (q ? `${url}${url.includes('?') ? '&' : '?'}${q}` : url);
  try {
    const res = await get(withQuery(PAGE_QUERY[p.api]));
    const where = `GET ${new URL(url).pathname}`;
    if (res.ok) {
      const accepted = `reachable, key accepted (${where}: HTTP ${res.status})`;
      if (!p.model) {
        await res.body?.cancel();
        return { ok: true, detail: accepted };
      }
      let page = modelIds(p.api, await res.json().catch(() => null));
      const listed = [...page.ids];
      for (let pages = 1; !listed.includes(p.model) && page.next && pages < 10; pages++) {
        const more = await get(withQuery([PAGE_QUERY[p.api], page.next].filter(Boolean).join('&')));
        if (!more.ok) break;
        page = modelIds(p.api, await more.json().catch(() => null));
        listed.push(...page.ids);
      }
      if (listed.includes(p.model)) return { ok: true, detail: `${accepted}; model ${p.model} listed` };
      if (p.api === 'anthropic') {
        // An alias (claude-sonnet-4-5) is not in the list of ids; the API resolves it.
        const one = await get(`${url}/${encodeURIComponent(p.model)}`);
        const info = one.ok
          ? ((await one.json().catch(() => null)) as { id?: string } | null)
          : (await one.body?.cancel(), null);
        if (info?.id) return { ok: true, detail: `${accepted}; model ${p.model} served (as ${info.id})` };
      }
      const some = listed.slice(0, 6).join(', ');
      return {
        ok: false,
        detail: `key accepted, but the model "${p.model}" is not served there: ${listed.length ? `${listed.length} models listed (${some}${listed.length > 6 ? ', …' : ''})` : 'the model list is empty'}`,
      };
    }
    const said = await res.text().catch(() => '');
    if (res.status === 403 || (res.status === 401 && LISTING_FORBIDDEN.test(said)))
      return {
        ok: true,
        warn: true,
        detail: `reachable, but the key may not list models (HTTP ${res.status} from ${where}${said ? `: ${said.replace(/\s+/g, ' ').slice(0, 160)}` : ''}); the key${p.model ? ' and the model are' : ' is'} checked by the first call (a restricted key needs the models-read permission for this check)`,
      };
    if (res.status === 401) return { ok: false, detail: `the key was refused (HTTP ${res.status} from ${where})` };
    if (res.status === 404) {
      const versioned = await missingVersion(p, get);
      if (versioned) return versioned;
      return {
        ok: true,
        detail: `reachable (it has no model list: HTTP 404); the key${p.model ? ' and the model are' : ' is'} checked by the first call`,
      };
    }
    if (res.status === 502 || res.status === 504)
      return {
        ok: false,
        detail: `not reachable: a proxy on the way could not reach it (HTTP ${res.status} from ${where})`,
      };
    return { ok: false, detail: `HTTP ${res.status} from GET ${url}` };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const why = e.name === 'TimeoutError' ? 'timed out' : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { ok: false, detail: `not reachable: ${url} (${why})` };
  }
}

/**
 * The model table's word on a model (a warning, never a failure): not in the table, or its entry
 * older than 90 days. A local OpenAI-compatible server's models are its own: not looked up.
 */
export function modelTableCheck(
  model: string | undefined,
  provider?: string,
  table: ModelTable = MODEL_TABLE,
): PreflightCheck[] {
  if (!model || provider === 'openai-compatible') return [];
  const warning = modelTableWarning(model, new Date(), table);
  return warning ? [{ check: 'model table', ok: true, warn: true, detail: warning }] : [];
}

/**
 * The API the client speaks against the one the model table says the model needs: a
 * Responses-only model (gpt-5.5-pro, the *-codex family) asked through chat completions fails
 * every call ("only supported in v1/responses"), so the check fails, saying what to use instead.
 */
export function modelApiCheck(
  model: string,
  speaks: 'chat' | 'responses',
  instead: string,
  table: ModelTable = MODEL_TABLE,
): PreflightCheck[] {
  const f = lookupModel(model, table);
  if (f?.provider !== 'openai' || f.api !== 'responses' || speaks === 'responses') return [];
  return [
    {
      check: 'model API',
      ok: false,
      detail: `${model} (${familyName(f)}) is served by the Responses API only, and this agent speaks chat completions: every call would fail; ${instead}`,
    },
  ];
}
