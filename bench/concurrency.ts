// Concurrency that never hurts: the same arena of CPU-bound Python/Flask bots (bench/bots/cpu-flask:
// deterministic, every game the same 25 plies of ~10 ms of Python each) played at concurrency 1, 2
// and 'auto' (the tourney default, orchestrator/concurrency/concurrency-controller.ts), through the
// arena's path (fleet, game server, journal, replays), the settings interleaved and repeated; the
// medians are reported. Wall time runs from before the first bot starts to the last game recorded,
// so start-up counts. Orchestration efficiency = Σ bot service time (every move's answer time as
// the runner measured it) / (wall × mean concurrency): how much of the concurrency paid for was
// spent with bots computing. Load average before and after says how noisy the machine was.
//   npm run bench -- concurrency [--games 48] [--repeats 3] [--bots 4]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gameDescriptor } from '../games/registry.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import { LocalExecutor } from '../orchestrator/executor/executor.ts';
import type { ConcurrencyStats } from '../orchestrator/executor/local.ts';
import { fieldSpecs } from '../orchestrator/formats/field.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { RunDir } from '../orchestrator/run/run-dir.ts';
import { createSandbox } from '../sandbox/index.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const CPU_BOT = path.join(here, 'bots', 'cpu-flask');

type Setting = number | 'auto';

export interface ConcurrencyRun {
  concurrency: Setting;
  games: number;
  wallMs: number;
  gamesPerSec: number;
  firstGameMs: number;
  serviceMs: number;
  meanLevel: number;
  efficiency: number;
  orchestratorCpuMsPerGame: number;
  levels?: string;
}

/** One arena of `bots` CPU-bound Flask bots, `games` games (a multiple of 2 × pairings), at one setting. */
export async function playArena(concurrency: Setting, games: number, bots = 4): Promise<ConcurrencyRun> {
  const ids = Array.from({ length: bots }, (_, i) => `cpu${i + 1}`);
  const pairings = (bots * (bots - 1)) / 2;
  const reps = Math.max(1, Math.round(games / (2 * pairings)));
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-bench-conc-'));
  const sandbox = createSandbox('process');
  const hosts = new GameServerPool();
  const run = new RunDir(runDir);
  const settings = {
    game: 'gomoku',
    variant: 'standard',
    seed: 1,
    limits: DEFAULT_LIMITS,
    policy: 'strict' as const,
    reps,
  };
  const specs = fieldSpecs(gameDescriptor('gomoku'), { kind: 'arena', ids }, settings);
  await run.openJournal();
  let stats: ConcurrencyStats | undefined;
  const executor = new LocalExecutor({
    sandbox,
    hosts,
    concurrency,
    logDir: () => run.botLogsDir(),
    onConcurrency: (s) => (stats = s),
  });
  executor.add(
    { game: 'gomoku', variant: 'standard' },
    ids.map((id) => ({ id, dir: CPU_BOT })),
  );
  let serviceMs = 0;
  let firstStart = Infinity;
  let count = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const epoch0 = Date.now();
  await executor.run(specs, {
    onReplay: async (replay) => {
      await run.recordGame(replay);
      count++;
      firstStart = Math.min(firstStart, Date.parse(replay.result.startedAt));
      for (const s of replay.result.seatStats) serviceMs += s.totalMs;
      if (replay.result.termination !== 'normal')
        throw new Error(`bench game ended by ${replay.result.termination}: ${replay.result.reason}`);
    },
  });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  await executor.close();
  await hosts.closeAll();
  await sandbox.close();
  fs.rmSync(runDir, { recursive: true, force: true });
  const meanLevel = stats?.meanLevel ?? (concurrency as number);
  const levels =
    stats?.mode === 'auto'
      ? stats.timeline.map(([at, level]) => `${(at / 1000).toFixed(1)}s:${level}`).join(' ')
      : undefined;
  return {
    concurrency,
    games: count,
    wallMs: Math.round(wallMs),
    gamesPerSec: +(count / (wallMs / 1000)).toFixed(3),
    firstGameMs: Math.round(firstStart - epoch0),
    serviceMs: Math.round(serviceMs),
    meanLevel: +meanLevel.toFixed(2),
    efficiency: +(serviceMs / (wallMs * meanLevel)).toFixed(3),
    orchestratorCpuMsPerGame: Math.round((cpu.user + cpu.system) / 1000 / count),
    ...(levels ? { levels } : {}),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Wall time of `python3 -c "import flask"` and of a bare `python3 -c pass` (the bots' python3), ms. */
async function pythonImportMs(runs: number): Promise<{ importFlask: number; bare: number }> {
  const { execFileSync } = await import('node:child_process');
  const time = (args: string[]) => {
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      execFileSync('python3', args, { env: { PATH: '/usr/local/bin:/usr/bin:/bin' }, stdio: 'ignore' });
      ms.push(performance.now() - t);
    }
    return Math.round(median(ms));
  };
  return { importFlask: time(['-c', 'import flask']), bare: time(['-c', 'pass']) };
}

/** Start-to-healthy time of one CPU-bound Flask bot through the process sandbox, ms. */
async function botReadyMs(runs: number): Promise<number> {
  const { allocatePort, releasePort } = await import('../sandbox/ports.ts');
  const sandbox = createSandbox('process');
  const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-bench-ready-'));
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const port = await allocatePort();
    const t = performance.now();
    const bot = await sandbox.start({ dir: CPU_BOT, port, name: 'ready-probe', logFile: path.join(logs, `${i}.log`) });
    ms.push(performance.now() - t);
    await bot.stop();
    releasePort(port);
  }
  await sandbox.close();
  fs.rmSync(logs, { recursive: true, force: true });
  return Math.round(median(ms));
}

export async function benchConcurrency(argv: string[] = process.argv) {
  const arg = (name: string, fallback: number) => {
    const i = argv.indexOf(name);
    return i > 0 ? Number(argv[i + 1]) : fallback;
  };
  const games = arg('--games', 48);
  const repeats = arg('--repeats', 3);
  const bots = arg('--bots', 4);
  const settings: Setting[] = [1, 2, 'auto'];
  const loadBefore = os.loadavg();
  const startup = { ...(await pythonImportMs(5)), botReady: await botReadyMs(5) };
  console.log(
    `python3 -c "import flask": ${startup.importFlask} ms (bare python3: ${startup.bare} ms); a Flask bot healthy after ${startup.botReady} ms (medians of 5)`,
  );
  const runs: ConcurrencyRun[] = [];
  for (let r = 0; r < repeats; r++) {
    // Rotate the order each repeat, so no setting always runs first (or right after another).
    for (const s of settings.map((_, i) => settings[(i + r) % settings.length]!)) {
      const row = await playArena(s, games, bots);
      runs.push(row);
      console.log(
        `  repeat ${r + 1} concurrency ${s}: ${row.wallMs} ms, ${row.gamesPerSec} games/s, first game after ${row.firstGameMs} ms, efficiency ${row.efficiency}${row.levels ? `, levels ${row.levels}` : ''} (load ${os.loadavg()[0]!.toFixed(1)})`,
      );
    }
  }
  const loadAfter = os.loadavg();
  const rows = settings.map((s) => {
    const mine = runs.filter((r) => r.concurrency === s);
    return {
      concurrency: String(s),
      games: mine[0]!.games,
      repeats: mine.length,
      wallMs: median(mine.map((r) => r.wallMs)),
      gamesPerSec: +median(mine.map((r) => r.gamesPerSec)).toFixed(3),
      firstGameMs: median(mine.map((r) => r.firstGameMs)),
      meanLevel: +median(mine.map((r) => r.meanLevel)).toFixed(2),
      efficiency: +median(mine.map((r) => r.efficiency)).toFixed(3),
      orchCpuMsPerGame: median(mine.map((r) => r.orchestratorCpuMsPerGame)),
    };
  });
  const bestFixed = Math.max(...rows.filter((r) => r.concurrency !== 'auto').map((r) => r.gamesPerSec));
  const auto = rows.find((r) => r.concurrency === 'auto')!;
  console.log(
    `\n${bots} CPU-bound Flask bots, ${games} Gomoku games, ${os.availableParallelism()} cores; medians of ${repeats}; load average ${loadBefore.map((x) => x.toFixed(1)).join(' / ')} before, ${loadAfter.map((x) => x.toFixed(1)).join(' / ')} after`,
  );
  console.table(rows);
  console.log(`auto reaches ${((auto.gamesPerSec / bestFixed) * 100).toFixed(1)}% of the best fixed setting's games/s`);
  return {
    cores: os.availableParallelism(),
    games,
    bots,
    repeats,
    loadBefore,
    loadAfter,
    startup,
    rows,
    autoVsBestFixed: +(auto.gamesPerSec / bestFixed).toFixed(3),
    runs,
  };
}
