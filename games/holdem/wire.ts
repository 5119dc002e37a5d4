// CATArena's Hold'em wire protocol (compat Part B §4.1–4.2): one request per decision,
// POST /action with the acting player's view of the table plus `valid_actions`; the answer is
// {"action": "fold|check|call|raise|all_in", "amount": <int>}, where a raise amount is the total
// street bet after the raise. Failures never end a table: timeout, HTTP error, crash and a
// malformed answer fold (as CATArena's arena does); an answer the rules reject checks if that is
// free, else folds. A bot that never started sits in as an always-fold stand-in, flagged in the
// result. Health is a TCP connect: CATArena's strong baseline has no /health.
//
// Additions to CATArena's body: `deck` ("standard" or "short"), so a bot can tell the rule set;
// bots written for CATArena ignore it.
//
// Hidden information (the game server's `viewer`, never the query): GET state?player_id=<id>
// shows that player's hole cards only to the bot holding the seat; anyone else gets the public
// view (and the request is recorded against the caller). full_history shows a finished hand's
// hole cards of the caller's own seat and of the seats that went to showdown, [] for the others.
import type { Seat } from '../../records/match.ts';
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
  defaultAction,
  timeoutAction,
  type Action,
  type ActionType,
  type HandState,
  type Street,
  type ValidAction,
} from './hand.ts';
import { handLogs, holdem, tableValidActions, type HandLog, type TableState } from './table.ts';
import { bestFive } from './evaluator.ts';

const ACTIONS: readonly ActionType[] = ['fold', 'check', 'call', 'raise', 'all_in'];

/** Player ids per seat: the strategy ids the match gave, else player_<seat>. */
export function playerIds(seats: number, ids?: readonly string[]): string[] {
  return Array.from({ length: seats }, (_, i) => ids?.[i] ?? `player_${i}`);
}

function wireValidActions(valid: ValidAction[]): Array<{ action: string; amount: unknown }> {
  return valid.map((v) => {
    if (v.action === 'raise') return { action: 'raise', amount: { min: v.min, max: v.max } };
    if (v.action === 'call' || v.action === 'all_in') return { action: v.action, amount: v.amount };
    return { action: v.action, amount: 0 };
  });
}

/** A hand's action records in CATArena's shape: call/all_in = chips added, raise = raise-to. */
export function actionRecords(
  hand: HandState,
  ids: readonly string[],
): Array<{ player_id: string; action: string; amount: number; phase: Street }> {
  return hand.history
    .filter((h) => h.action !== 'ante')
    .map((h) => ({
      player_id: ids[h.seat]!,
      action: h.action,
      amount: h.action === 'raise' ? h.to : h.amount,
      phase: h.street,
    }));
}

/** The winner records of a finished hand (CATArena's {"event":"win", …}). */
export function winRecords(
  hand: HandState,
  ids: readonly string[],
  variant: TableState['variant'],
): Array<Record<string, unknown>> {
  const r = hand.result;
  if (!r) return [];
  return r.pots.flatMap((pot, potIndex) =>
    pot.shares.map(({ seat, amount }) =>
      r.showdown.length
        ? {
            event: 'win',
            player_id: ids[seat],
            name: ids[seat],
            amount,
            pot_index: potIndex,
            hand: bestFive([...hand.seats[seat]!.hole, ...r.board], variant).cards,
          }
        : { event: 'win', player_id: ids[seat], amount },
    ),
  );
}

/**
 * GET /games/{id}/state as `viewer` sees it (null = nobody's hole cards; everybody's once the
 * hand went to showdown).
 */
export function stateBody(
  s: TableState,
  gameId: string,
  ids: readonly string[],
  viewer: Seat | null,
): Record<string, unknown> {
  const h = s.hand;
  const n = h.seats.length;
  const showdown = h.result !== null && h.result.showdown.length > 0;
  const inHand = h.startStacks.map((c, i) => (c > 0 ? i : -1)).filter((i) => i >= 0);
  const players: Record<string, unknown> = {};
  for (let seat = 0; seat < n; seat++) {
    const p = h.seats[seat]!;
    const shown = seat === viewer || (showdown && h.result!.showdown.includes(seat));
    players[ids[seat]!] = {
      player_id: ids[seat],
      name: ids[seat],
      chips: p.stack,
      hole_cards: shown ? p.hole.slice() : [],
      state: p.status,
      current_bet: p.streetBet,
      hand_bet: p.committed,
      is_dealer: seat === h.button,
      is_small_blind: seat === h.sbSeat,
      is_big_blind: seat === h.bbSeat,
    };
  }
  const phase = s.finished ? 'finished' : h.result ? 'showdown' : (h.street as Street);
  return {
    game_id: gameId,
    phase,
    hand_number: s.handNumber,
    pot: h.result ? 0 : h.seats.reduce((sum, p) => sum + p.committed, 0),
    community_cards: h.board.slice(),
    current_bet: h.currentBet,
    min_raise: h.minRaise,
    current_player: h.toAct === null ? null : ids[h.toAct],
    players,
    action_history: [...actionRecords(h, ids), ...winRecords(h, ids, s.variant)],
    dealer_index: inHand.indexOf(h.button),
    small_blind: h.smallBlind,
    big_blind: h.bigBlind,
    deck: s.variant === 'variant' ? 'short' : 'standard',
  };
}

/**
 * One finished hand as CATArena's full_history writes it: two blind entries, then the hand. With
 * `holds`, a seat's hole cards are shown only when it holds the seat or the seat went to showdown.
 */
export function fullHistoryEntries(
  log: HandLog,
  ids: readonly string[],
  variant: TableState['variant'],
  holds?: (seat: Seat) => boolean,
): unknown[] {
  const h = log.hand;
  const shown = (seat: Seat) => !holds || holds(seat) || (h.result?.showdown.includes(seat) ?? false);
  const records = actionRecords(h, ids);
  const blinds = records.filter((r) => r.action === 'small_blind' || r.action === 'big_blind');
  const board = h.result?.board ?? h.board;
  const players: Record<string, unknown> = {};
  h.seats.forEach((p, seat) => {
    if (h.startStacks[seat]! > 0)
      players[ids[seat]!] = {
        name: ids[seat],
        initial_chips: h.startStacks[seat],
        hole_cards: shown(seat) ? p.hole.slice() : [],
      };
  });
  const community: Record<string, unknown> = {};
  if (board.length >= 3) community.flop = board.slice(0, 3);
  if (board.length >= 4) community.turn = board[3];
  if (board.length >= 5) community.river = board[4];
  return [
    ...blinds.map((b) => ({ actions: [b] })),
    {
      hand_number: log.number,
      players,
      actions: records.filter((r) => r.action !== 'small_blind' && r.action !== 'big_blind'),
      community_cards: community,
      result: { winners: winRecords(h, ids, variant) },
    },
  ];
}

function parseAction(body: unknown): ParseResult<Action> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return { ok: false, kind: 'malformed', message: 'answer is not a JSON object {"action", "amount"}' };
  const { action, amount } = body as { action?: unknown; amount?: unknown };
  // CATArena's arena reads reply.get('action', 'fold'): an answer without one folds.
  if (action === undefined) return { ok: false, kind: 'malformed', message: 'answer has no "action" (CATArena folds)' };
  if (typeof action !== 'string' || !ACTIONS.includes(action as ActionType)) {
    return { ok: false, kind: 'illegal', message: `Invalid action: ${JSON.stringify(action ?? null)}` };
  }
  // CATArena's server reads amount with a default of 0 and insists on an int for every action.
  const value = amount === undefined ? 0 : amount;
  if (typeof value !== 'number' || !Number.isInteger(value))
    return { ok: false, kind: 'illegal', message: `Bet amount must be an integer, got ${JSON.stringify(value)}` };
  return {
    ok: true,
    action: action === 'raise' ? { action: 'raise', amount: value } : { action: action as ActionType },
  };
}

const liveIds = (g: LiveGame<TableState>) => playerIds(g.state.hand.seats.length, g.seatIds);

/** A player's hole cards go only to the bot holding its seat; anyone else asking gets the public view. */
function stateRoute(g: LiveGame<TableState>, query: URLSearchParams, viewer: Viewer): RouteReply {
  const ids = liveIds(g);
  const asked = query.get('player_id');
  const seat = asked === null ? -1 : ids.indexOf(asked);
  if (asked !== null && seat < 0) return { status: 404, body: { error: 'Player not found' } };
  const shown = seat >= 0 && viewer.asksFor(seat) ? seat : null;
  return { status: 200, body: stateBody(g.state, g.id, ids, shown) };
}

/** An action as the protocol writes it: the amount only on a raise. */
const encodeAction = (a: Action) =>
  a.action === 'raise' ? { action: 'raise', amount: a.amount } : { action: a.action };

export const holdemWire: WireAdapter<TableState, Action> = {
  game: holdem,
  idPrefix: 'holdem_',
  catarenaServerPort: { standard: 9010, variant: 9011 },
  health: { kind: 'tcp' },

  turn(s, seat, ctx: TurnContext) {
    const ids = playerIds(s.hand.seats.length, ctx.seatIds);
    return {
      path: '/action',
      body: { ...stateBody(s, ctx.gameId, ids, seat), valid_actions: wireValidActions(tableValidActions(s)) },
    };
  },

  parse: (body) => parseAction(body),
  answer: encodeAction,

  // Tables never end on one player's failure: the failing seat folds (or checks, when the
  // answer was merely rejected and a check is free). The same under both policies.
  onJoinFailure: () => {
    throw new Error("hold'em has no join step");
  },
  onFailure(s, _seat, failure) {
    return { action: failure === 'illegal' ? defaultAction(s.hand) : timeoutAction(s.hand) };
  },
  standIn: () => ({ action: 'fold' }),

  encode: encodeAction,
  decode: (encoded) => {
    const a = isRecord(encoded) ? encoded : {};
    if (a.action === 'raise' && typeof a.amount === 'number') return { action: 'raise', amount: a.amount };
    if (a.action === 'fold' || a.action === 'check' || a.action === 'call' || a.action === 'all_in')
      return { action: a.action };
    throw undecodable('holdem', encoded);
  },
  setup: (s) => ({
    deal_seed: s.dealSeed,
    first_button: s.hand.button,
    deck: s.variant === 'variant' ? 'short' : 'standard',
    ...s.config,
    blinds: undefined,
    hands_per_level: s.config.blinds[0]?.hands,
  }),

  server: {
    hidesInformation: true,
    // CATArena's self-play flow (create, add players, start, next_hand) is not served: no Hold'em
    // bot calls the game server; agents test against the sample bot instead.
    created: () => ({
      status: 501,
      body: { error: "hold'em self-play tables are not served here; test your bot with `catarena play holdem …`" },
    }),
    route(game, method, sub, _body, query, viewer = SPECTATOR) {
      const g = game as LiveGame<TableState>;
      if (method !== 'GET') return null;
      const ids = liveIds(g);
      if (sub === 'state') return stateRoute(g, query, viewer);
      // valid_actions follow from stacks and bets, which every player sees: served to anyone.
      if (sub === 'actions') {
        const who = ids.indexOf(query.get('player_id') ?? '');
        const mine = who >= 0 && g.state.hand.toAct === who;
        return { status: 200, body: { valid_actions: mine ? wireValidActions(tableValidActions(g.state)) : [] } };
      }
      if (sub === 'history')
        return {
          status: 200,
          body: { action_history: actionRecords(g.state.hand, ids), hand_number: g.state.handNumber },
        };
      if (sub === 'full_history')
        return {
          status: 200,
          body: handLogs(g.state).flatMap((log) =>
            fullHistoryEntries(log, ids, g.state.variant, (seat) => viewer.holds(seat)),
          ),
        };
      return null;
    },
    healthExtras: () => ({ timestamp: new Date().toISOString() }),
  },
};
