// The built-in agent through a whole tourney round, from its spec string: a scripted
// OpenAI-compatible server makes it write a bot (and test it with the orchestrator's own check);
// the bot validates and plays the offline agent. A model that writes a broken bot ends as a
// recorded failed build after its retries, playing as a forfeiting stand-in. Both agents are in
// one round (each with its own scripted server and key, a per-agent endpoint), so the round's
// set-up is paid once and the broken bot's six attempts overlap the working one's build.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN } from './helpers/bots.ts';
import { agentsRound, ownEndpoint, type SharedRound } from './helpers/agent-round.ts';
import { perConversation, startScriptedLlm, toolResults, type ScriptedLlm } from './helpers/scripted-llm.ts';

const SECRET = 'sk-test-tourney-456';
const write = (p: string, content: string) => ({ name: 'write_file', args: { path: p, content } });

/** A model that writes these files, tests them with test_bot, and finishes (every attempt alike). */
const writer = (botFiles: Array<{ name: string; args: unknown }>) =>
  startScriptedLlm(
    perConversation([
      { toolCalls: botFiles },
      { toolCalls: [{ name: 'test_bot', args: {} }] },
      { toolCalls: [{ name: 'finish', args: { summary: 'done' } }] },
    ]),
    { noStreaming: true, key: SECRET },
  );

describe('the built-in agent in a tourney round', () => {
  const servers = new Map<string, ScriptedLlm>();
  let round: SharedRound;
  beforeAll(async () => {
    const sample = BUILTIN('random');
    servers.set(
      'coder',
      await writer(
        ['start_ai.sh', 'bot.mjs', 'bot-http.mjs'].map((f) =>
          write(`develop_ai/${f}`, fs.readFileSync(path.join(sample, f), 'utf8')),
        ),
      ),
    );
    servers.set(
      'broken',
      await writer([write('develop_ai/start_ai.sh', '#!/bin/bash\necho "SyntaxError: oops" >&2\nexit 1\n')]),
    );
    round = await agentsRound(
      [...servers].map(([id, s]) => ({
        spec: `builtin:openai-compatible/scripted-coder~openai-compatible/scripted-fallback#${id}`,
        endpoint: ownEndpoint(id, SECRET, s.baseURL),
      })),
    );
  }, 180_000);
  afterAll(async () => {
    for (const s of servers.values()) await s.close();
  });

  it('writes a bot that validates and plays; tokens are in the cost record; the key is nowhere in the run', () => {
    const server = servers.get('coder')!;
    const { record, games } = round.of('coder');
    expect(record.status).toBe('ok');
    expect(record.agentKind).toBe('builtin:openai-compatible/scripted-coder');
    expect(record.cost.tokens).toEqual(server.totalUsage());
    expect(record.cost.toolCalls).toBe(5);
    // test_bot ran the orchestrator's check, which passed.
    expect(toolResults(server.requests.at(-1)!).join('\n')).toMatch(/validation: passed/);
    // Its two games against the offline agent, one per colour.
    expect(games).toHaveLength(2);
    for (const g of games) expect(g.termination).toBe('normal');
    expect(round.summary.tracks[0]!.cost.coder!.tokens).toEqual(server.totalUsage());
    for (const entry of fs.readdirSync(round.runDir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile())
        expect(fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'), entry.name).not.toContain(SECRET);
    }
  });

  it('a broken bot ends as a failed build after 3 attempts and 3 with the fallback model', () => {
    const { record, buildLog } = round.of('broken');
    expect(record.status).toBe('failed');
    expect(record.failure).toMatch(/validation failed|did not start/);
    const models = servers.get('broken')!.requests.map((r) => r.model);
    expect(new Set(models)).toEqual(new Set(['scripted-coder', 'scripted-fallback']));
    expect(models.filter((m) => m === 'scripted-coder')).toHaveLength(9);
    expect(buildLog).toMatch(/no runnable bot/);
    // Every game it sat in (against the offline agent and the working bot) was forfeited by its stand-in.
    const seated = round.games.filter((g) => g.spec.seats.some((s) => s.startsWith('broken@')));
    expect(seated).toHaveLength(4);
    for (const g of seated) expect(g.reason).toMatch(/failed build/);
  });
});
