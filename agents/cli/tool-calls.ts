// Each CLI's tool calls, read from its JSON output (.agent-output-<n>.txt): what the evolution
// report's "what the agent looked at" reads (reports/evolution/agent-reads.ts). Beside the cost
// parsers of agents/cli/clis.ts, so that one folder knows each CLI's output format.
import type { ToolCall } from '../../records/agent-activity.ts';
import { jsonValues } from './json-values.ts';

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON of any shape, read field by field
type Obj = Record<string, any>;
const objects = (text: string) => jsonValues(text).filter((v): v is Obj => !!v && typeof v === 'object');

/** Codex's JSON lines: completed command executions and file changes. */
export function codexToolCalls(text: string, attempt = 1): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const e of objects(text)) {
    if (e.type !== 'item.completed' || !e.item) continue;
    const item = e.item as Obj;
    if (item.type === 'command_execution')
      calls.push({
        attempt,
        tool: 'exec_command',
        input: { command: String(item.command ?? '') },
        ok: item.exit_code === 0 || item.exit_code === undefined || item.exit_code === null,
      });
    else if (item.type === 'file_change')
      calls.push({
        attempt,
        tool: 'apply_patch',
        input: { changes: item.changes ?? [] },
        ok: item.status !== 'failed',
      });
  }
  return calls;
}

/** Gemini CLI's stream-json: tool_use events, failed where their tool_result says error. */
export function geminiToolCalls(text: string, attempt = 1): ToolCall[] {
  const events = objects(text);
  const calls: ToolCall[] = [];
  const status = new Map<string, string>();
  for (const e of events) if (e.type === 'tool_result' && e.tool_id) status.set(String(e.tool_id), String(e.status));
  for (const e of events) {
    if (e.type === 'tool_use')
      calls.push({
        attempt,
        tool: String(e.tool_name),
        input: (e.parameters ?? {}) as Obj,
        ...(status.get(String(e.tool_id)) === 'error' ? { ok: false } : {}),
      });
  }
  return calls;
}

/**
 * Claude Code (stream-json lines) and Qwen Code (an array of messages): tool_use blocks of
 * assistant messages, answered by tool_result blocks (is_error) in the next user message.
 */
export function messageToolCalls(text: string, attempt = 1): ToolCall[] {
  const events = objects(text);
  const calls: ToolCall[] = [];
  const failed = new Set<string>();
  for (const e of events) {
    if (e.type !== 'user' || !Array.isArray(e.message?.content)) continue;
    for (const b of e.message.content as Obj[])
      if (b?.type === 'tool_result' && b.is_error) failed.add(String(b.tool_use_id));
  }
  const seen = new Set<string>();
  for (const e of events) {
    if (e.type !== 'assistant' || !Array.isArray(e.message?.content)) continue;
    for (const b of e.message.content as Obj[]) {
      if (b?.type !== 'tool_use') continue;
      if (b.id && seen.has(String(b.id))) continue; // a message repeated in the stream
      if (b.id) seen.add(String(b.id));
      calls.push({
        attempt,
        tool: String(b.name),
        input: (b.input ?? {}) as Obj,
        ...(failed.has(String(b.id)) ? { ok: false } : {}),
      });
    }
  }
  return calls;
}
