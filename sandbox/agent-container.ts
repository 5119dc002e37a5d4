// An agent container: where a coding agent's commands run in Docker mode (a CLI agent, or the
// built-in agent's run_command). One long-lived container per development step, with the round
// workspace mounted read-write at /workspace and a fresh home at /home/agent; no network at all.
// The only ways out are relays (socat inside, Unix sockets in a mounted folder): the game server,
// for self-play, and, when an LLM endpoint is configured, the egress proxy of the orchestrator,
// which lets through that endpoint and nothing else (sandbox/egress-proxy.ts). Commands run as
// the orchestrator's user (files they write belong to it), with no capabilities, each in its own
// process group that is killed when the command returns or times out.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { CappedText } from './capped-log.ts';
import { LABEL, OWNER, relayToHost, sweepOrphans } from './docker.ts';
import {
  CONTAINER_PROXY_PORT,
  startContainerEgress,
  type EgressMeter,
  type EgressPacer,
  type EgressProxy,
} from './egress-proxy.ts';
import { WORKSPACE_MOUNT } from '../records/agent-activity.ts';
import type { ExchangeTap } from '../util/exchange-tape/tape.ts';

export { WORKSPACE_MOUNT };
export const HOME_MOUNT = '/home/agent';
export const AGENT_CONTAINER_DEFAULTS = {
  cpus: 2,
  memoryMb: 4096,
  pidsLimit: 1024,
  tmpfsMb: 1024,
  outputCapBytes: 20_000,
};

export interface AgentContainerOptions {
  image: string;
  /** Host folder mounted read-write at /workspace. */
  workspace: string;
  /** The LLM endpoint: origin-form requests to the in-container proxy go here, with these headers (the key) added on the host. */
  egress?: {
    upstream: string;
    headers?: Record<string, string>;
    allow?: string[];
    meter?: EgressMeter;
    pacer?: EgressPacer;
    /** The run's recording (or replay) of the agent's model exchanges. */
    tap?: ExchangeTap;
  };
  /** Orchestrator services reachable inside at localhost:<key> (the game server), on the host at 127.0.0.1:<value>. */
  hostPorts?: Record<number, number>;
  /** Environment of every command (no secrets: keys are added by the proxy). */
  env?: Record<string, string>;
  cpus?: number;
  memoryMb?: number;
  pidsLimit?: number;
  tmpfsMb?: number;
  /** Stdout/stderr kept per command (default 20 kB each). */
  outputCapBytes?: number;
  name?: string;
  docker?: Docker;
}

export interface ExecResult {
  /** Null when killed (timeout, abort). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

// PID 1's child: the relays (restarted if socat dies), then nothing but waiting for commands.
const ENTRY = `set -u
for f in "$@"; do (while :; do socat TCP-LISTEN:\${f%%:*},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:/relay/\${f#*:} 2>/dev/null; sleep 0.2; done) & done
exec sleep infinity
`;

// Runs one command in a new session (its own process group), records the group's id, and kills
// whatever of the group is left when the command ends: nothing outlives its command.
const RUN = `setsid bash -c "$2" </dev/null & pid=$!
echo "$pid" > "/tmp/.catarena-run-$1"
wait "$pid"; code=$?
kill -9 -- "-$pid" 2>/dev/null
rm -f "/tmp/.catarena-run-$1"
exit "$code"`;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class AgentContainer {
  private closed?: Promise<void>;

  private constructor(
    private readonly container: Docker.Container,
    private readonly stage: string,
    private readonly relays: net.Server[],
    readonly egress: EgressProxy | undefined,
    /** The egress endpoint as commands in the container call it (the proxy + the upstream's path). */
    readonly egressBaseUrl: string | undefined,
    private readonly cap: number,
  ) {}

  get id(): string {
    return this.container.id;
  }

  static async start(o: AgentContainerOptions): Promise<AgentContainer> {
    const docker = await readyDocker(o);
    await sweepOrphans(docker);
    const d = {
      ...AGENT_CONTAINER_DEFAULTS,
      ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)),
    } as typeof AGENT_CONTAINER_DEFAULTS & AgentContainerOptions;
    const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-agent-'));
    const relayDir = path.join(stage, 'relay');
    const home = path.join(stage, 'home');
    fs.mkdirSync(relayDir, { mode: 0o777 });
    fs.mkdirSync(home, { mode: 0o700 });
    const relays: net.Server[] = [];
    const forwards: string[] = [];
    let egress: EgressProxy | undefined;
    let egressBaseUrl: string | undefined;
    try {
      for (const [cport, hport] of Object.entries(o.hostPorts ?? {})) {
        relays.push(await relayToHost(path.join(relayDir, `${cport}.sock`), Number(hport)));
        forwards.push(`${cport}:${cport}.sock`);
      }
      if (o.egress) {
        ({ proxy: egress, baseUrl: egressBaseUrl } = await startContainerEgress({
          ...o.egress,
          socketPath: path.join(relayDir, 'egress.sock'),
        }));
        forwards.push(`${CONTAINER_PROXY_PORT}:egress.sock`);
      }
      const container = await docker.createContainer(
        containerSpec(o, d, { env: containerEnv(o, egress !== undefined), forwards, home, relayDir }),
      );
      const agent = new AgentContainer(container, stage, relays, egress, egressBaseUrl, d.outputCapBytes);
      AgentContainer.live.add(agent);
      AgentContainer.hook();
      await container.start();
      await untilRelaysListen(agent, forwards);
      return agent;
    } catch (err) {
      await egress?.close();
      await Promise.all(relays.map((r) => new Promise<void>((res) => r.close(() => res()))));
      fs.rmSync(stage, { recursive: true, force: true });
      throw err;
    }
  }

  /**
   * `bash -c command` in the container (cwd /workspace unless given); killed with its whole process
   * group after timeoutMs or on abort. stdout/stderr are capped.
   */
  async exec(
    command: string,
    o: { timeoutMs: number; signal?: AbortSignal; cwd?: string; env?: Record<string, string>; outputCapBytes?: number },
  ): Promise<ExecResult> {
    const t0 = Date.now();
    const id = randomUUID().slice(0, 8);
    const cap = o.outputCapBytes ?? this.cap;
    const exec = await this.container.exec({
      Cmd: ['bash', '-c', RUN, 'catarena-run', id, command],
      Env: Object.entries(o.env ?? {}).map(([k, v]) => `${k}=${v}`),
      WorkingDir: o.cwd ?? WORKSPACE_MOUNT,
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    const stdout = new CappedText(cap);
    const stderr = new CappedText(cap);
    const out = new PassThrough();
    const err = new PassThrough();
    out.on('data', (c: Buffer) => stdout.push(c));
    err.on('data', (c: Buffer) => stderr.push(c));
    this.container.modem.demuxStream(stream, out, err);
    let timedOut = false;
    const kill = () => {
      // A second exec kills the command's process group (Docker has no API to kill an exec).
      this.container
        .exec({
          Cmd: ['bash', '-c', `kill -9 -- "-$(cat /tmp/.catarena-run-${id} 2>/dev/null)" 2>/dev/null; true`],
          AttachStdout: false,
          AttachStderr: false,
        })
        .then((k) => k.start({ hijack: false, Detach: true } as Docker.ExecStartOptions))
        .catch(() => undefined);
    };
    const timer = setTimeout(
      () => {
        timedOut = true;
        kill();
      },
      Math.max(1, o.timeoutMs),
    );
    const onAbort = () => kill();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    if (o.signal?.aborted) kill();
    try {
      await new Promise<void>((resolve) => {
        stream.on('end', resolve);
        stream.on('close', resolve);
        stream.on('error', () => resolve());
      });
    } finally {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
    }
    const info = await exec.inspect().catch(() => undefined);
    const code = info?.ExitCode ?? null;
    return {
      exitCode: timedOut || o.signal?.aborted ? null : code,
      stdout: stdout.text(),
      stderr: stderr.text(),
      timedOut,
      durationMs: Date.now() - t0,
    };
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      AgentContainer.live.delete(this);
      await this.container.remove({ force: true }).catch(() => undefined);
      await this.egress?.close();
      await Promise.all(this.relays.map((r) => new Promise<void>((res) => r.close(() => res()))));
      fs.rmSync(this.stage, { recursive: true, force: true });
    })();
    return this.closed;
  }

  // Containers of a process that exits are removed at once (labels let the next start sweep the rest).
  private static readonly live = new Set<AgentContainer>();
  private static hooked = false;
  private static hook(): void {
    if (AgentContainer.hooked) return;
    AgentContainer.hooked = true;
    process.on('exit', () => {
      const ids = [...AgentContainer.live].map((a) => a.container.id);
      if (!ids.length) return;
      try {
        execFileSync('docker', ['rm', '-f', ...ids], { stdio: 'ignore', timeout: 10_000 });
      } catch {
        // swept at the next start
      }
    });
  }
}

/** Docker, reachable and holding the agent image, or an error that says how to get there. */
async function readyDocker(o: AgentContainerOptions): Promise<Docker> {
  // dockerode (and its gRPC stack) is loaded on first use: every tourney imports the agents, few start a container.
  const docker = o.docker ?? new (await import('dockerode')).default();
  try {
    await docker.ping();
  } catch (err) {
    throw new Error(
      `Docker is not reachable (${(err as Error).message}): agent containers need it; start it with "bash scripts/start-docker.sh"`,
    );
  }
  try {
    await docker.getImage(o.image).inspect();
  } catch {
    throw new Error(`Docker image ${o.image} not found: build it offline with "npm run images:agents"`);
  }
  return docker;
}

/** The commands' environment: the agent image's tools, a fresh home, and the egress proxy when there is one. */
function containerEnv(o: AgentContainerOptions, hasEgress: boolean): Record<string, string> {
  const proxy = `http://127.0.0.1:${CONTAINER_PROXY_PORT}`;
  const proxyEnv: Record<string, string> = hasEgress
    ? {
        HTTP_PROXY: proxy,
        HTTPS_PROXY: proxy,
        http_proxy: proxy,
        https_proxy: proxy,
        NO_PROXY: '127.0.0.1,localhost',
        no_proxy: '127.0.0.1,localhost',
      }
    : {};
  // Root in the container is the orchestrator's root without capabilities; Claude Code refuses
  // to bypass permissions as root unless told it is in a sandbox, which it is.
  return {
    PATH: '/opt/catarena/node/bin:/opt/catarena/clis/node_modules/.bin:/usr/local/bin:/usr/bin:/bin',
    HOME: HOME_MOUNT,
    LANG: 'C.UTF-8',
    ...((process.getuid?.() ?? 0) === 0 ? { IS_SANDBOX: '1' } : {}),
    ...proxyEnv,
    ...o.env,
  };
}

/** The container: no network, a read-only root, the workspace, home and relay folder mounted, capped. */
function containerSpec(
  o: AgentContainerOptions,
  d: typeof AGENT_CONTAINER_DEFAULTS,
  s: { env: Record<string, string>; forwards: string[]; home: string; relayDir: string },
): Docker.ContainerCreateOptions {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const memory = d.memoryMb * 1024 * 1024;
  return {
    Image: o.image,
    name: `catarena-agent-${(o.name ?? 'agent').replace(/[^\w.-]+/g, '_').slice(0, 40)}-${randomUUID().slice(0, 8)}`,
    Cmd: ['bash', '-c', ENTRY, 'catarena-agent', ...s.forwards],
    Env: Object.entries(s.env).map(([k, v]) => `${k}=${v}`),
    User: `${uid}:${gid}`,
    WorkingDir: WORKSPACE_MOUNT,
    Labels: { [LABEL]: 'agent', 'catarena.owner': OWNER, 'catarena.agent': o.name ?? 'agent' },
    HostConfig: {
      NetworkMode: 'none',
      Binds: [`${path.resolve(o.workspace)}:${WORKSPACE_MOUNT}`, `${s.home}:${HOME_MOUNT}`, `${s.relayDir}:/relay:ro`],
      ReadonlyRootfs: true,
      // exec: Docker mounts a tmpfs noexec unless told; an agent on the go task track runs the bot it built there.
      Tmpfs: { '/tmp': `rw,exec,nosuid,nodev,size=${d.tmpfsMb}m,mode=1777` },
      Memory: memory,
      MemorySwap: memory,
      NanoCpus: Math.round(d.cpus * 1e9),
      PidsLimit: d.pidsLimit,
      SecurityOpt: ['no-new-privileges'],
      CapDrop: ['ALL'],
      Init: true,
    },
  };
}

/** The relays listen a moment after start: waits until every forwarded port accepts. */
async function untilRelaysListen(agent: AgentContainer, forwards: string[]): Promise<void> {
  for (const f of forwards) {
    const port = f.split(':')[0];
    for (let i = 0; ; i++) {
      const r = await agent.exec(`exec 3<>/dev/tcp/127.0.0.1/${port}`, { timeoutMs: 5_000 });
      if (r.exitCode === 0) break;
      if (i >= 50) throw new Error(`the relay to port ${port} did not come up in the agent container`);
      await sleep(100);
    }
  }
}
