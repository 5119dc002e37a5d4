// A trimmed conversation for the attempt after a context-length failure: each step sends the
// conversation so far, and what fills it is tool output (files read, command output) and the
// files the model wrote (write_file's content). All but the latest KEEP_RECENT tool results are
// replaced by a note saying how long they were, and long string inputs of older tool calls (a whole
// file written) by their length; what the model needs now (its last results, the task) stays.
import type { ModelMessage } from 'ai';

/** The newest tool messages kept whole. */
export const KEEP_RECENT = 2;
/** A tool call's string input longer than this is cut in older steps. */
const LONG_INPUT = 400;

const note = (chars: number) =>
  `[trimmed to fit the model's context: ${chars} characters; read it again if you still need it]`;

/** How long a tool result's output was, as sent. */
function outputChars(output: unknown): number {
  const o = output as { type?: string; value?: unknown };
  return typeof o?.value === 'string' ? o.value.length : JSON.stringify(o?.value ?? o ?? '').length;
}

/** Long string fields of a tool call's input replaced by their length. */
function shortInput(input: unknown): unknown {
  if (!input || typeof input !== 'object') return input;
  return Object.fromEntries(
    Object.entries(input as Record<string, unknown>).map(([k, v]) =>
      typeof v === 'string' && v.length > LONG_INPUT ? [k, `${v.slice(0, 120)}… ${note(v.length)}`] : [k, v],
    ),
  );
}

/** The conversation with older tool output and long tool-call inputs trimmed; the newest steps whole. */
export function trimConversation(messages: ModelMessage[]): ModelMessage[] {
  const toolAt = messages.flatMap((m, k) => (m.role === 'tool' ? [k] : []));
  const keepFrom = toolAt.length > KEEP_RECENT ? toolAt[toolAt.length - KEEP_RECENT]! : 0;
  return messages.map((m, k) => {
    if (k >= keepFrom) return m;
    if (m.role === 'tool')
      return {
        ...m,
        content: m.content.map((part) =>
          part.type === 'tool-result'
            ? { ...part, output: { type: 'text' as const, value: note(outputChars(part.output)) } }
            : part,
        ),
      };
    if (m.role === 'assistant' && Array.isArray(m.content))
      return {
        ...m,
        content: m.content.map((part) =>
          part.type === 'tool-call' ? { ...part, input: shortInput(part.input) } : part,
        ),
      };
    return m;
  });
}
