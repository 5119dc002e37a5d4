// Bot processes left behind by a worker that was killed (SIGKILL gives it no chance to stop
// them): found by their working directory under the worker's artifact cache, and killed when a
// worker starts on that cache again, so they hold no ports or cores. Linux (/proc) only.
import fs from 'node:fs';
import path from 'node:path';

/** Kills every process (but this one) whose working directory is inside `dir`; returns their pids. */
export function killProcessesIn(dir: string): number[] {
  let root: string;
  try {
    root = fs.realpathSync(dir);
  } catch {
    return [];
  }
  const killed: number[] = [];
  for (const entry of fs.existsSync('/proc') ? fs.readdirSync('/proc') : []) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let cwd: string;
    try {
      cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      continue; // gone, or not ours to read
    }
    if (cwd !== root && !cwd.startsWith(`${root}${path.sep}`)) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    } catch {
      // exited meanwhile
    }
  }
  return killed;
}
