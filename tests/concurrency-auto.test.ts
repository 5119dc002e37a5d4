// Adaptive concurrency and quick start with real bots: the CPU-bound Flask bot of the bench plays
// an arena at 'auto' and at fixed settings; bots start together and are seen healthy as soon as
// they listen; the process sandbox measures a bot's CPU including its children.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { adapterFor, gameDescriptor } from '../games/registry.ts';
import { DEFAULT_LIMITS, matchId, type MatchSpec } from '../records/match.ts';
import { BotFleet } from '../orchestrator/executor/bot-fleet.ts';
import { type ConcurrencyStats, executeLocal } from '../orchestrator/executor/local.ts';
import { fieldSpecs } from '../orchestrator/formats/field.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { allocatePort, releasePort } from '../sandbox/ports.ts';
import { UnsafeSandbox } from '../sandbox/process.ts';

const hasFlask = spawnSync('/usr/bin/python3', ['-c', 'import flask']).status === 0;
const CPU_BOT = path.resolve(import.meta.dirname, '../bench/bots/cpu-flask');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-concurrency-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// One fleet of the four Flask bots for both arenas below, started once (a Flask bot's start costs
// about a second of CPU) and stopped in afterAll: each bot is still started once, for every game.
let shared: { sandbox: UnsafeSandbox; hosts: GameServerPool; fleet: BotFleet } | undefined;
const ids = ['a', 'b', 'c', 'd'];
afterAll(async () => {
  if (!shared) return;
  await shared.fleet.stopAll();
  await shared.hosts.closeAll();
  await shared.sandbox.close();
});

async function arena(concurrency: number | 'auto', games: number) {
  const specs: MatchSpec[] = fieldSpecs(
    gameDescriptor('gomoku'),
    { kind: 'arena', ids },
    {
      game: 'gomoku',
      variant: 'standard',
      seed: 1,
      limits: DEFAULT_LIMITS,
      policy: 'strict',
      reps: Math.max(1, Math.round(games / 12)),
    },
  );
  if (!shared) {
    const sandbox = new UnsafeSandbox({ handleSignals: false });
    const hosts = new GameServerPool();
    const server = await hosts.get('gomoku', 'standard');
    const fleet = new BotFleet({
      sandbox,
      health: adapterFor('gomoku').health,
      logDir: fs.mkdtempSync(path.join(tmp, 'logs-')),
      ...server.botAccess(),
      env: { BENCH_WORK: '3000' },
    });
    fleet.add(ids.map((id) => ({ id, dir: CPU_BOT })));
    shared = { sandbox, hosts, fleet };
  }
  const { fleet, hosts } = shared;
  let stats: ConcurrencyStats | undefined;
  const order: string[] = [];
  const results = await executeLocal(specs, {
    fleet,
    hosts,
    concurrency,
    onConcurrency: (s) => (stats = s),
    onReplay: (r) => void order.push(r.result.id),
  });
  return { specs, results, stats: stats!, order, started: fleet.started, cpuMs: fleet.cpuTimeMs() };
}

describe.skipIf(!hasFlask)('adaptive concurrency with CPU-bound Flask bots', () => {
  it("'auto' plays every game to a normal end, starts each bot once, and reports its mean level", async () => {
    // (The fleet is this file's: started counts its starts whichever of these two tests ran first.)
    // One round of the arena (12 games; 24 before checked nothing more): every claim below holds
    // from the first game on.
    const { results, stats, started, cpuMs } = await arena('auto', 12);
    expect(results).toHaveLength(12);
    expect(results.every((r) => r.termination === 'normal')).toBe(true);
    expect(started).toBe(4);
    expect(stats.mode).toBe('auto');
    expect(stats.meanLevel).toBeGreaterThanOrEqual(1);
    expect(stats.meanLevel).toBeLessThanOrEqual(2 * os.availableParallelism());
    expect(stats.timeline[0]![1]).toBe(os.availableParallelism());
    // The fleet sees its bots' CPU (process sandbox on Linux): Python spent some computing moves.
    expect(cpuMs).toBeGreaterThan(100);
    // (Games sharing bots may overlap: tests/shared-bot-overlap.test.ts checks that no call then
    // waits for a busy bot holding a slot.)
  }, 120_000);

  it('a fixed concurrency stays fixed; at 1 games are played in schedule order', async () => {
    const { results, stats, order, specs } = await arena(1, 12);
    expect(results).toHaveLength(12);
    expect(stats).toMatchObject({ mode: 'fixed', meanLevel: 1, finalLevel: 1 });
    expect(order).toEqual(specs.map(matchId));
  }, 120_000);
});

describe('quick start', () => {
  function bot(name: string, script: string, files: Record<string, string>): string {
    const dir = path.join(tmp, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'start_ai.sh'), script);
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
    return dir;
  }

  it('sees a bot healthy within a few ms of it saying it listens, however long it took to start', async () => {
    // Listens after 450 ms (a fixed 100 ms poll would find it up to 100 ms late), then says so.
    // The bot notes when it listened and when the first health check reached it: both on its
    // own clock, so how busy the machine keeps the test process does not count.
    const dir = bot('slow-listener', `exec ${JSON.stringify(process.execPath)} bot.mjs "$1"\n`, {
      'bot.mjs': `import http from 'node:http';
import fs from 'node:fs';
setTimeout(() => http.createServer((q, s) => {
  if (!fs.existsSync('checked-at')) fs.writeFileSync('checked-at', String(Date.now()));
  s.end('{"status":"healthy"}');
}).listen(Number(process.argv[2]), '127.0.0.1', () => {
  fs.writeFileSync('listening-at', String(Date.now()));
  console.log('listening');
}), 450);
`,
    });
    const sandbox = new UnsafeSandbox({ handleSignals: false });
    // Woken by the output, the check comes within a few ms; without the wake-up it came 184–202 ms
    // after the listen here (the poll interval has grown to 200 ms by then). The check runs in
    // this process, so a fully loaded machine can delay it (159 ms once): the best of three starts.
    const lags: number[] = [];
    onTestFinished(() => sandbox.close());
    for (let attempt = 0; attempt < 3 && !lags.some((ms) => ms < 100); attempt++) {
      for (const f of ['listening-at', 'checked-at']) fs.rmSync(path.join(dir, f), { force: true });
      const port = await allocatePort();
      try {
        const handle = await sandbox.start({ dir, port, name: 'slow-listener' });
        const [listening, checked] = ['listening-at', 'checked-at'].map((f) =>
          Number(fs.readFileSync(path.join(dir, f), 'utf8')),
        ) as [number, number];
        lags.push(checked - listening);
        await handle.stop();
      } finally {
        releasePort(port);
      }
    }
    expect(Math.min(...lags), `lags ${lags.join(', ')} ms`).toBeLessThan(100);
  }, 30_000);

  it("counts a bot's CPU including a child process its start script waits for", async () => {
    // No exec: bash waits for a child that burns 150 ms of CPU per request.
    const dir = bot('cpu-child', `${JSON.stringify(process.execPath)} bot.mjs "$1"\n`, {
      'bot.mjs': `import http from 'node:http';
const busy = () => { const t = process.cpuUsage(); for (;;) { const u = process.cpuUsage(t); if (u.user + u.system >= 150_000) return; } };
http.createServer((q, s) => { busy(); s.end('{"status":"healthy"}'); }).listen(Number(process.argv[2]), '127.0.0.1');
`,
    });
    const sandbox = new UnsafeSandbox({ handleSignals: false });
    const port = await allocatePort();
    try {
      const handle = (await sandbox.start({ dir, port, name: 'cpu-child' })) as unknown as {
        cpuTimeMs(): number | undefined;
        isHealthy(ms: number): Promise<boolean>;
        stop(): Promise<void>;
      };
      const before = handle.cpuTimeMs()!;
      for (let i = 0; i < 4; i++) await handle.isHealthy(5_000);
      const after = handle.cpuTimeMs()!;
      expect(before).toBeGreaterThanOrEqual(0);
      expect(after - before).toBeGreaterThan(500); // 4 × 150 ms of CPU, in 10 ms clock ticks
      await handle.stop();
      expect(handle.cpuTimeMs()).toBeUndefined();
    } finally {
      releasePort(port);
      await sandbox.close();
    }
  }, 30_000);
});

describe("the bots' CPU for the controller", () => {
  it('re-reads only the bots called since the last reading; the others keep their last figure', async () => {
    // Two bots that burn CPU on their own (about half a core), whether called or not.
    const burner = (name: string) => {
      const dir = path.join(tmp, name);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'start_ai.sh'), `exec ${JSON.stringify(process.execPath)} bot.mjs "$1"\n`);
      fs.writeFileSync(
        path.join(dir, 'bot.mjs'),
        `import http from 'node:http';
setInterval(() => { const t = process.cpuUsage(); for (;;) { const u = process.cpuUsage(t); if (u.user + u.system >= 10_000) return; } }, 20);
http.createServer((q, s) => s.end('{"status":"healthy"}')).listen(Number(process.argv[2]), '127.0.0.1');
`,
      );
      return dir;
    };
    const sandbox = new UnsafeSandbox({ handleSignals: false });
    const fleet = new BotFleet({
      sandbox,
      health: adapterFor('gomoku').health,
      logDir: fs.mkdtempSync(path.join(tmp, 'logs-')),
    });
    try {
      fleet.add([
        { id: 'a', dir: burner('burn-a') },
        { id: 'b', dir: burner('burn-b') },
      ]);
      const a = (await fleet.client('a'))!;
      const b = (await fleet.client('b'))!;
      const first = fleet.cpuTimeMs()!; // no set given: every bot read
      await new Promise((r) => setTimeout(r, 600));
      // Nobody called: the figure stands (no /proc read).
      expect(fleet.cpuTimeMs(new Set())).toBe(first);
      // a called: a's CPU since is counted, b's not yet.
      const withA = fleet.cpuTimeMs(new Set([a]))!;
      expect(withA - first).toBeGreaterThan(20);
      const withB = fleet.cpuTimeMs(new Set([b]))!;
      expect(withB - withA).toBeGreaterThan(20);
      expect(fleet.cpuTimeMs()!).toBeGreaterThanOrEqual(withB);
    } finally {
      await fleet.stopAll();
      await sandbox.close();
    }
  }, 30_000);
});
