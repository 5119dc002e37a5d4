// What an agent leaves in its round workspace about its own work, for the evolution report's
// "what the agent looked at" (reports/evolution/agent-reads.ts): the CLI agents' own output (their
// JSON event streams, one file per attempt) and the tool log the built-in and offline agents
// write, one JSON line per tool call. Agents write these files; the report only reads them.

import { RUN_DIRS } from './run-layout.ts';

/** The folders of a round workspace (agents/core/workspace.ts builds it; the report classifies paths by them). */
export const WORKSPACE_LAYOUT = {
  /** Where the agent writes its bot. */
  output: 'develop_ai',
  /** Round n > 1: every agent's round n−1 bot, one folder per agent. */
  lastRound: 'last_round',
  /** Round n > 1: round n−1's reports (the run's round logs, copied under the same name). */
  logs: RUN_DIRS.logs,
} as const;

/** Where an agent container mounts the workspace: CLI agents name files by this path. */
export const WORKSPACE_MOUNT = '/workspace';

/** The tool log of the built-in and offline agents, in the workspace root. */
export const TOOL_LOG_FILE = '.agent-tools.jsonl';

/** A CLI agent's output (its JSON events, then `--- stderr ---` and its stderr) of attempt n. */
export const cliOutputFile = (attempt: number) => `.agent-output-${attempt}.txt`;
export const CLI_OUTPUT_FILE = /^\.agent-output-(\d+)\.txt$/;

/** One line of the tool log: a tool call with its input (file contents left out). */
export interface ToolLogLine {
  /** 1-based attempt of the agent (the built-in agent retries). */
  attempt: number;
  /** 1-based order of the call within the attempt. */
  step: number;
  /**
   * The built-in agent's tool names (list_files, read_file, write_file, run_command, test_bot,
   * finish); the offline agents record their file operations under the same names.
   */
  tool: string;
  /** The call's input: path (workspace-relative), command, or chars written instead of the content. */
  input: Record<string, unknown>;
  ok: boolean;
}

/** One tool call read from an agent's record of its round, whichever agent made it. */
export interface ToolCall {
  attempt: number;
  tool: string;
  input: Record<string, unknown>;
  /** False when the tool reported an error (where the record says). */
  ok?: boolean;
}
