// The catarena CLI for tests. `catarena(...)` runs a command in this process (main(), as
// bin/catarena.mjs calls it) with stdout and stderr captured: the same commands, exit codes and
// printing without a process start (about half a second of CPU each on 2 cores). `catarenaProcess`
// runs the real bin/catarena.mjs as a user would, for tests of the process itself: its terminal,
// signals, environment or start-up. A non-zero exit is a result, not a throw, in both.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { vi } from 'vitest';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '../../bin/catarena.mjs');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function catarenaProcess(...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run('node', [BIN, ...args], { timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** In-process calls, one after another: each captures this process's output streams. */
let inProcessQueue: Promise<unknown> = Promise.resolve();

/** `catarena <args>` in this process; concurrent calls run one after another. */
export function catarena(...args: string[]): Promise<CliResult> {
  const result = inProcessQueue.then(() => mainCaptured(args));
  inProcessQueue = result.catch(() => {});
  return result;
}

async function mainCaptured(args: string[]): Promise<CliResult> {
  const { main } = await import('../../orchestrator/cli/main.ts');
  let stdout = '';
  let stderr = '';
  const capture = (stream: NodeJS.WriteStream, add: (text: string) => void) =>
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      add(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    });
  const out = capture(process.stdout, (t) => (stdout += t));
  const err = capture(process.stderr, (t) => (stderr += t));
  try {
    const code = await main(['node', 'catarena', ...args]);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
