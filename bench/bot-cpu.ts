// The bots' CPU by track during a benchmarked tourney: once a second, every process whose working
// directory is inside the run's output folder (a bot runs in tracks/<track>/…/strategies/<id>) is
// read from /proc; its last reading counts. A bot that exits between two readings loses at most a
// second of its CPU; bots live for a whole track, so that is a small undercount.
import fs from 'node:fs';
import path from 'node:path';
import { pids, statFields } from '../util/procfs.mjs';

export interface BotCpuWatch {
  /** Stops watching and returns CPU seconds by track ("other" for processes outside a track folder). */
  stop(): Record<string, number>;
}

export function watchBotCpu(outDir: string, everyMs = 1000): BotCpuWatch {
  const root = fs.realpathSync(outDir) + path.sep;
  const seen = new Map<string, { track: string; cpuS: number }>();
  const read = () => {
    for (const pid of pids()) {
      let cwd: string;
      try {
        cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
      } catch {
        continue;
      }
      if (!cwd.startsWith(root)) continue;
      const f = statFields(pid);
      if (!f) continue;
      // utime, stime, cutime, cstime (proc(5) fields 14–17), in clock ticks of 1/100 s.
      const cpuS = (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
      const track = /[/\\]tracks[/\\]([^/\\]+)/.exec(cwd)?.[1] ?? 'other';
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
