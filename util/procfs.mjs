// What /proc says about processes: the one reader of /proc for the sandbox, the stray-bot scans,
// the reaper (sandbox/reaper.mjs runs this file as plain Node, so it is JavaScript), the built-in
// agent's command runner and the image builder's lock. Linux only; elsewhere every query answers
// "nothing known" (isProcessGone falls back to a signal-0 probe). Types: procfs.d.mts.
import fs from 'node:fs';
import path from 'node:path';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on every Linux platform Node runs on). */
export const CLOCK_TICKS = 100;

/**
 * The whole machine's CPU time so far, summed over its cores, in clock ticks, from the first line
 * of /proc/stat: busy (user, nice, system, irq, softirq, steal) and idle (idle, iowait); null
 * without /proc.
 */
export function machineCpuTicks() {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
    return { busy: f[0] + f[1] + f[2] + f[5] + f[6] + f[7], idle: f[3] + f[4] };
  } catch {
    return null;
  }
}

/** The pids /proc lists ([] without /proc). */
export function pids() {
  try {
    return fs
      .readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * /proc/<pid>/stat after "pid (comm) ": [state, ppid, pgrp, session, …] (field n of proc(5) is
 * index n − 3), or null when the process is gone. comm may contain spaces and parentheses.
 */
export function statFields(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

const dead = (fields) => fields[0] === 'Z' || fields[0] === 'X';

/**
 * Live (non-zombie) processes, with their start time (clock ticks since boot). Orphans may linger
 * as zombies when PID 1 does not reap; they hold nothing.
 */
export function liveProcesses() {
  const out = [];
  for (const pid of pids()) {
    const f = statFields(pid); // null: it vanished while we looked
    if (f && !dead(f))
      out.push({ pid, ppid: Number(f[1]), pgrp: Number(f[2]), sid: Number(f[3]), start: Number(f[19]) });
  }
  return out;
}

/** A process's command line, one string per argument ([] once it is gone, and for kernel threads). */
export function argvOf(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** True when the pid no longer names a running process (a zombie counts as gone). */
export function isProcessGone(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return true;
  const f = statFields(pid);
  if (f) return dead(f);
  try {
    process.kill(pid, 0); // no /proc entry: not Linux, or gone; a signal-0 probe tells
    return false;
  } catch (err) {
    return err.code !== 'EPERM'; // EPERM: alive, someone else's
  }
}

/** A process's start time (/proc/<pid>/stat field 22, clock ticks since boot), or null if gone. */
export function startTimeOf(pid) {
  const f = statFields(pid);
  return f === null || dead(f) ? null : (f[19] ?? null);
}

/** A process's environment as NAME=value entries, or null when gone or not ours to read. */
export function environOf(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
  } catch {
    return null;
  }
}

/** The value of one variable in a process's environment, or null when it carries none. */
export function envValueOf(pid, name) {
  const entry = environOf(pid)?.find((e) => e.startsWith(`${name}=`));
  return entry === undefined ? null : entry.slice(name.length + 1);
}

/** True when the process's working directory is `dir` or inside it (`dir` resolved already). */
export function cwdInside(pid, dir) {
  try {
    const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    return cwd === dir || cwd.startsWith(dir + path.sep);
  } catch {
    return false;
  }
}

/** True when one of the process's descriptors is one of `sockets` ("socket:[inode]"). */
export function holdsSocket(pid, sockets) {
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      if (sockets.has(fs.readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' }))) return true;
    }
  } catch {
    // gone, or not ours to inspect
  }
  return false;
}

/**
 * A process and its live descendants (children as listed by the main thread of each; a process
 * that double-forked away is not among them), at most 256. Just [root] where /proc cannot tell.
 */
export function processTree(root) {
  const tree = [];
  const todo = [root];
  while (todo.length > 0 && tree.length < 256) {
    const pid = todo.pop();
    tree.push(pid);
    try {
      for (const child of fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' '))
        if (child.trim()) todo.push(Number(child));
    } catch {
      // gone, or a kernel without the children file
    }
  }
  return tree;
}

/** utime + stime + cutime + cstime of one process, in ms; null if gone. */
function processCpuMs(pid) {
  const f = statFields(pid);
  // After the comm: state(3) ppid … utime(14) stime(15) cutime(16) cstime(17).
  return f === null ? null : ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / CLOCK_TICKS;
}

/**
 * CPU ms of a process and its live descendants (processTree), including the CPU of exited
 * children they waited for. Undefined when /proc cannot tell (not Linux, or the process is gone).
 */
export function processTreeCpuMs(root) {
  let total = 0;
  for (const pid of processTree(root)) {
    const ms = processCpuMs(pid);
    if (ms === null) {
      if (pid === root) return undefined;
      continue;
    }
    total += ms;
  }
  return total;
}

/** Sends a signal, ignoring a process (or group, negative pid) that is gone already. */
export function signalPid(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch {
    // ESRCH: already gone
  }
}
