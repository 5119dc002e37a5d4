// `catarena worker` as a real process, for the queue tests and the queue benchmark: started on a
// temp work dir, ready once it says so, stopped by a drain (SIGTERM) or, if that hangs, SIGKILL;
// bots it leaves behind are killed.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { killProcessesIn } from '../../sandbox/strays.ts';
import { waitFor } from './bot-process.ts';
import { tempDir } from './bots.ts';

const CLI = path.resolve(import.meta.dirname, '../../bin/catarena.mjs');

export interface WorkerProcess {
  proc: ChildProcess;
  name: string;
  url: string;
  workDir: string;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts `catarena worker --queue url --work-dir <temp> --name name …args` and waits until it is
 * ready (loading the CLI takes about 2 s of CPU: on a loaded machine, allow `readyMs`); `env` is
 * its whole environment (default: this process's).
 */
export async function spawnWorker(
  url: string,
  name: string,
  args: string[] = [],
  readyMs = 60_000,
  env: NodeJS.ProcessEnv = process.env,
): Promise<WorkerProcess> {
  const workDir = tempDir(`catarena-worker-${name}-`);
  const proc = spawn(
    process.execPath,
    [CLI, 'worker', '--queue', url, '--work-dir', workDir, '--name', name, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env },
  );
  let output = '';
  proc.stdout!.on('data', (c) => (output += c));
  proc.stderr!.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  await waitFor(async () => output.includes('ready on') || proc.exitCode !== null, `worker ${name}`, readyMs).catch(
    (err) => {
      proc.kill('SIGKILL');
      throw new Error(`${err.message}:\n${output}`);
    },
  );
  if (proc.exitCode !== null) throw new Error(`worker ${name} exited with ${proc.exitCode}:\n${output}`);
  return { proc, name, url, workDir, output: () => output, exited };
}

/** Drains a worker (SIGTERM), kills it after `graceMs` if it does not exit, and kills its leftover bots. */
export async function stopWorkerProcess(w: WorkerProcess, graceMs = 20_000): Promise<void> {
  if (w.proc.exitCode === null) {
    w.proc.kill('SIGTERM');
    const drained = await Promise.race([
      w.exited.then(() => true),
      new Promise((r) => setTimeout(() => r(false), graceMs)),
    ]);
    if (!drained) w.proc.kill('SIGKILL');
    await w.exited;
  }
  killProcessesIn(path.join(w.workDir, 'artifacts'));
}
