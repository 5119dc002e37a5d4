// The isolated process sandbox (bubblewrap) itself: CATArena-style bots run in it unmodified, the
// game-server port is relayed with the bot's caller id, limits stop a greedy bot and say so, the
// bots die with a SIGKILLed orchestrator, and where bubblewrap cannot run, only catarena's own bots
// run (unsafe, with a warning) while agents' bots are refused with how to install it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runArena } from '../orchestrator/arena.ts';
import { sandboxForBots, sandboxVerdict } from '../orchestrator/config/sandbox-choice.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import type { TrackSummary } from '../records/tourney.ts';
import { sandboxAlarmLines } from '../reports/sandbox-alarm.ts';
import { createSandbox } from '../sandbox/index.ts';
import { cgroupPlace } from '../sandbox/cgroups.ts';
import { IsolatedSandbox } from '../sandbox/isolated.ts';
import { isolationStatus } from '../sandbox/isolation.ts';
import { allocatePort } from '../sandbox/ports.ts';
import { relayedCaller } from '../sandbox/relayed-callers.ts';
import { BotStartError } from '../sandbox/types.ts';
import { BUILTIN, botDir, flaskBot, hasFlask, misbehavingBot, tempDir } from './helpers/bots.ts';
import { ROOT } from './helpers/sources.ts';

const SERVER = `import http from 'node:http';
http.createServer((q, s) => s.end('{"status":"ok"}')).listen(Number(process.argv[2]), '127.0.0.1');
`;
const nodeBot = (name: string, before = '') =>
  botDir(name, `#!/bin/bash\n${before}\nexec node server.mjs "$1"\n`, { 'server.mjs': SERVER });

const sandbox = new IsolatedSandbox({ handleSignals: false, memoryMb: 192 });
afterAll(() => sandbox.close());

describe.runIf(isolationStatus().ok)('the isolated process sandbox', () => {
  it.skipIf(!hasFlask())(
    'runs a CATArena-style Flask bot read-only, and relays the game server with its caller id',
    async () => {
      const seen: Array<string | undefined> = [];
      const gs = http.createServer((req, res) => {
        seen.push(relayedCaller(req.socket));
        res.end('{}');
      });
      await new Promise<void>((r) => gs.listen(0, '127.0.0.1', () => r()));
      const hostPort = (gs.address() as { port: number }).port;
      const dir = flaskBot();
      // The bot calls the game server at localhost:<its port> from start_ai.sh, as a bot would from a move.
      fs.writeFileSync(
        path.join(dir, 'start_ai.sh'),
        `#!/bin/bash\npython3 -c "import requests; requests.get('http://localhost:${hostPort}/games')"\n` +
          fs.readFileSync(path.join(dir, 'start_ai.sh'), 'utf8').replace('#!/bin/bash\n', ''),
      );
      const bot = await sandbox.start({ dir, port: await allocatePort(), hostPorts: { [hostPort]: hostPort } });
      try {
        expect(bot.callerId).toMatch(/^[0-9a-f]{32}$/);
        expect(bot.socketPath).toBeTruthy();
        expect(await bot.isHealthy()).toBe(true);
        expect(seen).toEqual([bot.callerId]);
        expect(bot.cpuTimeMs?.()).toBeGreaterThan(0);
      } finally {
        await bot.stop();
        gs.close();
      }
    },
  );

  it('reaches the bot with no relay in between, through a broker the bot cannot see', async () => {
    // The bot answers with the port its client connected from, and lists what runs in its sandbox.
    const echo = `import http from 'node:http';
import fs from 'node:fs';
const cmdlines = () => fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p)).map((p) => { try { return fs.readFileSync('/proc/' + p + '/cmdline', 'utf8'); } catch { return ''; } });
http.createServer((q, s) => s.end(JSON.stringify({ status: 'ok', from: q.socket.remotePort, seen: cmdlines() }))).listen(Number(process.argv[2]), '127.0.0.1');
`;
    const dir = botDir('echo-port', '#!/bin/bash\nexec node server.mjs "$1"\n', { 'server.mjs': echo });
    const port = await allocatePort();
    const bot = await sandbox.start({ dir, port });
    const brokers = () => processesWith(`port-broker.py ${port}`);
    try {
      const socket = await bot.connect!();
      const answer = await new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (c) => (text += c)).on('end', () => resolve(text));
        socket.write('GET / HTTP/1.0\r\n\r\n');
      });
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { from: number; seen: string[] };
      // A relay would connect from a port of its own; through the broker the bot sees our socket.
      expect(body.from).toBe(socket.localPort);
      expect(brokers()).toHaveLength(1);
      expect(body.seen.join('\n')).not.toContain('port-broker');
    } finally {
      await bot.stop();
    }
    expect(brokers()).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)(
    'reaches bots through the broker from a checkout in a folder only root may enter',
    async () => {
      // As root the broker runs as nobody, who cannot read a clone under /root or a mktemp -d: it must
      // not need catarena's files. A copy of what the sandbox imports, in a 0700 folder, starts a bot.
      const checkout = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-private-'));
      for (const d of ['sandbox', 'util', 'records'])
        fs.cpSync(path.join(ROOT, d), path.join(checkout, d), { recursive: true });
      fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(checkout, 'package.json')); // ES modules
      fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(checkout, 'node_modules'));
      const script = `
        import { IsolatedSandbox } from ${JSON.stringify(path.join(checkout, 'sandbox/isolated.ts'))};
        const sandbox = new IsolatedSandbox({ handleSignals: false });
        const bot = await sandbox.start({ dir: ${JSON.stringify(nodeBot('private-checkout'))}, port: ${await allocatePort()} });
        console.log(JSON.stringify({ healthy: await bot.isHealthy() }));
        await sandbox.close();
      `;
      try {
        const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
          cwd: import.meta.dirname,
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(out.stderr).not.toContain('port broker could not enter');
        expect(JSON.parse(out.stdout.trim().split('\n').pop()!)).toEqual({ healthy: true });
      } finally {
        fs.rmSync(checkout, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it.runIf(cgroupPlace() !== null)("reads a bot's CPU from its cgroup, exited processes included", async () => {
    // A child that burns ~0.3 s of CPU and exits before the server starts: a process-tree reading
    // would no longer see it; the cgroup's accounting keeps it.
    const burner = nodeBot('burner', `node -e "const t = Date.now(); while (Date.now() - t < 300) {}"`);
    const bot = await sandbox.start({ dir: burner, port: await allocatePort() });
    try {
      expect(bot.cpuTimeMs?.()).toBeGreaterThanOrEqual(250);
    } finally {
      await bot.stop();
    }
  });

  it.runIf(cgroupPlace() !== null)('takes a memory limit of 2 GiB and more (no 32-bit overflow to 0)', async () => {
    const big = new IsolatedSandbox({ handleSignals: false, memoryMb: 4096 });
    try {
      const bot = await big.start({ dir: nodeBot('roomy'), port: await allocatePort() });
      expect(await bot.isHealthy()).toBe(true);
      await bot.stop();
    } finally {
      await big.close();
    }
  });

  // CATArena's bridge example: nohup the server, curl its health once, exit 1 when it is not up yet.
  it('starts a bot whose script exits 1 while its server is still starting; one that leaves nothing fails at once', async () => {
    const slow = botDir(
      'slow-daemon',
      '#!/bin/bash\n(sleep 1.5; exec node server.mjs "$1") >/dev/null 2>&1 &\necho "failed to start"\nexit 1\n',
      { 'server.mjs': SERVER },
    );
    const bot = await sandbox.start({ dir: slow, port: await allocatePort(), startTimeoutMs: 15_000 });
    try {
      expect(await bot.isHealthy()).toBe(true);
      expect(await bot.logTail()).toContain('start_ai.sh exited with code 1; its processes still run');
    } finally {
      await bot.stop();
    }
    const crash = botDir('crash', '#!/bin/bash\necho "No module named torch" >&2\nexit 3\n');
    const t0 = Date.now();
    const err = await sandbox.start({ dir: crash, port: await allocatePort(), startTimeoutMs: 15_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(BotStartError);
    expect(err.reason).toBe('exited');
    expect(err.message).toMatch(/exit code 3/);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('stops a bot that goes over its memory and names the limit', async () => {
    const hog = nodeBot(
      'hog',
      `python3 -c "b = bytearray(400 * 1024 * 1024); print(len(b))" || echo "RESULT hog killed"`,
    );
    const bot = await sandbox.start({ dir: hog, port: await allocatePort() });
    try {
      const log = await bot.logTail();
      expect(log).toContain('RESULT hog killed');
      expect((bot as unknown as { limitsHit(): string[] }).limitsHit()).toContain('memory (192 MiB)');
    } finally {
      await bot.stop();
    }
  });

  it('runs a bot folder others cannot read (a copy made readable), and the reference bots', async () => {
    const secret = nodeBot('private');
    fs.chmodSync(path.join(secret, 'server.mjs'), 0o600);
    const bot = await sandbox.start({ dir: secret, port: await allocatePort() });
    expect(await bot.isHealthy()).toBe(true);
    await bot.stop();
    const ref = await sandbox.start({ dir: BUILTIN('random'), port: await allocatePort() });
    expect(await ref.isHealthy()).toBe(true);
    await ref.stop();
  });

  it("names a bot that hit a limit in its game's integrity events", async () => {
    // Forks until refused (its forks sleep 2 s), waits for them all, then plays Gomoku properly: the
    // bot and its relays start only once the processes are free again, however loaded the machine.
    const bomb = `python3 -c 'import os, time
for i in range(600):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(2)
        os._exit(0)
while True:
    try:
        os.wait()
    except ChildProcessError:
        break
'
exec`;
    const out = await runArena({
      game: 'gomoku',
      variant: 'standard',
      bots: [
        { id: 'bomber', dir: misbehavingBot('ok', bomb) },
        { id: 'random', dir: BUILTIN('random') },
      ],
      reps: 1,
      seed: 5,
      concurrency: 1,
      maxGames: 1,
      limits: { ...DEFAULT_LIMITS, moveMs: 3_000 },
      policy: 'strict',
      runDir: tempDir('catarena-limit-run-'),
      sandbox,
      startTimeoutMs: 20_000,
    });
    const events = out.results.flatMap((r) => (r.integrity ?? []).map((e) => ({ ...e, who: r.spec.seats[e.seat] })));
    expect(events).toEqual([
      expect.objectContaining({
        who: 'bomber',
        kind: 'sandbox_limit',
        detail: expect.stringContaining('processes (256)'),
      }),
    ]);
    expect(out.results[0]!.sandbox).toBe('process');
  }, 60_000);

  it('takes every process of a bot with it when the orchestrator is SIGKILLed', async () => {
    const tag = `333.${Math.floor(Math.random() * 1e6)}`;
    const dir = nodeBot('orphan', `( cd / && exec setsid env -i sleep ${tag} ) &`);
    const script = `
      import { IsolatedSandbox } from ${JSON.stringify(path.resolve(import.meta.dirname, '../sandbox/isolated.ts'))};
      await new IsolatedSandbox().start({ dir: ${JSON.stringify(dir)}, port: ${await allocatePort()} });
      console.log('started');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: import.meta.dirname,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => child.stdout!.on('data', (c: Buffer) => c.includes('started') && resolve()));
    expect(processesWith(`sleep ${tag}`)).toHaveLength(1);
    child.kill('SIGKILL');
    let left = processesWith(`sleep ${tag}`);
    for (let i = 0; i < 50 && left.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = processesWith(`sleep ${tag}`);
    }
    expect(left).toEqual([]);
  }, 30_000);
});

describe('where bubblewrap cannot run', () => {
  const missing = '/nonexistent/bwrap';

  it("runs catarena's own bots unsafe with a warning, and refuses agents' bots with how to install it", () => {
    const warnings: string[] = [];
    const own = sandboxForBots(
      'process',
      { authors: ['offline:cautious', 'llm-player:openai/gpt-5'], dirs: [BUILTIN('random')] },
      { bwrap: missing, warn: (l) => warnings.push(l) },
    );
    expect(own.kind).toBe('unsafe');
    expect(warnings.join('\n')).toMatch(/UNSANDBOXED/);
    expect(() =>
      sandboxForBots('process', { authors: ['offline:cautious', 'cli:claude-code'] }, { bwrap: missing }),
    ).toThrow(/apt-get install bubblewrap socat.*--sandbox unsafe/s);
    expect(() => sandboxForBots('process', { dirs: [tempDir()] }, { bwrap: missing })).toThrow(/bubblewrap/);
    expect(createSandbox('unsafe', { bwrap: missing }).kind).toBe('unsafe');
  });

  it('the reports warn, in one line, when games ran unsandboxed', () => {
    const track = (variant: string, games: number, unsandboxedGames?: number) =>
      ({ game: 'gomoku', variant, games, ...(unsandboxedGames ? { unsandboxedGames } : {}) }) as TrackSummary;
    expect(sandboxAlarmLines([track('standard', 10)])).toEqual([]);
    expect(sandboxAlarmLines([track('standard', 10, 10), track('variant', 6)])).toEqual([
      expect.stringMatching(/^Bots ran UNSANDBOXED .* in 10 of 16 games \(gomoku-standard: 10\)/),
    ]);
  });

  it('doctor says which sandbox each agent gets', () => {
    expect(sandboxVerdict('process', 'offline:cautious', missing)).toMatchObject({ ok: true, warn: true });
    expect(sandboxVerdict('process', 'builtin:openai/gpt-5', missing)).toMatchObject({ ok: false });
    expect(sandboxVerdict('unsafe', 'builtin:openai/gpt-5', missing)).toMatchObject({ ok: true, warn: true });
    if (isolationStatus().ok)
      expect(sandboxVerdict('process', 'builtin:openai/gpt-5').detail).toMatch(/isolated by bubblewrap/);
  });
});

/** Processes on this host whose command line contains `text`. */
function processesWith(text: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}
