// What an agent looked at before writing its bot, from its own record of the round: the CLI
// agents' JSON event streams (.agent-output-<n>.txt: Claude Code's stream-json, Codex's JSON
// lines, Gemini CLI's stream-json, Qwen Code's message array), the built-in and offline agents'
// tool log (.agent-tools.jsonl), or, for built-in runs made before that log existed, the tool
// lines of the build log. Every tool call becomes file uses (Read → read, grep → search, cp →
// copy, …; shell commands through ./shell-paths.ts), each path is placed in the workspace (its own
// previous code under last_round/<self>/, a rival's under last_round/<rival>/, the round reports
// under logs/, the task files, its output folder), and the calls before its first write to the
// output folder are marked: the paper's Table 12, read from the transcript.
import fs from 'node:fs/promises';
import path from 'node:path';
import { WORKSPACE_LAYOUT, WORKSPACE_MOUNT, type ToolCall } from '../../records/agent-activity.ts';
import { agentKindOf, readToolLog, type Transcript } from '../../agents/kinds.ts';
import { walkedDir } from './bot-files.ts';
import { shellPathUses, type Action } from './shell-paths.ts';

export type { ToolCall };
export { buildLogCalls, cliToolCalls, toolLogCalls } from '../../agents/kinds.ts';

export type Category = 'own' | 'rival' | 'logs' | 'task' | 'output' | 'other';

export interface Access {
  /** 1-based index of the tool call (over all attempts). */
  call: number;
  attempt: number;
  tool: string;
  action: Action;
  /** Workspace-relative, posix; may hold glob characters when nothing in the workspace matched. */
  path: string;
  category: Category;
  /** For own and rival: the agent whose last_round folder it is. */
  agent?: string;
  ok?: boolean;
  /** Made before the agent's first write to its output folder. */
  before: boolean;
}

export interface AgentReads {
  /** Where the record came from: "Claude Code stream-json", "built-in tool log" … */
  source: string;
  toolCalls: number;
  /** Accesses in order (at most ACCESS_CAP; `truncated` counts the rest). */
  accesses: Access[];
  truncated: number;
  /** The 1-based call of the first write to the output folder, or null. */
  firstWrite: number | null;
  /** Paths looked at (read, searched, listed, run, copied), per kind, relative to their folder; "." = the whole folder. */
  own: string[];
  rivals: Record<string, string[]>;
  logs: string[];
  task: string[];
  /** It listed or searched last_round/ itself (saw who the agents are). */
  listedAgents: boolean;
  /** Agents whose previous files it copied (cp, mv) into the workspace, own included. */
  copied: string[];
}

export interface ReadsInput {
  /** The round workspace, where the agent's transcripts and tool log are. */
  workspace: string;
  /** The agent's id: last_round/<agent>/ is its own previous code. */
  agent: string;
  /** The strategy's agentKind (agents/kinds.ts). */
  kind: string;
  /** The strategy's build log: the built-in agent's tool lines before it kept a tool log. */
  buildLog?: string;
}

const ACCESS_CAP = 400;
const LOOKED = new Set<Action>(['read', 'search', 'list', 'run', 'copy']);

/** The agent's reads, or null when it keeps no record (an agent that writes no code in a workspace). */
export async function agentReads(input: ReadsInput): Promise<AgentReads | null> {
  const found = await toolCalls(input);
  if (!found) return null;
  const files = lazyFiles(input.workspace);
  const accesses: Access[] = [];
  let firstWrite: number | null = null;
  const pending: Access[] = [];
  for (const [k, call] of found.calls.entries()) {
    for (const use of fileUses(call)) {
      for (const rel of await place(use.path, files)) {
        let where = classify(rel, input.agent);
        // A task file that is not in the workspace is a path we could not place (a command run in
        // another folder than its record says, e.g. Codex's workdir).
        if (where.category === 'task' && !(await exists(rel, files))) where = { category: 'other' };
        const access: Access = {
          call: k + 1,
          attempt: call.attempt,
          tool: call.tool,
          action: use.action,
          path: rel,
          ...where,
          ...(call.ok === false ? { ok: false } : {}),
          before: firstWrite === null,
        };
        if (firstWrite === null && use.action === 'write' && where.category === 'output' && call.ok !== false) {
          firstWrite = k + 1;
          access.before = false;
        }
        pending.push(access);
      }
    }
  }
  accesses.push(...pending.slice(0, ACCESS_CAP));
  const looked = pending.filter((a) => LOOKED.has(a.action) && a.ok !== false);
  const uniq = (xs: string[]) => [...new Set(xs)];
  const within = (a: Access) =>
    a.path
      .split('/')
      .slice(a.category === 'logs' ? 1 : 2)
      .join('/') || '.';
  const rivals: Record<string, string[]> = {};
  for (const a of looked.filter((x) => x.category === 'rival'))
    rivals[a.agent!] = uniq([...(rivals[a.agent!] ?? []), within(a)]);
  return {
    source: found.source,
    toolCalls: found.calls.length,
    accesses,
    truncated: Math.max(0, pending.length - ACCESS_CAP),
    firstWrite,
    own: uniq(looked.filter((a) => a.category === 'own').map(within)),
    rivals,
    logs: uniq(looked.filter((a) => a.category === 'logs').map(within)),
    task: uniq(looked.filter((a) => a.category === 'task').map((a) => a.path)),
    listedAgents: looked.some(
      (a) => (a.action === 'list' || a.action === 'search') && a.path === WORKSPACE_LAYOUT.lastRound,
    ),
    copied: uniq(looked.filter((a) => a.action === 'copy' && a.agent).map((a) => a.agent!)),
  };
}

// ---------------------------------------------------------------------------------------------
// Reading the records

/** The agent's record of the round, read as its kind says (agents/kinds.ts); a kind it does not know: its tool log. */
async function toolCalls(input: ReadsInput): Promise<Transcript | null> {
  const kind = agentKindOf(input.kind);
  return kind ? kind.readTranscript(input) : readToolLog(input.workspace);
}

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of any shape, read field by field
type Obj = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// Tool calls → file uses

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const firstString = (input: Obj, keys: string[]) => keys.map((k) => str(input[k])).find((v) => v !== undefined);

/** The files a tool call used, with paths as given (absolute, or joined to the call's folder). */
export function fileUses(call: ToolCall): Array<{ action: Action; path: string }> {
  const i = call.input;
  const one = (action: Action, p: string | undefined) => (p ? [{ action, path: p }] : []);
  const inDir = (dir: string | undefined, p: string | undefined) =>
    p === undefined ? undefined : dir && !p.startsWith('/') ? path.posix.join(dir, p) : p;
  switch (call.tool) {
    // The built-in agent (and the offline agents' file log).
    case 'list_files':
      return one('list', str(i.path) ?? '.');
    case 'read_file':
    case 'Read':
      return one('read', firstString(i, ['path', 'file_path', 'absolute_path']));
    case 'write_file':
    case 'Write':
    case 'Edit':
    case 'MultiEdit':
    case 'edit':
    case 'replace':
      return one('write', firstString(i, ['path', 'file_path', 'absolute_path']));
    case 'NotebookEdit':
      return one('write', str(i.notebook_path));
    case 'run_command':
    case 'Bash':
    case 'exec_command':
    case 'run_shell_command':
      return shellPathUses(
        firstString(i, ['command', 'cmd']) ?? '',
        firstString(i, ['workdir', 'directory', 'dir_path']) ?? '.',
      );
    case 'test_bot':
      return one('run', WORKSPACE_LAYOUT.output);
    // Claude Code's older search tools, Gemini CLI and Qwen Code.
    case 'LS':
    case 'list_directory':
      return one('list', firstString(i, ['path', 'dir_path']) ?? '.');
    case 'Glob':
    case 'glob':
      return one('list', inDir(firstString(i, ['path', 'dir_path']), str(i.pattern)));
    case 'Grep':
    case 'grep_search':
    case 'search_file_content':
    case 'grep':
      return one('search', firstString(i, ['path', 'dir_path']) ?? '.');
    case 'read_many_files': {
      const list = [i.paths, i.include]
        .flatMap((v) => (Array.isArray(v) ? v : []))
        .filter((v): v is string => typeof v === 'string');
      return list.map((p) => ({ action: 'read' as const, path: p }));
    }
    case 'apply_patch': {
      const changes = Array.isArray(i.changes) ? (i.changes as Obj[]) : [];
      return changes
        .filter((c) => typeof c?.path === 'string')
        .map((c) => ({ action: 'write' as const, path: c.path as string }));
    }
    default:
      return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Paths → places in the workspace

/** Workspace-relative paths a used path stands for: globs expanded against the workspace, paths outside it dropped. */
async function place(p: string, files: () => Promise<string[]>): Promise<string[]> {
  let rel: string;
  if (p.startsWith('/')) {
    if (p === WORKSPACE_MOUNT) rel = '.';
    else if (p.startsWith(`${WORKSPACE_MOUNT}/`)) rel = p.slice(WORKSPACE_MOUNT.length + 1);
    else return []; // /tmp, the system: not the workspace
  } else rel = p;
  rel = path.posix.normalize(rel).replace(/\/+$/, '') || '.';
  if (rel === '..' || rel.startsWith('../') || rel.startsWith('~')) return [];
  if (!/[*?[]/.test(rel)) return [rel];
  const re = globRegex(rel);
  const all = await files();
  const matches = all.filter((f) => re.test(f));
  // Also folders (ls last_round/*), once each.
  const dirs = new Set<string>();
  for (const f of all) {
    const parts = f.split('/');
    for (let k = 1; k < parts.length; k++) {
      const d = parts.slice(0, k).join('/');
      if (re.test(d)) dirs.add(d);
    }
  }
  const out = [...new Set([...matches, ...dirs])].sort();
  return out.length ? out : [rel];
}

function globRegex(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        re += '.*';
        i++;
        if (glob[i + 1] === '/') i++;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) re += '\\[';
      else {
        re += `[${glob
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

async function exists(rel: string, files: () => Promise<string[]>): Promise<boolean> {
  return (await files()).some((f) => f === rel || f.startsWith(`${rel}/`));
}

/** The workspace's files, listed once and only when needed. */
function lazyFiles(root: string): () => Promise<string[]> {
  let list: Promise<string[]> | undefined;
  const walk = async (rel: string, out: string[]): Promise<void> => {
    const entries = await fs.readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (walkedDir(e.name)) await walk(child, out);
      } else if (out.length < 20_000)
        // A finished run keeps its larger logs as <name>.gz (orchestrator/run/file-store.ts): the agent saw <name>.
        out.push(child.startsWith(`${WORKSPACE_LAYOUT.logs}/`) && child.endsWith('.gz') ? child.slice(0, -3) : child);
    }
  };
  return () =>
    (list ??= (async () => {
      const out: string[] = [];
      await walk('', out);
      return out;
    })());
}

/** Where a workspace-relative path is: own previous code, a rival's, the reports, the task, the output. */
export function classify(rel: string, self: string): { category: Category; agent?: string } {
  const [top, second] = rel.split('/');
  if (top === WORKSPACE_LAYOUT.lastRound) {
    if (!second || /[*?[]/.test(second)) return { category: 'other' };
    return second === self ? { category: 'own', agent: self } : { category: 'rival', agent: second };
  }
  if (top === WORKSPACE_LAYOUT.logs) return { category: 'logs' };
  if (top === WORKSPACE_LAYOUT.output) return { category: 'output' };
  if (rel === '.' || top!.startsWith('.')) return { category: 'other' };
  return { category: 'task' };
}
