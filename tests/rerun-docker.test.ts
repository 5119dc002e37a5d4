// A CLI agent's recorded traffic replays through the egress proxy in its container (Docker and the
// agent image only): Qwen Code develops a Gomoku bot against the scripted OpenAI-compatible server
// in a recorded run; the server is stopped and its port taken by a counting listener; the rerun's
// Qwen Code, in a new container, gets every answer (streamed) from the recording at its egress
// proxy, writes the same bot, and the run's games and W are the same, with 0 connections to the
// provider's port. About 26 s (31 s with imports): two agent containers, and Qwen Code starts as a
// CPU-heavy Node program. Run with CATARENA_DOCKER=1 on Node 24 (PATH=/tmp/nodecache/24.22.3/bin:$PATH here).
// Over 30 s: two agent containers each starting Qwen Code, one development recorded and one
// replayed (57 s with Docker while two other files ran beside it).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentRuntimeTag } from '../docker/image-tags.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { rerunRun } from '../orchestrator/tourney/rerun.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { readExchanges } from '../util/exchange-tape/tape.ts';
import { BUILTIN, dockerReady, tempDir } from './helpers/bots.ts';
import { startScriptedLlm, type ScriptedRequest } from './helpers/scripted-llm.ts';

const agentImage = dockerReady() && dockerReady(agentRuntimeTag()) ? agentRuntimeTag() : undefined;
const KEY = 'sk-cli-rerun-canary-3141';
const write = (file: string) => ({
  name: 'write_file',
  args: {
    file_path: `/workspace/develop_ai/${file}`,
    content: fs
      .readFileSync(path.join(BUILTIN('random'), file), 'utf8')
      .replace(/^(#!.*\n)/, file === 'start_ai.sh' ? '$1export BOT_SEED=7\n' : '$1'),
  },
});
const isMain = (req: ScriptedRequest) => req.tools.some((t) => t.function.name === 'write_file');
const step = (req: ScriptedRequest) =>
  req.messages.filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
const TURNS = [
  { toolCalls: [write('start_ai.sh'), write('bot.mjs'), write('bot-http.mjs')] },
  { text: 'The bot is in /workspace/develop_ai.' },
];
const SIDE_ANSWER = { text: '{"next_speaker":"user","reasoning":"done"}' };

describe.skipIf(!agentImage)('a CLI agent replayed through its egress proxy', () => {
  const saved = process.env.CATARENA_TEST_KEY_QWEN;
  afterAll(() => {
    if (saved === undefined) delete process.env.CATARENA_TEST_KEY_QWEN;
    else process.env.CATARENA_TEST_KEY_QWEN = saved;
  });

  it('Qwen Code gets every answer from the recording: the same bot, games and W, no connection to the provider', async () => {
    const server = await startScriptedLlm((req) => (isMain(req) ? TURNS[step(req)] : SIDE_ANSWER), { key: KEY });
    process.env.CATARENA_TEST_KEY_QWEN = KEY;
    const runDir = path.join(tempDir(), 'run');
    const config = resolveConfig({
      games: ['gomoku'],
      rounds: 1,
      variants: ['standard'],
      concurrency: 1,
      bootstrapSamples: 20,
      developTimeoutMs: 240_000,
      agents: [
        { spec: 'qwen-code:gpt-5-scripted#qwen', keyEnv: 'CATARENA_TEST_KEY_QWEN', baseUrl: server.baseURL },
        'offline:cautious',
      ],
    } as never);
    await runTourney({ config, runDir, index: false });
    const recorded = readExchanges(runDir).filter((l) => l.agent === 'qwen');
    expect(recorded.length).toBe(server.requests.length);
    expect(recorded.some((l) => l.stream)).toBe(true);
    const port = Number(new URL(server.baseURL).port);
    await server.close();
    let connections = 0;
    const trap = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => trap.listen(port, '127.0.0.1', r));
    try {
      const r = await rerunRun({ from: runDir, out: path.join(tempDir(), 'rerun') });
      expect(r.divergences).toEqual([]);
      expect(r.replayed).toBe(recorded.length);
      expect(r.games.differences).toEqual([]);
      expect(r.W.differences).toEqual([]);
      expect(connections).toBe(0);
      const bot = (dir: string) =>
        fs.readFileSync(path.join(dir, 'tracks/gomoku-standard/round_1/strategies/qwen/bot.mjs'), 'utf8');
      expect(bot(r.runDir)).toBe(bot(runDir));
    } finally {
      await new Promise<void>((r) => trap.close(() => r()));
    }
  }, 600_000);
});
