// Reports learn agent ids from the config's specs without building the agents (which loads the
// AI SDKs): agentIdOf must give exactly the id createAgent's agent carries, for every kind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { agentIdOf } from '../agents/core/agent-id.ts';
import { createAgent } from '../agents/registry.ts';
import { agentIds } from '../orchestrator/tourney/summarize.ts';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-agent-id-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const bot = path.join(tmp, 'My Bot (v2)');
fs.mkdirSync(bot);
fs.writeFileSync(path.join(bot, 'start_ai.sh'), '#!/bin/sh\n');

const SPECS = [
  'offline:cautious',
  'offline:aggressive#2',
  `dir:${bot}`,
  `dir:${bot}#mine`,
  'builtin:openai/gpt-4o-mini',
  'builtin:openai-compatible/Qwen/Qwen3-Coder.30B+A3B~anthropic/claude-sonnet-4-5',
  'builtin:anthropic/claude-sonnet-4-5#sonnet',
  'llm-player:openai/gpt-4o-mini',
  'llm-player:google/gemini-2.5-flash#flash?temperature=0.2',
  'claude-code',
  'codex:GPT-5.1_Codex+Max',
  'gemini-cli#g',
  'qwen-code:qwen3-coder-plus',
];

const KEYS = ['OPENAI_API_KEY', 'CODEX_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY'];
afterEach(() => vi.unstubAllEnvs());

describe('agent ids from specs', () => {
  it.each(SPECS)('%s: the id its agent has', (spec) => {
    // Building an LLM agent needs its key (a placeholder: nothing is called).
    for (const key of KEYS) vi.stubEnv(key, 'placeholder');
    vi.stubEnv('CATARENA_OPENAI_BASE_URL', 'http://127.0.0.1:9/v1');
    expect(agentIdOf(spec)).toBe(createAgent(spec, 0).id);
  });

  it("agentIds keeps config order without the agents' keys (a report on another machine) and leaves out malformed specs", () => {
    for (const key of KEYS) vi.stubEnv(key, undefined);
    expect(
      agentIds({
        agents: ['offline:imitator', 'builtin:openai/gpt-4o-mini', 'dir:', 'claude-code#cc', 'offline:nope#x'],
      }),
    ).toEqual(['imitator', 'gpt-4o-mini', 'cc']);
  });
});
