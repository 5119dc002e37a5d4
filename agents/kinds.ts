// What the rest of catarena needs to know about each agent kind, said once (as a game's
// descriptor says it for a game): its name and the prefix of its agents' `kind`, what it needs,
// whether its bots are code a model wrote, whether a model is called (and so metered) while it
// develops or while its bots play, whether its bots play on their own deadline and reps (the
// LLM-player), how to read its record of a round, and which model its kind names. Outside agents/
// no source names an agent kind (tests/agent-kinds.test.ts); it asks this record. No SDK imports:
// every layer from 3 up may import it. The CLIs' names, packages and commands, which the image
// builder (docker/, layer 2) needs too, are records/agent-clis.ts. See docs/architecture.md.
import fs from 'node:fs/promises';
import path from 'node:path';
import { CLI_OUTPUT_FILE, TOOL_LOG_FILE, type ToolCall, type ToolLogLine } from '../records/agent-activity.ts';
import { AGENT_CLIS } from '../records/agent-clis.ts';
import { CLIS, type CliName } from './cli/clis.ts';

/** What the evolution report reads an agent's round from. */
export interface TranscriptInput {
  /** The round workspace, where the agent's transcripts and tool log are. */
  workspace: string;
  /** The strategy's agentKind. */
  kind: string;
  /** The strategy's build log: the built-in agent's tool lines before it kept a tool log. */
  buildLog?: string;
}

/** An agent's tool calls in one round and where they were read from ("Claude Code stream-json output (2 attempts)"). */
export interface Transcript {
  source: string;
  calls: ToolCall[];
}

export interface AgentKind {
  /** The kind's name: the first word of its specs (a CLI agent's spec starts with its CLI's name instead). */
  name: string;
  /** What its agents' `kind` (and strategies' agentKind) starts with. */
  prefix: string;
  /** API keys from the environment; the agent image (docker/build-agent-image.ts). */
  needs: { keys: boolean; agentImage: boolean };
  /** A model writes its bots' code (false: catarena writes them, or they are a given folder). */
  writesCode: boolean;
  /** Its bots are catarena's own (templates, the LLM-player's bot): they may run unsandboxed where bubblewrap is missing. */
  catarenasOwnBots: boolean;
  /** Its development calls a model: a run's budget meters it (a lease before it starts). */
  developmentCallsModel: boolean;
  /** Its bots call a model while they play (the LLM-player): its play spends a run's budget. */
  playCallsModel: boolean;
  /** Its bots move on their own deadline and reps (config llmPlayer; the paper's Table 6), not the game's. */
  ownPlaySettings: boolean;
  /** Its record of a round (the evolution report's "what the agent looked at"); null: it keeps none. */
  readTranscript(input: TranscriptInput): Promise<Transcript | null>;
  /** The model its kind string names (builtin:anthropic/claude-sonnet-4-5 → claude-sonnet-4-5), for prices. */
  model(kind: string): string | undefined;
}

/** A model after its provider (`openai/gpt-5` → gpt-5; Gemini's `models/` dropped). */
const modelAfterProvider = (rest: string) =>
  /^(?:(?:openai|openai-compatible|anthropic|google)\/)?(.+)$/.exec(rest)?.[1]?.replace(/^models\//, '');

const noModel = () => undefined;

/** The built-in and offline agents' tool log (.agent-tools.jsonl), if the workspace has one. */
export async function readToolLog(workspace: string, source = 'built-in agent tool log'): Promise<Transcript | null> {
  const log = await fs.readFile(path.join(workspace, TOOL_LOG_FILE), 'utf8').catch(() => null);
  return log === null ? null : { source, calls: toolLogCalls(log) };
}

/** The tool log of the built-in and offline agents. */
export function toolLogCalls(text: string): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const l = JSON.parse(line) as ToolLogLine;
      calls.push({ attempt: l.attempt, tool: l.tool, input: l.input ?? {}, ok: l.ok });
    } catch {
      // a torn last line
    }
  }
  return calls;
}

/** The built-in agent's tool lines in its build log ("- read_file(path) ok, 3 ms"), arguments shortened to 120 characters. */
export function buildLogCalls(log: string): ToolCall[] {
  const calls: ToolCall[] = [];
  let attempt = 1;
  for (const line of log.split('\n')) {
    const a = /^## attempt (\d+)\//.exec(line);
    if (a) attempt = Number(a[1]);
    const m = /^- (list_files|read_file|write_file|run_command|test_bot|finish)\((.*)\) (ok\b|ERROR:)/.exec(line);
    if (!m) continue;
    const [, tool, args, result] = m as unknown as [string, string, string, string];
    const input: Record<string, unknown> =
      tool === 'run_command'
        ? { command: args.replace(/…$/, '') }
        : tool === 'write_file'
          ? { path: args.replace(/, \d+ chars$/, '') }
          : { path: args.replace(/ \(recursive\)$/, '').replace(/ @\d+$/, '') };
    calls.push({ attempt, tool, input, ok: result === 'ok' });
  }
  return calls;
}

/** Tool calls in a CLI's output, by its format (the calls of no CLI's format: Claude Code's). */
export function cliToolCalls(cli: string, text: string, attempt = 1): ToolCall[] {
  const def = CLIS[cli as CliName] ?? CLIS[AGENT_CLIS[0].name];
  return def.toolCalls(text, attempt);
}

/** A CLI agent's output files, one per attempt (.agent-output-<n>.txt, stdout before `--- stderr ---`). */
async function cliTranscript(input: TranscriptInput): Promise<Transcript> {
  const cli = input.kind.slice(CLI_KIND_PREFIX.length).split('/')[0]!;
  const names = (await fs.readdir(input.workspace).catch(() => [] as string[])).filter((f) => CLI_OUTPUT_FILE.test(f));
  names.sort((a, b) => Number(CLI_OUTPUT_FILE.exec(a)![1]) - Number(CLI_OUTPUT_FILE.exec(b)![1]));
  const calls: ToolCall[] = [];
  for (const name of names) {
    const text = await fs.readFile(path.join(input.workspace, name), 'utf8');
    calls.push(...cliToolCalls(cli, text.split('\n--- stderr ---\n')[0]!, Number(CLI_OUTPUT_FILE.exec(name)![1])));
  }
  const label = CLIS[cli as CliName]?.transcriptLabel ?? cli;
  return { source: `${label} output (${names.length} attempt${names.length === 1 ? '' : 's'})`, calls };
}

const CLI_KIND_PREFIX = 'cli:';

const none = { keys: false, agentImage: false };

/** The agent kinds, by the name code uses for each (AGENT_KINDS.llmPlayer). */
export const AGENT_KINDS = {
  offline: {
    name: 'offline',
    prefix: 'offline:',
    needs: none,
    writesCode: false,
    catarenasOwnBots: true,
    developmentCallsModel: false,
    playCallsModel: false,
    ownPlaySettings: false,
    readTranscript: (input) => readToolLog(input.workspace, 'offline agent file log'),
    model: noModel,
  },
  dir: {
    name: 'dir',
    prefix: 'dir:',
    needs: none,
    writesCode: false,
    catarenasOwnBots: false,
    developmentCallsModel: false,
    playCallsModel: false,
    ownPlaySettings: false,
    readTranscript: (input) => readToolLog(input.workspace),
    model: noModel,
  },
  builtin: {
    name: 'builtin',
    prefix: 'builtin:',
    needs: { keys: true, agentImage: false },
    writesCode: true,
    catarenasOwnBots: false,
    developmentCallsModel: true,
    playCallsModel: false,
    ownPlaySettings: false,
    readTranscript: async (input) =>
      (await readToolLog(input.workspace)) ??
      (input.buildLog
        ? { source: 'built-in agent build log (tool arguments shortened)', calls: buildLogCalls(input.buildLog) }
        : null),
    model: (kind) => modelAfterProvider(kind.slice('builtin:'.length)),
  },
  llmPlayer: {
    name: 'llm-player',
    prefix: 'llm-player:',
    needs: { keys: true, agentImage: false },
    writesCode: false,
    catarenasOwnBots: true,
    developmentCallsModel: false,
    playCallsModel: true,
    ownPlaySettings: true,
    readTranscript: (input) => readToolLog(input.workspace),
    model: (kind) => modelAfterProvider(kind.slice('llm-player:'.length)),
  },
  cli: {
    name: 'cli',
    prefix: CLI_KIND_PREFIX,
    needs: { keys: true, agentImage: true },
    writesCode: true,
    catarenasOwnBots: false,
    developmentCallsModel: true,
    playCallsModel: false,
    ownPlaySettings: false,
    readTranscript: cliTranscript,
    // cli:<cli>/<model>: a kind without a model names none.
    model: (kind) => {
      const m = /^[\w-]+[:/](.+)$/.exec(kind.slice(CLI_KIND_PREFIX.length));
      return m ? modelAfterProvider(m[1]!) : undefined;
    },
  },
} as const satisfies Record<string, AgentKind>;

export type AgentKindKey = keyof typeof AGENT_KINDS;

const ALL: readonly AgentKind[] = Object.values(AGENT_KINDS);

/** The kind of an agent's `kind` string (a strategy's agentKind); undefined for none of them. */
export function agentKindOf(kind: string | undefined): AgentKind | undefined {
  return kind === undefined ? undefined : ALL.find((k) => kind.startsWith(k.prefix));
}

/** The kind of an agent spec (`offline:cautious#2`, `claude-code:opus`, bare `offline`); undefined for none. */
export function agentKindOfSpec(spec: string): AgentKind | undefined {
  const first = spec.trim().split(/[:#]/)[0]!;
  if (AGENT_CLIS.some((c) => c.name === first)) return AGENT_KINDS.cli;
  return ALL.find((k) => k.name === first);
}

/** A model is called while it develops or while its bots play: its run spends, and a rerun needs its recorded exchanges. */
export const callsModel = (kind: AgentKind | undefined) =>
  !!kind && (kind.developmentCallsModel || kind.playCallsModel);

/** A spec of a kind: `agentSpec(AGENT_KINDS.offline, 'cautious')` → offline:cautious. */
export const agentSpec = (kind: AgentKind, rest: string) => `${kind.name}:${rest}`;

/** The spec of a fixed bot folder with an id: dir:<folder>#<id>. */
export const dirAgentSpec = (folder: string, id: string) => agentSpec(AGENT_KINDS.dir, `${folder}#${id}`);

/** A dir: spec with its folder made absolute (a config read in one folder, run from another); any other spec as it is. */
export const absoluteDirSpec = (spec: string) =>
  spec.replace(/^dir:([^#]+)/, (_, dir: string) => agentSpec(AGENT_KINDS.dir, path.resolve(dir)));

/** The model name an agent kind asks for (builtin:anthropic/claude-sonnet-4-5 → claude-sonnet-4-5), if it names one: its kind's record says. */
export function modelOfKind(kind: string): string | undefined {
  return agentKindOf(kind)?.model(kind);
}
