// `catarena serve`: a local web server over a runs folder (docs/serve.md). Pages are plain HTML
// and scripts served from this module (nothing from a CDN); live data is pushed with server-sent
// events. It reads run directories and never writes them:
//   /                      every run: state (running, finished, interrupted, killed), what it plays, progress, links
//   /run/<name>/           a run's live page: progress lines, agents developing, games in flight
//                          with their boards, W per track and the leaderboard filling in, failures
//   /run/<name>/files/…    the run's own files (report.html, replays …; agents' files as inert text, no links)
//   /queue                 with --queue: workers, what each plays, queue depth and throughput
// Bound to 127.0.0.1 unless --host says otherwise; then every request needs the printed token
// (?token=…, kept as a cookie for the pages' own links). Every request must name a host it
// answers to (DNS rebinding; request-guard.ts), and the run's files agents wrote are served inert.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { viewerScript } from '../../reports/html/replay-page.ts';
import { PAGE_CSS } from '../../reports/html/page.ts';
import { boardRuleScript } from '../../reports/board-rule.ts';
import { PROJECT_ROOT } from '../../util/paths.ts';
import { listRuns, runState, runSummary } from './runs.ts';
import { RunWatch, watchStats, type WatchMessage } from './watch.ts';
import { runHumans, type Spectator } from './spectator.ts';
import { openInside } from './safe-file.ts';
import { allowedHosts, fileHeaders, foreignHost, foreignOrigin, NOSNIFF } from './request-guard.ts';
import { replayViewerData } from './replays.ts';
import { SERVE_CSS, REPLAY_CSS } from './page-css.ts';

export interface ServeOptions {
  /** The runs folder (run directories and index.jsonl). */
  out: string;
  host?: string;
  port?: number;
  /** A queue's Redis URL: the queue page. */
  queue?: string;
  /** Queue status now (orchestrator/queue/status.ts), when --queue is given. */
  queueStatus?: () => Promise<unknown>;
  /**
   * What the live page shows of games in flight without a human seat (spectator.ts): `full` every
   * seat's cards, `public` what every seat sees. Default: per run, public when a person plays in it.
   */
  spectator?: Spectator;
  /** Host names it also answers to (--allow-host): beside localhost, 127.0.0.1, [::1] and the bound address. */
  allowHosts?: string[];
}

export class ServeServer {
  private readonly server: http.Server;
  private readonly watches = new Map<string, RunWatch>();
  readonly token: string | null;
  private scripts?: Promise<Record<string, string>>;
  private readonly sockets = new Set<http.ServerResponse>();
  /** Host names (no port) requests may name in their Host header. */
  private readonly hosts: Set<string>;
  port = 0;

  constructor(private readonly options: ServeOptions) {
    const host = options.host ?? '127.0.0.1';
    this.token =
      host === '127.0.0.1' || host === 'localhost' || host === '::1' ? null : randomBytes(16).toString('hex');
    this.hosts = allowedHosts(host, options.allowHosts ?? []);
    this.server = http.createServer((req, res) => {
      this.route(req, res).catch((err) => {
        if (!res.headersSent) text(res, 500, `error: ${(err as Error).message}`);
        else res.end();
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 8080, this.options.host ?? '127.0.0.1', resolve);
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** The URL to open (with the token when one is needed). */
  get url(): string {
    const host = this.options.host ?? '127.0.0.1';
    return `http://${host.includes(':') ? `[${host}]` : host}:${this.port}/${this.token ? `?token=${this.token}` : ''}`;
  }

  async close(): Promise<void> {
    for (const w of this.watches.values()) w.close();
    this.watches.clear();
    for (const s of this.sockets) s.end();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private authorised(req: http.IncomingMessage, res: http.ServerResponse, url: URL): boolean {
    if (!this.token) return true;
    const given =
      url.searchParams.get('token') ?? /(?:^|;\s*)catarena_token=([0-9a-f]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '';
    const ok = given.length === this.token.length && timingSafeEqual(Buffer.from(given), Buffer.from(this.token));
    if (ok && url.searchParams.has('token'))
      res.setHeader('set-cookie', `catarena_token=${this.token}; HttpOnly; SameSite=Strict; Path=/`);
    return ok;
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const foreign = foreignHost(req, this.hosts);
    if (foreign) return text(res, 421, foreign);
    if (!this.authorised(req, res, url))
      return text(res, 403, 'this server needs the token catarena serve printed (?token=…)');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      // Nothing here changes state; a page elsewhere posting to it is refused as such all the same.
      if (foreignOrigin(req, this.hosts)) return text(res, 403, 'requests from other sites are refused');
      return text(res, 405, 'read-only');
    }
    const p = url.pathname;
    if (p === '/') return html(res, shell('catarena runs', 'runs', { queue: Boolean(this.options.queue) }));
    // catarena's own pages (report.html, the replay page) name no icon: the browser asks for this one.
    if (p === '/favicon.ico') return void res.writeHead(204, NOSNIFF).end();
    if (p === '/api/runs') return json(res, await listRuns(this.options.out));
    if (p === '/api/stats') return json(res, { ...watchStats, cpu: process.cpuUsage(), uptimeS: process.uptime() });
    if (p === '/api/runs/events') return this.runsEvents(req, res);
    if (p.startsWith('/assets/')) return this.asset(res, p.slice('/assets/'.length));
    if (p === '/queue') return html(res, shell('catarena queue', 'queue', { queue: Boolean(this.options.queue) }));
    if (p === '/api/queue/events') return this.queueEvents(req, res);
    const m = /^\/run\/([^/]+)(\/.*)?$/.exec(p);
    if (m) {
      const name = decodeURIComponent(m[1]!);
      const dir = path.join(path.resolve(this.options.out), name);
      if (name.includes('/') || name.startsWith('.') || !fs.existsSync(dir)) return text(res, 404, `no run ${name}`);
      const rest = m[2] ?? '';
      if (rest === '') {
        res.writeHead(302, { location: `/run/${encodeURIComponent(name)}/` });
        res.end();
        return;
      }
      if (rest === '/') return html(res, shell(`catarena · ${name}`, 'run', { run: name }));
      if (rest === '/events') return this.runEvents(req, res, name, dir);
      if (rest === '/summary') return json(res, await runSummary(dir));
      if (rest === '/replay' || rest === '/replay-data') {
        if (personPlaying(dir))
          return text(
            res,
            403,
            `${name} is withheld while a person plays in it: its replays open once the run is over`,
          );
        if (rest === '/replay') return html(res, shell(`catarena · ${name} · replay`, 'replay', { run: name }));
        const found = await replayViewerData(dir, url.searchParams.get('id') ?? '');
        return 'data' in found ? json(res, found.data) : text(res, found.status, found.error);
      }
      if (rest.startsWith('/files/')) {
        // live.jsonl, the replays, the bots' logs, the seeds: a person playing could read the other seats' cards there.
        if (personPlaying(dir))
          return text(res, 403, `${name} is withheld while a person plays in it: its files open once the run is over`);
        return this.file(res, path.resolve(dir), decodeURIComponent(rest.slice('/files/'.length)));
      }
    }
    text(res, 404, 'not found');
  }

  private async asset(res: http.ServerResponse, name: string): Promise<void> {
    this.scripts ??= (async () => ({
      'viewer.js': await viewerScript(),
      'dom.js': await fsp.readFile(path.join(PROJECT_ROOT, 'orchestrator', 'serve', 'pages', 'dom.js'), 'utf8'),
      'runs.js': await fsp.readFile(path.join(PROJECT_ROOT, 'orchestrator', 'serve', 'pages', 'runs-page.js'), 'utf8'),
      'run.js': await fsp.readFile(path.join(PROJECT_ROOT, 'orchestrator', 'serve', 'pages', 'run-page.js'), 'utf8'),
      'shared.js': boardRuleScript(),
      'replay.js': `${await fsp.readFile(path.join(PROJECT_ROOT, 'reports', 'html', 'viewer-shell.js'), 'utf8')}\n${await fsp.readFile(path.join(PROJECT_ROOT, 'orchestrator', 'serve', 'pages', 'replay-page.js'), 'utf8')}`,
      'queue.js': await fsp.readFile(
        path.join(PROJECT_ROOT, 'orchestrator', 'serve', 'pages', 'queue-page.js'),
        'utf8',
      ),
    }))();
    const body = (await this.scripts)[name];
    if (body === undefined) return text(res, 404, 'not found');
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', ...NOSNIFF });
    res.end(body);
  }

  /**
   * A run's own file, inside its directory only: a path that leads out of it through a link (an
   * agent's `rootdir -> /`) is refused, and the file is read from the descriptor that was checked.
   * Files agents wrote are served inert; catarena's own pages run their scripts (request-guard.ts).
   */
  private async file(res: http.ServerResponse, dir: string, rel: string): Promise<void> {
    const file = path.resolve(dir, rel);
    if (!file.startsWith(`${dir}${path.sep}`)) return text(res, 403, 'outside the run');
    const opened = openInside(dir, file);
    if (opened === 'outside') return text(res, 403, `${rel} leads outside the run (a link): not served`);
    if (opened === 'missing') return text(res, 404, `no ${rel} in this run (yet)`);
    if (opened === 'not a file') return text(res, 404, `${rel} is not a file`);
    const size = opened.stat.size;
    const own = path.relative(dir, file).split(path.sep).join('/');
    res.writeHead(200, { ...fileHeaders(own, !this.token), 'content-length': size, 'cache-control': 'no-cache' });
    if (size === 0) {
      fs.closeSync(opened.fd);
      res.end();
      return;
    }
    // The size read at the open: a file still growing (live.jsonl) is sent as it was then.
    fs.createReadStream('', { fd: opened.fd, start: 0, end: size - 1 }).pipe(res);
  }

  private sse(req: http.IncomingMessage, res: http.ServerResponse): (m: unknown) => void {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...NOSNIFF,
    });
    res.write('retry: 2000\n\n');
    this.sockets.add(res);
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    req.on('close', () => {
      clearInterval(ping);
      this.sockets.delete(res);
    });
    return (m) => res.write(`data: ${JSON.stringify(m)}\n\n`);
  }

  private async runEvents(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    name: string,
    dir: string,
  ): Promise<void> {
    const send = this.sse(req, res);
    let watch = this.watches.get(name);
    if (!watch) {
      watch = new RunWatch(dir, this.options.spectator);
      this.watches.set(name, watch);
    }
    const w = watch;
    send({ ...(await w.snapshot()), summary: await runSummary(dir) });
    const off = w.subscribe((m: WatchMessage) => send(m));
    req.on('close', () => {
      off();
      if (w.watchers === 0) {
        w.close();
        this.watches.delete(name);
      }
    });
  }

  /** The runs list, sent again when it changes (checked every second while a page watches). */
  private async runsEvents(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const send = this.sse(req, res);
    let last = '';
    const check = async () => {
      const runs = await listRuns(this.options.out);
      const text = JSON.stringify(runs);
      if (text !== last) {
        last = text;
        send({ type: 'runs', runs });
      }
    };
    await check();
    const timer = setInterval(() => void check().catch(() => {}), 1_000);
    req.on('close', () => clearInterval(timer));
  }

  private async queueEvents(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const send = this.sse(req, res);
    if (!this.options.queueStatus) {
      send({ type: 'queue', error: 'catarena serve was started without --queue' });
      return;
    }
    const check = async () => {
      try {
        send({ type: 'queue', at: Date.now(), status: await this.options.queueStatus!() });
      } catch (err) {
        send({ type: 'queue', error: (err as Error).message });
      }
    };
    await check();
    const timer = setInterval(() => void check(), 1_000);
    req.on('close', () => clearInterval(timer));
  }
}

/** A run still running with a human seat in it (or that has not yet said who plays: it may have). */
function personPlaying(dir: string): boolean {
  const humans = runHumans(dir);
  return (humans === null || humans.length > 0) && runState(dir).state === 'running';
}

function shell(title: string, page: 'runs' | 'run' | 'queue' | 'replay', data: Record<string, unknown>): string {
  const script =
    page === 'run' ? 'run.js' : page === 'queue' ? 'queue.js' : page === 'replay' ? 'replay.js' : 'runs.js';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title.replace(/[<&]/g, '')}</title><link rel="icon" href="data:,">
<style>${PAGE_CSS}${SERVE_CSS}${page === 'replay' ? REPLAY_CSS : ''}</style></head>
<body><nav class="top"><a href="/">runs</a>${data.queue ? ' · <a href="/queue">queue</a>' : ''}</nav>
<div id="${page === 'replay' ? 'replay' : 'app'}" data-page="${page}"></div>
<script>window.CATARENA_SERVE = ${JSON.stringify(data).replace(/</g, '\\u003c')};</script>
${page === 'run' || page === 'replay' ? '<script src="/assets/viewer.js"></script>\n' : ''}<script src="/assets/dom.js"></script>
<script src="/assets/shared.js"></script>
<script src="/assets/${script}"></script>
</body></html>
`;
}

function text(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...NOSNIFF });
  res.end(body);
}

function html(res: http.ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...NOSNIFF });
  res.end(body);
}

function json(res: http.ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', ...NOSNIFF });
  res.end(JSON.stringify(body));
}
