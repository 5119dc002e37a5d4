// The bridge wire adapter without processes: CATArena's state body and what it hides, answer
// parsing, forfeits under both policies, and the game-server API (arena and self-play games).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.ts';
import type { LiveGame } from '../games/core/wire.ts';
import { bridge, type BridgeAction, type BridgeState } from '../games/bridge/rules.ts';
import { bridgeWire, parseAnswer, stateBody } from '../games/bridge/wire.ts';
import { adapterFor } from '../games/registry.ts';
import { GameServer } from '../orchestrator/game-server/game-server.ts';
import { unvouchedSeats } from '../orchestrator/game-server/seat-ledger.ts';

const NAMES = ['A', 'B', 'A', 'B'];

function fresh(variant = 'standard', board = 1, seed = 11): BridgeState {
  return bridge.init(variant, createRng(seed), { seats: 4, options: { board } });
}

/** Plays `calls` (P, X, 1H …) by whoever is to move. */
function auction(s: BridgeState, calls: string): BridgeState {
  for (const c of calls.split(' ')) {
    const a: BridgeAction =
      c === 'P'
        ? { type: 'call', call_type: 'pass' }
        : c === 'X'
          ? { type: 'call', call_type: 'double' }
          : { type: 'call', call_type: 'bid', level: Number(c[0]), suit: c.slice(1) as 'H' };
    s = bridge.apply(s, s.toMove!, a);
  }
  return s;
}

/** The first legal action of the seat to move, n times. */
function firstLegal(s: BridgeState, n: number): BridgeState {
  for (let i = 0; i < n; i++) s = bridge.apply(s, s.toMove!, bridge.legalActions(s, s.toMove!)[0]!);
  return s;
}

type P = Record<string, unknown>;
const players = (body: P) => body.players as P[];

describe('state body', () => {
  it("has CATArena's keys and shows only the viewer's hand during the auction", () => {
    const s = auction(fresh(), '1H P');
    const body = stateBody(s, 'bridge_00000000', NAMES, 2);
    expect(body).toMatchObject({
      game_id: 'bridge_00000000',
      phase: 'bidding',
      dealer_id: 0,
      current_player_id: 2,
      board_id: 1,
      vulnerability: [false, false],
      tricks_won: [0, 0],
      score: [0, 0],
      current_trick: [],
    });
    expect(body.bidding).toEqual({
      calls: [
        { call_type: 'bid', player_id: 0, timestamp: 0, level: 1, suit: 'H' },
        { call_type: 'pass', player_id: 1, timestamp: 1 },
      ],
      current_player_id: 2,
      is_bidding_over: false,
      contract: null,
    });
    const ps = players(body);
    expect(ps.map((p) => p.position)).toEqual(['N', 'E', 'S', 'W']);
    expect(ps.map((p) => p.name)).toEqual(NAMES);
    expect(Object.keys(ps[2]!).sort()).toEqual(
      [
        'distribution_points',
        'hand',
        'hand_size',
        'hand_summary',
        'high_card_points',
        'is_dummy',
        'name',
        'player_id',
        'position',
        'total_points',
        'tricks_won',
      ].sort(),
    );
    // The seat's cards, listed as CATArena's servers list a hand: clubs to spades, 2 to A (card_id order).
    const shown = (ps[2]!.hand as P[]).map((c) => `${c.rank}${c.suit}`);
    expect([...shown].sort()).toEqual([...s.hands[2]!].sort());
    const ids = (ps[2]!.hand as Array<P & { card_id: number }>).map((c) => c.card_id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect((ps[2]!.hand as P[])[0]).toEqual({
      suit: expect.any(String),
      rank: expect.any(String),
      card_id: expect.any(Number),
      value: expect.any(Number),
      suit_name: expect.any(String),
    });
    for (const seat of [0, 1, 3])
      expect(Object.keys(ps[seat]!).sort()).toEqual([
        'hand_size',
        'is_dummy',
        'name',
        'player_id',
        'position',
        'tricks_won',
      ]);
    expect('contract' in body).toBe(false); // variant only
  });

  it('exposes dummy after the opening lead, and the declarer to the dummy seat on its turn', () => {
    let s = auction(fresh(), '1H P P P'); // N declares, S is dummy, E leads
    expect(s.contract).toMatchObject({ declarer: 0 });
    let east = stateBody(s, 'g', NAMES, 1);
    expect(players(east)[2]!.hand).toBeUndefined();
    expect(players(east)[2]!.is_dummy).toBe(true);
    expect((east.bidding as P).contract).toEqual({ level: 1, suit: 'H', declarer_id: 0, doubling: 1 });
    expect(east).toMatchObject({ declarer_id: 0, dummy_id: 2, phase: 'playing' });
    s = firstLegal(s, 1); // the lead; dummy (S) is next
    expect(s.toMove).toBe(2);
    east = stateBody(s, 'g', NAMES, 1);
    expect((players(east)[2]!.hand as P[]).length).toBe(13);
    expect(players(east)[0]!.hand).toBeUndefined();
    const south = stateBody(s, 'g', NAMES, 2);
    expect((players(south)[0]!.hand as P[]).length).toBe(13); // declarer's hand for dummy's card
    expect(players(south)[1]!.hand).toBeUndefined();
    s = firstLegal(s, 1); // W plays; N's own turn: the dummy seat no longer sees declarer
    expect(players(stateBody(s, 'g', NAMES, 2))[0]!.hand).toBeUndefined();
    expect((players(stateBody(s, 'g', NAMES, 0))[2]!.hand as P[]).length).toBe(12);
  });

  it('variant: the exchange fields, and only the own side in exchange_history', () => {
    let s = auction(fresh('variant'), '1H P P P');
    expect(s.phase).toBe('exchanging');
    const n0 = stateBody(s, 'g', NAMES, 0);
    expect(n0).toMatchObject({
      contract: { level: 1, suit: 'H' },
      trump_suit: 'H',
      suit_order: { suit_order: ['C', 'D', 'H', 'S'] },
      my_exchange_request: null,
    });
    expect(n0.card_exchange).toEqual({
      exchange_requests: 0,
      partnership_exchanges: { NS: false, EW: false },
      all_completed: false,
      waiting_players: [0, 1, 2, 3],
      ns_ready: false,
      ew_ready: false,
    });
    s = firstLegal(s, 4); // N, S, E, W each give their first card
    expect(s.phase).toBe('playing');
    const w = stateBody(s, 'g', NAMES, 3);
    const hist = w.exchange_history as { exchange_requests: P; exchanged_cards: P; partnership_exchanges: P };
    expect(Object.keys(hist.exchange_requests).sort()).toEqual(['1', '3']);
    expect(Object.keys(hist.exchanged_cards).sort()).toEqual(['1', '3']);
    expect(hist.partnership_exchanges).toEqual({ NS: true, EW: true });
    expect(w.my_exchanged_card).toBe(s.exchange!.received[3]);
    expect(w.card_exchange).toBeUndefined();
  });

  it('score is per side and non-negative', () => {
    let s = auction(fresh(), '7NT X P P P'); // almost surely down a lot
    s = firstLegal(s, 52);
    const ns = s.result!.detail!.ns_score as number;
    const body = stateBody(s, 'g', NAMES, 0);
    expect(body.score).toEqual(ns >= 0 ? [ns, 0] : [0, -ns]);
    expect(body.phase).toBe('finished');
    expect(body.current_player_id).toBeNull();
  });
});

describe('answers', () => {
  const s = fresh();
  it('accepts wrapped and bare actions, normalised by phase', () => {
    expect(parseAnswer({ action: { type: 'call', call_type: 'bid', level: 1, suit: 'C' }, reasoning: 'x' }, s)).toEqual(
      { ok: true, action: { type: 'call', call_type: 'bid', level: 1, suit: 'C' } },
    );
    expect(parseAnswer({ type: 'call', call_type: 'pass', level: 3 }, s)).toEqual({
      ok: true,
      action: { type: 'call', call_type: 'pass' },
    });
    // CATArena ignores `type`: a play answer in the auction is a call without call_type (illegal).
    const odd = parseAnswer({ type: 'play', card: 'AS' }, s);
    expect(odd.ok && bridge.validate(s, 0, odd.action)).toBe('Invalid call type');
    const playing = firstLegal(auction(fresh(), '1H P P P'), 0);
    expect(parseAnswer({ action: { card: 'AS' } }, playing)).toEqual({
      ok: true,
      action: { type: 'play', card: 'AS' },
    });
  });

  it('rejects what is not an action object', () => {
    for (const body of [null, [], 'pass', { action: 'pass' }, { call_type: 'pass' }, { action: [{ type: 'call' }] }]) {
      expect(parseAnswer(body, s)).toMatchObject({ ok: false, kind: 'malformed' });
    }
  });

  it('insists on an exchange in the exchange phase', () => {
    const ex = auction(fresh('variant'), '1H P P P');
    expect(parseAnswer({ type: 'exchange', card: 'AS' }, ex)).toEqual({
      ok: true,
      action: { type: 'exchange', card: 'AS' },
    });
    expect(parseAnswer({ type: 'play', card: 'AS' }, ex)).toMatchObject({ ok: false, kind: 'illegal' });
  });
});

describe('forfeits', () => {
  const s = fresh();
  it('strict: the failing side forfeits the room', () => {
    const { end } = bridgeWire.onFailure(s, 1, 'timeout', 'strict') as {
      end: { scores: number[]; reason: string; detail: P };
    };
    expect(end.scores).toEqual([1, 0, 1, 0]);
    expect(end.reason).toBe('timeout');
    expect(end.detail).toMatchObject({ ns_score: 0, forfeit: 'EW', board: 1 });
    expect((bridgeWire.onFailure(s, 2, 'illegal', 'strict') as { end: { detail: P } }).end.detail.forfeit).toBe('NS');
  });

  it('catarena: illegal is 0–0, anything else 100 to the opponents', () => {
    expect(bridgeWire.onFailure(s, 0, 'illegal', 'catarena')).toMatchObject({
      end: { reason: 'error', scores: [0.5, 0.5, 0.5, 0.5], detail: { ns_score: 0 } },
    });
    expect(bridgeWire.onFailure(s, 0, 'timeout', 'catarena')).toMatchObject({
      end: { reason: 'timeout', scores: [0, 1, 0, 1], detail: { ns_score: -100 } },
    });
    expect(bridgeWire.onFailure(s, 3, 'malformed', 'catarena')).toMatchObject({
      end: { reason: 'timeout', detail: { ns_score: 100 } },
    });
    const ex = auction(fresh('variant'), '1H P P P');
    expect(bridgeWire.onFailure(ex, 1, 'illegal', 'catarena')).toMatchObject({
      end: { reason: 'forfeit_exchange', detail: { ns_score: 100 } },
    });
  });

  it('a failed join plays on', () => {
    expect(bridgeWire.onJoinFailure(s, 0, 'strict')).toBeNull();
    expect(adapterFor('bridge')).toBe(bridgeWire);
  });
});

describe('game server', () => {
  const servers: GameServer[] = [];
  let std: GameServer;
  let magic: GameServer;
  beforeAll(async () => {
    std = await new GameServer({
      adapter: bridgeWire as never,
      variant: 'standard',
      preferCatarenaPort: false,
    }).start();
    magic = await new GameServer({
      adapter: bridgeWire as never,
      variant: 'variant',
      preferCatarenaPort: false,
    }).start();
    servers.push(std, magic);
  });
  afterAll(() => Promise.all(servers.map((x) => x.close())));

  async function call(server: GameServer, method: string, path: string, body?: unknown) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }

  it('answers health', async () => {
    expect((await call(std, 'GET', '/health')).body).toMatchObject({
      status: 'healthy',
      server: 'Bridge Game Server',
      version: '1.0',
    });
    expect((await call(magic, 'GET', '/health')).body.server).toBe('Bridge Magic Game Server');
  });

  it('plays a self-play board: create (seeded), join, start, call, play', async () => {
    const created = await call(std, 'POST', '/games', { seed: 42, board_id: 3 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      game_id: expect.stringMatching(/^bridge_[0-9a-f]{8}$/),
      status: 'created',
      init_params: { seed: 42, board_id: 3 },
    });
    const id = created.body.game_id;
    const again = await call(std, 'POST', '/games', { seed: 42, board_id: 3 });
    const hand = async (gid: string, seat: number) =>
      (await call(std, 'GET', `/games/${gid}/state?player_id=${seat}`)).body.players[seat].hand;
    expect(await hand(again.body.game_id, 1)).toEqual(await hand(id, 1)); // a seed reproduces the deal

    expect((await call(std, 'GET', `/games/${id}/state`)).status).toBe(400);
    const waiting = await call(std, 'GET', `/games/${id}/state?player_id=0`);
    expect(waiting.body).toMatchObject({ phase: 'waiting', board_id: 3, dealer_id: 2, vulnerability: [false, true] });
    expect((await call(std, 'POST', `/games/${id}/start`)).body).toEqual({ error: 'Not all players have joined' });
    expect((await call(std, 'POST', `/games/${id}/call`, { player_id: 2, call_type: 'pass' })).body).toEqual({
      error: 'Not in bidding phase',
    });
    for (const seat of [0, 1, 2, 3]) {
      expect((await call(std, 'POST', `/games/${id}/join`, { player_id: seat, player_name: `p${seat}` })).body).toEqual(
        { game_id: id, player_id: seat, player_name: `p${seat}`, status: 'joined' },
      );
    }
    expect((await call(std, 'POST', `/games/${id}/start`)).body).toEqual({
      game_id: id,
      status: 'started',
      dealer_id: 2,
      current_player_id: 2,
      phase: 'bidding',
    });
    expect((await call(std, 'GET', `/games/${id}/legal_actions?player_id=1`)).body).toEqual({
      game_id: id,
      player_id: 1,
      legal_actions: [],
    });
    const legal = (await call(std, 'GET', `/games/${id}/legal_actions?player_id=2`)).body.legal_actions;
    expect(legal[0]).toEqual({ type: 'call', call_type: 'pass' });
    expect(legal[1]).toEqual({ type: 'call', call_type: 'bid', level: 1, suit: 'C' });
    expect((await call(std, 'POST', `/games/${id}/call`, { player_id: 1, call_type: 'pass' })).body).toEqual({
      error: 'Not your turn',
    });
    expect(
      (await call(std, 'POST', `/games/${id}/call`, { player_id: 2, call_type: 'bid', level: '1', suit: 'C' })).body,
    ).toEqual({ error: 'Invalid level or suit' });
    expect((await call(std, 'POST', `/games/${id}/call`, { player_id: 2, call_type: 'bid', level: 1 })).body).toEqual({
      error: 'Missing level or suit for bid',
    });
    const ok = await call(std, 'POST', `/games/${id}/call`, { player_id: 2, call_type: 'bid', level: 1, suit: 'NT' });
    expect(ok.body).toMatchObject({ game_id: id, player_id: 2, call_type: 'bid', status: 'success' });
    for (const seat of [3, 0, 1]) await call(std, 'POST', `/games/${id}/call`, { player_id: seat, call_type: 'pass' });
    const st = (await call(std, 'GET', `/games/${id}/state?player_id=3`)).body;
    expect(st).toMatchObject({ phase: 'playing', current_player_id: 3, declarer_id: 2, dummy_id: 0 });
    expect((await call(std, 'POST', `/games/${id}/play`, { player_id: 3, card: 'XX' })).body).toEqual({
      error: 'Invalid card format',
    });
    const lead = st.players[3].hand[0];
    const played = await call(std, 'POST', `/games/${id}/play`, { player_id: 3, card: `${lead.rank}${lead.suit}` });
    expect(played.body).toMatchObject({ status: 'success', card: `${lead.rank}${lead.suit}` });
    const history = (await call(std, 'GET', `/games/${id}/history`)).body;
    expect(history).toMatchObject({
      game_id: id,
      phase: 'playing',
      tricks_history: [],
      final_score: [0, 0],
      winner: null,
    });
    expect(history.bidding_history.calls).toHaveLength(4);
    expect((await call(std, 'POST', `/games/${id}/exchange`, { player_id: 0, card: 'AS' })).status).toBe(404);
  });

  it('variant self-play: exchange and execute_exchange', async () => {
    const id = (await call(magic, 'POST', '/games', { seed: 5 })).body.game_id;
    for (const seat of [0, 1, 2, 3])
      await call(magic, 'POST', `/games/${id}/join`, { player_id: seat, player_name: `p${seat}` });
    await call(magic, 'POST', `/games/${id}/start`);
    for (const [seat, c] of [
      [0, { call_type: 'bid', level: 1, suit: 'S' }],
      [1, { call_type: 'pass' }],
      [2, { call_type: 'pass' }],
      [3, { call_type: 'pass' }],
    ] as const) {
      expect((await call(magic, 'POST', `/games/${id}/call`, { player_id: seat, ...c })).status).toBe(200);
    }
    expect((await call(magic, 'GET', `/games/${id}/suit_order`)).body.suit_order).toEqual(['C', 'D', 'H', 'S']);
    expect((await call(magic, 'POST', `/games/${id}/execute_exchange`)).body).toEqual({
      error: 'No partnerships ready for exchange',
    });
    for (const seat of [0, 2, 1, 3]) {
      const legal = (await call(magic, 'GET', `/games/${id}/legal_actions?player_id=${seat}`)).body.legal_actions;
      expect(legal[0].type).toBe('exchange');
      expect(
        (await call(magic, 'POST', `/games/${id}/exchange`, { player_id: seat, card: legal[0].card })).body,
      ).toMatchObject({ status: 'success' });
    }
    expect((await call(magic, 'POST', `/games/${id}/execute_exchange`)).body).toMatchObject({
      status: 'success',
      partnership_exchanges: { NS: true, EW: true },
    });
    expect((await call(magic, 'GET', `/games/${id}/state?player_id=1`)).body).toMatchObject({
      phase: 'playing',
      my_exchanged_card: expect.any(String),
    });
  });

  it('arena games: join succeeds, moves are refused, a hand is shown only to the seat to act', async () => {
    const g: LiveGame = {
      id: 'bridge_arena001',
      variant: 'standard',
      state: fresh(),
      history: [],
      seatIds: NAMES,
      managedByArena: true,
      createdAt: new Date().toISOString(),
    };
    std.register(g, unvouchedSeats(4));
    expect(
      (await call(std, 'POST', '/games/bridge_arena001/join', { player_id: 1, player_name: 'x' })).body,
    ).toMatchObject({ status: 'joined' });
    expect((await call(std, 'POST', '/games/bridge_arena001/start')).status).toBe(403);
    expect((await call(std, 'POST', '/games/bridge_arena001/call', { player_id: 0, call_type: 'pass' })).status).toBe(
      403,
    );
    const toAct = (await call(std, 'GET', '/games/bridge_arena001/state?player_id=0')).body;
    expect(toAct.players[0].hand).toHaveLength(13);
    expect(toAct.players.map((p: P) => p.name)).toEqual(NAMES);
    const other = (await call(std, 'GET', '/games/bridge_arena001/state?player_id=1')).body;
    expect(other.players[1].hand).toBeUndefined();
    expect(other.phase).toBe('bidding');
  });
});
