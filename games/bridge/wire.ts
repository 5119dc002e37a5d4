// CATArena's bridge wire protocol (docs/catarena-compat.md §5.1–5.5, §5.10): one board in one
// room per game. The arena POSTs /join_game to each seat's bot (N, S, E, W), then one
// POST /get_action per decision with the seat's CATArena state body and its legal actions; the
// answer is `{"action": {...}}` or a bare action with a "type". Bots may call back into the game
// server: CATArena's demo bots POST /games/{id}/join inside their /join_game and GET
// /games/{id}/legal_actions on every turn, at a hard-coded http://localhost:9030 (9031 magic).
//
// Who is asked: the rules' toMove, which is the DUMMY seat when dummy's card is due. Both
// partners run the same strategy (a second bot process for the second seat), so the dummy seat's
// bot answers for the declaring side; its state body then shows the declarer's hand as well
// (CATArena: dummy's own AI plays dummy's cards and nobody ever sees dummy).
//
// Failures, by policy:
// * `strict` (default): a timeout, HTTP error, malformed answer, illegal action or crash forfeits
//   the board in this room for the failing seat's side: scores 0 for that side and 1 for the
//   other, reason = the failure kind, detail {ns_score: 0, forfeit: 'NS'|'EW', board, …};
//   reports/metrics/duplicate.ts credits the other team +3 IMPs for it (result.offender).
// * `catarena`: CATArena's outcomes. An illegal action (a server 400 there) ends the board 0–0
//   (reason 'error'); a timeout, HTTP error, malformed answer or crash gives the opponents 100
//   (ns_score +100 when EW failed, −100 when NS failed, reason 'timeout'; CATArena records the
//   NS case as 0 because it only reads NS's column). In the exchange phase of the variant every
//   failure, a rejected card included, is CATArena's 'forfeit_exchange': the opponents get 100.
// A failed join never forfeits (CATArena only logs it): the board is played.
//
// Differences from CATArena's state body (§5.3, §5.5 item 4), all about hidden information:
// * hidden players carry no `hand_summary` (CATArena's leaks every player's suit lengths);
// * dummy's player object is full for everyone once the opening lead is made, and in the dummy
//   seat's own turn the declarer's is full too (the declaring side decides dummy's cards);
// * `exchange_history` lists only the asking seat's own side's exchange (CATArena's shows the
//   cards the opponents gave away); the whole exchange is in GET history once the board is over;
// * a player object's `tricks_won` counts the tricks that seat won (CATArena's is always 0);
// * extra top-level fields: `declarer_id`, `dummy_id`, and `tricks_history` (the finished tricks,
//   which every player saw played; CATArena bots ignore it).
// The game server serves GET state?player_id= for arena games with that seat's hand only to the
// bot holding the seat (the game server's `viewer`, never the query) and only while the seat is to
// act (when the arena is asking its bot); anyone else naming the seat gets its public view. GET
// legal_actions?player_id= (the legal cards are part of the hand) answers 403 to a caller not
// holding the seat. Either request is recorded against the caller. Self-play games show their
// creator any seat's view.
//
// Self-play games (POST /games, for bots and agents in development) follow CATArena's flow:
// create (optional body {seed, board_id, predeal}; a seed reproduces the deal HERE, not
// CATArena's Python deal; dealer and vulnerability come from board_id, also in the variant,
// whose CATArena server ignores the body), join ×4, start, then call / play / exchange with
// CATArena's success and error shapes. Our rules ask the variant's exchange in the fixed order
// N, S, E, W and swap a side's cards as soon as both partners chose, so execute_exchange only
// reports what already happened. Arena games refuse these moves (403): the arena makes them.
import type { Outcome } from '../core/game.ts';
import type { FailureKind, ForfeitPolicy, Seat } from '../../records/match.ts';
import { createRng, type Rng } from '../../util/rng.ts';
import {
  isRecord,
  undecodable,
  type LiveGame,
  type ParseResult,
  type RouteReply,
  SPECTATOR,
  type TurnContext,
  type Viewer,
  type WireAdapter,
} from '../core/wire.ts';
import {
  cardId,
  cardObject,
  highCardPoints,
  inCardIdOrder,
  SEAT_LETTERS,
  SEAT_NAMES,
  SUIT_NAMES,
  SUITS,
  suitOf,
  type Card,
} from './cards.ts';
import {
  boardFromDeal,
  bridge,
  initBridge,
  trickHistory,
  viewFor,
  type BridgeAction,
  type BridgeState,
  type CallAction,
  type Contract,
} from './rules.ts';

// ---------------------------------------------------------------------------------------------
// State body

const sideOf = (seat: Seat): 0 | 1 => (seat % 2) as 0 | 1;
const SIDE_NAMES = ['NS', 'EW'] as const;

/** Player names per seat: the strategy ids the match gave, else player_<seat>. */
export function playerNames(ids?: readonly string[]): string[] {
  return [0, 1, 2, 3].map((seat) => ids?.[seat] ?? `player_${seat}`);
}

function contractBody(c: Contract | null): Record<string, unknown> | null {
  return c ? { level: c.level, suit: c.strain, declarer_id: c.declarer, doubling: 2 ** c.doubled } : null;
}

/** CATArena's `bidding` object. */
function biddingBody(s: BridgeState): Record<string, unknown> {
  return {
    calls: s.calls.map((c, i) => ({
      call_type: c.call_type,
      player_id: c.seat,
      timestamp: i,
      ...(c.call_type === 'bid' ? { level: c.level, suit: c.suit } : {}),
    })),
    current_player_id: s.phase === 'bidding' ? s.toMove : null,
    is_bidding_over: s.phase !== 'bidding',
    contract: contractBody(s.contract),
  };
}

/** [NS, EW], each side's points non-negative (the side that scored gets them). */
export function scorePair(s: BridgeState): [number, number] {
  const ns = s.result ? Number(s.result.detail?.ns_score ?? 0) : 0;
  return ns >= 0 ? [ns, 0] : [0, -ns];
}

/**
 * A seat's player object. Built as one literal per shape (no spreads of differently shaped
 * records, which V8 copies key by key on every turn); the keys keep their order.
 */
function playerObject(
  s: BridgeState,
  seat: Seat,
  names: readonly string[],
  hand: Card[] | null,
  dummy: Seat | null,
): Record<string, unknown> {
  let tricksWon = 0;
  for (const t of s.tricks) if (t.winner === seat) tricksWon++;
  if (!hand)
    return {
      player_id: seat,
      name: names[seat],
      position: SEAT_LETTERS[seat],
      hand_size: s.hands[seat]!.length,
      tricks_won: tricksWon,
      is_dummy: dummy === seat,
    };
  const summary: Record<string, number> = {};
  for (const suit of SUITS) summary[suit] = 0;
  for (const card of hand) summary[suitOf(card)]!++;
  const hcp = highCardPoints(hand);
  let dp = 0; // void 3, singleton 2, doubleton 1
  for (const suit of SUITS) if (summary[suit]! <= 2) dp += 3 - summary[suit]!;
  return {
    player_id: seat,
    name: names[seat],
    position: SEAT_LETTERS[seat],
    hand_size: s.hands[seat]!.length,
    hand: inCardIdOrder(hand).map(cardObject),
    hand_summary: summary,
    high_card_points: hcp,
    distribution_points: dp,
    total_points: hcp + dp,
    tricks_won: tricksWon,
    is_dummy: dummy === seat,
  };
}

export const SUIT_ORDER = {
  suit_order: ['C', 'D', 'H', 'S'],
  suit_names: { ...SUIT_NAMES },
  description: 'Standard suit order: clubs < diamonds < hearts < spades (< no trump in bidding)',
};

export interface StateBodyOptions {
  /** Show the viewer's own hand (false: the seat's public view only). Default true. */
  ownHand?: boolean;
  /** Phase shown instead of the rules' (a self-play game not yet started: 'waiting'). */
  phase?: string;
}

/** GET /games/{id}/state?player_id=<viewer> and /get_action's `game_state`, CATArena's shape. */
export function stateBody(
  s: BridgeState,
  gameId: string,
  names: readonly string[],
  viewer: Seat,
  options: StateBodyOptions = {},
): Record<string, unknown> {
  const view = viewFor(s, viewer);
  const { dummy, declarer } = view;
  const shown: (Card[] | null)[] = [null, null, null, null];
  if (options.ownHand !== false) {
    shown[viewer] = view.hand;
    if (view.declarerHand && declarer !== null) shown[declarer] = view.declarerHand;
  }
  if (view.dummyHand && dummy !== null) shown[dummy] = view.dummyHand;
  const body: Record<string, unknown> = {
    game_id: gameId,
    phase: options.phase ?? s.phase,
    dealer_id: s.dealer,
    current_player_id: s.toMove,
    board_id: s.board,
    vulnerability: [s.vulnerability.ns, s.vulnerability.ew],
    players: [0, 1, 2, 3].map((seat) => playerObject(s, seat, names, shown[seat] ?? null, dummy)),
    bidding: biddingBody(s),
    current_trick: s.trick.map(([seat, card]) => [seat, card]),
    // Ours: the finished tricks (every player saw them played; CATArena's state has none).
    tricks_history: view.tricks.map((t) => ({
      trick_number: t.trick_number,
      cards: t.cards.map(([seat, card]) => [seat, card]),
      winner: t.winner,
    })),
    tricks_won: [...s.tricksWon],
    score: scorePair(s),
    declarer_id: declarer,
    dummy_id: dummy,
  };
  if (s.variant === 'variant') {
    body.contract = contractBody(s.contract);
    body.trump_suit = s.contract && s.contract.strain !== 'NT' ? s.contract.strain : null;
    body.suit_order = SUIT_ORDER;
    const ex = s.exchange;
    if (s.phase === 'exchanging' && ex) {
      const ready = (side: 0 | 1) => ex.given[side] !== null && ex.given[side + 2] !== null;
      body.card_exchange = {
        exchange_requests: ex.given.filter((c) => c !== null).length,
        partnership_exchanges: { NS: ex.swapped[0], EW: ex.swapped[1] },
        all_completed: ex.swapped[0] && ex.swapped[1],
        waiting_players: [0, 1, 2, 3].filter((seat) => ex.given[seat] === null),
        ns_ready: ready(0),
        ew_ready: ready(1),
      };
      body.my_exchange_request = options.ownHand === false ? null : (view.exchange?.given ?? null);
    } else if (s.phase === 'playing' || s.phase === 'finished') {
      const mine = options.ownHand === false ? [] : [viewer, (viewer + 2) % 4].sort();
      body.my_exchanged_card = options.ownHand === false ? null : (view.exchange?.received ?? null);
      body.exchange_history = exchangeHistory(s, mine);
    }
  }
  return body;
}

/** CATArena's exchange_history, restricted to `seats`. */
function exchangeHistory(s: BridgeState, seats: readonly Seat[]): Record<string, unknown> {
  const ex = s.exchange;
  const pick = (cards: readonly (Card | null)[] | undefined) =>
    Object.fromEntries(seats.flatMap((seat) => (cards?.[seat] ? [[String(seat), cards[seat]]] : [])));
  return {
    exchange_requests: pick(ex?.given),
    exchanged_cards: pick(ex?.received),
    partnership_exchanges: { NS: ex?.swapped[0] ?? false, EW: ex?.swapped[1] ?? false },
  };
}

/** GET /games/{id}/history: the auction and the tricks (public), CATArena's shape. */
export function historyBody(g: LiveGame<BridgeState>, phase?: string): Record<string, unknown> {
  const s = g.state;
  const [ns, ew] = scorePair(s);
  const body: Record<string, unknown> = {
    game_id: g.id,
    created_at: g.createdAt,
    phase: phase ?? s.phase,
    bidding_history: biddingBody(s),
    tricks_history: trickHistory(s).map((t) => ({
      trick_number: t.trick_number,
      cards: t.cards.map(([seat, card]) => [seat, card]),
      winner: t.winner,
    })),
    final_score: [ns, ew],
    winner: s.phase !== 'finished' || ns === ew ? null : ns > ew ? 0 : 1,
    board_id: s.board,
    dealer_id: s.dealer,
    vulnerability: [s.vulnerability.ns, s.vulnerability.ew],
    contract: contractBody(s.contract),
  };
  if (s.variant === 'variant') {
    body.trump_suit = s.contract && s.contract.strain !== 'NT' ? s.contract.strain : null;
    body.suit_order = SUIT_ORDER;
    // Who gave which card stays hidden until the board is over.
    if (s.phase === 'finished')
      body.exchange_history = { ...exchangeHistory(s, [0, 1, 2, 3]), status: s.exchange ? 'completed' : 'none' };
  }
  return body;
}

// ---------------------------------------------------------------------------------------------
// Actions

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * legal_actions as CATArena's servers list them: calls as the rules give them (pass, bids up,
 * double, redouble), cards in the hand's card_id order (clubs to spades, 2 to A); bots that
 * fall back to the first legal action or break ties by list order play as they do there.
 */
export function legalActionsBody(s: BridgeState, seat: Seat): Record<string, unknown>[] {
  const actions = bridge.legalActions(s, seat);
  const order = (a: BridgeAction) => (a.type === 'call' ? -1 : cardId(a.card as Card));
  return actions
    .map((a, i) => ({ a, i }))
    .sort((x, y) => order(x.a) - order(y.a) || x.i - y.i)
    .map(({ a }) => encodeAction(a));
}

/** An action in CATArena's shape (replays, legal_actions, history). */
export function encodeAction(a: BridgeAction): Record<string, unknown> {
  if (a.type === 'call') {
    return {
      type: 'call',
      call_type: a.call_type,
      ...(a.level !== undefined ? { level: a.level } : {}),
      ...(a.suit !== undefined ? { suit: a.suit } : {}),
    };
  }
  return { type: a.type, card: a.card };
}

/** An action from its CATArena shape (encodeAction's inverse). */
export function decodeAction(encoded: unknown): BridgeAction {
  const a = isRecord(encoded) ? encoded : {};
  if (a.type === 'call' && typeof a.call_type === 'string') return encoded as unknown as CallAction;
  if ((a.type === 'play' || a.type === 'exchange') && typeof a.card === 'string') return { type: a.type, card: a.card };
  throw undecodable('bridge', encoded);
}

/**
 * The rules' action from an action object, by phase: CATArena reads only call_type/level/suit
 * (bidding) or card (play) and ignores `type`; in the exchange it insists on type "exchange".
 */
function actionFor(s: BridgeState, act: Record<string, unknown>): ParseResult<BridgeAction> {
  switch (s.phase) {
    case 'bidding': {
      const call: Record<string, unknown> = { type: 'call', call_type: act.call_type };
      if (act.call_type === 'bid') {
        if (act.level !== undefined) call.level = act.level;
        if (act.suit !== undefined) call.suit = act.suit;
      }
      return { ok: true, action: call as unknown as CallAction };
    }
    case 'playing':
      return { ok: true, action: { type: 'play', card: act.card as string } };
    case 'exchanging':
      if (act.type !== undefined && act.type !== 'exchange') {
        return {
          ok: false,
          kind: 'illegal',
          message: `expected {"type":"exchange","card":…} in the exchange phase, got type ${JSON.stringify(act.type)}`,
        };
      }
      return { ok: true, action: { type: 'exchange', card: act.card as string } };
    default:
      return { ok: false, kind: 'illegal', message: 'the board is over' };
  }
}

export function parseAnswer(body: unknown, s: BridgeState): ParseResult<BridgeAction> {
  if (!isObject(body)) return { ok: false, kind: 'malformed', message: 'answer is not a JSON object' };
  if (isObject(body.action)) return actionFor(s, body.action);
  if ('type' in body) return actionFor(s, body);
  return { ok: false, kind: 'malformed', message: 'answer has neither an "action" object nor a "type"' };
}

/** The answer to CATArena's minimal retry: any object, its "action" object if it has one. */
export function parseRetryAnswer(body: unknown, s: BridgeState): ParseResult<BridgeAction> {
  if (!isObject(body)) return { ok: false, kind: 'malformed', message: 'answer to the retry is not a JSON object' };
  return actionFor(s, 'action' in body && isObject(body.action) ? body.action : body);
}

// ---------------------------------------------------------------------------------------------
// Failures

function forfeitOutcome(s: BridgeState, seat: Seat, failure: FailureKind, policy: ForfeitPolicy): Outcome {
  const failing = sideOf(seat);
  const common = {
    board: s.board,
    dealer: s.dealer,
    vulnerability: { ...s.vulnerability },
    contract: s.contract ? { ...s.contract } : null,
    tricks: null,
    tricks_won: [...s.tricksWon],
    phase: s.phase,
  };
  if (policy === 'catarena' && failure === 'illegal' && s.phase !== 'exchanging') {
    return {
      scores: [0.5, 0.5, 0.5, 0.5],
      reason: 'error',
      winner: null,
      places: [1, 1, 1, 1],
      detail: { ns_score: 0, ...common },
    };
  }
  const scores = [0, 1, 2, 3].map((x) => (sideOf(x) === failing ? 0 : 1));
  const places = scores.map((x) => (x === 0 ? 2 : 1));
  const forfeit = SIDE_NAMES[failing];
  if (policy === 'catarena') {
    const reason = s.phase === 'exchanging' ? 'forfeit_exchange' : 'timeout';
    return {
      scores,
      reason,
      winner: null,
      places,
      detail: { ns_score: failing === 0 ? -100 : 100, forfeit, ...common },
    };
  }
  return { scores, reason: failure, winner: null, places, detail: { ns_score: 0, forfeit, ...common } };
}

// ---------------------------------------------------------------------------------------------
// Game-server routes

/** Self-play games (created by POST /games): the names joined and whether /start was called. */
interface SelfPlay {
  names: (string | null)[];
  started: boolean;
}
const selfPlays = new WeakMap<LiveGame, SelfPlay>();

function selfPlayOf(g: LiveGame): SelfPlay {
  let sp = selfPlays.get(g);
  if (!sp) {
    sp = { names: [null, null, null, null], started: false };
    selfPlays.set(g, sp);
  }
  return sp;
}

function namesOf(g: LiveGame<BridgeState>): string[] {
  if (g.managedByArena) return playerNames(g.seatIds);
  const sp = selfPlayOf(g);
  return [0, 1, 2, 3].map((seat) => sp.names[seat] ?? `Player_${seat}`);
}

/** A self-play game before POST /start shows phase 'waiting' and accepts no moves. */
const waiting = (g: LiveGame<BridgeState>): boolean => !g.managedByArena && !selfPlayOf(g).started;

/** player_id from a query or body: an int 0..3 (a numeric string is accepted). */
function seatFrom(raw: unknown): Seat | null {
  const n = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
  return n === 0 || n === 1 || n === 2 || n === 3 ? n : null;
}

const bad = (error: string, status = 400): RouteReply => ({ status, body: { error } });

function stateRoute(g: LiveGame<BridgeState>, query: URLSearchParams, viewer: Viewer): RouteReply {
  const raw = query.get('player_id');
  if (raw === null) return bad('player_id is required');
  const seat = seatFrom(raw);
  if (seat === null) return bad('Invalid player_id');
  const ownHand = viewer.asksFor(seat) && (!g.managedByArena || g.state.toMove === seat);
  return {
    status: 200,
    body: stateBody(g.state, g.id, namesOf(g), seat, { ownHand, ...(waiting(g) ? { phase: 'waiting' } : {}) }),
  };
}

/** A seat's legal actions list its playable cards: only the bot holding the seat is answered. */
function legalRoute(g: LiveGame<BridgeState>, query: URLSearchParams, viewer: Viewer): RouteReply {
  const raw = query.get('player_id');
  if (raw === null) return bad('player_id is required');
  const seat = seatFrom(raw);
  if (seat === null) return bad('Invalid player_id');
  if (!viewer.asksFor(seat))
    return bad(`legal_actions?player_id=${seat} is served only to the bot playing seat ${seat}`, 403);
  const legal = waiting(g) ? [] : legalActionsBody(g.state, seat);
  return { status: 200, body: { game_id: g.id, player_id: seat, legal_actions: legal } };
}

function joinRoute(g: LiveGame<BridgeState>, body: unknown): RouteReply {
  const req = isObject(body) ? body : {};
  const seat = seatFrom(req.player_id);
  if (seat === null) return bad(req.player_id === undefined ? 'Missing player_id' : 'Invalid player_id');
  const name = typeof req.player_name === 'string' && req.player_name ? req.player_name : `Player_${seat}`;
  // Arena games keep the strategy ids as names; the join only has to succeed (CATArena's demo
  // bots call it inside their /join_game and break if it fails).
  if (!g.managedByArena) selfPlayOf(g).names[seat] = name;
  return { status: 200, body: { game_id: g.id, player_id: seat, player_name: name, status: 'joined' } };
}

function startRoute(g: LiveGame<BridgeState>): RouteReply {
  const sp = selfPlayOf(g);
  if (sp.started) return bad('Game already started');
  if (sp.names.some((n) => n === null || n.startsWith('Player_'))) return bad('Not all players have joined');
  sp.started = true;
  return {
    status: 200,
    body: {
      game_id: g.id,
      status: 'started',
      dealer_id: g.state.dealer,
      current_player_id: g.state.toMove,
      phase: g.state.phase,
    },
  };
}

/** POST call / play / exchange of a self-play game: the rules' verdict in CATArena's wording. */
function moveRoute(g: LiveGame<BridgeState>, sub: 'call' | 'play' | 'exchange', body: unknown): RouteReply {
  const req = isObject(body) ? body : {};
  const seat = seatFrom(req.player_id);
  if (seat === null) return bad(req.player_id === undefined ? 'Missing player_id' : 'Invalid player_id');
  const phaseError = {
    call: 'Not in bidding phase',
    play: 'Not in playing phase',
    exchange: 'Not in exchanging phase',
  }[sub];
  if (waiting(g)) return bad(phaseError);
  let action: BridgeAction;
  if (sub === 'call') {
    const call: Record<string, unknown> = { type: 'call', call_type: req.call_type };
    if (req.call_type === 'bid') Object.assign(call, { level: req.level, suit: req.suit });
    action = call as unknown as CallAction;
  } else {
    action = { type: sub, card: req.card as string };
  }
  const why = bridge.validate(g.state, seat, action);
  if (why) return bad(why);
  g.state = bridge.apply(g.state, seat, action);
  g.history.push({ seat, action: encodeAction(action), timestamp: new Date().toISOString() });
  const echo = sub === 'call' ? { call_type: req.call_type } : { card: req.card };
  const message = { call: 'Call made', play: 'Card played', exchange: 'Exchange request submitted' }[sub];
  return {
    status: 200,
    body: { game_id: g.id, player_id: seat, ...echo, status: 'success', message, phase: g.state.phase },
  };
}

/** Our rules swap a side's cards as soon as both partners chose: this only reports it. */
function executeExchangeRoute(g: LiveGame<BridgeState>): RouteReply {
  const ex = g.state.exchange;
  if (!ex || waiting(g) || !(ex.swapped[0] || ex.swapped[1])) return bad('No partnerships ready for exchange');
  return {
    status: 200,
    body: {
      game_id: g.id,
      status: 'success',
      message: 'Exchange executed',
      partnership_exchanges: { NS: ex.swapped[0], EW: ex.swapped[1] },
      phase: g.state.phase,
    },
  };
}

/** POST /games's optional body: {seed, board_id, predeal: {N: [13 cards], E, S, W}}. */
function createSelfPlay(body: unknown, variant: string, rng: Rng): BridgeState {
  const req = isObject(body) ? body : {};
  const board = req.board_id ?? 1;
  if (req.seed !== undefined && req.seed !== null && !Number.isFinite(Number(req.seed)))
    throw new Error('seed must be an integer');
  if (isObject(req.predeal)) {
    const deal = SEAT_LETTERS.map((letter) => req.predeal && (req.predeal as Record<string, unknown>)[letter]);
    if (!deal.every((h) => Array.isArray(h))) throw new Error('predeal needs 13 cards for each of N, E, S, W');
    return boardFromDeal(variant, deal as string[][], { board: board as number });
  }
  const r = req.seed !== undefined && req.seed !== null ? createRng(Number(req.seed)) : rng;
  return initBridge(variant, r, { seats: 4, options: { board: board as number } });
}

// ---------------------------------------------------------------------------------------------
// The adapter

export const bridgeWire: WireAdapter<BridgeState, BridgeAction> = {
  game: bridge,
  idPrefix: 'bridge_',
  catarenaServerPort: { standard: 9030, variant: 9031 },
  health: { kind: 'http', path: '/health', statuses: ['healthy', 'ok'] },

  // N, S, E, W, as CATArena's arena, with exactly its body: no player_name (the magic AI example
  // requires one, so its join fails there, harmlessly, and its turns then work; a join that
  // succeeded would make it look up "north" among N/E/S/W and crash on every turn).
  joinOrder: [0, 2, 1, 3],
  join: (_s, seat, ctx: TurnContext) => ({ path: '/join_game', body: { game_id: ctx.gameId, player_id: seat } }),
  // CATArena's compatibility retry for bots that read form or query fields: a 400 that says
  // "Missing" is asked once more with the fields in the query and a form body.
  retryJoin: (failure, _s, seat, ctx: TurnContext) => {
    if (failure.status !== 400 || !failure.text?.includes('Missing')) return null;
    const query = new URLSearchParams({
      game_id: ctx.gameId,
      player_id: String(seat),
      player_name: playerNames(ctx.seatIds)[seat]!,
    });
    return { path: `/join_game?${query}`, body: { game_id: ctx.gameId, player_id: String(seat) }, form: true };
  },
  turn: (s, seat, ctx: TurnContext) => ({
    path: '/get_action',
    body: {
      game_id: ctx.gameId,
      player_id: seat,
      position: SEAT_NAMES[seat],
      game_state: stateBody(s, ctx.gameId, playerNames(ctx.seatIds), seat),
      legal_actions: legalActionsBody(s, seat),
    },
  }),
  leave: (_s, seat, ctx: TurnContext) => ({ path: '/leave_game', body: { game_id: ctx.gameId, player_id: seat } }),

  parse: (body, s) => parseAnswer(body, s),
  answer: (a) => ({ action: encodeAction(a) }),
  // CATArena asks a bot that answered an HTTP error once more with the minimal body older bots
  // expect, and takes any object from it: its "action" if present, else the whole object.
  retryTurn: (s, seat, ctx: TurnContext) => ({
    path: '/get_action',
    body: { game_id: ctx.gameId, game_state: stateBody(s, ctx.gameId, playerNames(ctx.seatIds), seat) },
  }),
  parseRetry: (body, s) => parseRetryAnswer(body, s),

  onJoinFailure: () => null,
  onFailure: (s, seat, failure, policy) => ({ end: forfeitOutcome(s, seat, failure, policy) }),

  encode: encodeAction,
  decode: decodeAction,
  setup: (s) => ({
    board: s.board,
    dealer: s.dealer,
    vulnerability: [s.vulnerability.ns, s.vulnerability.ew],
    deal: Object.fromEntries(SEAT_LETTERS.map((letter, seat) => [letter, s.deal[seat]!.slice()])),
  }),

  server: {
    hidesInformation: true,
    create: createSelfPlay,
    created(game, body) {
      const g = game as LiveGame<BridgeState>;
      selfPlayOf(g);
      const req = isObject(body) ? body : {};
      const initParams = {
        ...(req.seed !== undefined ? { seed: req.seed } : {}),
        board_id: g.state.board,
        ...(isObject(req.predeal) ? { predeal: req.predeal } : {}),
      };
      return {
        status: 201,
        body: {
          game_id: g.id,
          status: 'created',
          message: 'Game created; join four players, then POST /start',
          init_params: initParams,
        },
      };
    },
    route(game, method, sub, body, query, viewer = SPECTATOR) {
      const g = game as LiveGame<BridgeState>;
      const magic = g.state.variant === 'variant';
      if (method === 'GET') {
        if (sub === 'state') return stateRoute(g, query, viewer);
        if (sub === 'legal_actions') return legalRoute(g, query, viewer);
        if (sub === 'history') return { status: 200, body: historyBody(g, waiting(g) ? 'waiting' : undefined) };
        if (sub === 'suit_order' && magic) return { status: 200, body: SUIT_ORDER };
        return null;
      }
      if (method !== 'POST') return null;
      if (sub === 'join') return joinRoute(g, body);
      const moves = ['start', 'call', 'play', ...(magic ? ['exchange', 'execute_exchange'] : [])];
      if (!moves.includes(sub)) return null;
      if (g.managedByArena) return bad('Moves in arena games are made by the arena; answer /get_action instead', 403);
      if (sub === 'start') return startRoute(g);
      if (sub === 'execute_exchange') return executeExchangeRoute(g);
      return moveRoute(g, sub as 'call' | 'play' | 'exchange', body);
    },
    healthExtras: (variant) => ({
      server: variant === 'variant' ? 'Bridge Magic Game Server' : 'Bridge Game Server',
      version: '1.0',
      timestamp: new Date().toISOString(),
    }),
  },
};
