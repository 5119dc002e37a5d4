// The built-in agent's tools and the sandbox they execute in. Every tool goes through the
// AgentSandbox interface, which is the seam for isolation: ProcessAgentSandbox (here) confines
// the file tools to the workspace and runs commands as a scrubbed process group, but a command
// itself can still read the host (no isolation). DockerAgentSandbox (docker-sandbox.ts) runs the
// commands in an agent container with no network instead; the tools do not change.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tool, type ToolSet } from 'ai';
import { z } from 'zod';
import { CappedText } from '../../sandbox/capped-log.ts';
import { botPath } from '../../sandbox/bot-env.ts';
import { envValueOf, liveProcesses, signalPid } from '../../util/procfs.mjs';
import type { Workspace } from '../core/types.ts';

export interface FileEntry {
  name: string;
  type: 'file' | 'dir' | 'link' | 'other';
  size: number;
}

export interface RunResult {
  /** Null when killed by a signal (timeout, abort). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
}

/** Where the agent's tools execute. Paths are relative to the workspace root. */
export interface AgentSandbox {
  readonly kind: string;
  list(relPath: string): Promise<FileEntry[]>;
  read(relPath: string): Promise<string>;
  write(relPath: string, content: string): Promise<void>;
  /** `bash -c command` in the workspace root; stdout/stderr capped; killed after timeoutMs or on abort. */
  run(command: string, timeoutMs: number, signal?: AbortSignal): Promise<RunResult>;
  /** Kills whatever still runs and removes temporary state (the temp home). Idempotent. */
  close(): Promise<void>;
}

/** A refused tool call (path escape, bad argument): its message is shown to the model. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

export const OUTPUT_CAP_BYTES = 20_000;
/** Set on every command's processes, so leftovers that left the process group can be found. */
const RUN_MARKER = 'CATARENA_AGENT_RUN';

/** SIGKILL every live process whose environment carries the marker (Linux /proc; elsewhere a no-op). */
function killMarked(marker: string): void {
  for (const { pid } of liveProcesses()) if (envValueOf(pid, RUN_MARKER) === marker) signalPid(pid, 'SIGKILL');
}

function lexists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The workspace as a plain directory of the host. File operations resolve every path under the
 * workspace root (symlinks included) and refuse the rest; commands run as `bash -c` in their own
 * process group with cwd = the root and an environment of PATH, HOME (a temp dir) and LANG only,
 * so no API key reaches them. Background processes do not outlive their command.
 */
export class ProcessAgentSandbox implements AgentSandbox {
  readonly kind: string = 'process';
  private readonly root: string;
  private readonly home: string;
  private readonly running = new Set<() => void>();
  private readonly cap: number;

  constructor(root: string, options: { outputCapBytes?: number } = {}) {
    this.root = fs.realpathSync(root);
    this.home = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-agent-home-'));
    this.cap = options.outputCapBytes ?? OUTPUT_CAP_BYTES;
  }

  /** Absolute path of relPath inside the root, or a ToolError. */
  resolve(relPath: string): string {
    const rel = (relPath ?? '').trim() || '.';
    if (path.isAbsolute(rel) || rel.startsWith('~'))
      throw new ToolError(`"${relPath}" is an absolute path: paths are relative to the workspace root`);
    const abs = path.resolve(this.root, rel);
    const inside = (p: string) => p === this.root || p.startsWith(this.root + path.sep);
    if (!inside(abs))
      throw new ToolError(`"${relPath}" is outside the workspace: paths must stay below the workspace root`);
    // A symlink inside may point outside: check the real path of the deepest existing entry
    // (lstat, so a dangling link counts as existing and is refused rather than written through).
    let probe = abs;
    while (probe !== this.root && !lexists(probe)) probe = path.dirname(probe);
    let real: string;
    try {
      real = fs.realpathSync(probe);
    } catch {
      throw new ToolError(`"${relPath}" goes through a dangling symbolic link`);
    }
    if (!inside(real)) throw new ToolError(`"${relPath}" leads outside the workspace (through a symbolic link)`);
    return abs;
  }

  private fsError(err: unknown, relPath: string): never {
    const code = (err as NodeJS.ErrnoException).code;
    if (err instanceof ToolError) throw err;
    if (code === 'ENOENT') throw new ToolError(`no such file or directory: ${relPath}`);
    if (code === 'EISDIR') throw new ToolError(`${relPath} is a directory`);
    if (code === 'ENOTDIR') throw new ToolError(`${relPath}: a parent is not a directory`);
    throw new ToolError(`${relPath}: ${(err as Error).message}`);
  }

  async list(relPath: string): Promise<FileEntry[]> {
    const dir = this.resolve(relPath);
    try {
      const entries = await fsp.readdir(dir, { withFileTypes: true });
      const out: FileEntry[] = [];
      for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
        const type = e.isDirectory() ? 'dir' : e.isFile() ? 'file' : e.isSymbolicLink() ? 'link' : 'other';
        let size = 0;
        if (type === 'file') size = (await fsp.stat(path.join(dir, e.name)).catch(() => ({ size: 0 }))).size;
        out.push({ name: e.name, type, size });
      }
      return out;
    } catch (err) {
      this.fsError(err, relPath);
    }
  }

  async read(relPath: string): Promise<string> {
    const file = this.resolve(relPath);
    try {
      return await fsp.readFile(file, 'utf8');
    } catch (err) {
      this.fsError(err, relPath);
    }
  }

  async write(relPath: string, content: string): Promise<void> {
    const file = this.resolve(relPath);
    if (file === this.root) throw new ToolError('cannot write the workspace root');
    try {
      await fsp.mkdir(path.dirname(file), { recursive: true });
      await fsp.writeFile(file, content);
      if (file.endsWith('.sh')) await fsp.chmod(file, 0o755);
    } catch (err) {
      this.fsError(err, relPath);
    }
  }

  run(command: string, timeoutMs: number, signal?: AbortSignal): Promise<RunResult> {
    const t0 = Date.now();
    const marker = randomUUID();
    const child = spawn('bash', ['-c', command], {
      cwd: this.root,
      env: { PATH: botPath(), HOME: this.home, LANG: 'C.UTF-8', [RUN_MARKER]: marker },
      detached: true, // its own process group, killed as a whole
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = new CappedText(this.cap);
    const stderr = new CappedText(this.cap);
    child.stdout!.on('data', (c: Buffer) => stdout.push(c));
    child.stderr!.on('data', (c: Buffer) => stderr.push(c));
    let timedOut = false;
    const killAll = () => {
      if (child.pid) signalPid(-child.pid, 'SIGKILL');
      killMarked(marker);
    };
    return new Promise<RunResult>((resolve) => {
      let done = false;
      let exitCode: number | null = null;
      const finish = (err?: Error) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        clearTimeout(grace);
        signal?.removeEventListener('abort', onAbort);
        this.running.delete(killAll);
        killAll(); // background leftovers do not outlive the command
        const errText = err ? `${err.message}\n` : '';
        resolve({
          exitCode,
          stdout: stdout.text(),
          stderr: errText + stderr.text(),
          timedOut,
          durationMs: Date.now() - t0,
        });
      };
      const timer = setTimeout(
        () => {
          timedOut = true;
          killAll();
        },
        Math.max(1, timeoutMs),
      );
      let grace: NodeJS.Timeout | undefined;
      const onAbort = () => killAll();
      signal?.addEventListener('abort', onAbort, { once: true });
      if (signal?.aborted) killAll();
      this.running.add(killAll);
      child.once('error', (err) => finish(err));
      child.once('exit', (code) => {
        exitCode = code;
        // Pipes may still be held by background children: give output a moment, then end.
        grace = setTimeout(() => finish(), 300);
      });
      child.once('close', () => finish());
    });
  }

  async close(): Promise<void> {
    for (const kill of this.running) kill();
    this.running.clear();
    await fsp.rm(this.home, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The tools

export interface ToolCallRecord {
  name: string;
  /** Short, redacted arguments. */
  args: string;
  /** The whole input, redacted, a written file's content replaced by its length (the tool log's record). */
  input?: Record<string, unknown>;
  ok: boolean;
  error?: string;
  /** A word on the result (exit code, PASSED/FAILED). */
  note?: string;
  ms: number;
}

export interface ToolContext {
  sandbox: AgentSandbox;
  workspace: Workspace;
  /** Upper bound on run_command's timeout. */
  commandTimeoutCapMs: number;
  /** Masks secrets in anything shown to the model or logged. */
  redact: (text: string) => string;
  /** Called once per executed tool call. */
  onCall: (record: ToolCallRecord) => void;
  /** Set by the finish tool. */
  finished?: { summary: string };
}

const READ_CAP_CHARS = 60_000;
const LIST_MAX_ENTRIES = 400;
const LIST_SKIP = new Set(['node_modules', '__pycache__', '.git']);
const DEFAULT_COMMAND_TIMEOUT_S = 30;

const short = (s: string, n = 100) => (s.length > n ? `${s.slice(0, n)}…` : s);
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export function formatRun(r: RunResult, timeoutMs: number): string {
  const head = r.timedOut
    ? `timed out after ${timeoutMs} ms: the command and everything it started were killed`
    : `exit code ${r.exitCode ?? 'none (killed)'} after ${r.durationMs} ms`;
  return [
    head,
    '--- stdout ---',
    r.stdout.trimEnd() || '(empty)',
    '--- stderr ---',
    r.stderr.trimEnd() || '(empty)',
  ].join('\n');
}

/** A tool input as the tool log keeps it: redacted, with a written file's content replaced by its length. */
export function loggedInput(input: unknown, redact: (text: string) => string): Record<string, unknown> {
  if (!input || typeof input !== 'object') return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input as Record<string, unknown>)) {
    if (k === 'content' && typeof v === 'string') out.chars = v.length;
    else out[k] = typeof v === 'string' ? redact(v) : v;
  }
  return out;
}

/** The signature of tracerOf's wrapper of a tool's execute function. */
type Traced = <I>(
  name: string,
  describe: (input: I) => string,
  fn: (input: I, signal?: AbortSignal) => Promise<string>,
  note?: (output: string) => string,
) => (input: I, options: { abortSignal?: AbortSignal }) => Promise<string>;

/** The tracer of ctx's tool calls (Traced). */
function tracerOf(ctx: ToolContext): Traced {
  const { redact } = ctx;
  /** Wraps an execute function: records the call, masks secrets, turns failures into tool errors. */
  function traced<I>(
    name: string,
    describe: (input: I) => string,
    fn: (input: I, signal?: AbortSignal) => Promise<string>,
    note?: (output: string) => string,
  ) {
    return async (input: I, options: { abortSignal?: AbortSignal }): Promise<string> => {
      const t0 = Date.now();
      const args = redact(short(oneLine(describe(input)), 120));
      const logged = loggedInput(input, redact);
      try {
        const out = redact(await fn(input, options.abortSignal));
        ctx.onCall({ name, args, input: logged, ok: true, note: note?.(out), ms: Date.now() - t0 });
        return out;
      } catch (err) {
        const message = redact(err instanceof ToolError ? err.message : `${name} failed: ${(err as Error).message}`);
        ctx.onCall({ name, args, input: logged, ok: false, error: message, ms: Date.now() - t0 });
        throw new ToolError(message); // the SDK sends it to the model as the tool's error result
      }
    };
  }
  return traced;
}

/** list_files: a directory listing, up to 3 levels deep with recursive. */
function listFilesTool(ctx: ToolContext, traced: Traced) {
  const { sandbox } = ctx;
  return tool({
    description:
      'List a directory of the workspace (paths are relative to the workspace root). With recursive=true, lists up to 3 levels deep.',
    inputSchema: z.object({
      path: z.string().default('.').describe('directory relative to the workspace root, e.g. "." or "develop_ai"'),
      recursive: z.boolean().default(false),
    }),
    execute: traced(
      'list_files',
      (i) => `${i.path}${i.recursive ? ' (recursive)' : ''}`,
      async ({ path: dir, recursive }) => {
        const lines: string[] = [];
        const walk = async (d: string, depth: number) => {
          for (const e of await sandbox.list(d)) {
            if (lines.length >= LIST_MAX_ENTRIES) return;
            const p = d === '.' ? e.name : `${d.replace(/\/+$/, '')}/${e.name}`;
            lines.push(e.type === 'dir' ? `${p}/` : e.type === 'file' ? `${p} (${e.size} bytes)` : `${p} (${e.type})`);
            if (recursive && e.type === 'dir' && depth < 3 && !LIST_SKIP.has(e.name)) await walk(p, depth + 1);
          }
        };
        await walk(dir || '.', 1);
        if (lines.length >= LIST_MAX_ENTRIES) lines.push(`[stopped at ${LIST_MAX_ENTRIES} entries]`);
        return lines.length ? lines.join('\n') : '(empty directory)';
      },
    ),
  });
}

/** read_file: a text file, in pieces of READ_CAP_CHARS characters. */
function readFileTool(ctx: ToolContext, traced: Traced) {
  const { sandbox } = ctx;
  return tool({
    description: `Read a text file of the workspace. Long files come in pieces of ${READ_CAP_CHARS} characters: pass offset to read on.`,
    inputSchema: z.object({
      path: z.string().describe('file relative to the workspace root'),
      offset: z.number().int().min(0).default(0).describe('character offset to start at'),
    }),
    execute: traced(
      'read_file',
      (i) => `${i.path}${i.offset ? ` @${i.offset}` : ''}`,
      async ({ path: file, offset }) => {
        const text = await sandbox.read(file);
        const piece = text.slice(offset, offset + READ_CAP_CHARS);
        const end = offset + piece.length;
        return end < text.length
          ? `${piece}\n[… ${text.length - end} more characters: read again with offset=${end}]`
          : piece || '(empty file)';
      },
    ),
  });
}

/** write_file: creates or overwrites a file of the workspace. */
function writeFileTool(ctx: ToolContext, traced: Traced) {
  const { sandbox } = ctx;
  return tool({
    description:
      'Create or overwrite a file of the workspace with the given content (parent folders are created; .sh files are made executable). Your bot goes in the output folder.',
    inputSchema: z.object({
      path: z.string().describe('file relative to the workspace root, e.g. "develop_ai/start_ai.sh"'),
      content: z.string().describe('the complete file content'),
    }),
    execute: traced(
      'write_file',
      (i) => `${i.path}, ${i.content.length} chars`,
      async ({ path: file, content }) => {
        await sandbox.write(file, content);
        return `wrote ${file} (${content.length} characters, ${content.split('\n').length} lines)`;
      },
    ),
  });
}

/** run_command: a bash command in the workspace root, with a capped timeout. */
function runCommandTool(ctx: ToolContext, traced: Traced) {
  const { sandbox } = ctx;
  return tool({
    description:
      `Run a shell command (bash -c) in the workspace root and get its exit code, stdout and stderr (each capped at ${OUTPUT_CAP_BYTES / 1000} kB). ` +
      `Default timeout ${DEFAULT_COMMAND_TIMEOUT_S} s, at most ${Math.round(ctx.commandTimeoutCapMs / 1000)} s. No network besides localhost; no API keys in the environment. ` +
      'Processes left in the background are killed when the command returns: start a server and probe it in the same command ' +
      '(e.g. `cd develop_ai && (bash start_ai.sh 18123 &) ; sleep 2; curl -s localhost:18123/health`).',
    inputSchema: z.object({
      command: z.string().min(1),
      timeout_seconds: z
        .number()
        .positive()
        .optional()
        .describe(`default ${DEFAULT_COMMAND_TIMEOUT_S}, capped at ${Math.round(ctx.commandTimeoutCapMs / 1000)}`),
    }),
    execute: traced(
      'run_command',
      (i) => i.command,
      async ({ command, timeout_seconds }, signal) => {
        const timeoutMs = Math.min(
          ctx.commandTimeoutCapMs,
          Math.round((timeout_seconds ?? DEFAULT_COMMAND_TIMEOUT_S) * 1000),
        );
        return formatRun(await sandbox.run(command, timeoutMs, signal), timeoutMs);
      },
      (out) => out.slice(0, out.indexOf(' after ')),
    ),
  });
}

/** test_bot: the workspace's arena check of the bot in the output folder. */
function testBotTool(ctx: ToolContext, traced: Traced) {
  return tool({
    description: `Start the bot in ${path.relative(ctx.workspace.dir, ctx.workspace.outputDir) || '.'}/ and play test positions against the arena, as the tournament will; returns the report (passed or failed, and why). Use it before finishing.`,
    inputSchema: z.object({}),
    execute: traced(
      'test_bot',
      () => '',
      async () => {
        if (!ctx.workspace.check) {
          return (
            'No arena check is available in this workspace. Test by hand with run_command: start `bash start_ai.sh <port>` in the background, ' +
            'curl /health, then POST a request from the protocol, all in one command.'
          );
        }
        const r = await ctx.workspace.check();
        return `${r.ok ? 'PASSED' : 'FAILED'}\n${r.report}`;
      },
      (out) => out.split('\n')[0]!,
    ),
  });
}

/** finish: the agent says it is done (ctx.finished). */
function finishTool(ctx: ToolContext, traced: Traced) {
  return tool({
    description:
      'Say that you are done: the bot in the output folder is complete. Give a short summary of the strategy. Nothing runs after this.',
    inputSchema: z.object({ summary: z.string().describe('what the bot does and how it was tested') }),
    execute: traced(
      'finish',
      (i) => i.summary,
      async ({ summary }) => {
        ctx.finished = { summary };
        return 'Done. The orchestrator will now validate the bot.';
      },
    ),
  });
}

/** The agent's tools (AI SDK `tool()`s with zod input schemas), executing in ctx.sandbox. */
export function createTools(ctx: ToolContext): ToolSet {
  const traced = tracerOf(ctx);
  return {
    list_files: listFilesTool(ctx, traced),
    read_file: readFileTool(ctx, traced),
    write_file: writeFileTool(ctx, traced),
    run_command: runCommandTool(ctx, traced),
    test_bot: testBotTool(ctx, traced),
    finish: finishTool(ctx, traced),
  };
}
