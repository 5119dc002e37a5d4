// The agent spec syntax in one line, for --help and errors (kept apart from agents/registry.ts so
// printing help loads no agent).
export const AGENT_SPEC_HELP =
  'offline:<character> (cautious, aggressive, imitator), dir:<path>, builtin:<provider>/<model>[~<fallback>], llm-player:<provider>/<model>, claude-code[:<model>], codex[:<model>], gemini-cli[:<model>], qwen-code:<model>';
