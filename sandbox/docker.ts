// The Docker sandbox: one long-lived container per bot, with no network at all. The bot's port
// and the game-server ports it may call are relayed through Unix sockets in small mounted folders
// (socat inside, Node outside), so a bot reaches the orchestrator and nothing else: no internet,
// no other bot, no host service. Bot code is mounted read-only, / is read-only, /tmp is a small
// tmpfs (exec allowed: a go-track bot builds its binary there and runs it; docs/tracks.md); the bot runs as nobody with no capabilities and no new privileges, under CPU, memory
// (swap = memory) and pids limits. Containers carry labels, so leftovers of a crashed run are
// swept at the next start.
import { ExitHook } from './exit-hook.ts';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { botRuntimeTag } from '../docker/image-tags.ts';
import { CappedLog, readLogTail } from './capped-log.ts';
import { DEFAULT_HEALTH, probeHealth } from './health.ts';
import { BOT_START_TIMEOUT_MS } from '../records/match.ts';
import { killProcessesIn } from './strays.ts';
import { newCallerId } from './relayed-callers.ts';
import { connectUnix, openRelays, STAGE_ENTRY, stageNameRoom } from './relay.ts';

export { relayToHost } from './relay.ts';
export { stageNameRoom };
import { processTreeCpuMs } from '../util/procfs.mjs';
import {
  BotStartError,
  type ExchangeTapFor,
  type BotHandle,
  type BotStartOptions,
  type HealthCheck,
  type Sandbox,
} from './types.ts';

export interface DockerSandboxOptions {
  /** Image with bash, socat, python3 + Flask, node (default: the one `npm run images` builds). */
  image?: string;
  /** CPU cores per bot (default 1). */
  cpus?: number;
  /** Memory per bot in MiB; swap is set equal, so there is no swap (default 1024). */
  memoryMb?: number;
  /** Processes per bot (default 256). */
  pidsLimit?: number;
  /** Size of the writable /tmp (default 64 MiB). */
  tmpfsMb?: number;
  /** Container user (default nobody). */
  user?: string;
  /** Pin each bot to one core, round robin (default off: our CPU slots already bound thinking bots). */
  cpuset?: boolean;
  /** Kill containers on SIGINT/SIGTERM/SIGHUP (default true); they are always removed on exit. */
  handleSignals?: boolean;
  docker?: Docker;
  /** Each bot's model-exchange tap (a run's recording or replay). */
  exchanges?: ExchangeTapFor;
}

/** The image is the one the current recipe builds (its content-hash tag), never a stale :latest. */
export const DOCKER_DEFAULTS = {
  image: botRuntimeTag(),
  cpus: 1,
  memoryMb: 1024,
  pidsLimit: 256,
  tmpfsMb: 64,
  user: '65534:65534',
};

export const LABEL = 'catarena.sandbox';
export const OWNER = `${os.hostname()}:${process.pid}`;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class DockerSandbox implements Sandbox {
  readonly kind = 'docker';
  private docker?: Docker;
  private readonly options: Required<Omit<DockerSandboxOptions, 'docker' | 'exchanges'>>;
  private readonly exchanges: ExchangeTapFor | undefined;
  private readonly bots = new Set<DockerBot>();
  private readonly stageRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-docker-'));
  private ready?: Promise<void>;
  private readonly exitHook: ExitHook;
  private nextCore = 0;

  constructor(options: DockerSandboxOptions = {}) {
    this.docker = options.docker;
    this.exchanges = options.exchanges;
    this.options = { ...DOCKER_DEFAULTS, cpuset: false, handleSignals: true, ...options };
    this.exitHook = new ExitHook(() => this.onExit(), Boolean(this.options.handleSignals));
  }

  /** Processes left in `dir` (containers of dead orchestrators are removed when the engine is first used). */
  reapStrays(dir: string): number {
    return killProcessesIn(dir).length;
  }

  /** Checks the engine and the image once, and removes containers left by dead orchestrators. */
  private prepare(): Promise<void> {
    this.ready ??= (async () => {
      // dockerode is loaded on first use, so commands that never start a container do not pay for it.
      this.docker ??= new (await import('dockerode')).default();
      try {
        await this.docker.ping();
      } catch (err) {
        throw new Error(
          `Docker is not reachable (${(err as Error).message}): start it with "bash scripts/start-docker.sh", or use --sandbox process`,
        );
      }
      try {
        await this.docker.getImage(this.options.image).inspect();
      } catch {
        throw new Error(`Docker image ${this.options.image} not found: build it offline with "npm run images"`);
      }
      await sweepOrphans(this.docker);
    })();
    return this.ready;
  }

  async start(o: BotStartOptions): Promise<BotHandle> {
    const name = o.name ?? path.basename(o.dir);
    const dir = path.resolve(o.dir);
    const script = o.script ?? 'start_ai.sh';
    if (script !== 'start_ai.sh') throw new Error('the docker sandbox runs start_ai.sh only');
    if (!fs.existsSync(path.join(dir, script))) {
      throw new BotStartError(
        `${name}: start script not found: ${path.join(dir, script)}. A bot folder needs a ${script} that takes the port as its only argument.`,
        'no_start_script',
        '',
      );
    }
    await this.prepare();
    this.exitHook.on();

    const { stage, botCopy } = stageBot(this.stageRoot, name, dir);
    const callerId = newCallerId();
    const closers: Array<() => Promise<void>> = [];
    const { forwards, env: egressEnv } = await openRelays(
      stage,
      o.hostPorts ?? {},
      callerId,
      dir,
      closers,
      this.exchanges?.(o.dir),
    );

    const logFile = o.logFile ?? path.join(stage, 'bot.log');
    const log = new CappedLog(logFile, o.logCapBytes ?? 1024 * 1024);
    const container = await this.docker!.createContainer(
      this.containerSpec(o, name, { stage, botCopy, forwards, egressEnv }),
    );
    const stream = await container.attach({ stream: true, stdout: true, stderr: true });
    const sink = new PassThrough();
    sink.on('data', (c: Buffer) => log.write(c));
    container.modem.demuxStream(stream, sink, sink);

    const bot = new DockerBot(
      name,
      o.port,
      logFile,
      path.join(stage, 'io', 'bot.sock'),
      o.health ?? DEFAULT_HEALTH,
      container,
      log,
      stage,
      closers,
      (b) => this.bots.delete(b),
      callerId,
    );
    this.bots.add(bot);
    await container.start();
    bot.findHostProcess();
    return untilHealthy(bot, name, o.startTimeoutMs ?? BOT_START_TIMEOUT_MS);
  }

  /** The bot's container: no network, read-only code and root, nobody, capped (and pinned to a core with cpuset). */
  private containerSpec(
    o: BotStartOptions,
    name: string,
    s: { stage: string; botCopy: string; forwards: string[]; egressEnv: Record<string, string> },
  ): Docker.ContainerCreateOptions {
    const { cpus, memoryMb, pidsLimit, tmpfsMb, user, image } = this.options;
    const memory = memoryMb * 1024 * 1024;
    return {
      Image: image,
      name: `catarena-${path.basename(s.stage)}-${randomUUID().slice(0, 8)}`,
      Cmd: ['bash', '-c', STAGE_ENTRY, 'catarena-entry', String(o.port), ...s.forwards],
      // catarena-env.json's passEnv is not honoured here: no host variable (secret) enters a container.
      Env: Object.entries({
        PATH: '/usr/local/bin:/usr/bin:/bin',
        HOME: '/tmp',
        LANG: 'C.UTF-8',
        PYTHONUNBUFFERED: '1',
        PYTHONDONTWRITEBYTECODE: '1',
        ...s.egressEnv,
        ...o.env,
      }).map(([k, v]) => `${k}=${v}`),
      User: user,
      WorkingDir: '/bot',
      Labels: { [LABEL]: 'bot', 'catarena.owner': OWNER, 'catarena.bot': name },
      HostConfig: {
        NetworkMode: 'none',
        Binds: [`${s.botCopy}:/bot:ro`, `${path.join(s.stage, 'io')}:/io`, `${path.join(s.stage, 'gs')}:/gs:ro`],
        ReadonlyRootfs: true,
        // exec: Docker mounts a tmpfs noexec unless told; a compiled bot (go task track) runs from /tmp.
        Tmpfs: { '/tmp': `rw,exec,nosuid,nodev,size=${tmpfsMb}m,mode=1777` },
        Memory: memory,
        MemorySwap: memory,
        NanoCpus: Math.round(cpus * 1e9),
        ...(this.options.cpuset ? { CpusetCpus: String(this.nextCore++ % os.availableParallelism()) } : {}),
        PidsLimit: pidsLimit,
        SecurityOpt: ['no-new-privileges'],
        CapDrop: ['ALL'],
        Init: true,
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all([...this.bots].map((b) => b.stop()));
    fs.rmSync(this.stageRoot, { recursive: true, force: true });
    this.exitHook.off();
  }

  private readonly onExit = () => {
    const ids = [...this.bots].map((b) => b.containerId);
    if (ids.length) {
      try {
        execFileSync('docker', ['rm', '-f', ...ids], { stdio: 'ignore', timeout: 10_000 });
      } catch {
        // the next start sweeps what is left (labels)
      }
    }
    fs.rmSync(this.stageRoot, { recursive: true, force: true });
  };
}

class DockerBot implements BotHandle {
  readonly url: string;
  private stopped?: Promise<void>;
  /** The container's init as a process of this host, once found (same host and pid namespace as the engine). */
  private hostPid: number | undefined;

  constructor(
    readonly name: string,
    readonly port: number,
    readonly logFile: string,
    readonly socketPath: string,
    private readonly health: HealthCheck,
    private readonly container: Docker.Container,
    private readonly log: CappedLog,
    private readonly stage: string,
    private readonly closers: Array<() => Promise<void>>,
    private readonly forget: (b: DockerBot) => void,
    readonly callerId: string,
  ) {
    this.url = `http://localhost:${port}`;
  }

  readonly connect = () => connectUnix(this.socketPath);

  get containerId(): string {
    return this.container.id;
  }

  isHealthy(timeoutMs = 2_000): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    return probeHealth(this.url, this.health, timeoutMs, this.connect);
  }

  logTail(maxBytes = 4096): Promise<string> {
    return readLogTail(this.logFile, maxBytes);
  }

  /**
   * Looks up the container's init among this host's processes, in the background, for cpuTimeMs.
   * It counts only when /proc/<pid>/cgroup names the container: an engine on another host or in
   * another pid namespace reports a pid that is not the container's here.
   */
  findHostProcess(): void {
    this.container
      .inspect()
      .then(({ State }) => {
        if (State.Pid > 0 && this.isOurs(State.Pid)) this.hostPid = State.Pid;
      })
      .catch(() => undefined); // not on this host, or gone already: CPU stays unknown
  }

  /**
   * CPU time (user + system, ms) of the container's processes so far, read from /proc like a
   * process bot's (its init reaps the processes that exit, so their CPU counts too); undefined
   * until the container's init is found, when it cannot be (another host), or once stopped.
   */
  cpuTimeMs(): number | undefined {
    if (this.stopped || this.hostPid === undefined) return undefined;
    // Checked on every read: a container that died unnoticed leaves its pid free for reuse.
    if (!this.isOurs(this.hostPid)) return undefined;
    return processTreeCpuMs(this.hostPid);
  }

  private isOurs(pid: number): boolean {
    try {
      return fs.readFileSync(`/proc/${pid}/cgroup`, 'utf8').includes(this.container.id);
    } catch {
      return false;
    }
  }

  async alive(): Promise<boolean> {
    if (this.stopped) return false;
    try {
      const info = await this.container.inspect();
      return info.State.Running && (await probeHealth(this.url, { kind: 'tcp' }, 1_000, this.connect));
    } catch {
      return false;
    }
  }

  /** "exit code 3 (OOM-killed)" once the container has stopped, else null. */
  async describeExit(): Promise<string | null> {
    try {
      const { State } = await this.container.inspect();
      if (State.Running) return null;
      return `exit code ${State.ExitCode}${State.OOMKilled ? ' (killed: out of memory)' : ''}${State.Error ? ` (${State.Error})` : ''}`;
    } catch {
      return 'the container is gone';
    }
  }

  async failStart(reason: BotStartError['reason'], message: string): Promise<never> {
    await sleep(200); // let the last output reach the log
    const tail = await this.logTail();
    await this.stop();
    throw new BotStartError(
      `${message}. Log: ${this.logFile}${tail ? `\n--- log tail ---\n${tail}` : ''}`,
      reason,
      tail,
    );
  }

  stop(): Promise<void> {
    this.stopped ??= (async () => {
      await this.container.remove({ force: true }).catch(() => undefined);
      await Promise.all(this.closers.map((close) => close()));
      this.log.close();
      // Keep the log when it lives in the stage (the caller may still read its tail); drop the rest.
      for (const sub of ['bot', 'io', 'gs']) fs.rmSync(path.join(this.stage, sub), { recursive: true, force: true });
      this.forget(this);
    })();
    return this.stopped;
  }
}

/** Removes containers whose orchestrator (same host, dead pid) did not clean up. */
export async function sweepOrphans(docker: Docker): Promise<number> {
  const containers = await docker.listContainers({ all: true, filters: { label: [LABEL] } });
  let removed = 0;
  for (const c of containers) {
    const [host, pid] = (c.Labels['catarena.owner'] ?? '').split(':');
    if (host !== os.hostname() || !pid || isAlive(Number(pid))) continue;
    await docker
      .getContainer(c.Id)
      .remove({ force: true })
      .catch(() => undefined);
    removed++;
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
  } catch {
    return false;
  }
}

/**
 * The bot's stage: a world-readable copy of its code (mounted read-only), its socket folder (io),
 * and the game-server sockets' folder (gs, relayed to 127.0.0.1 ports on this host).
 */
function stageBot(stageRoot: string, name: string, dir: string): { stage: string; botCopy: string } {
  const stage = fs.mkdtempSync(
    path.join(stageRoot, `${name.replace(/[^\w.-]+/g, '_').slice(0, stageNameRoom(stageRoot))}-`),
  );
  const botCopy = path.join(stage, 'bot');
  fs.cpSync(dir, botCopy, { recursive: true, filter: (src) => !/(^|\/)(node_modules|__pycache__|\.git)$/.test(src) });
  execFileSync('chmod', ['-R', 'a+rX', botCopy]);
  for (const sub of ['io', 'gs']) fs.mkdirSync(path.join(stage, sub), { mode: 0o777 });
  fs.chmodSync(path.join(stage, 'io'), 0o777);
  return { stage, botCopy };
}

/** Polls the started bot's health until it answers, its container stops, or the start deadline passes. */
async function untilHealthy(bot: DockerBot, name: string, startTimeoutMs: number): Promise<BotHandle> {
  const deadline = Date.now() + startTimeoutMs;
  for (let poll = 0; ; poll++) {
    if (await bot.isHealthy(1_000)) return bot;
    if (poll % 3 === 0) {
      const exit = await bot.describeExit();
      if (exit)
        return bot.failStart('exited', `${name}: the bot's container stopped before it became healthy: ${exit}`);
    }
    if (Date.now() > deadline)
      return bot.failStart('unhealthy', `${name}: no healthy answer within ${startTimeoutMs} ms`);
    await sleep(100);
  }
}
