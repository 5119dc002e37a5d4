// What `catarena serve` checks of a request and sends with a run's files (docs/serve.md):
// - the Host a request names must be one the server answers to, so a page on a foreign name
//   that resolves to 127.0.0.1 (DNS rebinding) reads nothing;
// - files agents wrote (their workspaces and strategies, bot logs: anything but catarena's own
//   pages) are served inert: never as HTML, SVG or script, under `Content-Security-Policy:
//   sandbox` and `nosniff`, so an agent's page cannot run script on the server's origin;
// - catarena's own pages (report.html, the replay page and its scripts) run their scripts under a
//   CSP that lets them fetch, frame or post nothing.
import type http from 'node:http';
import os from 'node:os';

export const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

const LOOPBACK = ['localhost', '127.0.0.1', '::1'];
const WILDCARD = new Set(['0.0.0.0', '::', '']);

/**
 * The host names a server bound to `bound` answers to: loopback's, the bound address (or, bound
 * to every address, the machine's addresses and name), and the operator's `extra`.
 */
export function allowedHosts(bound: string, extra: readonly string[]): Set<string> {
  const names = new Set([...LOOPBACK, ...extra].map(normalHost));
  if (!WILDCARD.has(bound)) names.add(normalHost(bound));
  else {
    names.add(normalHost(os.hostname()));
    for (const list of Object.values(os.networkInterfaces()))
      for (const a of list ?? []) names.add(normalHost(a.address.replace(/%.*$/, '')));
  }
  return names;
}

/** A host name as compared: lower case, no brackets, no trailing dot. */
function normalHost(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** The host name of a Host header or an origin's authority (`name:port`, `[v6]:port`), without the port. */
export function hostOfAuthority(authority: string): string {
  const v6 = /^\[([^\]]+)\](?::\d*)?$/.exec(authority);
  if (v6) return normalHost(v6[1]!);
  const colons = authority.split(':').length - 1;
  return normalHost(colons === 1 ? authority.slice(0, authority.indexOf(':')) : authority);
}

/** Why a request's Host is refused (null when it is one the server answers to). */
export function foreignHost(req: http.IncomingMessage, hosts: ReadonlySet<string>): string | null {
  const header = req.headers.host;
  if (!header) return 'a request must name the host it is for (Host header)';
  if (hosts.has(hostOfAuthority(header))) return null;
  return (
    `catarena serve does not answer to the host ${JSON.stringify(header.slice(0, 100))}: open it as ` +
    'localhost or 127.0.0.1 (or the address given to --host), or start it with --allow-host <name> for a name of your own'
  );
}

/** True when a request comes from a page of another site (its Origin is not one of the server's). */
export function foreignOrigin(req: http.IncomingMessage, hosts: ReadonlySet<string>): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    return !hosts.has(hostOfAuthority(new URL(origin).host));
  } catch {
    return true; // "null" (a sandboxed page, a file) or garbage
  }
}

/** catarena's own pages in a run: written by `catarena report` where agents write nothing. */
const OWN_PAGE = /^(repeats\/\d+\/)?(report\.html|replays\/[^/]+\.(html|js))$/;

/**
 * catarena's own pages: their scripts and styles from the server or inline, nothing fetched,
 * framed or posted. With no token, also a sandbox (a unique origin: a script that got in could not
 * read the server's other pages); a token's cookie is not sent from a sandbox, so with a token
 * the pages rely on the rest of the policy and on their escaping.
 */
const OWN_PAGE_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const OWN_PAGE_SANDBOX = 'sandbox allow-scripts allow-popups allow-downloads';

/** What agents wrote: no script, no plug-in, a unique origin, whatever the browser makes of it. */
const INERT_CSP = "sandbox; default-src 'none'";

/** Types that cannot run anything; every other file (HTML, SVG, scripts, code) is plain text or a download. */
const INERT_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.csv': 'text/csv; charset=utf-8',
  '.png': 'image/png',
};
const DOWNLOADS: Record<string, string> = {
  '.gz': 'application/gzip',
  '.pgn': 'application/x-chess-pgn',
};

/**
 * The headers of a run's file at `rel` (its path in the run, `/`-separated). `sandboxOwn`: put
 * catarena's own pages in a sandbox too (when no token is needed).
 */
export function fileHeaders(rel: string, sandboxOwn: boolean): Record<string, string> {
  const ext = /\.[^./]+$/.exec(rel)?.[0]?.toLowerCase() ?? '';
  if (OWN_PAGE.test(rel))
    return {
      'content-type': ext === '.js' ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8',
      'content-security-policy': sandboxOwn ? `${OWN_PAGE_SANDBOX}; ${OWN_PAGE_CSP}` : OWN_PAGE_CSP,
      ...NOSNIFF,
    };
  const download = DOWNLOADS[ext];
  return {
    'content-type': download ?? INERT_TYPES[ext] ?? 'text/plain; charset=utf-8',
    'content-security-policy': INERT_CSP,
    ...(download ? { 'content-disposition': 'attachment' } : {}),
    ...NOSNIFF,
  };
}
