// How catarena's own calls to LLM endpoints leave the host (the built-in agent, the preflight, the
// egress proxy's upstream): through the host's proxy when HTTP(S)_PROXY is set (NO_PROXY
// honoured; Node's own fetch ignores all three), and with header and body timeouts chosen for
// long model answers instead of undici's 300 s defaults. A loopback endpoint (a local server, a
// CLI agent's own egress proxy) is always reached directly.
import { Agent, EnvHttpProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';

type Env = Record<string, string | undefined>;

export interface OutboundOptions {
  /** Where HTTP_PROXY, HTTPS_PROXY and NO_PROXY are read (either case; lower case first, as undici and curl). Default process.env. */
  env?: Env;
  /** How long a response's headers may take; 0 = no limit. Default OUTBOUND_DEFAULTS.headersTimeoutMs. */
  headersTimeoutMs?: number;
  /** How long the body may pause between two chunks; 0 = no limit. Default OUTBOUND_DEFAULTS.bodyTimeoutMs. */
  bodyTimeoutMs?: number;
}

export const OUTBOUND_DEFAULTS = {
  // A non-streaming call sends its headers only with the whole answer: at the provider's maximum
  // max_tokens that can take far beyond undici's 300 s (Anthropic's SDK reckons an hour per 128k
  // output tokens and refuses non-streaming calls it expects to pass 10 minutes). 30 minutes
  // covers a 64k-token answer; the caller's own deadline (an abort signal) still ends it earlier.
  headersTimeoutMs: 1_800_000,
  bodyTimeoutMs: 1_800_000,
} as const;

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|::1)$/i;

/** True for localhost, 127.x and ::1: never sent through a host proxy. */
export function isLoopback(url: string | URL): boolean {
  return LOOPBACK.test(new URL(url).hostname);
}

const proxyVar = (env: Env, name: string) => env[name.toLowerCase()]?.trim() || env[name]?.trim() || '';

/** The host's proxy settings from env ('' where unset). */
export function hostProxySettings(env: Env = process.env): { httpProxy: string; httpsProxy: string; noProxy: string } {
  const httpProxy = proxyVar(env, 'HTTP_PROXY');
  return { httpProxy, httpsProxy: proxyVar(env, 'HTTPS_PROXY') || httpProxy, noProxy: proxyVar(env, 'NO_PROXY') };
}

/** Whether a request to url may go through a host proxy (one is set and url is not loopback); NO_PROXY is judged by the dispatcher. */
export function mayUseHostProxy(url: string | URL, env: Env = process.env): boolean {
  const s = hostProxySettings(env);
  return !isLoopback(url) && !!(new URL(url).protocol === 'https:' ? s.httpsProxy : s.httpProxy);
}

/**
 * The host proxy a CONNECT tunnel to host:port goes through ('' for none): HTTPS_PROXY (else
 * HTTP_PROXY) unless the host is loopback or NO_PROXY names it, judged as undici's
 * EnvHttpProxyAgent judges it (entries split on commas and spaces; "*" for all; a leading "." or
 * "*." ignored; the host or a subdomain of it; a port, when given, must match).
 */
export function hostProxyForTunnel(host: string, port: number, env: Env = process.env): string {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  const s = hostProxySettings(env);
  if (!s.httpsProxy || LOOPBACK.test(bare) || LOOPBACK.test(`[${bare}]`)) return '';
  if (s.noProxy.trim() === '*') return '';
  for (const entry of s.noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const m = /^(.+):(\d+)$/.exec(entry);
    const name = (m ? m[1]! : entry).replace(/^\*?\./, '').toLowerCase();
    if (m && Number(m[2]) !== port) continue;
    if (bare === name || bare.endsWith(`.${name}`)) return '';
  }
  return s.httpsProxy;
}

const dispatchers = new Map<string, Dispatcher>();

/**
 * The dispatcher for a request to url: the host's proxy where it applies, else direct; both with
 * the timeouts. One per setting, shared (connections are kept and reused).
 */
export function outboundDispatcher(url: string | URL, options: OutboundOptions = {}): Dispatcher {
  const env = options.env ?? process.env;
  const timeouts = {
    headersTimeout: options.headersTimeoutMs ?? OUTBOUND_DEFAULTS.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs ?? OUTBOUND_DEFAULTS.bodyTimeoutMs,
  };
  const proxy = mayUseHostProxy(url, env) ? hostProxySettings(env) : undefined;
  const key = JSON.stringify([proxy, timeouts]);
  let d = dispatchers.get(key);
  if (!d) dispatchers.set(key, (d = proxy ? new EnvHttpProxyAgent({ ...proxy, ...timeouts }) : new Agent(timeouts)));
  return d;
}

/** A fetch for an SDK (the AI SDK providers take one) or the preflight: each request through outboundDispatcher. */
export function outboundFetch(options: OutboundOptions = {}): typeof globalThis.fetch {
  return ((input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as object),
      dispatcher: outboundDispatcher(url, options),
    });
  }) as unknown as typeof globalThis.fetch;
}
