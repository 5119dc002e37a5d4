// The orchestrator's own CPU per bot start and stop (process.cpuUsage of this process: the bot,
// bwrap and the port broker are not in it), in the unsafe and the isolated (process) sandbox, with
// the Gomoku heuristic reference bot started and stopped `starts` times after one warm-up start.
// Every tourney pays it once per bot (121 in the default one), the test suite about a thousand times.
//   npm run bench -- bot-start
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox } from '../sandbox/index.ts';
import { allocatePort, releasePort } from '../sandbox/ports.ts';
import type { Sandbox } from '../sandbox/types.ts';

const BOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'games', 'gomoku', 'bots', 'heuristic');

const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

async function startStop(sandbox: Sandbox): Promise<{ startMs: number; stopMs: number; wallMs: number }> {
  const port = await allocatePort();
  const t0 = performance.now();
  let cpu = process.cpuUsage();
  const bot = await sandbox.start({ dir: BOT, port, name: 'bench-heuristic' });
  const startMs = cpuMs(cpu);
  const wallMs = performance.now() - t0;
  cpu = process.cpuUsage();
  await bot.stop();
  const stopMs = cpuMs(cpu);
  releasePort(port);
  return { startMs, stopMs, wallMs };
}

export async function benchBotStart(kinds = ['unsafe', 'process'], starts = 20) {
  const rows: Record<string, unknown>[] = [];
  for (const kind of kinds) {
    const sandbox = createSandbox(kind);
    await startStop(sandbox); // warm-up: the first start also loads modules and probes the machine
    const runs: Array<Awaited<ReturnType<typeof startStop>>> = [];
    for (let i = 0; i < starts; i++) runs.push(await startStop(sandbox));
    await sandbox.close();
    const mean = (k: 'startMs' | 'stopMs' | 'wallMs') => runs.reduce((s, r) => s + r[k], 0) / runs.length;
    rows.push({ kind, starts, startCpuMs: mean('startMs'), stopCpuMs: mean('stopMs'), startWallMs: mean('wallMs') });
  }
  console.log('orchestrator CPU per bot start and stop (Gomoku heuristic bot):');
  for (const r of rows)
    console.log(
      `  ${String(r.kind).padEnd(8)} start ${(r.startCpuMs as number).toFixed(1)} ms, stop ${(r.stopCpuMs as number).toFixed(1)} ms of CPU; start to healthy ${(r.startWallMs as number).toFixed(0)} ms`,
    );
  return rows;
}
