// Stray bots: every bot process carries a marker naming the orchestrator that started it, so that
// a run can find the bots a killed run left behind (killProcessesIn) and a detached reaper kills an
// orchestrator's bots within a second of its death, however it dies (sandbox/reaper.mjs).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MARKER_VAR, SCRUBBED_PATH } from './bot-env.ts';
import { cwdInside, envValueOf, liveProcesses, startTimeOf, type ProcInfo } from '../util/procfs.mjs';

let ownerTokenCache: string | undefined;
/**
 * This orchestrator's token, `<pid>-<start time>-<random>`: the prefix of the marker of every bot
 * it starts. The pid and start time say whether the owner still lives (pid reuse cannot fake it);
 * the random part keeps two sandboxes' tokens apart (module instances, worker threads).
 */
export function ownerToken(): string {
  ownerTokenCache ??= `${process.pid}-${startTimeOf(process.pid) ?? 0}-${randomBytes(8).toString('hex')}`;
  return ownerTokenCache;
}

/** True when a marker names an orchestrator that is still running (markers without an owner: false). */
function ownerAlive(marker: string): boolean {
  const m = /^(\d+)-(\d+)-[0-9a-f]+\./.exec(marker);
  return m !== null && startTimeOf(Number(m[1])) === m[2];
}

/**
 * Kills the bots a killed orchestrator left running in `dir` and returns their pids: live
 * processes that carry the bot marker variable (MARKER_VAR, any value), whose working directory
 * is inside `dir`, and whose orchestrator (named in the marker) is no longer running; never this
 * process or its ancestors. Anything else with its cwd there (a shell cd'd into a run directory,
 * the bots of a run still in progress) is left alone. Used at the start of a worker (its artifact
 * cache), of a tourney and of an arena (the run directory). Linux (/proc) only.
 */
export function killProcessesIn(dir: string): number[] {
  let root: string;
  try {
    root = fs.realpathSync(dir);
  } catch {
    return [];
  }
  const killed = new Set<number>();
  // A few passes: a bot forking while we look leaves a child the first pass did not see.
  for (let pass = 0; pass < 5; pass++) {
    const procs = liveProcesses();
    const byPid = new Map(procs.map((p) => [p.pid, p]));
    const mine = new Set<number>();
    for (let p = byPid.get(process.pid); p && !mine.has(p.pid); p = byPid.get(p.ppid)) mine.add(p.pid);
    let found = 0;
    for (const p of procs) {
      if (mine.has(p.pid) || killed.has(p.pid) || !cwdInside(p.pid, root)) continue;
      const marker = envValueOf(p.pid, MARKER_VAR);
      if (marker === null || ownerAlive(marker)) continue;
      try {
        process.kill(p.pid, 'SIGKILL');
        killed.add(p.pid);
        found++;
      } catch {
        // exited meanwhile
      }
    }
    if (found === 0) break;
  }
  return [...killed];
}

/**
 * The live processes, read once for every scan made before the event loop turns (the bots of a
 * round stop together): a list a few milliseconds old is what a scan just before would have seen.
 */
let snapshot: { procs: ProcInfo[]; byPid: Map<number, ProcInfo> } | null = null;

export function processSnapshot(): { procs: ProcInfo[]; byPid: Map<number, ProcInfo> } {
  if (snapshot) return snapshot;
  const procs = liveProcesses();
  snapshot = { procs, byPid: new Map(procs.map((p) => [p.pid, p])) };
  setImmediate(() => (snapshot = null)).unref();
  for (const [pid, seen] of markers) if (snapshot.byPid.get(pid)?.start !== seen.start) markers.delete(pid);
  return snapshot;
}

/**
 * Each process's marker by pid and start time: a process gets the marker from its parent and
 * keeps it, so its environment is read once, not at every scan (a scan looks at every process on
 * the machine).
 */
const markers = new Map<number, { start: number; marker: string | null }>();

/** The bot marker a process carries (null: none), read once per process. */
export function markerOf(p: ProcInfo): string | null {
  const seen = markers.get(p.pid);
  if (seen?.start === p.start) return seen.marker;
  const marker = envValueOf(p.pid, MARKER_VAR);
  markers.set(p.pid, { start: p.start, marker });
  return marker;
}

const REAPER = fileURLToPath(new URL('./reaper.mjs', import.meta.url));
let reaper: ChildProcess | null = null;

/**
 * Starts (once per owner token, again if it died) the detached watchdog that SIGKILLs every process
 * carrying this orchestrator's token within about a second of the orchestrator's death, however it
 * dies (sandbox/reaper.mjs). It holds nothing of ours but the read end of a pipe, so it neither
 * keeps this event loop alive nor delays a parent waiting for our stdout. Linux only.
 */
export function ensureReaper(): void {
  if (reaper || process.platform !== 'linux' || !fs.existsSync(REAPER)) return;
  const start = startTimeOf(process.pid);
  if (start === null) return;
  try {
    const child = spawn(process.execPath, [REAPER, String(process.pid), start, ownerToken()], {
      cwd: '/',
      env: { PATH: process.env.PATH ?? SCRUBBED_PATH },
      detached: true, // its own session: a Ctrl-C for the terminal's foreground group spares it
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    reaper = child;
    child.once('error', () => {
      if (reaper === child) reaper = null;
    });
    child.once('exit', () => {
      if (reaper === child) reaper = null;
    });
    child.stdin!.on('error', () => {});
    (child.stdin as unknown as { unref?: () => void }).unref?.();
    child.unref();
  } catch {
    reaper = null; // no watchdog: bots are still stopped by close(), exit and signal handlers
  }
}
