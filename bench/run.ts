// Benchmarks (not tests): orchestrator overhead per move and game throughput on this machine.
//   npm run bench            all benchmarks
//   npm run bench -- overhead|throughput|chess|holdem|bridge|sandboxes   (sandboxes: unsafe vs process (bubblewrap) vs docker)
//   npm run bench -- holdem-batch [--rounds R]   the paper-scale Hold'em batch (long; not in "all")
//   npm run bench -- agents      agent container start and egress-proxy cost (Docker + npm run images:agents)
//   npm run bench -- queue       games/s through BullMQ with 1 and 2 workers vs in-process (redis-server)
//   npm run bench -- scale-out [--containers|--processes] [--no-develop]   games/s (I/O- and CPU-bound bots) and
//                                developments/s with 1, 2 and 4 workers (containers when Docker and the worker image are there) vs in-process
//   npm run bench -- startup     CLI start-up (compiled build vs TypeScript through tsx)
//   npm run bench -- concurrency [--games 48] [--repeats 3]   CPU-bound Flask bots at concurrency 1, 2 and auto
//   npm run bench -- coverage    the suite's interval-coverage and SPRT error-rate simulations at full size (minutes)
//   npm run bench -- reps-auto   adaptive vs fixed repetitions on simulated bots (games to a target interval width)
//   npm run bench -- replay-viewer   a 720-hand Hold'em replay page: data time, size, open and step times in Chromium
//   npm run bench -- report-html [--run-dir D]   report.html of a four-game tourney: size, summarize time, open time in Chromium
//   npm run bench -- serve [--games gomoku]   catarena serve watching the default tourney: game end → W cell latency, server CPU
//   npm run bench -- default-tourney [--repeats R] [--preset paper]   the README's `catarena tourney --rounds 4`: wall, CPU, busy share, first game, per track (with the bots' CPU), and the shortest wall time the bots' CPU allows
//   npm run bench -- busy [--paper]   wall, CPU and busy share of the default tourney (and of --preset paper: ~15 min)
//   npm run bench -- repeats [--games …] [--repeats 4] [--rounds 2]   `tourney --repeats 4` (one and two repeats at a time) vs 4 single runs in a row
//   npm run bench -- evolution [--agents 10] [--rounds 4] [--tracks 8]   the strategy evolution report at paper scale: wall and CPU
//   npm run bench -- memory [--scales 1,4,16]   the orchestrator's peak RSS on one small tourney at 1×, 4×, 16× the repetitions
//   npm run bench -- rundir-size   the default tourney's run directory on disk, after prune, and estimated at paper scale
//   npm run bench -- cpu-per-move   the orchestrator's own CPU time ÷ moves over the default tourney
//   npm run bench -- bot-start   the orchestrator's own CPU per bot start and stop (unsafe and process sandboxes)
//   npm run bench -- pool-requests [--rounds 1]   the orchestrator's file calls through libuv's thread pool per game, by call site
//   npm run bench -- suite-cpu [vitest arguments]   `npm test` with its CPU by kind of process (vitest workers, bots, Chromium, CLIs, …)
// Prints a table and writes bench/results/<name>.json.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchOverhead } from './overhead.ts';
import { benchThroughput } from './throughput.ts';
import { benchSandboxes } from './sandboxes.ts';
import { benchAgentContainer } from './agent-container.ts';
import { benchQueue } from './queue.ts';
import { benchScaleOut } from './scale-out.ts';
import { benchStartup } from './startup.ts';
import { benchConcurrency } from './concurrency.ts';
import { benchRepsAuto } from './reps-auto.ts';
import { benchCoverage } from './coverage.ts';
import { benchReportHtml } from './report-html.ts';
import { benchBusy, benchDefaultTourney } from './default-tourney.ts';
import { benchRepeats } from './repeats.ts';
import { benchEvolution } from './evolution.ts';
import { benchMemory } from './memory.ts';
import { benchRundirSize } from './rundir-size.ts';
import { benchCpuPerMove } from './cpu-per-move.ts';
import { benchPoolRequests } from './pool-requests.ts';
import { benchSuiteCpu } from './suite-cpu.ts';
import { benchBotStart } from './bot-start.ts';
import { benchServe } from './serve.ts';
import { benchReplayViewer } from './replay-viewer.ts';
import { benchChessPerft } from './chess-perft.ts';
import { benchHoldemEval } from './holdem-eval.ts';
import { benchHoldemBatch, benchHoldemEngine, benchHoldemWire } from './holdem-tables.ts';
import { benchBridgeEngine, benchBridgeWire } from './bridge-boards.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const which = process.argv[2] ?? 'all';
const results: Record<string, unknown> = {};
if (which === 'all' || which === 'overhead') results.overhead = await benchOverhead();
if (which === 'all' || which === 'throughput') results.throughput = await benchThroughput();
if (which === 'all' || which === 'chess') results.chess = await benchChessPerft();
if (which === 'all' || which === 'holdem') {
  results.holdem = { evaluator: await benchHoldemEval(), engine: benchHoldemEngine(), wire: await benchHoldemWire() };
}
if (which === 'all' || which === 'bridge')
  results.bridge = { engine: benchBridgeEngine(), wire: await benchBridgeWire() };
if (which === 'holdem-batch') {
  const i = process.argv.indexOf('--rounds');
  results.holdemBatch = await benchHoldemBatch(i > 0 ? Number(process.argv[i + 1]) : 100);
}
// Docker needs the engine and the image (npm run images); `npm run bench -- sandboxes` runs it alone.
if (which === 'sandboxes' || (which === 'all' && process.env.CATARENA_DOCKER === '1'))
  results.sandboxes = await benchSandboxes();
if (which === 'agents') results.agents = await benchAgentContainer();
if (which === 'queue') results.queue = await benchQueue();
if (which === 'scale-out') results.scaleOut = await benchScaleOut(process.argv.slice(3));
if (which === 'all' || which === 'startup') results.startup = await benchStartup();
if (which === 'concurrency') results.concurrency = await benchConcurrency();
if (which === 'all' || which === 'reps-auto') results.repsAuto = await benchRepsAuto();
if (which === 'coverage') results.coverage = await benchCoverage();
if (which === 'replay-viewer') results.replayViewer = await benchReplayViewer();
if (which === 'report-html') {
  const i = process.argv.indexOf('--run-dir');
  results.reportHtml = await benchReportHtml(i > 0 ? process.argv[i + 1] : undefined);
}
if (which === 'serve') results.serve = await benchServe(process.argv.slice(3));
if (which === 'default-tourney') results.defaultTourney = await benchDefaultTourney();
if (which === 'busy') results.busy = await benchBusy();
if (which === 'repeats') results.repeats = await benchRepeats();
if (which === 'evolution') results.evolution = await benchEvolution();
if (which === 'memory') results.memory = await benchMemory();
if (which === 'rundir-size') results.rundirSize = await benchRundirSize();
if (which === 'cpu-per-move') results.cpuPerMove = await benchCpuPerMove();
if (which === 'bot-start') results.botStart = await benchBotStart();
if (which === 'pool-requests') results.poolRequests = await benchPoolRequests();
if (which === 'suite-cpu') results.suiteCpu = await benchSuiteCpu(process.argv.slice(3));
await fs.mkdir(path.join(here, 'results'), { recursive: true });
const file = path.join(here, 'results', `${which}.json`);
await fs.writeFile(
  file,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2)}\n`,
);
console.log(`\nwritten to ${path.relative(process.cwd(), file)}`);
