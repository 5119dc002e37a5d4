// A table round of Undercover with an LLM-player in one seat (agents/llm-player, through the game
// folder's player/undercover-player.mjs) against the reference bots. The model is a scripted
// OpenAI-compatible server: it writes a free-text statement when asked to speak and answers an
// option number when asked to vote.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LlmPlayerAgent } from '../agents/llm-player/agent.ts';
import { buildWorkspace } from '../agents/core/workspace.ts';
import { createAgent } from '../agents/registry.ts';
import { runArena } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { DEFAULT_LIMITS, type Replay } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';
import { replayState } from '../games/replay.ts';
import type { UndercoverState } from '../games/undercover/rules.ts';
import { startScriptedLlm, type ScriptedRequest } from './helpers/scripted-llm.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { replaysIn } from './helpers/replays.ts';

const KEY = 'sk-undercover-test';
const sandbox = createSandbox('process');
afterAll(() => sandbox.close());

const lastUser = (r: ScriptedRequest) => String(r.messages.at(-1)?.content ?? '');

/**
 * Clues that share few tokens (so none repeats another) and name no word of the pairs; more than
 * a 4-seat game can ask for (its round cap is 4), so the model never says one twice.
 */
const CLUES = [
  'Quite ordinary, honestly.',
  'You could notice it on an afternoon walk.',
  'Children usually recognise it quickly.',
  'Some people collect many of them.',
  'Grandparents talk about it fondly.',
  'Rarely seen at midnight.',
];

/** Speak: the next unused clue (quoted, as models do); vote: option 1. */
let spoken = 0;
function script(r: ScriptedRequest) {
  const prompt = lastUser(r);
  if (/turn to speak/.test(prompt)) return { text: `"${CLUES[spoken++ % CLUES.length]}"` };
  if (/Time to vote/.test(prompt)) return { text: '1' };
  return { text: 'I do not know.' };
}

describe('Undercover with an LLM-player', () => {
  it('plays a table round: the model writes its statements and picks its votes', async () => {
    const llm = await startScriptedLlm(script, { key: KEY });
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.CATARENA_LLM_BASE_URL };
    const hosts = new GameServerPool({ ports: { 'undercover/standard': 0 } });
    try {
      const agent = createAgent('llm-player:openai/test-model', 1);
      expect(agent).toBeInstanceOf(LlmPlayerAgent);
      const ws = await buildWorkspace({
        dir: path.join(tempDir('catarena-uc-llm-'), 'ws'),
        game: 'undercover',
        variant: 'standard',
        round: 1,
        agentId: agent.id,
        seed: 1,
        moveTimeoutMs: 5_000,
      });
      const dev = await agent.develop(ws, { wallMs: 60_000 });
      for (const f of ['undercover-player.mjs', 'statement-check.mjs', 'rules.md'])
        expect(fs.existsSync(path.join(dev.botDir, f)), f).toBe(true);
      process.env.OPENAI_API_KEY = KEY;
      process.env.CATARENA_LLM_BASE_URL = `${llm.baseURL}`;
      const outcome = await runArena({
        game: 'undercover',
        variant: 'standard',
        reps: 1,
        seed: 5,
        concurrency: 1,
        bots: [
          { id: 'llm', dir: dev.botDir },
          { id: 'random', dir: BUILTIN('random', 'undercover') },
          { id: 'heuristic', dir: BUILTIN('heuristic', 'undercover') },
          { id: 'heuristic2', dir: BUILTIN('heuristic', 'undercover') },
        ],
        limits: { ...DEFAULT_LIMITS, moveMs: 5_000 },
        policy: 'strict',
        runDir: tempDir('catarena-uc-llm-run-'),
        sandbox,
        hosts,
        startTimeoutMs: 15_000,
      });
      expect(outcome.results).toHaveLength(1);
      const result = outcome.results[0]!;
      expect(result.termination, result.reason).toBe('normal');
      expect(result.spec.seats).toHaveLength(4);
      const dir = path.join(outcome.runDir, 'replays');
      const [replay] = replaysIn(dir) as [Replay];
      const seat = result.spec.seats.indexOf('llm');
      const mine = replay.moves.filter((m) => m.seat === seat);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.filter((m) => m.error)).toEqual([]);
      const state = replayState(replay) as UndercoverState;
      const said = state.statements.filter((x) => x.seat === seat);
      expect(said.length).toBeGreaterThan(0);
      // The model's own words, quotes stripped, and they passed the check.
      for (const x of said) {
        expect(CLUES).toContain(x.text);
        expect(x.fault).toBeNull();
      }
      // Every LLM vote named a legal seat (never lost, never itself).
      for (const b of state.ballots.filter((x) => x.voter === seat)) {
        expect(b.target).not.toBeNull();
        expect(b.target).not.toBe(seat);
      }
      const speakPrompt = llm.requests.map(lastUser).find((p) => /turn to speak/.test(p))!;
      expect(speakPrompt).toMatch(/Your word: "[^"]+" \(category [\w ]+\)/);
      expect(llm.requests.some((r) => /Time to vote/.test(lastUser(r)))).toBe(
        state.ballots.some((x) => x.voter === seat),
      );
    } finally {
      for (const [name, value] of [
        ['OPENAI_API_KEY', saved.key],
        ['CATARENA_LLM_BASE_URL', saved.url],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await hosts.closeAll();
      await llm.close();
    }
  }, 120_000);
});
