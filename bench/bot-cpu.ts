// The bots' CPU by track during a benchmarked tourney: once a second, every process that runs in a
// track folder of the run is read from /proc; its last reading counts. A bot runs in
// tracks/<track>/…/strategies/<id>, or, isolated by bubblewrap, in /bot of its own mount namespace:
// then the folder is in the command line of the bwrap that started it, so a process counts for the
// nearest ancestor (itself included) whose working directory or command line names a track folder
// (the orchestrator names the run folder, not a track's, so neither it nor its brokers count). A
// bot that exits between two readings loses at most a second of its CPU; bots live for a whole
// track, so that is a small undercount.
import fs from 'node:fs';
import path from 'node:path';
import { argvOf, pids, statFields } from '../util/procfs.mjs';

export interface BotCpuWatch {
  /** Stops watching and returns CPU seconds by track ("other" for processes outside a track folder). */
  stop(): Record<string, number>;
}

/** The track-folder path a process names in its working directory or command line, if any. */
function pathNamed(pid: number, tracks: string): string | null {
  try {
    const cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    if (cwd.includes(tracks)) return cwd;
    return argvOf(pid).find((a) => a.includes(tracks)) ?? null;
  } catch {
    return null;
  }
}

export function watchBotCpu(outDir: string, everyMs = 1000): BotCpuWatch {
  // <run folder>/tracks/ inside the output folder (the run folder's name is not known yet).
  const tracks = `${path.sep}tracks${path.sep}`;
  const root = fs.realpathSync(outDir) + path.sep;
  const named = (pid: number) => {
    const p = pathNamed(pid, tracks);
    return p?.startsWith(root) ? p : null;
  };
  const seen = new Map<string, { track: string; cpuS: number }>();
  const read = () => {
    const stats = new Map<number, string[]>();
    for (const pid of pids()) {
      const f = statFields(pid);
      if (f) stats.set(pid, f);
    }
    const found = new Map<number, string | null>();
    const nameOf = (pid: number): string | null => {
      if (found.has(pid)) return found.get(pid)!;
      found.set(pid, null); // a cycle guard while the parent is looked up
      const own = named(pid);
      const ppid = Number(stats.get(pid)?.[1] ?? 0);
      const where = own ?? (ppid > 1 && pid !== process.pid ? nameOf(ppid) : null);
      found.set(pid, where);
      return where;
    };
    for (const [pid, f] of stats) {
      const where = nameOf(pid);
      if (!where) continue;
      // utime, stime (proc(5) fields 14–15), in clock ticks of 1/100 s; children count themselves.
      const cpuS = (Number(f[11]) + Number(f[12])) / 100;
      const track = /[/\\]tracks[/\\]([^/\\]+)/.exec(where)?.[1] ?? 'other';
      seen.set(`${pid}:${f[19]}`, { track, cpuS });
    }
  };
  const timer = setInterval(read, everyMs);
  return {
    stop() {
      clearInterval(timer);
      read();
      const byTrack: Record<string, number> = {};
      for (const { track, cpuS } of seen.values()) byTrack[track] = (byTrack[track] ?? 0) + cpuS;
      return byTrack;
    },
  };
}
