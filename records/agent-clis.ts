// The CLI coding agents as the agent image knows them: the agent kind's name (the spec's
// `<cli>`), the npm package docker/build-agent-image.ts installs, and the command it puts on the
// PATH. In records/ because the image builder (docker/, layer 2) needs it and may not import
// agents/ (layer 3); everything else about a CLI agent is agents/cli/clis.ts, and the agent kinds
// themselves are agents/kinds.ts (docs/architecture.md, "Agent kinds").
export const AGENT_CLIS = [
  { name: 'claude-code', package: '@anthropic-ai/claude-code', command: 'claude' },
  { name: 'codex', package: '@openai/codex', command: 'codex' },
  { name: 'gemini-cli', package: '@google/gemini-cli', command: 'gemini' },
  { name: 'qwen-code', package: '@qwen-code/qwen-code', command: 'qwen' },
] as const;

export type AgentCliName = (typeof AGENT_CLIS)[number]['name'];
