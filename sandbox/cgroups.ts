// Per-bot cgroups for the isolated sandbox: a pids limit (fork bombs) and a memory limit with no
// swap, where this machine lets us make them: cgroup v1's pids and memory hierarchies, or a cgroup
// v2 subtree with both controllers delegated to us. Each bot's group sits under the orchestrator's
// own (so a host's accounting of the orchestrator still holds) and is removed when the bot stops.
// Where there are none, isolated.ts falls back to rlimits.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface CgroupLimits {
  pids: number;
  memoryBytes: number;
}

/** One bot's cgroup(s): the files its first process writes its pid to, what it hit, and cleanup. */
export interface BotCgroup {
  readonly version: 1 | 2;
  /** cgroup.procs of each group the bot's first process joins (one for v2; pids, memory and maybe cpuacct for v1). */
  readonly procsFiles: string[];
  /** The limits hit so far ("processes (256)", "memory (1024 MiB)"). */
  limitsHit(): string[];
  /** Pids in the group(s), as this host sees them. */
  pids(): number[];
  /** CPU ms its processes used, exited ones included (cgroup CPU accounting), where the host keeps it. */
  cpuMs(): number | undefined;
  /** Removes the group(s) once empty; false when a process still holds one. */
  remove(): boolean;
}

type Place = { version: 1 | 2; dirs: { pids: string; memory: string; cpuacct?: string } };
let placeCache: Place | null | undefined;

/** Where bot groups can go on this machine, or null (no writable pids+memory hierarchy). Cached. */
export function cgroupPlace(): Place | null {
  if (placeCache !== undefined) return placeCache;
  placeCache = null;
  try {
    placeCache = findPlace();
  } catch {
    placeCache = null;
  }
  return placeCache;
}

function findPlace(): Place | null {
  const own = fs
    .readFileSync('/proc/self/cgroup', 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const [, ctrls = '', p = '/'] = /^\d+:([^:]*):(.*)$/.exec(l) ?? [];
      return { ctrls: ctrls.split(',').filter(Boolean), path: p };
    });
  const mounts = fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const [left = '', right = ''] = l.split(' - ');
      const f = left.split(' ');
      const [fstype, , opts = ''] = right.split(' ');
      return { root: f[3] ?? '/', point: f[4] ?? '', fstype, opts: opts.split(',') };
    });
  const dirOf = (mount: { root: string; point: string }, ownPath: string) => {
    const rel = mount.root === '/' ? ownPath : path.relative(mount.root, ownPath);
    return path.join(mount.point, rel.startsWith('..') ? '' : rel);
  };
  const v1 = (ctrl: 'pids' | 'memory' | 'cpuacct') => {
    const mount = mounts.find((m) => m.fstype === 'cgroup' && m.opts.includes(ctrl));
    const mine = own.find((o) => o.ctrls.includes(ctrl));
    return mount && mine ? dirOf(mount, mine.path) : undefined;
  };
  const pids = v1('pids');
  const memory = v1('memory');
  if (pids && memory && writable(pids) && writable(memory)) {
    // CPU accounting lets the adaptive concurrency read one file per bot instead of its process tree.
    const cpuacct = v1('cpuacct');
    return { version: 1, dirs: { pids, memory, ...(cpuacct && writable(cpuacct) ? { cpuacct } : {}) } };
  }
  const unified = mounts.find((m) => m.fstype === 'cgroup2');
  const mine = own.find((o) => o.ctrls.length === 0);
  if (!unified || !mine) return null;
  const dir = dirOf(unified, mine.path);
  const delegated = fs.readFileSync(path.join(dir, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
  if (!delegated.includes('pids') || !delegated.includes('memory') || !writable(dir)) return null;
  return { version: 2, dirs: { pids: dir, memory: dir } };
}

/** A group can be made (and removed) here. */
function writable(dir: string): boolean {
  const probe = path.join(dir, `catarena-probe-${randomUUID().slice(0, 8)}`);
  try {
    fs.mkdirSync(probe);
    fs.rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

/** A new group (or pair, v1) for one bot with these limits; null where cgroups are not available. */
export function createBotCgroup(name: string, limits: CgroupLimits): BotCgroup | null {
  const place = cgroupPlace();
  if (!place) return null;
  const leaf = `catarena-${name.replace(/[^\w.-]+/g, '_').slice(0, 40)}-${randomUUID().slice(0, 8)}`;
  const made: string[] = [];
  let cpuFile: string | undefined;
  try {
    if (place.version === 2) {
      const dir = path.join(place.dirs.pids, leaf);
      fs.mkdirSync(dir);
      made.push(dir);
      fs.writeFileSync(path.join(dir, 'pids.max'), String(limits.pids));
      fs.writeFileSync(path.join(dir, 'memory.max'), String(limits.memoryBytes));
      fs.writeFileSync(path.join(dir, 'memory.swap.max'), '0');
      cpuFile = path.join(dir, 'cpu.stat');
    } else {
      const pids = path.join(place.dirs.pids, leaf);
      const memory = path.join(place.dirs.memory, leaf);
      fs.mkdirSync(pids);
      made.push(pids);
      fs.mkdirSync(memory);
      made.push(memory);
      fs.writeFileSync(path.join(pids, 'pids.max'), String(limits.pids));
      fs.writeFileSync(path.join(memory, 'memory.limit_in_bytes'), String(limits.memoryBytes));
      // No swap: memsw (memory + swap) equal to memory, where the kernel accounts swap.
      const memsw = path.join(memory, 'memory.memsw.limit_in_bytes');
      if (fs.existsSync(memsw)) fs.writeFileSync(memsw, String(limits.memoryBytes));
      if (place.dirs.cpuacct) {
        const cpu = path.join(place.dirs.cpuacct, leaf);
        fs.mkdirSync(cpu);
        made.push(cpu);
        cpuFile = path.join(cpu, 'cpuacct.usage');
      }
    }
  } catch {
    for (const dir of made) rmdirQuiet(dir);
    return null;
  }
  return new Group(place.version, made, limits, cpuFile);
}

class Group implements BotCgroup {
  constructor(
    readonly version: 1 | 2,
    private readonly dirs: string[],
    private readonly limits: CgroupLimits,
    private readonly cpuFile?: string,
  ) {}

  get procsFiles(): string[] {
    return this.dirs.map((d) => path.join(d, 'cgroup.procs'));
  }

  limitsHit(): string[] {
    const hit: string[] = [];
    const pidsDir = this.dirs[0]!;
    const memDir = this.dirs[this.version === 2 ? 0 : 1]!;
    if (counter(path.join(pidsDir, 'pids.events'), 'max') > 0) hit.push(`processes (${this.limits.pids})`);
    const oom =
      this.version === 2
        ? counter(path.join(memDir, 'memory.events'), 'oom_kill')
        : counter(path.join(memDir, 'memory.oom_control'), 'oom_kill');
    if (oom > 0) hit.push(`memory (${Math.round(this.limits.memoryBytes / 1024 / 1024)} MiB)`);
    return hit;
  }

  pids(): number[] {
    const out = new Set<number>();
    for (const file of this.procsFiles) {
      try {
        for (const l of fs.readFileSync(file, 'utf8').split('\n')) if (l) out.add(Number(l));
      } catch {
        // removed already
      }
    }
    return [...out];
  }

  cpuMs(): number | undefined {
    if (!this.cpuFile) return undefined;
    try {
      const text = fs.readFileSync(this.cpuFile, 'utf8');
      if (this.version === 1) return Number(text) / 1e6; // cpuacct.usage: ns
      const m = /^usage_usec (\d+)$/m.exec(text);
      return m ? Number(m[1]) / 1e3 : undefined;
    } catch {
      return undefined;
    }
  }

  remove(): boolean {
    let all = true;
    for (const dir of this.dirs) all = rmdirQuiet(dir) && all;
    return all;
  }
}

/** The value of `key` in a flat-keyed cgroup file ("max 3"), 0 when absent. */
function counter(file: string, key: string): number {
  try {
    const m = new RegExp(`^${key} (\\d+)$`, 'm').exec(fs.readFileSync(file, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function rmdirQuiet(dir: string): boolean {
  try {
    fs.rmdirSync(dir);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}
