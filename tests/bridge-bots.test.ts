// The reference bridge bots (games/bridge/bots/{random,heuristic}) as real processes speaking
// CATArena's Bridge protocol (POST /get_action) over HTTP. Request bodies are built here from the
// rules engine (games/bridge/rules.ts) in the CATArena state shape: random deals walked with
// random legal actions for the fuzz, hand-built positions for the heuristic's bidding and play,
// and whole boards played by the heuristic bot at all four seats, in two "rooms".
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardObject, highCardPoints, SEAT_LETTERS, SEAT_NAMES, type Card, type Seat } from '../games/bridge/cards.ts';
import {
  bridge,
  boardFromDeal,
  type BridgeAction,
  type BridgeState,
  type BridgeVariant,
} from '../games/bridge/rules.ts';
import { createRng, type Rng } from '../util/rng.ts';
import { BotProcesses, postJson } from './helpers/bot-process.ts';
import { tempDir } from './helpers/bots.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const BOTS = path.join(ROOT, 'games', 'bridge', 'bots');

const bots = new BotProcesses();
let heuristic = '';
let random = '';
/** The heuristic bot with out-of-range params (clamped) and the aggressive lead style. */
let odd = '';

const startBot = bots.start.bind(bots);
const post = (url: string, body: unknown, route = '/get_action') => postJson(url, route, body);

beforeAll(async () => {
  const paramsFile = path.join(tempDir('bridge-params-'), 'odd.json');
  bots.removeLater(path.dirname(paramsFile));
  fs.writeFileSync(
    paramsFile,
    JSON.stringify({
      name: 'odd',
      openMin: 3,
      overcallMin: 'x',
      gameBonus: 99,
      slamMin: 20,
      leadStyle: 1,
      aggression: 2,
      randomness: 0.5,
    }),
  );
  [heuristic, random, odd] = await Promise.all([
    startBot(path.join(BOTS, 'heuristic')),
    startBot(path.join(BOTS, 'random'), { BOT_SEED: '7' }),
    startBot(path.join(BOTS, 'heuristic'), { BOT_PARAMS: paramsFile }),
  ]);
});

afterAll(() => bots.stopAll());

// ---- request bodies in CATArena's shape ------------------------------------------------------

/**
 * The game_state `seat` receives: every player object, full for its own seat, for the dummy once
 * the opening lead is made, and for the declarer when `seat` is the dummy asked for dummy's card
 * (the view rules.ts gives); hidden players carry no hand and no hand_summary.
 */
function gameState(state: BridgeState, seat: Seat, gameId: string, names = 'bot'): Record<string, unknown> {
  const v = bridge.view(state, seat);
  const lead = state.trick.length > 0 || state.tricks.length > 0;
  const player = (p: Seat) => {
    const base: Record<string, unknown> = {
      player_id: p,
      name: `${names}_${p}`,
      position: SEAT_LETTERS[p],
      hand_size: state.hands[p]!.length,
      tricks_won: 0,
      is_dummy: v.dummy === p && lead,
    };
    let hand: Card[] | null = null;
    if (p === seat) hand = v.hand;
    else if (p === v.dummy && v.dummyHand) hand = v.dummyHand;
    else if (p === v.declarer && v.declarerHand) hand = v.declarerHand;
    if (!hand) return base;
    const summary: Record<string, number> = { C: 0, D: 0, H: 0, S: 0 };
    for (const c of hand) summary[c[1]!]!++;
    const hcp = highCardPoints(hand);
    const dist = Object.values(summary).reduce((n, k) => n + (k === 0 ? 3 : k === 1 ? 2 : k === 2 ? 1 : 0), 0);
    return {
      ...base,
      hand: hand.map(cardObject),
      hand_summary: summary,
      high_card_points: hcp,
      distribution_points: dist,
      total_points: hcp + dist,
    };
  };
  const contract = state.contract
    ? {
        level: state.contract.level,
        suit: state.contract.strain,
        declarer_id: state.contract.declarer,
        doubling: 2 ** state.contract.doubled,
      }
    : null;
  const body: Record<string, unknown> = {
    game_id: gameId,
    phase: state.phase,
    dealer_id: state.dealer,
    current_player_id: state.toMove,
    board_id: state.board,
    vulnerability: [state.vulnerability.ns, state.vulnerability.ew],
    players: ([0, 1, 2, 3] as Seat[]).map(player),
    bidding: {
      calls: state.calls.map((c, i) => ({
        call_type: c.call_type,
        player_id: c.seat,
        timestamp: i,
        ...(c.call_type === 'bid' ? { level: c.level, suit: c.suit } : {}),
      })),
      current_player_id: state.phase === 'bidding' ? state.toMove : null,
      is_bidding_over: state.phase !== 'bidding',
      contract,
    },
    current_trick: state.trick.map(([s, c]) => [s, c]),
    tricks_won: [...state.tricksWon],
    score: [0, 0],
  };
  if (state.variant === 'variant') {
    Object.assign(body, {
      contract,
      trump_suit: state.contract && state.contract.strain !== 'NT' ? state.contract.strain : null,
      suit_order: {
        suit_order: ['C', 'D', 'H', 'S'],
        suit_names: { C: 'Clubs', D: 'Diamonds', H: 'Hearts', S: 'Spades' },
      },
      my_exchange_request: v.exchange?.given ?? null,
      my_exchanged_card: v.exchange?.received ?? null,
    });
  }
  return body;
}

function request(state: BridgeState, seat: Seat, gameId = 'bridge_test0001', names = 'bot') {
  return {
    game_id: gameId,
    player_id: seat,
    position: SEAT_NAMES[seat],
    game_state: gameState(state, seat, gameId, names),
    legal_actions: bridge.legalActions(state, seat) as BridgeAction[],
  };
}

type Body = ReturnType<typeof request>;
interface Sample {
  state: BridgeState;
  seat: Seat;
  body: Body;
}

/** A random legal action; calls pass 60% of the time so auctions end at sane levels. */
function randomAction(state: BridgeState, seat: Seat, rng: Rng): BridgeAction {
  const legal = bridge.legalActions(state, seat);
  if (state.phase === 'bidding' && rng.float() < 0.6) return legal[0]!; // pass
  return legal[rng.int(0, legal.length - 1)]!;
}

/** At least `per` sampled requests per phase, from random deals walked with random actions. */
function fuzzSamples(per: number, seed: number): Record<'bidding' | 'exchanging' | 'playing', Sample[]> {
  const rng = createRng(seed);
  const out: Record<'bidding' | 'exchanging' | 'playing', Sample[]> = { bidding: [], exchanging: [], playing: [] };
  for (let board = 1; out.bidding.length < per || out.exchanging.length < per || out.playing.length < per; board++) {
    const variant: BridgeVariant = board % 2 ? 'standard' : 'variant';
    let state = bridge.init(variant, createRng(seed * 1000 + board), { options: { board: ((board - 1) % 16) + 1 } });
    while (state.phase !== 'finished') {
      const seat = state.toMove as Seat;
      const phase = state.phase as keyof typeof out;
      // Every exchange request; about one in two calls and one in four plays.
      const keep = phase === 'exchanging' || rng.float() < (phase === 'bidding' ? 0.5 : 0.25);
      if (keep && out[phase].length < per)
        out[phase].push({ state, seat, body: request(state, seat, `bridge_fz${board}`) });
      state = bridge.apply(state, seat, randomAction(state, seat, rng));
    }
  }
  return out;
}

const canon = (a: any) =>
  JSON.stringify(
    a && typeof a === 'object'
      ? { type: a.type, call_type: a.call_type, level: a.level, suit: a.suit, card: a.card }
      : a,
  );

/** The reply must be {"action": <an entry of legal_actions>} that the rules accept. */
function expectLegal(reply: any, sample: Sample, context: string): void {
  expect(
    reply && typeof reply === 'object' && reply.action && typeof reply.action === 'object',
    `${context}: ${JSON.stringify(reply)}`,
  ).toBe(true);
  expect(sample.body.legal_actions.map(canon), context).toContain(canon(reply.action));
  expect(bridge.validate(sample.state, sample.seat, reply.action), context).toBeNull();
}

/** Posts many bodies, a few at a time. */
async function postAll(
  url: string,
  bodies: unknown[],
  concurrency = 6,
): Promise<Array<{ status: number; json: any; ms: number }>> {
  const out: Array<{ status: number; json: any; ms: number }> = new Array(bodies.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const i = next++;
        out[i] = await post(url, bodies[i]);
      }
    }),
  );
  return out;
}

/** Applies calls/plays given as short strings ('P', '1S', 'X', 'XX', or a card) from the dealer on. */
function play(state: BridgeState, moves: string[]): BridgeState {
  for (const m of moves) {
    const seat = state.toMove as Seat;
    let action: BridgeAction;
    if (state.phase === 'bidding') {
      if (m === 'P') action = { type: 'call', call_type: 'pass' };
      else if (m === 'X') action = { type: 'call', call_type: 'double' };
      else if (m === 'XX') action = { type: 'call', call_type: 'redouble' };
      else action = { type: 'call', call_type: 'bid', level: Number(m[0]), suit: m.slice(1) as 'NT' };
    } else action = { type: state.phase === 'exchanging' ? 'exchange' : 'play', card: m };
    state = bridge.apply(state, seat, action);
  }
  return state;
}

const hand = (s: string) => s.split(' ');

// ---- tests -----------------------------------------------------------------------------------

describe('bot folders', () => {
  it('are self-contained: no import from outside the folder; start_ai.sh executable', () => {
    for (const bot of ['random', 'heuristic']) {
      for (const f of fs.readdirSync(path.join(BOTS, bot)).filter((x) => x.endsWith('.mjs'))) {
        const text = fs.readFileSync(path.join(BOTS, bot, f), 'utf8');
        for (const [, spec] of text.matchAll(/^import .* from '([^']+)'/gm))
          expect(spec, `${bot}/${f}`).toMatch(/^(node:|\.\/[\w-]+\.mjs$)/);
        // Determinism: the heuristic bot never draws from Math.random.
        if (bot === 'heuristic') expect(text, `${bot}/${f}`).not.toMatch(/Math\.random\s*\(/);
      }
      expect(fs.statSync(path.join(BOTS, bot, 'start_ai.sh')).mode & 0o111).not.toBe(0);
    }
  });

  it('start_ai.sh insists on exactly one argument', () => {
    for (const bot of ['random', 'heuristic']) {
      const r = spawnSync('bash', [path.join(BOTS, bot, 'start_ai.sh')], { encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/usage/);
    }
  });
});

describe('protocol', () => {
  it('health, info, join (JSON or form-encoded), leave and 404 on both bots', async () => {
    for (const url of [heuristic, random]) {
      expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'healthy' });
      expect(typeof (await (await fetch(`${url}/info`)).json()).name).toBe('string');
      expect((await post(url, { game_id: 'bridge_j1', player_id: 2, player_name: 'me' }, '/join_game')).status).toBe(
        200,
      );
      // CATArena's retry of a join: query string and a form body.
      const form = await fetch(`${url}/join_game?game_id=bridge_j1&player_id=2&player_name=me`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'game_id=bridge_j1&player_id=2',
      });
      expect(form.status).toBe(200);
      expect((await post(url, { game_id: 'bridge_j1' }, '/leave_game')).status).toBe(200);
      const r = await fetch(`${url}/nope`);
      expect(r.status).toBe(404);
      expect(await r.json()).toHaveProperty('error');
    }
  });

  it('the heuristic bot reads params.json once, clamped; BOT_PARAMS names another file', async () => {
    const defaults = JSON.parse(fs.readFileSync(path.join(BOTS, 'heuristic', 'params.json'), 'utf8'));
    const info = await (await fetch(`${heuristic}/info`)).json();
    expect(info.params).toMatchObject(defaults);
    const oddInfo = await (await fetch(`${odd}/info`)).json();
    expect(oddInfo.name).toBe('odd');
    expect(oddInfo.params).toMatchObject({
      openMin: 10,
      overcallMin: 8,
      gameBonus: 27,
      slamMin: 31,
      leadStyle: 1,
      aggression: 1,
      randomness: 0.5,
    });
  });

  it('400 on malformed bodies', async () => {
    const state = bridge.init('standard', createRng(3), { options: { board: 1 } });
    const good = request(state, 0);
    const bad: unknown[] = [
      'not json',
      '[1, 2]',
      'null',
      { ...good, game_state: undefined },
      { ...good, game_state: 'x' },
      { ...good, legal_actions: 'pass' },
      { ...good, legal_actions: [1, 'x', { type: 'dance' }] },
    ];
    for (const url of [heuristic, random]) {
      for (const b of bad) expect((await post(url, b)).status, `${url} ${JSON.stringify(b).slice(0, 80)}`).toBe(400);
      expect((await post(url, good)).status).toBe(200);
    }
    // The heuristic bot must know whose request it is.
    const { player_id: _p, position: _q, ...anonymous } = good;
    expect(
      (await post(heuristic, { ...anonymous, game_state: { ...good.game_state, current_player_id: null } })).status,
    ).toBe(400);
    expect((await post(heuristic, { ...good, player_id: 9, position: 'nowhere' })).status).toBe(400);
  });

  it('an empty or missing legal_actions list: pass in the auction; the heuristic bot derives a legal card in the play', async () => {
    const state = bridge.init('standard', createRng(5), { options: { board: 2 } });
    for (const url of [heuristic, random]) {
      const r = await post(url, { ...request(state, state.toMove as Seat), legal_actions: [] });
      expect(r.status).toBe(200);
      expect(r.json.action).toEqual({ type: 'call', call_type: 'pass' });
      const { legal_actions: _l, ...retry } = request(state, state.toMove as Seat); // CATArena's retry body has none
      expect((await post(url, retry)).json.action).toEqual({ type: 'call', call_type: 'pass' });
    }
    // Mid-play, the heuristic bot follows suit from its own hand.
    let s = play(state, ['P', '1NT', 'P', 'P', 'P']); // dealer E passes, S opens 1NT
    s = bridge.apply(s, s.toMove!, bridge.legalActions(s, s.toMove!)[0]!); // opening lead
    const seat = s.toMove as Seat;
    const r = await post(heuristic, { ...request(s, seat), legal_actions: [] });
    expect(bridge.validate(s, seat, r.json.action)).toBeNull();
  });
});

describe('fuzz: every answer is one of legal_actions', () => {
  const samples = fuzzSamples(200, 11);
  for (const phase of ['bidding', 'exchanging', 'playing'] as const) {
    it(`${phase}: ${samples[phase].length} random positions; random, heuristic and heuristic with odd params`, async () => {
      const list = samples[phase];
      expect(list.length).toBeGreaterThanOrEqual(200);
      for (const url of [heuristic, random, odd]) {
        const replies = await postAll(
          url,
          list.map((s) => s.body),
        );
        replies.forEach((r, i) => {
          expect(r.status, JSON.stringify(r.json)).toBe(200);
          expectLegal(r.json, list[i]!, `${url} ${phase} #${i}`);
        });
      }
    });
  }

  it('the heuristic bot: identical bodies with another game_id and other names get identical answers', async () => {
    const mixed = [
      ...samples.bidding.slice(0, 60),
      ...samples.exchanging.slice(0, 40),
      ...samples.playing.slice(0, 100),
    ];
    for (const url of [heuristic, odd]) {
      const a = await postAll(
        url,
        mixed.map((s) => s.body),
      );
      const b = await postAll(
        url,
        mixed.map((s) => request(s.state, s.seat, 'bridge_otherroom', 'closed_room')),
      );
      expect(b.map((r) => canon(r.json.action))).toEqual(a.map((r) => canon(r.json.action)));
    }
  });
});

describe('heuristic bidding', () => {
  const bidOf = async (state: BridgeState) => (await post(heuristic, request(state, state.toMove as Seat))).json.action;
  const BID = (level: number, suit: string) => ({ type: 'call', call_type: 'bid', level, suit });

  it('opens 1NT with a 16-HCP balanced hand as dealer', async () => {
    const deal = [
      hand('AS KS TS 9S KH 8H 7H QD TD 9D AC TC 8C'), // A K x x | K x x | Q x x | A x x
      hand('QS JS 8S 7S AH QH JH 9H 6H KD JD 8D 7D'),
      hand('6S 5S 4S 3S 5H 4H 3H 2H 6D 5D 4D 3D 2D'),
      hand('2S TH AD KC QC JC 9C 7C 6C 5C 4C 3C 2C'),
    ];
    expect(highCardPoints(deal[0] as Card[])).toBe(16);
    const state = boardFromDeal('standard', deal, { board: 1 });
    expect(state.toMove).toBe(0); // board 1: dealer N calls first
    expect(await bidOf(state)).toEqual(BID(1, 'NT'));
  });

  it('passes a 6-HCP hand as dealer; a strong hand after it bids', async () => {
    const deal = [
      hand('KS 9S 8S 7S 4S QH JH 7H 6D 5D 4D 3C 2C'),
      hand('QS JS 5S AH KH 9H 8H KD JD 8D 7D AC KC'),
      hand('6S 3S 2S 5H 4H 3H 2H TD 9D 2D QC JC TC'),
      hand('AS TS TH 6H AD QD 3D 9C 8C 7C 6C 5C 4C'),
    ];
    expect(highCardPoints(deal[0] as Card[])).toBe(6);
    const state = boardFromDeal('standard', deal, { board: 1 });
    expect(await bidOf(state)).toEqual({ type: 'call', call_type: 'pass' });
    // E: 21 HCP, 3-4-4-2: 2NT.
    expect(await bidOf(play(state, ['P']))).toEqual(BID(2, 'NT'));
  });

  it('opens the higher of two 5-card majors with ≥ openMin HCP', async () => {
    const deal = [
      hand('AS KS 9S 8S 7S KH QH 8H 7H 6H 3D 2D 2C'),
      hand('QS JS 5S AH 9H KD JD 8D 7D AC KC QC JC'),
      hand('6S 3S 2S 5H 4H 3H 2H TD 9D 6D 5D TC 9C'),
      hand('TS 4S JH TH AD QD 4D 8C 7C 6C 5C 4C 3C'),
    ];
    expect(highCardPoints(deal[0] as Card[])).toBe(12);
    expect(await bidOf(boardFromDeal('standard', deal, { board: 1 }))).toEqual(BID(1, 'S'));
  });

  it("raises partner's major by points: a simple raise with 8, game with 14", async () => {
    const deal = [
      hand('AS 9S 8S AH KH QH 8H 7H 3D 2D 8C 7C 2C'), // 13 HCP, five hearts: 1H
      hand('QS JS 5S 4S 9H KD JD 8D 7D AC KC QC JC'),
      hand('6S 3S 2S JH 6H 5H 4H AD QD 6D 5D 3C 4C'), // 7 HCP, four hearts, a doubleton
      hand('KS TS 7S TH 3H 2H TD 9D 4D TC 9C 6C 5C'),
    ];
    expect(await bidOf(boardFromDeal('standard', deal, { board: 1 }))).toEqual(BID(1, 'H'));
    expect(await bidOf(play(boardFromDeal('standard', deal, { board: 1 }), ['1H', 'P']))).toEqual(BID(2, 'H'));
    const strong = [
      deal[0]!,
      hand('QS JS 5S 4S 9H 5D JD 8D 7D AC KC QC JC'),
      hand('KS TS 2S JH 6H 5H 4H AD KD QD 6D 3C 4C'), // 13 HCP, four hearts, a doubleton
      hand('6S 3S 7S TH 3H 2H TD 9D 4D TC 9C 6C 5C'),
    ];
    expect(await bidOf(play(boardFromDeal('standard', strong, { board: 1 }), ['1H', 'P']))).toEqual(BID(4, 'H'));
  });

  it('never bids beyond game without slam values', async () => {
    const deal = [
      hand('AS 9S 8S AH KH QH 8H 7H 3D 2D 8C 7C 2C'),
      hand('QS JS 5S 4S 9H KD JD 8D 7D AC KC QC JC'),
      hand('6S 3S 2S JH 6H 5H 4H AD QD 6D 5D 3C 4C'),
      hand('KS TS 7S TH 3H 2H TD 9D 4D TC 9C 6C 5C'),
    ];
    // 1H 2C 4H 5C: N may pass or double, never 5H.
    const a = await bidOf(play(boardFromDeal('standard', deal, { board: 1 }), ['1H', '2C', '4H', '5C']));
    expect(['pass', 'double']).toContain(a.call_type);
  });
});

describe('heuristic play', () => {
  // Board 1, dealer N: P P P 1S P P P → W declares 1S, N leads, E is dummy, S plays third.
  const deal = [
    hand('9S 8S 2H 3H 4H 6H QD JD TD 9D 8D 7D 6D'), // N
    hand('5S 4S 3S TH 5D KD 3D 2D 9C 8C 7C 6C 5C'), // E (dummy): a singleton TH
    hand('7S 6S AH KH QH 5H 4D AD 4C 3C 2C JC TC'), // S: A K Q 5 of hearts
    hand('AS KS QS JS TS 2S JH 9H 8H 7H AC KC QC'), // W (declarer): no diamond
  ];
  const start = (moves: string[]) =>
    play(boardFromDeal('standard', deal, { board: 1 }), ['P', 'P', 'P', '1S', 'P', 'P', 'P', ...moves]);

  it('third hand wins as cheaply as possible', async () => {
    const state = start(['2H', 'TH']);
    expect([state.phase, state.toMove]).toEqual(['playing', 2]);
    expect((await post(heuristic, request(state, 2))).json.action).toEqual({ type: 'play', card: 'QH' });
  });

  it("follows suit and does not overtake partner's winning card; fourth hand ruffs cheaply", async () => {
    // N leads the QD, dummy plays low: S holds A 4 of diamonds and keeps the ace.
    const state = start(['QD', '2D']);
    const s = (await post(heuristic, request(state, 2))).json.action;
    expect(s).toEqual({ type: 'play', card: '4D' });
    // Offered the whole hand, it still follows suit.
    const all = { ...request(state, 2), legal_actions: deal[2]!.map((card) => ({ type: 'play', card })) };
    expect((await post(heuristic, all)).json.action).toEqual({ type: 'play', card: '4D' });
    // W, void in diamonds with six trumps, wins with the cheapest: the 2S.
    expect((await post(heuristic, request(start(['QD', '2D', '4D']), 3))).json.action).toEqual({
      type: 'play',
      card: '2S',
    });
  });

  it("asked for dummy's card, it plays with the declarer's hand in view", async () => {
    // N leads the JD; dummy E (second hand) holds K 5 3 2 of diamonds: the declarer W can ruff,
    // so dummy keeps its king instead of covering the honour.
    const state = start(['JD']);
    expect(state.toMove).toBe(1);
    const body = request(state, 1);
    const players = body.game_state.players as Array<Record<string, unknown>>;
    expect(players[3]!.hand).toBeDefined(); // the declarer's hand, shown to dummy's seat
    expect((await post(heuristic, body)).json.action).toEqual({ type: 'play', card: '2D' });
    // Without the declarer's hand in view it would cover.
    const blind = structuredClone(body);
    const w = (blind.game_state.players as Array<Record<string, unknown>>)[3]!;
    delete w.hand;
    delete w.hand_summary;
    expect((await post(heuristic, blind)).json.action).toEqual({ type: 'play', card: 'KD' });
  });
});

describe('whole boards: the heuristic bot at all four seats', () => {
  it('plays legal boards in both rule sets; two rooms with different game ids play identically; fast', async () => {
    const ms: number[] = [];
    const playBoard = async (variant: BridgeVariant, seed: number, board: number, gameId: string) => {
      let state = bridge.init(variant, createRng(seed), { options: { board } });
      const actions: string[] = [];
      while (state.phase !== 'finished') {
        const seat = state.toMove as Seat;
        const r = await post(heuristic, request(state, seat, gameId, gameId));
        ms.push(r.ms);
        expect(r.status).toBe(200);
        expect(bridge.validate(state, seat, r.json.action), JSON.stringify(r.json)).toBeNull();
        actions.push(canon(r.json.action));
        state = bridge.apply(state, seat, r.json.action);
      }
      return { actions, ns: state.result!.detail!.ns_score };
    };
    const boards: Array<[BridgeVariant, number, number]> = [
      ['standard', 101, 1],
      ['standard', 102, 2],
      ['standard', 103, 7],
      ['variant', 104, 1],
      ['variant', 105, 1],
    ];
    for (const [variant, seed, board] of boards) {
      const open = await playBoard(variant, seed, board, `bridge_open${seed}`);
      const closed = await playBoard(variant, seed, board, `bridge_closed${seed}`);
      expect(closed).toEqual(open);
    }
    ms.sort((a, b) => a - b);
    const median = ms[Math.floor(ms.length / 2)]!;
    console.log(
      `heuristic bridge bot: ${ms.length} requests, median ${median.toFixed(1)} ms, max ${ms[ms.length - 1]!.toFixed(1)} ms`,
    );
    expect(median).toBeLessThan(50);
  });
});
