// Real bots in temp folders, started through start_ai.sh by the unsafe (plain process) sandbox.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from '../sandbox/index.ts';
import { probeHealth } from '../sandbox/health.ts';
import {
  allocatePort,
  allocatePortPair,
  isPortOpen,
  releasePort,
  startOnFreePort,
  waitForPortClosed,
} from '../sandbox/ports.ts';
import { botPath, MARKER_VAR } from '../sandbox/bot-env.ts';
import { UnsafeSandbox } from '../sandbox/process.ts';
import { isProcessGone } from '../util/procfs.mjs';
import { BotStartError, type BotStartOptions } from '../sandbox/types.ts';

const NODE = JSON.stringify(process.execPath);
const hasFlask = spawnSync('/usr/bin/python3', ['-c', 'import flask']).status === 0;

// A node HTTP bot. It records its pid and serves greeting.txt (read by relative path: needs cwd = bot dir).
const NODE_BOT = `
import http from 'node:http';
import fs from 'node:fs';
const port = Number(process.argv[2]);
const healthStatus = Number(process.env.HEALTH_STATUS ?? 200);
if (process.env.IGNORE_TERM) process.on('SIGTERM', () => {});
fs.writeFileSync('pid', String(process.pid));
http.createServer((req, res) => {
  if (req.url === '/health') {
    res.writeHead(healthStatus, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ status: 'healthy' }));
  } else {
    res.end(fs.readFileSync('greeting.txt', 'utf8'));
  }
}).listen(port, '0.0.0.0');
`;

const FLASK_BOT = `
import os, sys
from flask import Flask, jsonify
app = Flask(__name__)

@app.get('/health')
def health():
    return jsonify(status='healthy')

@app.get('/')
def root():
    return open('greeting.txt').read()

if __name__ == '__main__':
    open('pid', 'w').write(str(os.getpid()))
    app.run(host='0.0.0.0', port=int(sys.argv[1]))
`;

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-sandbox-test-'));
const sandboxes: UnsafeSandbox[] = [];
const ports: number[] = [];
const extraProcs: ChildProcess[] = [];

/** A bot folder with the given files; start_ai.sh is the given script body. */
function makeBot(startScript: string | null, files: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(tmpRoot, 'bot-'));
  if (startScript !== null) fs.writeFileSync(path.join(dir, 'start_ai.sh'), `#!/bin/bash\n${startScript}\n`);
  fs.writeFileSync(path.join(dir, 'greeting.txt'), 'pong');
  fs.writeFileSync(path.join(dir, 'bot.mjs'), NODE_BOT);
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

function newSandbox(): UnsafeSandbox {
  const sb = new UnsafeSandbox({ handleSignals: false });
  sandboxes.push(sb);
  return sb;
}

async function port(): Promise<number> {
  const p = await allocatePort();
  ports.push(p);
  return p;
}

async function start(dir: string, extra: Partial<BotStartOptions> = {}) {
  const p = await port();
  const bot = await newSandbox().start({ dir, port: p, logFile: logFor(dir), startTimeoutMs: 10_000, ...extra });
  return { bot, port: p };
}

/** Logs go next to the bot folders so afterAll removes them (the default is a fresh temp dir). */
const logFor = (dir: string) => path.join(tmpRoot, `${path.basename(dir)}.log`);

const readPid = (dir: string) => Number(fs.readFileSync(path.join(dir, 'pid'), 'utf8'));

async function waitFor(cond: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await cond()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return cond();
}

async function startError(promise: Promise<unknown>): Promise<BotStartError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BotStartError);
  return err as BotStartError;
}

async function get(port: number, urlPath = '/'): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}${urlPath}`, { signal: AbortSignal.timeout(2000) });
  return res.text();
}

/** Starts, checks it answers, stops, and checks the port is closed and the bot process is gone. */
async function roundTrip(dir: string, extra: Partial<BotStartOptions> = {}, orphanFirst = false) {
  const { bot, port: p } = await start(dir, extra);
  // Let the start script exit so a daemon is orphaned (reparented) before stop() looks for it.
  if (orphanFirst) await new Promise((r) => setTimeout(r, 300));
  expect(await bot.isHealthy()).toBe(true);
  expect(await get(p)).toBe('pong');
  expect(await bot.alive()).toBe(true);
  const pid = readPid(dir);
  expect(isProcessGone(pid)).toBe(false);
  await bot.stop();
  expect(await isPortOpen(p)).toBe(false);
  expect(isProcessGone(pid)).toBe(true);
  expect(await bot.alive()).toBe(false);
  await bot.stop(); // idempotent
}

afterEach(async () => {
  await Promise.allSettled(sandboxes.splice(0).map((s) => s.close()));
  for (const c of extraProcs.splice(0)) c.kill('SIGKILL');
  for (const p of ports.splice(0)) releasePort(p);
});

afterAll(() => fs.rmSync(tmpRoot, { recursive: true, force: true }));

describe('ports', () => {
  it('hands out 50 distinct ports, each free', async () => {
    const got: number[] = [];
    for (let i = 0; i < 50; i++) got.push(await allocatePort());
    expect(new Set(got).size).toBe(50);
    for (const p of got) {
      // Free = we can listen on it ourselves.
      await new Promise<void>((resolve, reject) => {
        const s = net.createServer().once('error', reject);
        s.listen(p, '127.0.0.1', () => s.close(() => resolve()));
      });
      releasePort(p);
    }
  });

  it('allocates adjacent pairs and probes open/closed ports', async () => {
    const p = await allocatePortPair();
    expect(await isPortOpen(p)).toBe(false);
    expect(await isPortOpen(p + 1)).toBe(false);
    const server = net.createServer().listen(p + 1, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    expect(await isPortOpen(p + 1)).toBe(true);
    server.close();
    expect(await waitForPortClosed(p + 1, '127.0.0.1', 2000)).toBe(true);
    releasePort(p);
    releasePort(p + 1);
  });
});

describe.skipIf(!hasFlask)(
  `flask bot${hasFlask ? '' : ' (SKIPPED: /usr/bin/python3 cannot import flask; apt-get install python3-flask)'}`,
  () => {
    it('starts, is healthy (chess-style status check), answers, and stop kills it', async () => {
      const dir = makeBot('python3 bot.py "$1"', { 'bot.py': FLASK_BOT });
      await roundTrip(dir, { health: { kind: 'http', path: '/health', statuses: ['healthy', 'ok'] } });
    });
  },
);

describe('unsafe sandbox (plain processes)', () => {
  it('runs a node bot through start_ai.sh', async () => {
    await roundTrip(makeBot(`${NODE} bot.mjs "$1"`));
  });

  it("supports a TCP health check (Hold'em style)", async () => {
    await roundTrip(makeBot(`${NODE} bot.mjs "$1"`), { health: { kind: 'tcp' } });
  });

  it('follows a bot that daemonises with nohup and exits 0, and kills it on stop', async () => {
    await roundTrip(makeBot(`nohup ${NODE} bot.mjs "$1" >/dev/null 2>&1 &\nexit 0`), {}, true);
  });

  it('kills a bot that left the process group with setsid, and its helper processes', async () => {
    // The sleeper holds no port and is in neither our group nor our session: only the marker finds it.
    const dir = makeBot(
      `setsid bash -c 'sleep 600 & echo $! > sleeper.pid; exec ${NODE} bot.mjs "$1"' x "$1" >/dev/null 2>&1 &\nexit 0`,
    );
    await roundTrip(dir, {}, true);
    expect(isProcessGone(Number(fs.readFileSync(path.join(dir, 'sleeper.pid'), 'utf8')))).toBe(true);
  });

  it('kills a setsid daemon with a wiped environment, found by port and cwd', async () => {
    // env -i drops our marker variable too; only the listening socket and cwd identify it.
    await roundTrip(makeBot(`setsid env -i ${NODE} bot.mjs "$1" >/dev/null 2>&1 &\nexit 0`), {}, true);
  });

  it('escalates to SIGKILL for a bot that ignores SIGTERM', async () => {
    await roundTrip(makeBot(`${NODE} bot.mjs "$1"`), { env: { IGNORE_TERM: '1' } });
  });

  it('never kills an unrelated process on a taken port', async () => {
    const p = await port();
    const squatter = spawn(process.execPath, ['-e', `require('http').createServer((q,r)=>r.end('x')).listen(${p})`], {
      cwd: tmpRoot,
      stdio: 'ignore',
    });
    extraProcs.push(squatter);
    expect(await waitFor(() => isPortOpen(p), 5000)).toBe(true);
    const err = await startError(newSandbox().start({ dir: makeBot(`${NODE} bot.mjs "$1"`), port: p }));
    expect(err.reason).toBe('port_in_use');
    expect(isProcessGone(squatter.pid!)).toBe(false);
  });

  /** Once the bot's start script has written its port to `ports`, this test process listens there first, answering every request with 200. */
  const stealFirstPort = async (dir: string): Promise<{ port: number; server: http.Server }> => {
    let first = 0;
    expect(
      await waitFor(
        () => (first = Number(fs.readFileSync(path.join(dir, 'ports'), 'utf8').split('\n')[0] || 0)) > 0,
        10_000,
      ),
    ).toBe(true);
    const server = http.createServer((_req, res) => res.end('{"status":"healthy"}'));
    await new Promise<void>((r) => server.listen(first, '127.0.0.1', r));
    return { port: first, server };
  };
  const slowStarter = () => makeBot(`echo "$1" >> ports\nsleep 0.5\nexec ${NODE} bot.mjs "$1"`, { ports: '' });

  it('a port another process takes while the bot starts fails the start as port_in_use, not healthy; startOnFreePort then starts it on a new port', async () => {
    const dir = slowStarter();
    const sandbox = newSandbox();
    const starting = startError(startOnFreePort(sandbox, { dir, logFile: logFor(dir) }, 1));
    const thief = await stealFirstPort(dir);
    try {
      const err = await starting;
      expect(err.reason).toBe('port_in_use');
      expect(err.message).toMatch(new RegExp(`port ${thief.port} is served by a process that is not this bot`));
    } finally {
      thief.server.close();
    }

    const again = slowStarter();
    const started = startOnFreePort(sandbox, { dir: again, logFile: logFor(again) });
    const second = await stealFirstPort(again);
    try {
      const bot = await started;
      expect(bot.port).not.toBe(second.port);
      expect(fs.readFileSync(path.join(again, 'ports'), 'utf8').trim().split('\n').map(Number)).toEqual([
        second.port,
        bot.port,
      ]);
      expect(await (await fetch(`${bot.url}/`)).text()).toBe('pong'); // the bot itself, not the thief
      await bot.stop();
    } finally {
      second.server.close();
    }
  });

  it("reports 'unhealthy' for a bot whose /health returns 500, and kills it", async () => {
    const dir = makeBot(`${NODE} bot.mjs "$1"`);
    const t0 = Date.now();
    const err = await startError(
      newSandbox().start({
        dir,
        logFile: logFor(dir),
        port: await port(),
        startTimeoutMs: 1500,
        env: { HEALTH_STATUS: '500' },
      }),
    );
    expect(err.reason).toBe('unhealthy');
    expect(Date.now() - t0).toBeLessThan(1500 + 3000); // the timeout plus the stop() grace
    expect(isProcessGone(readPid(dir))).toBe(true);
  });

  it.each([
    ['a bot that never listens', 'echo $$ > pid\nexec sleep 600', 'within 1500 ms; its processes were killed'],
    // A failed script is not the bot's death while what it left runs; the message names the exit.
    [
      'a script that exits 1 leaving a process that never serves',
      '(echo $BASHPID > pid; exec sleep 600) &\nexit 1',
      'within 1500 ms (start_ai.sh exited with code 1; the processes it left kept running)',
    ],
  ])("reports 'unhealthy' for %s, and kills it", async (_, script, message) => {
    const dir = makeBot(script);
    const err = await startError(
      newSandbox().start({ dir, logFile: logFor(dir), port: await port(), startTimeoutMs: 1500 }),
    );
    expect(err.reason).toBe('unhealthy');
    expect(err.message).toContain(message);
    expect(isProcessGone(readPid(dir))).toBe(true);
  });

  it("reports 'exited' with the log tail when the script exits 1", async () => {
    const dir = makeBot('echo "ModuleNotFoundError: no module named numpy" >&2\nexit 1');
    const err = await startError(newSandbox().start({ dir, logFile: logFor(dir), port: await port() }));
    expect(err.reason).toBe('exited');
    expect(err.message).toContain('exited with code 1');
    expect(err.logTail).toContain('ModuleNotFoundError');
  });

  // CATArena's bridge example: nohup the server, curl its health once, exit 1 when it is not up yet.
  it('starts a bot whose script exits 1 while the server it left behind is still starting', async () => {
    const dir = makeBot(`(sleep 1.5; exec ${NODE} bot.mjs "$1") >/dev/null 2>&1 &\necho "failed to start"\nexit 1`);
    const { bot, port: p } = await start(dir);
    expect(await get(p)).toBe('pong');
    expect(await bot.logTail()).toContain('failed to start');
  });

  it("reports 'no_start_script' naming the missing path", async () => {
    const dir = makeBot(null);
    const err = await startError(newSandbox().start({ dir, logFile: logFor(dir), port: await port() }));
    expect(err.reason).toBe('no_start_script');
    expect(err.message).toContain(path.join(fs.realpathSync(dir), 'start_ai.sh'));
  });

  it('caps the log of a bot that floods 50 MB and keeps it responsive', async () => {
    const dir = makeBot(
      `(head -c 50000000 /dev/zero | tr '\\0' x; echo done > flood.done) &\nexec ${NODE} bot.mjs "$1"`,
    );
    const cap = 1024 * 1024;
    const { bot } = await start(dir);
    expect(await waitFor(() => fs.existsSync(path.join(dir, 'flood.done')), 30_000)).toBe(true);
    expect(await bot.isHealthy()).toBe(true);
    const size = fs.statSync(bot.logFile).size;
    expect(size).toBeGreaterThanOrEqual(cap);
    expect(size).toBeLessThanOrEqual(cap + 200);
    expect(await bot.logTail(200)).toContain('output truncated');
  });

  it('scrubs the environment down to the allowed variables plus options.env', async () => {
    process.env.CATARENA_TEST_CANARY = 'leaked';
    try {
      const dir = makeBot(`env > env.txt\nexec ${NODE} bot.mjs "$1"`);
      await start(dir, { env: { BOT_OPTION: 'yes' } });
      const env = Object.fromEntries(
        fs
          .readFileSync(path.join(dir, 'env.txt'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => [l.split('=')[0]!, l.slice(l.indexOf('=') + 1)]),
      );
      const allowed = ['PATH', 'HOME', 'LANG', 'PYTHONUNBUFFERED', 'PYTHONDONTWRITEBYTECODE', 'BOT_OPTION', MARKER_VAR];
      const setByBash = ['PWD', 'SHLVL', '_', 'OLDPWD'];
      expect(Object.keys(env).filter((k) => !allowed.includes(k) && !setByBash.includes(k))).toEqual([]);
      // The scrubbed PATH, plus (last) a folder holding only `python` where the host has python3 only.
      expect(env.PATH).toBe(botPath());
      const [base, ...extra] = [
        env.PATH!.slice(0, '/usr/local/bin:/usr/bin:/bin'.length),
        ...env.PATH!.slice('/usr/local/bin:/usr/bin:/bin'.length).split(':').filter(Boolean),
      ];
      expect(base).toBe('/usr/local/bin:/usr/bin:/bin');
      for (const dir of extra) expect(fs.readdirSync(dir)).toEqual(['python']);
      expect(extra.length).toBe(
        ['/usr/local/bin', '/usr/bin', '/bin'].some((d) => fs.existsSync(path.join(d, 'python'))) ? 0 : 1,
      );
      expect(env.HOME).toBe(fs.realpathSync(dir));
      expect(env.BOT_OPTION).toBe('yes');
      expect(env.CATARENA_TEST_CANARY).toBeUndefined();
    } finally {
      delete process.env.CATARENA_TEST_CANARY;
    }
  });

  it('runs the script with the bot folder as cwd (relative paths work)', async () => {
    const dir = makeBot(`cd . && ${NODE} bot.mjs "$1"`, { 'greeting.txt': 'hello from cwd' });
    const { port: p } = await start(dir);
    expect(await get(p)).toBe('hello from cwd');
  });

  it('alive() turns false when the bot is killed from outside', async () => {
    const dir = makeBot(`${NODE} bot.mjs "$1"`);
    const { bot } = await start(dir);
    expect(await bot.alive()).toBe(true);
    process.kill(readPid(dir), 'SIGKILL');
    expect(await waitFor(async () => !(await bot.alive()), 5000)).toBe(true);
  });

  it('health probes honour short timeouts', async () => {
    const p = await port();
    const slow = net.createServer(() => {}).listen(p, '127.0.0.1'); // accepts, never answers
    await new Promise((r) => slow.once('listening', r));
    const t0 = Date.now();
    expect(await probeHealth(p, { kind: 'http', path: '/health' }, 150)).toBe(false);
    expect(Date.now() - t0).toBeLessThan(600);
    slow.close();
  });

  it('health probes through a dial (an isolated bot) honour the timeout when the dial hangs, and use the dialed socket', async () => {
    // A dial that never settles (a stuck broker) must not hold the start's health loop.
    const t0 = Date.now();
    const hang = () => new Promise<net.Socket>(() => {});
    expect(await probeHealth('http://127.0.0.1:9', { kind: 'http', path: '/health' }, 150, hang)).toBe(false);
    expect(Date.now() - t0).toBeLessThan(600);
    // The socket the probe dialed first carries its request: one dial per probe.
    const bot = http.createServer((_req, res) => res.end('{"status":"ok"}')).listen(0, '127.0.0.1');
    await new Promise((r) => bot.once('listening', r));
    let dials = 0;
    const dial = () => {
      dials++;
      return new Promise<net.Socket>((resolve, reject) => {
        const s = net.connect((bot.address() as net.AddressInfo).port, '127.0.0.1', () => resolve(s));
        s.once('error', reject);
      });
    };
    expect(await probeHealth('http://127.0.0.1:9', { kind: 'http', path: '/health' }, 2000, dial)).toBe(true);
    expect(dials).toBe(1);
    bot.close();
  });

  it('createSandbox rejects unknown kinds with a clear message', () => {
    expect(createSandbox('unsafe').kind).toBe('unsafe');
    expect(createSandbox('docker').kind).toBe('docker');
    expect(() => createSandbox('vm')).toThrow(
      /unknown sandbox kind "vm"; use --sandbox process, --sandbox docker or --sandbox unsafe/,
    );
  });
});

describe('orchestrator exit', () => {
  // A child orchestrator starts a bot and then exits; its bot must not outlive it.
  const sandboxModule = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../sandbox/process.ts');
  const runOrchestrator = async (ending: string) => {
    const dir = makeBot(`${NODE} bot.mjs "$1"`);
    const p = await port();
    const script = `
      import { UnsafeSandbox } from ${JSON.stringify(sandboxModule)};
      const sb = new UnsafeSandbox();
      await sb.start({ dir: ${JSON.stringify(dir)}, port: ${p}, logFile: ${JSON.stringify(logFor(dir))} });
      console.log('started');
      ${ending}
    `;
    const res = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.dirname(sandboxModule),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(res.stdout).toContain('started');
    return { res, dir, port: p };
  };

  it.each([
    ['a normal exit', 'process.exit(0)', null],
    [
      'SIGTERM (re-raised after cleanup)',
      "process.kill(process.pid, 'SIGTERM'); await new Promise((r) => setTimeout(r, 5000));",
      'SIGTERM',
    ],
  ])('kills bots on %s', async (_label, ending, expectedSignal) => {
    const { res, dir, port: p } = await runOrchestrator(ending);
    expect(res.signal).toBe(expectedSignal);
    expect(await waitFor(() => isProcessGone(readPid(dir)), 3000)).toBe(true);
    expect(await waitForPortClosed(p, '127.0.0.1', 3000)).toBe(true);
  });
});
