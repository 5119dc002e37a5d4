// The reference heuristics' `deterministic` knob (anchor pools, docs/anchors.md), on the real bot
// processes: with it, Gomoku searches to its full depth whatever its time budget (no clock), and
// Hold'em answers a request the same way whatever it was asked before and whatever the game id
// (noise seeded per request), where the bot without the knob draws from one process stream.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BotProcesses, postJson } from './helpers/bot-process.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const bots = new BotProcesses();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-anchor-bots-'));
afterAll(async () => {
  await bots.stopAll();
  fs.rmSync(work, { recursive: true, force: true });
});

/** A reference bot started with its params.json overridden by `params` (through BOT_PARAMS). */
async function startWith(game: string, name: string, params: Record<string, unknown>): Promise<string> {
  const dir = path.join(ROOT, 'games', game, 'bots', 'heuristic');
  const base = JSON.parse(fs.readFileSync(path.join(dir, 'params.json'), 'utf8'));
  const file = path.join(work, `${game}-${name}.json`);
  fs.writeFileSync(file, JSON.stringify({ ...base, ...params }));
  return bots.start(dir, { BOT_PARAMS: file });
}

describe('gomoku heuristic, deterministic', () => {
  // A crowded middle game: a depth-3 search over 20 candidates takes far longer than 25 ms.
  const board = Array.from({ length: 15 }, () => new Array<number>(15).fill(0));
  const stones: Array<[number, number, number]> = [
    [7, 7, 1],
    [7, 8, 2],
    [5, 9, 1],
    [6, 6, 2],
    [9, 5, 1],
    [8, 10, 2],
  ];
  for (const [i, j, c] of stones) board[i]![j] = c;
  const ask = async (url: string) =>
    (await postJson(url, '/get_move', { game_id: 'g1', board, current_player: 'black' })).json as {
      move: number[];
      reasoning: string;
    };

  it('searches to its depth under a 50 ms budget; the clocked bot stops early', async () => {
    const common = { depth: 3, candidates: 20, timeBudgetMs: 50, randomness: 0.5 };
    const [fixed, clocked] = await Promise.all([
      startWith('gomoku', 'fixed', { ...common, deterministic: true }),
      startWith('gomoku', 'clocked', common),
    ]);
    const first = await ask(fixed);
    expect(first.reasoning).toMatch(/at depth 3 \(/);
    expect((await ask(fixed)).move).toEqual(first.move);
    expect((await ask(clocked)).reasoning).not.toMatch(/at depth 3 \(/);
  });
});

describe('holdem heuristic, deterministic', () => {
  const request = (gameId: string, hole: string[]) => ({
    game_id: gameId,
    phase: 'preflop',
    hand_number: 1,
    pot: 30,
    community_cards: [],
    current_bet: 20,
    min_raise: 20,
    current_player: 'p1',
    deck: 'standard',
    players: Object.fromEntries(
      ['p1', 'p2'].map((id, k) => [
        id,
        {
          player_id: id,
          name: id,
          chips: 1990 - 10 * k,
          hole_cards: id === 'p1' ? hole : [],
          state: 'active',
          current_bet: 10 + 10 * k,
          hand_bet: 10 + 10 * k,
          is_dealer: k === 0,
          is_small_blind: k === 0,
          is_big_blind: k === 1,
        },
      ]),
    ),
    action_history: [],
    dealer_index: 0,
    small_blind: 10,
    big_blind: 20,
    valid_actions: [
      { action: 'fold', amount: 0 },
      { action: 'call', amount: 10 },
      { action: 'raise', amount: { min: 40, max: 2000 } },
      { action: 'all_in', amount: 1990 },
    ],
  });
  const noisy = { randomness: 1, aggression: 0.9, bluff: 0.3, simulations: 50 };
  /** The answers to one request asked six times, other requests in between. */
  async function answers(url: string, gameIdOf: (k: number) => string) {
    const out: string[] = [];
    for (let k = 0; k < 6; k++) {
      out.push(JSON.stringify((await postJson(url, '/action', request(gameIdOf(k), ['As', 'Ks']))).json));
      await postJson(url, '/action', request('other', ['7h', '2c']));
    }
    return out;
  }

  it('the same request gets the same answer in any order and under any game id', async () => {
    const fixed = await startWith('holdem', 'fixed', { ...noisy, deterministic: true });
    const got = await answers(fixed, (k) => `holdem_${k}`);
    expect(got[0]).toContain('action');
    expect(new Set(got).size).toBe(1);
    expect(JSON.parse(got[0]!).action).toMatch(/raise|call|all_in/);
  });

  it('without the knob the process stream makes the same request vary (what the knob removes)', async () => {
    const streamed = await startWith('holdem', 'streamed', noisy);
    expect(new Set(await answers(streamed, () => 'holdem_same')).size).toBeGreaterThan(1);
  });
});
