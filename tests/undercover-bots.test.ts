// The reference Undercover bots (games/undercover/bots/{random,heuristic}) as real processes over
// HTTP: health, malformed bodies, statements that pass the arena's check, votes among the
// candidates; the heuristic bot's evidence (a player who says my word holds the other one); the
// copies a bot folder carries equal their sources (scripts/sync-bot-libs.mjs makes them); the
// offline kit reads the bot's params.json.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.ts';
import { undercoverKnobsFromParams } from '../games/undercover/agents/offline-kit.ts';
import { statementFault, type StatementContext } from '../games/undercover/engine/statement-check.mjs';
import { initUndercover, undercover, type UndercoverState } from '../games/undercover/rules.ts';
import { undercoverWire } from '../games/undercover/wire.ts';
import { BotProcesses, postJson } from './helpers/bot-process.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const GAME = path.join(ROOT, 'games', 'undercover');
const BOTS = path.join(GAME, 'bots');
const bots = new BotProcesses();
let random = '';
let heuristic = '';

beforeAll(async () => {
  [random, heuristic] = await Promise.all([
    bots.start(path.join(BOTS, 'random'), { BOT_SEED: '3' }),
    bots.start(path.join(BOTS, 'heuristic')),
  ]);
});
afterAll(() => bots.stopAll());

const ctx = {
  gameId: 'undercover_00000000',
  gameServerUrl: 'http://127.0.0.1:9',
  seatIds: ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'],
};

/** Plays a whole 6-seat game with one bot answering for every seat, through the wire adapter. */
async function selfPlay(url: string, variant: 'standard' | 'variant', seed: number): Promise<UndercoverState> {
  let s = initUndercover(variant, createRng(seed), { seats: 6 });
  for (let seat = 0; seat < 6; seat++)
    expect((await postJson(url, '/join', undercoverWire.join!(s, seat, ctx).body)).status).toBe(200);
  while (undercover.toMove(s) !== null) {
    const seat = undercover.toMove(s)!;
    const call = undercoverWire.turn(s, seat, ctx);
    const res = await postJson(url, call.path, call.body);
    expect(res.status).toBe(200);
    const parsed = undercoverWire.parse(res.json, s, seat);
    expect(parsed.ok, JSON.stringify(res.json)).toBe(true);
    if (!parsed.ok) throw new Error(parsed.message);
    if (parsed.action.kind === 'speak')
      expect(
        statementFault(parsed.action.statement, (call.body as { word: string }).word, call.body as StatementContext),
      ).toBeNull();
    s = undercover.apply(s, seat, parsed.action);
  }
  return s;
}

describe.each([['random'], ['heuristic']])('the %s bot', (name) => {
  const url = () => (name === 'random' ? random : heuristic);

  it('answers /health and refuses malformed bodies with 400', async () => {
    expect((await fetch(`${url()}/health`)).status).toBe(200);
    expect((await postJson(url(), '/speak', 'not json')).status).toBe(400);
    expect((await postJson(url(), '/speak', { game_id: 'x' })).status).toBe(400);
    expect((await postJson(url(), '/vote', { game_id: 'x', candidates: [] })).status).toBe(400);
  });

  it('plays whole games in both rule sets: every statement passes the check, every vote is legal', async () => {
    for (const [variant, seed] of [
      ['standard', 1],
      ['standard', 2],
      ['variant', 3],
    ] as const) {
      const s = await selfPlay(url(), variant, seed);
      expect(undercover.outcome(s)).not.toBeNull();
      expect(s.eliminated.filter((e) => e.by !== 'vote')).toEqual([]);
    }
  }, 60_000);
});

describe('the heuristic bot', () => {
  it('votes for the player who said its word (that player cannot hold it)', async () => {
    const body = {
      game_id: 'g',
      seat: 0,
      word: 'apple',
      category: 'food',
      round: 1,
      phase: 'vote',
      alive: [0, 1, 2, 3],
      candidates: [1, 2, 3],
      statements: [
        { round: 1, seat: 0, statement: 'It keeps the doctor away' },
        { round: 1, seat: 1, statement: 'It is shaped like a bell' },
        { round: 1, seat: 2, statement: 'Crisper than an apple' },
        { round: 1, seat: 3, statement: 'Not a pear, that is sure' },
      ],
      votes: [],
    };
    expect((await postJson(heuristic, '/vote', body)).json).toEqual({ vote: 2 });
  });
});

describe('the bot folders', () => {
  it('carry identical copies of the shared files', () => {
    const same = (a: string, b: string) =>
      expect(fs.readFileSync(a, 'utf8'), `${b} differs from ${a}`).toBe(fs.readFileSync(b, 'utf8'));
    for (const bot of ['random', 'heuristic']) {
      same(path.join(ROOT, 'games/core/bot-http.mjs'), path.join(BOTS, bot, 'bot-http.mjs'));
      same(path.join(GAME, 'engine/statement-check.mjs'), path.join(BOTS, bot, 'statement-check.mjs'));
    }
    same(path.join(GAME, 'words.json'), path.join(BOTS, 'heuristic', 'words.json'));
  });

  it("the offline kit reads the heuristic bot's params.json", () => {
    const params = JSON.parse(fs.readFileSync(path.join(BOTS, 'heuristic', 'params.json'), 'utf8'));
    expect(undercoverKnobsFromParams(params)).toEqual({
      vagueness: 0.5,
      boldness: 0.3,
      bandwagon: 0.3,
      depth: 2,
      timeBudgetMs: 50,
      randomness: 0.1,
    });
    expect(undercoverKnobsFromParams({ depth: 9, boldness: 'x' })).toMatchObject({ depth: 3, boldness: 0.3 });
  });
});
