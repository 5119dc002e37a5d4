// The built-in agent through a whole tourney round, from its spec string: a scripted
// OpenAI-compatible server makes it write a bot (and test it with the orchestrator's own check);
// the bot validates and plays the offline agent. A model that writes a broken bot ends as a
// recorded failed build after its retries, playing as a forfeiting stand-in.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgent } from '../agents/registry.ts';
import { createOfflineAgent } from '../agents/offline/index.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { perConversation, startScriptedLlm, toolResults, type ScriptedLlm } from './helpers/scripted-llm.ts';

const SECRET = 'sk-test-tourney-456';
let server: ScriptedLlm | undefined;
afterEach(async () => {
  await server?.close();
  vi.unstubAllEnvs();
});

const write = (p: string, content: string) => ({ name: 'write_file', args: { path: p, content } });

async function round(botFiles: Array<{ name: string; args: unknown }>) {
  server = await startScriptedLlm(
    perConversation([
      { toolCalls: botFiles },
      { toolCalls: [{ name: 'test_bot', args: {} }] },
      { toolCalls: [{ name: 'finish', args: { summary: 'done' } }] },
    ]),
    { noStreaming: true },
  );
  vi.stubEnv('OPENAI_API_KEY', SECRET);
  vi.stubEnv('CATARENA_OPENAI_BASE_URL', server.baseURL);
  const runDir = path.join(tempDir(), 'run');
  const config = resolveConfig({
    games: ['gomoku'],
    rounds: 1,
    variants: ['standard'],
    concurrency: 2,
    bootstrapSamples: 20,
    developTimeoutMs: 120_000,
  });
  const agents = [
    createAgent('builtin:openai-compatible/scripted-coder~openai-compatible/scripted-fallback#coder', 1),
    createOfflineAgent('offline:cautious', 1),
  ];
  const summary = await runTourney({ config, runDir, agents });
  return {
    runDir,
    summary,
    record: JSON.parse(
      fs.readFileSync(
        path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'strategies', 'coder.strategy.json'),
        'utf8',
      ),
    ),
  };
}

describe('the built-in agent in a tourney round', () => {
  it('writes a bot that validates and plays; tokens are in the cost record; the key is nowhere in the run', async () => {
    const sample = BUILTIN('random');
    const { runDir, summary, record } = await round([
      write('develop_ai/start_ai.sh', fs.readFileSync(path.join(sample, 'start_ai.sh'), 'utf8')),
      write('develop_ai/bot.mjs', fs.readFileSync(path.join(sample, 'bot.mjs'), 'utf8')),
      write('develop_ai/bot-http.mjs', fs.readFileSync(path.join(sample, 'bot-http.mjs'), 'utf8')),
    ]);
    expect(record.status).toBe('ok');
    expect(record.agentKind).toBe('builtin:openai-compatible/scripted-coder');
    expect(record.cost.tokens).toEqual(server!.totalUsage());
    expect(record.cost.toolCalls).toBe(5);
    // test_bot ran the orchestrator's check, which passed.
    expect(toolResults(server!.requests.at(-1)!).join('\n')).toMatch(/validation: passed/);
    const games = fs
      .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(games).toHaveLength(2);
    for (const g of games) expect(g.termination).toBe('normal');
    expect(summary.tracks[0]!.cost.coder!.tokens).toEqual(server!.totalUsage());
    for (const entry of fs.readdirSync(runDir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile())
        expect(fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'), entry.name).not.toContain(SECRET);
    }
  }, 180_000);

  it('a broken bot ends as a failed build after 3 attempts and 3 with the fallback model', async () => {
    const { runDir, record } = await round([
      write('develop_ai/start_ai.sh', '#!/bin/bash\necho "SyntaxError: oops" >&2\nexit 1\n'),
    ]);
    expect(record.status).toBe('failed');
    expect(record.failure).toMatch(/validation failed|did not start/);
    const models = server!.requests.map((r) => r.model);
    expect(new Set(models)).toEqual(new Set(['scripted-coder', 'scripted-fallback']));
    expect(models.filter((m) => m === 'scripted-coder')).toHaveLength(9);
    expect(
      fs.readFileSync(
        path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'strategies', 'coder.build.log'),
        'utf8',
      ),
    ).toMatch(/no runnable bot/);
    const games = fs
      .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const g of games) expect(g.reason).toMatch(/failed build/);
  }, 180_000);
});
