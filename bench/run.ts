// Benchmarks (not tests): orchestrator overhead per move and game throughput on this machine.
//   npm run bench            all benchmarks
//   npm run bench -- overhead|throughput|chess|holdem|sandboxes   (sandboxes: process vs docker)
// Prints a table and writes bench/results/<name>.json.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchOverhead } from './overhead.ts';
import { benchThroughput } from './throughput.ts';
import { benchSandboxes } from './sandboxes.ts';
import { benchChessPerft } from './chess-perft.ts';
import { benchHoldemEval } from './holdem-eval.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const which = process.argv[2] ?? 'all';
const results: Record<string, unknown> = {};
if (which === 'all' || which === 'overhead') results.overhead = await benchOverhead();
if (which === 'all' || which === 'throughput') results.throughput = await benchThroughput();
if (which === 'all' || which === 'chess') results.chess = await benchChessPerft();
if (which === 'all' || which === 'holdem') results.holdem = await benchHoldemEval();
// Docker needs the engine and the image (npm run images); `npm run bench -- sandboxes` runs it alone.
if (which === 'sandboxes' || (which === 'all' && process.env.CATARENA_DOCKER === '1')) results.sandboxes = await benchSandboxes();
await fs.mkdir(path.join(here, 'results'), { recursive: true });
const file = path.join(here, 'results', `${which}.json`);
await fs.writeFile(file, `${JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2)}\n`);
console.log(`\nwritten to ${path.relative(process.cwd(), file)}`);
