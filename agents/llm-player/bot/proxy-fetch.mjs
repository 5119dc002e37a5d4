// fetch that honours the host's HTTP(S)_PROXY and NO_PROXY, which Node's own fetch ignores (the
// process sandbox passes these variables to the LLM-player bot; it has no dependencies, so no
// undici). Through the proxy an http:// endpoint is asked in absolute form, an https:// one through a
// CONNECT tunnel; a loopback endpoint, or one NO_PROXY names, is asked directly with fetch. The
// answer has what the bot reads of a fetch Response: ok, status, headers.get() and text().
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|::1)$/i;

/** The proxy URL for a request to url, or '' (none set, loopback, or NO_PROXY matches). */
export function proxyFor(url, env = process.env) {
  const u = new URL(url);
  const pick = (name) => env[name.toLowerCase()]?.trim() || env[name]?.trim() || '';
  const proxy = u.protocol === 'https:' ? pick('HTTPS_PROXY') || pick('HTTP_PROXY') : pick('HTTP_PROXY');
  if (!proxy || LOOPBACK.test(u.hostname)) return '';
  const host = u.hostname.toLowerCase();
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  for (const raw of pick('NO_PROXY').split(/[\s,]+/).filter(Boolean)) {
    if (raw === '*') return '';
    const [name, p] = raw.replace(/^\*?\./, '.').toLowerCase().split(':');
    if (p && p !== port) continue;
    const bare = name.replace(/^\./, '');
    if (host === bare || host.endsWith(`.${bare}`)) return '';
  }
  return proxy;
}

/** POST (or any method) to url through the proxy, if one applies; else Node's fetch. */
export async function proxiedFetch(url, init = {}, env = process.env) {
  const proxy = proxyFor(url, env);
  if (!proxy) return fetch(url, init);
  const target = new URL(url);
  const via = new URL(proxy);
  const auth = via.username ? { 'proxy-authorization': `Basic ${Buffer.from(`${decodeURIComponent(via.username)}:${decodeURIComponent(via.password)}`).toString('base64')}` } : {};
  const headers = { ...init.headers, host: target.host, ...(init.body !== undefined ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}) };
  const viaPort = Number(via.port || (via.protocol === 'https:' ? 443 : 80));
  const viaRequest = via.protocol === 'https:' ? https.request : http.request;
  const send = (options) =>
    new Promise((resolve, reject) => {
      const req = (target.protocol === 'https:' ? https.request : http.request)(options, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ ok: res.statusCode >= 200 && res.statusCode < 300, status: res.statusCode, headers: { get: (n) => res.headers[n.toLowerCase()] ?? null }, text: async () => text, json: async () => JSON.parse(text) });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      init.signal?.addEventListener('abort', () => req.destroy(init.signal.reason ?? new Error('aborted')), { once: true });
      if (init.body !== undefined) req.write(init.body);
      req.end();
    });
  if (target.protocol === 'http:') {
    return send({ protocol: via.protocol, hostname: via.hostname, port: viaPort, method: init.method ?? 'GET', path: target.href, headers: { ...headers, ...auth } });
  }
  const port = Number(target.port || 443);
  const socket = await new Promise((resolve, reject) => {
    const connect = viaRequest({ hostname: via.hostname, port: viaPort, method: 'CONNECT', path: `${target.hostname}:${port}`, headers: { host: `${target.hostname}:${port}`, ...auth } });
    connect.on('connect', (res, s) => (res.statusCode === 200 ? resolve(s) : (s.destroy(), reject(new Error(`the proxy refused the tunnel: HTTP ${res.statusCode}`)))));
    connect.on('error', reject);
    connect.end();
  });
  const secure = tls.connect({ socket, servername: target.hostname });
  return send({ hostname: target.hostname, port, method: init.method ?? 'GET', path: `${target.pathname}${target.search}`, headers, createConnection: () => secure, agent: false });
}
