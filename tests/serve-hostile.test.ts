// `catarena serve` against what agents leave behind and pages elsewhere send (issue 44, 1–3):
// - an agent's bot folder with `rootdir -> /` and a link to /etc/passwd: the copy drops the links
//   (the build log names them), and serve follows none of them, in the strategy or the workspace
//   where the agent worked; the live page's "developing" tail reads no link either;
// - an agent's .html and .svg with script, opened in Chromium from serve: nothing runs, nothing
//   fetches /api/runs, while catarena's own report.html and replay page still work;
// - a forged Host header (DNS rebinding) is refused on every route; a page elsewhere cannot post.
// One real tourney (offline agents, gomoku standard, 1 round) feeds every test. Over 30 s: 54 s
// measured at a load average of 20 on 2 cores, mostly the Chromium pages: six page loads, in one
// page (a page of its own each cost about 1 s of CPU more).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, DevelopBudget, Workspace } from '../agents/core/types.ts';
import { createAgent } from '../agents/registry.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { ServeServer } from '../orchestrator/serve/server.ts';
import { agentRows } from '../orchestrator/serve/runs.ts';
import { allowedHosts, hostOfAuthority } from '../orchestrator/serve/request-guard.ts';
import { copyTree } from '../util/fs.ts';
import { hasChromium, sharedChromium } from './helpers/browser.ts';
import { tempDir } from './helpers/bots.ts';
import { ReusedPage } from './helpers/reused-page.ts';

const PASSWD = fs.readFileSync('/etc/passwd', 'utf8');
const TRACK = 'tracks/gomoku-standard/round_1';

/** What an agent's page would do on serve's origin: read every run, and say so. */
const EVIL_SCRIPT = `fetch('/api/runs').then(function (r) { return r.text(); }).then(function (t) { document.title = 'LEAKED ' + t.length; });`;
const EVIL_HTML = `<!doctype html><title>evil</title><script>${EVIL_SCRIPT}</script><p>evil</p>`;
const EVIL_SVG = `<svg xmlns="http://www.w3.org/2000/svg"><script>${EVIL_SCRIPT}</script><rect width="10" height="10"/></svg>`;

/** An offline agent that, like a CLI agent in its container could, leaves links out and a page with script. */
function evilAgent(): Agent {
  const inner = createAgent('offline:cautious', 1);
  return {
    id: 'evil',
    kind: inner.kind,
    async develop(ws: Workspace, budget: DevelopBudget) {
      const result = await inner.develop(ws, budget);
      for (const dir of [ws.outputDir, ws.dir]) {
        fs.symlinkSync('/', path.join(dir, 'rootdir'));
        fs.symlinkSync('/etc/passwd', path.join(dir, 'passwd'));
        fs.writeFileSync(path.join(dir, 'evil.html'), EVIL_HTML);
        fs.writeFileSync(path.join(dir, 'evil.svg'), EVIL_SVG);
      }
      return result;
    },
  };
}

/** Markup in a failed build's reason: report.html shows it as text. */
const XSS = `<img src=x onerror="document.title='PWNED'"><script>document.title='PWNED'</script>`;
const xssAgent = (): Agent => ({
  id: 'xss',
  kind: 'offline',
  async develop() {
    throw new Error(XSS);
  },
});

/** A GET with a Host header of our choosing (fetch will not forge one). */
function request(
  port: number,
  pathname: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathname, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      // An event stream never ends: its first bytes are enough.
      const done = () =>
        resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), headers: res.headers });
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        if (res.headers['content-type'] === 'text/event-stream') {
          done();
          req.destroy();
        }
      });
      res.on('end', done);
    });
    req.on('error', reject);
    req.end();
  });
}

let out: string;
let runDir: string;
let server: ServeServer;
let base: string;

beforeAll(async () => {
  out = tempDir();
  runDir = path.join(out, 'run');
  await runTourney({
    config: resolveConfig({ rounds: 1, games: ['gomoku'], variants: ['standard'], concurrency: 2, seed: 3 }),
    runDir,
    agents: [evilAgent(), createAgent('offline:aggressive', 1), xssAgent()],
  });
  server = new ServeServer({ out, port: 0 });
  await server.start();
  base = `http://127.0.0.1:${server.port}/run/run/files`;
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('links agents leave never reach the host', () => {
  it('the copy of a bot folder drops links (in or out) and FIFOs, and names them', async () => {
    const from = tempDir();
    fs.mkdirSync(path.join(from, 'sub'));
    fs.writeFileSync(path.join(from, 'start_ai.sh'), 'echo hi\n');
    fs.writeFileSync(path.join(from, 'sub', 'a.py'), 'x = 1\n');
    fs.symlinkSync('/', path.join(from, 'rootdir'));
    fs.symlinkSync('/etc/passwd', path.join(from, 'sub', 'passwd'));
    fs.symlinkSync('start_ai.sh', path.join(from, 'inside'));
    execFileSync('mkfifo', [path.join(from, 'pipe')]);
    const to = path.join(tempDir(), 'copy');
    const dropped = await copyTree(from, to);
    expect(dropped.sort()).toEqual([
      '"inside" -> "start_ai.sh"',
      '"pipe" (a fifo)',
      '"rootdir" -> "/"',
      '"sub/passwd" -> "/etc/passwd"',
    ]);
    expect(fs.readdirSync(to).sort()).toEqual(['start_ai.sh', 'sub']);
    expect(fs.readdirSync(path.join(to, 'sub'))).toEqual(['a.py']);
    // A bot folder that is itself a link (an agent replaced its output folder) copies nothing.
    const linked = path.join(tempDir(), 'out');
    fs.symlinkSync('/etc', linked);
    expect(await copyTree(linked, path.join(tempDir(), 'copy2'))).toEqual(['"." -> "/etc"']);
  });

  it("a tourney's strategy keeps no link, its build log names them, and serve follows none", async () => {
    // The workspace the agent worked in keeps its links: serve reads through none of them.
    expect(fs.lstatSync(path.join(runDir, TRACK, 'workspaces', 'evil', 'rootdir')).isSymbolicLink()).toBe(true);
    for (const where of ['strategies/evil', 'workspaces/evil']) {
      for (const rel of ['rootdir/etc/passwd', 'passwd', 'rootdir/proc/self/environ']) {
        const res = await request(server.port, `/run/run/files/${TRACK}/${where}/${rel}`);
        expect(res.body).not.toContain('root:');
        expect(res.status, `${where}/${rel}`).not.toBe(200);
      }
    }
    const strategy = path.join(runDir, TRACK, 'strategies', 'evil');
    expect(fs.existsSync(path.join(strategy, 'start_ai.sh'))).toBe(true);
    expect(fs.readdirSync(strategy).filter((f) => fs.lstatSync(path.join(strategy, f)).isSymbolicLink())).toEqual([]);
    const record = JSON.parse(fs.readFileSync(`${strategy}.strategy.json`, 'utf8')) as {
      buildLog: string;
      status: string;
    };
    expect(record.status).toBe('ok');
    expect(record.buildLog).toContain('"rootdir" -> "/"');
    expect(record.buildLog).toContain('"passwd" -> "/etc/passwd"');
    // Files that are there are still served.
    expect((await request(server.port, `/run/run/files/${TRACK}/strategies/evil/start_ai.sh`)).status).toBe(200);
  });

  it('a FIFO in a run is not a file: serve answers at once and does not hang on it', async () => {
    execFileSync('mkfifo', [path.join(runDir, TRACK, 'workspaces', 'evil', 'fifo')]);
    const res = await request(server.port, `/run/run/files/${TRACK}/workspaces/evil/fifo`);
    expect(res.status).toBe(404);
  });

  it('the live page\'s "developing" tail reads no link at the top of a workspace', async () => {
    const dir = path.join(tempDir(), 'dev-run');
    const ws = path.join(dir, TRACK, 'workspaces', 'sly');
    fs.mkdirSync(ws, { recursive: true });
    fs.writeFileSync(path.join(ws, 'notes.txt'), 'thinking about gomoku\n');
    fs.utimesSync(path.join(ws, 'notes.txt'), new Date('1990-01-01'), new Date('1990-01-01'));
    fs.symlinkSync('/etc/passwd', path.join(ws, 'zz'));
    const rows = await agentRows(dir);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.state).toBe('developing');
    expect(rows[0]!.logTail).toBe('thinking about gomoku\n');
    expect(rows[0]!.logTail).not.toContain(PASSWD.slice(0, 20));
  });
});

describe.skipIf(!hasChromium)('agent files are served inert; catarena pages still work (Chromium)', () => {
  let tab: ReusedPage;
  beforeAll(async () => {
    tab = await ReusedPage.open(await sharedChromium());
  }, 60_000);
  afterAll(() => tab?.close());

  it("an agent's .html and .svg (in its strategy and its workspace): plain text in a sandbox, the script neither runs nor reads /api/runs", async () => {
    const files = [
      'strategies/evil/evil.html',
      'workspaces/evil/evil.html',
      'strategies/evil/evil.svg',
      'workspaces/evil/evil.svg',
    ];
    // Each file in turn, with a wait for a script that would have run.
    const api: string[] = [];
    const toApi = (r: { url(): string }) => r.url().includes('/api/') && api.push(r.url());
    tab.page.on('request', toApi);
    for (const file of files) {
      const { page } = await tab.url(`${base}/${TRACK}/${file}`);
      await new Promise((r) => setTimeout(r, 300));
      expect(await page.title(), file).not.toMatch(/LEAKED/);
      expect(api, file).toEqual([]);
      // The page shows the file's text, not its rendering.
      expect(await page.locator('body').innerText(), file).toContain('<script>');
      const res = await request(server.port, `/run/run/files/${TRACK}/${file}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['content-security-policy']).toMatch(/^sandbox;/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    tab.page.off('request', toApi);
  });

  it("catarena's own report.html opens its games and replays under its strict policy, with no error", async () => {
    const res = await request(server.port, '/run/run/files/report.html');
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("connect-src 'none'");
    expect(res.headers['content-security-policy']).toMatch(/^sandbox allow-scripts/);
    const { page, errors, outside } = await tab.url(`${base}/report.html`);
    // It escapes what agents wrote: a failed build's markup is text, and nothing of it ran.
    await expect.poll(() => page.locator('body').innerText()).toContain(XSS.slice(0, 30));
    expect(await page.title()).not.toMatch(/PWNED/);
    // Its script runs: a W cell opens the games between two strategies.
    await page.locator('svg.heatmap rect.cell').first().click();
    await page.locator('#games a', { hasText: 'replay' }).first().click();
    await page.waitForURL(/replays\/replay\.html\?id=/);
    await page.locator('[data-testid=step]').first().waitFor({ timeout: 10_000 });
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });
  it('with a token (bound to 127.0.0.2) the report and its replay page work too', async () => {
    const other = new ServeServer({ out, host: '127.0.0.2', port: 0 });
    await other.start();
    try {
      const origin = `http://127.0.0.2:${other.port}`;
      const { page, errors, outside } = await tab.url(`${origin}/run/run/files/report.html?token=${other.token}`);
      await page.locator('svg.heatmap rect.cell').first().click();
      await page.locator('#games a', { hasText: 'replay' }).first().click();
      await page.waitForURL(/replays\/replay\.html\?id=/);
      await page.locator('[data-testid=step]').first().waitFor({ timeout: 10_000 });
      expect(errors, 'errors').toEqual([]);
      expect(outside, 'outside').toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('a foreign Host (DNS rebinding) and other sites are refused', () => {
  const ROUTES = [
    '/',
    '/api/runs',
    '/api/runs/events',
    '/api/stats',
    '/queue',
    '/api/queue/events',
    '/assets/run.js',
    '/run/run',
    '/run/run/',
    '/run/run/summary',
    '/run/run/events',
    '/run/run/files/report.html',
    '/run/run/files/journal.jsonl',
    '/nowhere',
  ];

  it('every route answers a forged Host with 421 and reads nothing', async () => {
    for (const route of ROUTES) {
      for (const host of [`evil.example:${server.port}`, 'evil.example', `127.0.0.1.evil.example:${server.port}`]) {
        const res = await request(server.port, route, { host });
        expect(res.status, `${route} as ${host}`).toBe(421);
        expect(res.body).toMatch(/does not answer to the host/);
      }
      // The same route as the machine's own names answers.
      for (const host of [
        `127.0.0.1:${server.port}`,
        `localhost:${server.port}`,
        `[::1]:${server.port}`,
        'LOCALHOST',
      ]) {
        const res = await request(server.port, route, { host });
        expect(res.status, `${route} as ${host}`).not.toBe(421);
      }
    }
  });

  it("bound to every address, the machine's own names and addresses are its hosts, no other", () => {
    const hosts = allowedHosts('0.0.0.0', []);
    for (const name of ['localhost', '127.0.0.1', '::1', os.hostname().toLowerCase()])
      expect(hosts.has(name), name).toBe(true);
    expect(hosts.has('0.0.0.0')).toBe(false);
    expect(hosts.has('evil.example')).toBe(false);
    expect(hostOfAuthority('[::1]:8080')).toBe('::1');
    expect(hostOfAuthority('Arena.LAN.:8080')).toBe('arena.lan');
  });

  it('names the operator allows are answered; other sites cannot post', async () => {
    const allowing = new ServeServer({ out, port: 0, allowHosts: ['arena.lan'] });
    await allowing.start();
    try {
      expect((await request(allowing.port, '/api/runs', { host: `arena.lan:${allowing.port}` })).status).toBe(200);
      expect((await request(allowing.port, '/api/runs', { host: `evil.lan:${allowing.port}` })).status).toBe(421);
      const post = (origin: string) =>
        request(allowing.port, '/api/runs', { host: `127.0.0.1:${allowing.port}`, origin }, 'POST');
      expect((await post('http://evil.example')).status).toBe(403);
      expect((await post('null')).status).toBe(403);
      expect((await post(`http://127.0.0.1:${allowing.port}`)).status).toBe(405);
    } finally {
      await allowing.close();
    }
  });

  it('bound to another address with a token: that address is answered, a foreign Host is refused even with the token', async () => {
    const other = new ServeServer({ out, host: '127.0.0.2', port: 0 });
    await other.start();
    try {
      const withToken = `/api/runs?token=${other.token}`;
      const at = (host: string) =>
        new Promise<number>((resolve, reject) => {
          http
            .get({ host: '127.0.0.2', port: other.port, path: withToken, headers: { host } }, (res) => {
              res.resume();
              resolve(res.statusCode!);
            })
            .on('error', reject);
        });
      expect(await at(`127.0.0.2:${other.port}`)).toBe(200);
      expect(await at(`evil.example:${other.port}`)).toBe(421);
    } finally {
      await other.close();
    }
  });
});
