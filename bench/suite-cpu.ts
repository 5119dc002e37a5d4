// Where the test suite's CPU goes: `npm test` (with the arguments given) runs while every process
// on the machine is read from /proc twice a second; each process's CPU counts for its kind (vitest
// worker, a bot, Chromium, a catarena CLI, a port broker, …), told apart by its command line when
// it is first seen. The machine's busy time (/proc/stat) is the total; what no reading saw is
// "unseen": processes that lived less than half a second, and the last half second of the others.
// The five costliest kinds are then broken down by folder and command (detailOf), and the CPU
// by test file: the suite runs with bench/suite-cpu.vitest.ts, whose setup file notes which file
// each vitest worker starts; a process counts for the file its worker ancestor runs at each
// reading. Docker's containers are not in a worker's tree: they count as outside.
//   npm run bench -- suite-cpu [vitest arguments]      (CATARENA_DOCKER=0 for the suite without Docker)
// Measured (2026-12-07, without Docker, Node 20, 2 cores: 7 min 55 s, 920 CPU-s busy): node bots
// 261 s, vitest workers 252, Chromium 109, other node processes 47, catarena CLIs 42, shells and
// tools 29, port brokers 21, kernel threads 20, the vitest main process 17, Python bots 10; unseen 96.
// With Docker on Node 24 (2026-12-08, four runs, 657–899 s): 1,298–1,776 CPU-s, node bots 391–519,
// vitest workers 255–362, Chromium 92–149, shells and tools 68–108; by file (the last two runs)
// 22% outside the workers (containers, Docker, Redis), then human-seat 49–51, queue-workers 33–36,
// tourney 31–33, and a long tail (the 25th file about 10 s).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { argvOf, CLOCK_TICKS, machineCpuTicks, pids, statFields } from '../util/procfs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EVERY_MS = 500;

/** The kind of process a command line names (comm alone for kernel threads, which have none). */
export function kindOf(argv: string[], comm: string): string {
  if (argv.length === 0) return 'kernel threads';
  // npm sets its title to the whole command, one string with spaces: "npm exec vitest run …".
  if (/^npm( |$)/.test(argv[0]!)) return 'npm and npx';
  const cmd = argv.join(' ');
  const exe = path.basename(argv[0]!);
  if (/vitest/.test(cmd) && /^node/.test(exe))
    return /vitest\/dist\/workers\//.test(cmd) ? 'vitest workers' : 'vitest main';
  if (/bin\/catarena\.mjs|\.build\/cli/.test(cmd)) return 'catarena CLIs';
  if (/port-broker/.test(cmd)) return 'port brokers (python)';
  if (/^node/.test(exe) && /sandbox\/reaper\.mjs/.test(cmd)) return 'sandbox reapers (node)';
  if (/^node/.test(exe) && /\b(bot|misbehave)\.(mjs|cjs|js)\b|engine\.mjs|start_ai/.test(cmd)) return 'bots (node)';
  if (/^python/.test(exe)) return /\.py\b/.test(cmd) ? 'bots and scripts (python)' : 'python (other)';
  if (/chrom/.test(exe) || /chrom/.test(comm)) return 'chromium';
  if (/^node/.test(exe)) return 'node (other)';
  if (/redis-server/.test(exe)) return 'redis-server';
  if (/^(dockerd|containerd|containerd-shim|runc|docker|docker-init|docker-proxy)/.test(exe)) return 'docker engine';
  if (/^(bash|sh|dash|bwrap|socat|nsenter|setpriv|git|sleep|env)$/.test(exe)) return 'shells and tools';
  return `other (${exe})`;
}

function commOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

/** The machine's busy and total (busy + idle) CPU seconds so far. */
function machineCpu(): { busy: number; total: number } {
  const ticks = machineCpuTicks()!;
  return { busy: ticks.busy / CLOCK_TICKS, total: (ticks.busy + ticks.idle) / CLOCK_TICKS };
}

/**
 * Which one of its kind a process is, for the breakdown of a kind: its working directory (a bot's
 * folder) and first arguments, temporary names and numbers blurred so that runs of one test group.
 */
export function detailOf(argv: string[], cwd: string): string {
  const blur = (t: string) =>
    t
      .replace(/\/tmp\/[^ ]*?([^/ ]+\/[^/ ]+)(?= |$)/g, '…/$1')
      .replace(/-([A-Za-z0-9]{6})(?=[/: ]|$)/g, (m, r: string) => (/\d|[a-z].*[A-Z]|[A-Z].*[a-z]/.test(r) ? '-*' : m))
      .replace(/\d+/g, '#');
  const args = argv.slice(0, 3).map((a) => (a.length > 60 ? `${a.slice(0, 57)}…` : a));
  return blur(`${cwd.split('/').slice(-3).join('/')}: ${args.join(' ')}`);
}

function cwdOf(pid: number): string {
  try {
    return fs.readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return '?';
  }
}

/** A process and its ancestors, nearest first, by the parent links of one reading (at most 64, never init). */
function* lineOf(pid: number, parent: Map<number, number>): Generator<number> {
  for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) yield p;
}

/**
 * Where a process runs: its working directory, or for a bot in bubblewrap's /bot the folder its
 * bwrap ancestor mounts there (`--ro-bind <folder> /bot`); a container's /bot stays /bot.
 */
function folderOf(pid: number, parent: Map<number, number>): string {
  const cwd = cwdOf(pid);
  if (cwd !== '/bot') return cwd;
  for (const p of lineOf(pid, parent)) {
    const argv = argvOf(p);
    const at = argv.indexOf('/bot');
    if (at > 1 && argv[at - 2] === '--ro-bind') return `${argv[at - 1]} (bwrap)`;
  }
  return cwd;
}

/** CPU outside every test worker's process tree (Docker's containers, Redis, the machine). */
const OUTSIDE = '(outside the workers: containers, Redis, the machine)';

/** The vitest worker among a process and its ancestors, by the parent links of one reading; 0 when none is. */
export function ownerOf(pid: number, parent: Map<number, number>, workers: Map<number, string>): number {
  for (const p of lineOf(pid, parent)) if (workers.has(p)) return p;
  return 0;
}

/**
 * Reads every process's CPU; a process counts for its kind from its second reading on (the first
 * is its baseline, or its whole life if it began after the watch), and for the test file its
 * vitest worker runs at that reading (`filesLog`: suite-cpu-setup.ts's lines).
 */
function watch(filesLog: string) {
  const seen = new Map<string, { kind: string; detail: string; owner: number; ticks: number }>();
  const byKind = new Map<string, number>();
  const byDetail = new Map<string, number>();
  const byFile = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, s: number) => m.set(k, (m.get(k) ?? 0) + s);
  let first = true;
  const read = () => {
    const workers = new Map<number, string>(); // worker pid → the file it runs now (its last line)
    for (const line of fs.existsSync(filesLog) ? fs.readFileSync(filesLog, 'utf8').split('\n') : []) {
      const [pid, file] = line.split('\t');
      if (file) workers.set(Number(pid), file);
    }
    const stats = pids().flatMap((pid) => {
      const f = statFields(pid);
      return f ? [{ pid, f }] : [];
    });
    const parent = new Map(stats.map(({ pid, f }) => [pid, Number(f[1])]));
    for (const { pid, f } of stats) {
      const ticks = Number(f[11]) + Number(f[12]);
      const key = `${pid}:${f[19]}`;
      const prev = seen.get(key);
      const argv = prev ? [] : argvOf(pid);
      const kind = prev?.kind ?? kindOf(argv, commOf(pid));
      const detail = prev?.detail ?? `${kind}\t${detailOf(argv, folderOf(pid, parent))}`;
      const owner = prev?.owner || ownerOf(pid, parent, workers);
      seen.set(key, { kind, detail, owner, ticks });
      const delta = prev ? ticks - prev.ticks : first ? 0 : ticks;
      if (delta <= 0) continue;
      add(byKind, kind, delta / CLOCK_TICKS);
      add(byDetail, detail, delta / CLOCK_TICKS);
      add(byFile, workers.get(owner) ?? (kind === 'vitest main' ? 'vitest main' : OUTSIDE), delta / CLOCK_TICKS);
    }
    first = false;
  };
  read();
  const timer = setInterval(read, EVERY_MS);
  return {
    stop: () => {
      clearInterval(timer);
      read();
      return { byKind, byDetail, byFile };
    },
  };
}

/** The processes that cost the most of each of the five costliest kinds. */
function topDetails(
  byKind: Map<string, number>,
  byDetail: Map<string, number>,
): Record<string, Array<[string, number]>> {
  const kinds = [...byKind].sort((a, b) => b[1] - a[1]).slice(0, 5);
  return Object.fromEntries(
    kinds.map(([kind]) => [
      kind,
      [...byDetail]
        .filter(([d]) => d.startsWith(`${kind}\t`))
        .map(([d, s]): [string, number] => [d.slice(kind.length + 1), Math.round(s * 10) / 10])
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12),
    ]),
  );
}

export interface SuiteCpu {
  wallS: number;
  busyS: number;
  busyShare: number;
  exitCode: number | null;
  byKind: Record<string, number>;
  /** The costliest kinds' costliest processes (detailOf: folder and command), CPU-s. */
  top: Record<string, Array<[string, number]>>;
  /** The costliest test files: their worker's CPU and that of the processes it started while it ran them, CPU-s. */
  byFile: Array<[string, number]>;
  /** Busy time no reading saw: short-lived processes, the last half second of the others, interrupts. */
  unseenS: number;
}

export async function benchSuiteCpu(args: string[]): Promise<SuiteCpu> {
  const m0 = machineCpu();
  const t0 = Date.now();
  const filesLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-suite-cpu-')), 'files.tsv');
  const watcher = watch(filesLog);
  const child = spawn(process.execPath, ['scripts/run-tests.mjs', '--config', 'bench/suite-cpu.vitest.ts', ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CATARENA_SUITE_CPU_FILES: filesLog },
  });
  const exitCode = await new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const { byKind, byDetail, byFile } = watcher.stop();
  fs.rmSync(path.dirname(filesLog), { recursive: true, force: true });
  const m1 = machineCpu();
  const busyS = m1.busy - m0.busy;
  const seenS = [...byKind.values()].reduce((a, b) => a + b, 0);
  const sorted = [...byKind].sort((a, b) => b[1] - a[1]);
  const round = (x: number) => Math.round(x * 10) / 10;
  const row = (s: number, label: string) =>
    console.log(`${s.toFixed(1).padStart(8)} s  ${((100 * s) / busyS).toFixed(1).padStart(5)}%  ${label}`);
  console.log(`\nsuite CPU by kind of process (busy ${round(busyS)} CPU-s in ${round((Date.now() - t0) / 1000)} s):`);
  for (const [kind, s] of sorted.filter(([, s]) => s >= 0.5)) row(s, kind);
  row(busyS - seenS, `unseen (lived under ${EVERY_MS} ms, or their last ${EVERY_MS} ms)`);
  const top = topDetails(byKind, byDetail);
  for (const [kind, rows] of Object.entries(top)) {
    console.log(`\n${kind}, by folder and command:`);
    for (const [detail, s] of rows) row(s, detail);
  }
  const files = [...byFile].sort((a, b) => b[1] - a[1]).map(([f, s]): [string, number] => [f, round(s)]);
  console.log('\nby test file (its worker and the processes it started while the file ran):');
  for (const [file, s] of files.slice(0, 25)) row(s, file);
  return {
    wallS: round((Date.now() - t0) / 1000),
    busyS: round(busyS),
    busyShare: Math.round((100 * busyS) / (m1.total - m0.total)) / 100,
    exitCode,
    byKind: Object.fromEntries(sorted.map(([k, s]) => [k, round(s)])),
    top,
    byFile: files.slice(0, 60),
    unseenS: round(busyS - seenS),
  };
}
