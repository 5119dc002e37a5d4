// Bots must not outlive a killed orchestrator: a `catarena tourney` SIGKILLed mid-run has its bot
// processes stopped by its watchdog (sandbox/reaper.mjs) within seconds, `catarena resume` then
// finishes the run, and the sweep at the start of a run stops marked leftovers in its run
// directory (and nothing else). Linux only: it reads /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { refsFromDirs, runArena } from '../orchestrator/arena.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import { MARKER_VAR } from '../sandbox/bot-env.ts';
import { UnsafeSandbox } from '../sandbox/process.ts';
import { isProcessGone } from '../util/procfs.mjs';
import { killProcessesIn, ownerToken } from '../sandbox/strays.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';

const CLI = path.resolve(import.meta.dirname, '../bin/catarena.mjs');
const started: ChildProcess[] = [];
const roots: string[] = [];

afterAll(async () => {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  await new Promise((r) => setTimeout(r, 200));
  for (const root of roots) killProcessesIn(root); // whatever a failed test left (its owners are gone)
});

async function poll(probe: () => boolean, what: string, timeoutMs: number, everyMs = 50): Promise<number> {
  const t0 = Date.now();
  while (!probe()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return Date.now() - t0;
}

const markerOf = (pid: number): string | undefined =>
  fs
    .readFileSync(`/proc/${pid}/environ`, 'latin1')
    .split('\0')
    .find((e) => e.startsWith(`${MARKER_VAR}=`))
    ?.slice(MARKER_VAR.length + 1);

/** Live processes carrying the bot marker variable whose working directory is inside `dir`. */
function botsIn(dir: string): number[] {
  const root = fs.realpathSync(dir);
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cwd = fs.readlinkSync(`/proc/${name}/cwd`);
      if (cwd !== root && !cwd.startsWith(root + path.sep)) continue;
      if (isProcessGone(Number(name))) continue;
      if (markerOf(Number(name)) !== undefined) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Live processes anywhere whose bot marker names the orchestrator with this owner token. */
function botsOf(token: string): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (markerOf(Number(name))?.startsWith(`${token}.`) && !isProcessGone(Number(name))) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Live reapers watching the orchestrator with this pid. */
function reapersOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv[1]?.endsWith('reaper.mjs') && argv[2] === String(pid) && !isProcessGone(Number(name)))
        out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const journalLines = (runDir: string): string[] => {
  try {
    return fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

function cli(args: string[]): { proc: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const proc = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(proc);
  let stderr = '';
  proc.stdout!.resume();
  proc.stderr!.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return { proc, stderr: () => stderr, exited };
}

/**
 * The gomoku heuristic bot searching one ply (a move costs milliseconds: the 12 games are not what
 * is checked, the bots' processes are) with the given start script.
 */
function heuristicBot(root: string, name: string, script: string): string {
  const dir = path.join(root, name);
  fs.cpSync(BUILTIN('heuristic'), dir, { recursive: true });
  const params = path.join(dir, 'params.json');
  fs.writeFileSync(
    params,
    JSON.stringify({ ...JSON.parse(fs.readFileSync(params, 'utf8')), depth: 1, timeBudgetMs: 200 }),
  );
  fs.writeFileSync(path.join(dir, 'start_ai.sh'), `#!/bin/bash\ncd "$(dirname "$0")"\n${script}\n`);
  return dir;
}

describe.runIf(process.platform === 'linux')('bots of a killed orchestrator', () => {
  it('a SIGKILLed tourney has its bots stopped by the watchdog within seconds; resume finishes the run with none of them left', async () => {
    const root = tempDir('catarena-orphans-');
    roots.push(root);
    // Two processes per bot (bash waits for node), and a bot that daemonises (the script exits),
    // so 3 processes per round once both agents' bots are up.
    const steady = heuristicBot(root, 'steady', 'node bot.mjs "$1"');
    const daemon = heuristicBot(root, 'daemon', 'nohup node bot.mjs "$1" >/dev/null 2>&1 &\nexit 0');
    const out = path.join(root, 'runs');
    const run = cli([
      'tourney',
      '--games',
      'gomoku',
      '--rounds',
      '2',
      '--variants',
      'standard',
      '--concurrency',
      '2',
      '--sandbox',
      'unsafe', // the watchdog and markers are the unsafe sandbox's; bubblewrap's bots die with bwrap (sandbox-isolated.test.ts)
      '--out',
      out,
      '--agents',
      `dir:${steady}#steady,dir:${daemon}#daemon`,
    ]);

    let runDir = '';
    await poll(
      () => {
        if (run.proc.exitCode !== null) throw new Error(`the tourney ended before it was killed:\n${run.stderr()}`);
        runDir ||= /run directory (\S+)/.exec(run.stderr())?.[1] ?? '';
        // Round 2 under way: its bots and round 1's are up.
        return Boolean(runDir) && journalLines(runDir).length >= 3 && botsIn(runDir).length >= 4;
      },
      'round 2 playing',
      180_000,
      100,
    );
    const victims = botsIn(runDir);
    const orchestrator = run.proc.pid!;
    const token = markerOf(victims[0]!)!.split('.')[0]!; // "<pid>-<start time>-<random>"
    expect(token.startsWith(`${orchestrator}-`)).toBe(true);
    expect(reapersOf(orchestrator)).toHaveLength(1);

    run.proc.kill('SIGKILL');
    await run.exited;
    const journaled = journalLines(runDir).length;
    expect(journaled).toBeLessThan(12); // 2 games in round 1, 10 in round 2: the run was cut short

    // (a) The watchdog stops every bot of the run, then exits itself.
    // By cwd and by the killed orchestrator's token (which also finds a bot that left the folder).
    const ms = await poll(
      () => botsIn(runDir).length === 0 && botsOf(token).length === 0,
      `the bots ${victims.join(', ')} stopped`,
      10_000,
      20,
    );
    console.log(`bots (${victims.length} processes) gone ${ms} ms after the SIGKILL of the orchestrator`);
    await poll(() => reapersOf(orchestrator).length === 0, 'the watchdog exited', 10_000);

    // (b) The resume finishes the run; nothing of the killed run (or of the resume) is left.
    const resume = cli(['resume', runDir]);
    const code = await resume.exited;
    expect(code, resume.stderr()).toBe(0);
    expect(fs.existsSync(path.join(runDir, 'report.md'))).toBe(true);
    const lines = journalLines(runDir);
    expect(lines).toHaveLength(12);
    expect(new Set(lines.map((l) => (JSON.parse(l) as { id: string }).id)).size).toBe(12);
    expect(botsOf(token)).toEqual([]);
    await poll(() => botsIn(runDir).length === 0, 'no bot left after the resume', 5_000);
    await poll(() => reapersOf(resume.proc.pid!).length === 0, "the resume's watchdog exited", 10_000);
  }, 420_000);

  it('the sweep at the start of a run stops marked bots whose orchestrator is gone, and leaves everything else alone', async () => {
    const root = tempDir('catarena-sweep-');
    roots.push(root);
    const runDir = path.join(root, 'run');
    const botFolder = path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'strategies', 'a');
    const elsewhere = path.join(root, 'elsewhere');
    for (const d of [botFolder, elsewhere]) fs.mkdirSync(d, { recursive: true });
    // What a killed gomoku arena run left (--run-dir takes only its own kind of run back).
    fs.writeFileSync(path.join(runDir, 'status.json'), JSON.stringify({ kind: 'arena', state: 'running' }));
    const sleeper = (cwd: string, marker?: string) => {
      const env: NodeJS.ProcessEnv = { PATH: process.env.PATH };
      if (marker !== undefined) env[MARKER_VAR] = marker;
      const p = spawn('sleep', ['300'], { cwd, env, stdio: 'ignore', detached: true });
      started.push(p);
      return p.pid!;
    };
    // Started by an orchestrator that no longer runs (pid 4194304+ never exists), or by an older
    // catarena whose markers named no owner: both are orphans.
    const orphan = sleeper(botFolder, '4194999-12345-0123456789abcdef.8c5d0a1e');
    const oldStyle = sleeper(runDir, '8c5d0a1e-5b7e-4c55-9a57-1f0f7a4d1c11');
    // Not to be touched: a shell-like process without the marker, a bot of a live orchestrator
    // (this one) in the same folder, and an orphan outside the run directory.
    const unmarked = sleeper(botFolder);
    const live = sleeper(botFolder, `${ownerToken()}.8c5d0a1e`);
    const outside = sleeper(elsewhere, 'orphan-elsewhere');
    await poll(
      () =>
        [orphan, oldStyle, unmarked, live, outside].every((pid) => {
          try {
            return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep');
          } catch {
            return false;
          }
        }),
      'the sleepers',
      15_000,
    );

    const messages: string[] = [];
    const sandbox = new UnsafeSandbox({ handleSignals: false });
    try {
      const bots = refsFromDirs([BUILTIN('random'), BUILTIN('random')]);
      const outcome = await runArena({
        game: 'gomoku',
        variant: 'standard',
        bots,
        reps: 1,
        seed: 1,
        concurrency: 1,
        maxGames: 1,
        limits: DEFAULT_LIMITS,
        policy: 'strict',
        runDir,
        sandbox,
        startTimeoutMs: 30_000,
        progress: { phase: (m) => messages.push(m), tick() {}, done() {} },
      });
      expect(outcome.results).toHaveLength(1);
    } finally {
      await sandbox.close();
    }
    expect(messages).toContain('stopped 2 bot processes a killed run left running');
    await poll(() => isProcessGone(orphan) && isProcessGone(oldStyle), 'the orphans stopped', 5_000);
    for (const pid of [unmarked, live, outside]) expect(isProcessGone(pid)).toBe(false);
    // A second sweep finds nothing more to stop there.
    expect(killProcessesIn(runDir)).toEqual([]);
    for (const pid of [unmarked, live, outside]) process.kill(pid, 'SIGKILL');
  }, 120_000);
});
