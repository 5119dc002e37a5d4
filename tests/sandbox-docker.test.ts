// The Docker backend against the real engine: isolation from inside a bot container, limits,
// crash reports and cleanup. No packet leaves this machine: a container has only loopback, and
// every listener probed here is one this test started.
// Over 30 s: each case starts real bot containers (about 1 s each) and waits out limits and crashes.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { request, Agent } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { DockerSandbox, stageNameRoom } from '../sandbox/docker.ts';
import { botRuntimeTag } from '../docker/image-tags.ts';
import { BotStartError, type BotHandle } from '../sandbox/types.ts';
import { allocatePort } from '../sandbox/ports.ts';
import { botDir, dockerReady } from './helpers/bots.ts';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures');
const probeBot = (files: Record<string, string> = {}) =>
  botDir('probe', '#!/bin/bash\ncd "$(dirname "$0")"\nexec node probe.mjs "$1"\n', {
    'probe.mjs': fs.readFileSync(path.join(FIXTURES, 'bots', 'probe.mjs'), 'utf8'),
    ...files,
  });

async function ask(handle: BotHandle, route: string): Promise<any> {
  const res = await request(`http://localhost/${route}`, {
    dispatcher: new Agent({ connect: { socketPath: handle.socketPath! } }),
    signal: AbortSignal.timeout(20_000),
  });
  return res.body.json();
}

describe('docker sandbox: socket paths', () => {
  it("shortens the bot's name in the stage folder so the deepest relay socket fits 107 bytes, and says so when nothing fits", () => {
    expect(stageNameRoom('/tmp/catarena-docker-AbCdEf')).toBe(40);
    const longRoot = `/${'d'.repeat(79)}`; // 80 bytes
    expect(stageNameRoom(longRoot)).toBe(107 - 80 - '/-XXXXXX/gs/egress.sock'.length);
    const deepest = `${longRoot}/${'n'.repeat(stageNameRoom(longRoot))}-XXXXXX/gs/egress.sock`;
    expect(Buffer.byteLength(deepest)).toBe(107);
    expect(() => stageNameRoom(`/${'d'.repeat(89)}`)).toThrow(
      /too long for the Unix sockets .* set TMPDIR to a shorter path/,
    );
  });
});

describe.skipIf(!dockerReady())('docker sandbox', () => {
  const sandbox = new DockerSandbox({ memoryMb: 256, pidsLimit: 64 });
  afterAll(() => sandbox.close());

  it('runs the bot as nobody with only a loopback interface and no route', async () => {
    const bot = await sandbox.start({ dir: probeBot(), port: 5000 });
    expect(await ask(bot, 'whoami')).toEqual({ uid: 65534, gid: 65534 });
    const netInfo = await ask(bot, 'net');
    expect(netInfo.interfaces).toEqual(['lo']);
    expect(netInfo.ipv4Routes).toBe(0);
  });

  it('cannot reach a listener on the host, nor another bot container', async () => {
    const hostPort = await allocatePort();
    const listener = net.createServer((s) => s.end('secret')).listen(hostPort, '127.0.0.1');
    try {
      const a = await sandbox.start({ dir: probeBot(), port: 5001 });
      const b = await sandbox.start({ dir: probeBot(), port: 5002 });
      expect(await ask(b, 'health')).toEqual({ status: 'healthy' });
      expect(await ask(a, `connect?host=127.0.0.1&port=${hostPort}`)).toEqual({ ok: false, error: 'ECONNREFUSED' });
      expect(await ask(a, 'connect?host=127.0.0.1&port=5002')).toEqual({ ok: false, error: 'ECONNREFUSED' });
      expect(await ask(a, 'connect?host=127.0.0.1&port=5001')).toEqual({ ok: true }); // its own port, as a control
    } finally {
      listener.close();
    }
  });

  it('reaches the game server only through the ports it is given', async () => {
    const gsPort = await allocatePort();
    const gs = net.createServer((s) => s.end('game-server')).listen(gsPort, '127.0.0.1');
    try {
      const bot = await sandbox.start({ dir: probeBot(), port: 5003, hostPorts: { 9000: gsPort } });
      expect(await ask(bot, 'connect?host=127.0.0.1&port=9000')).toEqual({ ok: true });
      expect(await ask(bot, `connect?host=127.0.0.1&port=${gsPort}`)).toEqual({ ok: false, error: 'ECONNREFUSED' });
    } finally {
      gs.close();
    }
  });

  it("cannot read another bot's files or write its own code", async () => {
    const other = probeBot({ 'secret.txt': 'do not read' });
    const a = await sandbox.start({ dir: probeBot(), port: 5004 });
    expect((await ask(a, `read?path=${encodeURIComponent(path.join(other, 'secret.txt'))}`)).error).toBe('ENOENT');
    expect((await ask(a, 'write?path=/bot/evil.txt')).error).toBe('EROFS');
    expect((await ask(a, 'write?path=/etc/evil.txt')).error).toBe('EROFS');
    expect(await ask(a, 'write?path=/tmp/scratch.txt')).toEqual({ ok: true });
    expect((await ask(a, 'read?path=/bot/probe.mjs')).ok).toBe(true);
  });

  it("counts a bot container's CPU from this host's /proc, and only that container's", async () => {
    type Counted = BotHandle & { cpuTimeMs(): number | undefined };
    const busy = (await sandbox.start({ dir: probeBot(), port: 5010 })) as Counted;
    const idle = (await sandbox.start({ dir: probeBot(), port: 5011 })) as Counted;
    // The container's init is looked up in the background after the start.
    for (let i = 0; i < 100 && (busy.cpuTimeMs() === undefined || idle.cpuTimeMs() === undefined); i++)
      await new Promise((r) => setTimeout(r, 50));
    const [busyBefore, idleBefore] = [busy.cpuTimeMs()!, idle.cpuTimeMs()!];
    expect(busyBefore).toBeGreaterThan(0); // node's own start
    expect(await ask(busy, 'burn?ms=600')).toEqual({ burnedMs: 600 });
    expect(busy.cpuTimeMs()! - busyBefore).toBeGreaterThan(550); // /proc counts 10 ms clock ticks
    expect(idle.cpuTimeMs()! - idleBefore).toBeLessThan(100);
    await busy.stop();
    expect(busy.cpuTimeMs()).toBeUndefined();
  });

  it('stops a fork bomb at the pids limit and kills a memory hog, without harming another bot', async () => {
    const bystander = await sandbox.start({ dir: probeBot(), port: 5005 });
    const bomber = await sandbox.start({ dir: probeBot(), port: 5006 });
    const fork = await ask(bomber, 'fork?max=500');
    expect(fork.spawned).toBeLessThan(64);
    expect(fork.error).toBe('EAGAIN');
    // The bomber survives its failed forks: once its children are reaped, its relay can fork again.
    let healthy = false;
    for (let i = 0; i < 50 && !healthy; i++)
      healthy = (await bomber.isHealthy(1_000)) || (await new Promise((r) => setTimeout(r, 100)), false);
    expect(healthy).toBe(true);

    const hog = await sandbox.start({ dir: probeBot(), port: 5007 });
    await expect(ask(hog, 'mem')).rejects.toThrow();
    // The kernel kills the hog; its start script then ends and so does the container.
    const describeExit = () => (hog as unknown as { describeExit(): Promise<string | null> }).describeExit();
    let exit: string | null = null;
    for (let i = 0; i < 100 && !(exit = await describeExit()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(exit).toMatch(/exit code 137.*out of memory/);
    expect(await hog.alive()).toBe(false);
    expect(await ask(bystander, 'health')).toEqual({ status: 'healthy' });
  });

  it('reports a crashed start with its exit code and last log lines', async () => {
    const dir = botDir(
      'crash',
      '#!/bin/bash\necho "Traceback: ModuleNotFoundError: No module named torch" >&2\nexit 3\n',
    );
    const err = await sandbox.start({ dir, port: 5008, startTimeoutMs: 10_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(BotStartError);
    expect(err.reason).toBe('exited');
    expect(err.message).toMatch(/exit code 3/);
    expect(err.logTail).toMatch(/No module named torch/);
  });

  it('removes every container it started on close', async () => {
    const own = new DockerSandbox();
    const bots = [await own.start({ dir: probeBot(), port: 5009 }), await own.start({ dir: probeBot(), port: 5010 })];
    const ids = bots.map((b) => (b as unknown as { containerId: string }).containerId);
    for (const id of ids)
      expect(execFileSync('docker', ['inspect', '-f', '{{.State.Running}}', id], { encoding: 'utf8' }).trim()).toBe(
        'true',
      );
    await own.close();
    for (const id of ids) expect(() => execFileSync('docker', ['inspect', id], { stdio: 'pipe' })).toThrow();
    expect(await bots[0]!.alive()).toBe(false);
  });

  it('sweeps containers left by a dead orchestrator at the next start', async () => {
    const docker = new Docker();
    const dead = spawn('true');
    await new Promise((r) => dead.once('exit', r));
    const orphan = await docker.createContainer({
      Image: botRuntimeTag(),
      Cmd: ['sleep', '600'],
      Labels: { 'catarena.sandbox': 'bot', 'catarena.owner': `${os.hostname()}:${dead.pid}` },
      HostConfig: { NetworkMode: 'none' },
    });
    await orphan.start();
    const fresh = new DockerSandbox();
    await fresh.start({ dir: probeBot(), port: 5011 });
    await expect(orphan.inspect()).rejects.toThrow(/no such container/i);
    await fresh.close();
  });

  it('removes its containers when the orchestrator is interrupted (Ctrl-C)', async () => {
    const child = spawn('node', ['--import', 'tsx', path.join(FIXTURES, 'docker-child.ts'), probeBot()], {
      cwd: path.resolve(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const id = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        const m = /ready (\w+)/.exec(d.toString());
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`child exited early (${code})`)));
    });
    expect(execFileSync('docker', ['inspect', '-f', '{{.State.Running}}', id], { encoding: 'utf8' }).trim()).toBe(
      'true',
    );
    child.kill('SIGINT');
    const signal = await new Promise((r) => child.once('exit', (_c, s) => r(s)));
    expect(signal).toBe('SIGINT');
    expect(() => execFileSync('docker', ['inspect', id], { stdio: 'pipe' })).toThrow();
  });
});
