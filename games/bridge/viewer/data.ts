// The replay viewer's data for one Bridge board in one room (games/core/viewer.ts). A board is
// at most ~100 moves (auction, the variant's four exchange cards, 52 cards), so every step keeps
// a small snapshot rebuilt with the rules: the four hands as they are then, the trick on the
// table (the finished one, with its winner, on the step that completes it), tricks won and whose
// turn it is. The rest is in `extra`: the deal (and the hands after the variant's exchange), the
// auction, the 13 tricks, contract, declarer, dummy, score, and the duplicate facts.
//
// Recorded actions are the wire adapter's encoding (wire.ts encodeAction): {type: 'call',
// call_type, level?, suit?} or {type: 'play' | 'exchange', card}, which is the rules' action
// shape, so they are applied as they are. A null action is the failure that ended the board.
//
// The duplicate comparison needs the other room's replay, which viewerData never sees. `extra.
// duplicate` names the other room's match id (its spec is this one's with the teams' seats and
// the room swapped, as orchestrator/formats/duplicate.ts builds it), so the page links to
// `replay.html?id=<otherId>`. A report that has both rooms (reports/metrics/duplicate.ts duplicateMatchesOf)
// can add `extra.comparison = {otherNs, imps}` (net NS points in the other room, IMPs for the
// match's first team) before writing the page; render.js shows it when present.
import type { MatchSpec, Replay } from '../../../records/match.ts';
import { matchId } from '../../../records/match.ts';
import { initSetup } from '../../core/game.ts';
import { createRng } from '../../../util/rng.ts';
import { HIDDEN_CARD, type ViewerData, type ViewerMove, type ViewerPerspective } from '../../core/viewer.ts';
import { SEAT_LETTERS, type Card } from '../cards.ts';
import { boardFromDeal, bridge, type BridgeAction, type BridgeState, type Call, viewFor } from '../rules.ts';

const GLYPH: Record<string, string> = { C: '♣', D: '♦', H: '♥', S: '♠', NT: 'NT' };
const sideOf = (seat: number): 0 | 1 => (seat % 2) as 0 | 1;

/** One step: the table after k moves. Hands are card codes run together ("AS7HTD…"). */
export interface BridgeFrame {
  /** Phase: bidding, exchanging, playing, finished. */
  ph: string;
  /** Hands per seat (N, E, S, W), display order. */
  h: [string, string, string, string];
  /** Seat to act, null when the board is over. */
  tm: number | null;
  /** Calls made so far. */
  nc: number;
  /** The trick on the table: [seat, card] in order; on the step that completes a trick, that trick. */
  t: Array<[number, string]>;
  /** Winner of `t` when it is complete. */
  tw?: number;
  /** Tricks completed, and tricks won [NS, EW]. */
  nt: number;
  won: [number, number];
  /** Variant, during the exchange: the card each seat has given so far (null: not yet, or not for this view). */
  g?: (string | null)[];
  /** Drawn for a perspective: cards held per seat (a hidden hand is HIDDEN_CARD in `h`). */
  hs?: number[];
}

export interface BridgeViewerExtra {
  board: number;
  dealer: number;
  vulnerability: { ns: boolean; ew: boolean };
  /** Hands as dealt (display order: spades to clubs, high to low). */
  deal: string[][];
  /** Variant: the hands after the exchange, the card each seat gave and received. */
  afterExchange?: string[][];
  exchange?: { given: (string | null)[]; received: (string | null)[] };
  /** The auction: seat and the call as written ("1♠", "pass", "X", "XX"). */
  calls: Array<{ seat: number; text: string }>;
  contract: { level: number; strain: string; doubled: number; declarer: number; text: string } | null;
  dummy: number | null;
  tricks: Array<{ leader: number; cards: Array<[number, string]>; winner: number }>;
  tricksWon: [number, number];
  /** Net NS score of this room (null while unfinished). */
  nsScore: number | null;
  /** The side that forfeited the board, if it ended on a failure. */
  forfeit?: 'NS' | 'EW';
  /** A one-line contract and result ("4♠ by S: 10 tricks, made — NS +620"). */
  line: string;
  duplicate?: {
    match: string;
    teams: [string, string];
    board: number;
    boards: number;
    room: 'open' | 'closed';
    /** The team sitting NS in this room. */
    ns: string;
    ew: string;
    /** The other room of this board: its room name and match id (shown at `replay.html?id=<id>`). */
    other: { room: 'open' | 'closed'; id: string } | null;
  };
  /** Filled by a report that has both rooms: the other room's net NS score and the IMPs for teams[0]. */
  comparison?: { otherNs: number; imps: number };
  broken?: { ply: number; message: string };
}

export function callText(c: Pick<Call, 'call_type' | 'level' | 'suit'>): string {
  switch (c.call_type) {
    case 'bid':
      return `${c.level}${GLYPH[c.suit ?? ''] ?? c.suit}`;
    case 'double':
      return 'X';
    case 'redouble':
      return 'XX';
    default:
      return 'pass';
  }
}

/** "♥Q", "♠10". */
export function cardText(card: string): string {
  return `${GLYPH[card[1]!] ?? card[1]}${card[0] === 'T' ? '10' : card[0]}`;
}

function actionText(a: BridgeAction, hideExchange = false): string {
  if (a.type === 'call') return callText(a);
  if (a.type === 'exchange') return hideExchange ? 'passes a card' : `passes ${cardText(a.card)}`;
  return cardText(a.card);
}

const runTogether = (hand: readonly string[]) => hand.join('');

/**
 * The hands `perspective` may see now, by the rules' own seat view (rules.ts viewFor): each of its
 * seats' hand (and the declarer's, to the dummy seat whose card is due), and dummy's once the
 * opening lead is made (what every seat sees); null for a hand it may not see.
 */
export function visibleHands(s: BridgeState, perspective: ViewerPerspective): (Card[] | null)[] {
  const out: (Card[] | null)[] = [null, null, null, null];
  const everyone = viewFor(s, 0);
  if (everyone.dummy !== null && everyone.dummyHand) out[everyone.dummy] = everyone.dummyHand;
  for (const seat of perspective.seats) {
    const v = viewFor(s, seat);
    out[seat] = v.hand;
    if (v.declarerHand && v.declarer !== null) out[v.declarer] = v.declarerHand;
  }
  return out;
}

function frameOf(s: BridgeState, completed: boolean, perspective?: ViewerPerspective): BridgeFrame {
  const last = s.tricks[s.tricks.length - 1];
  const seen = perspective ? visibleHands(s, perspective) : null;
  const f: BridgeFrame = {
    ph: s.phase,
    h: s.hands.map((h, seat) => (seen && !seen[seat] ? HIDDEN_CARD : runTogether(h))) as BridgeFrame['h'],
    tm: s.toMove,
    nc: s.calls.length,
    t:
      completed && last
        ? last.cards.map(([seat, c]): [number, string] => [seat, c])
        : s.trick.map(([seat, c]): [number, string] => [seat, c]),
    nt: s.tricks.length,
    won: [...s.tricksWon],
  };
  if (completed && last) f.tw = last.winner;
  if (s.phase === 'exchanging' && s.exchange)
    f.g = s.exchange.given.map((c, seat) => (perspective && !perspective.seats.includes(seat) ? null : c));
  if (seen) f.hs = s.hands.map((h) => h.length);
  return f;
}

/** A seat's own card facts (deal, exchange), kept only for the perspective's seats. */
function ownOnly<T>(perSeat: readonly T[], perspective: ViewerPerspective | undefined, hidden: T): T[] {
  return perSeat.map((x, seat) => (!perspective || perspective.seats.includes(seat) ? x : hidden));
}

/** The initial state: the recorded deal when the replay has one, else the seeded deal. */
function initial(replay: Replay): BridgeState {
  const { spec } = replay.result;
  const deal = (replay.setup as { deal?: Record<string, string[]> } | null)?.deal;
  if (deal && SEAT_LETTERS.every((l) => Array.isArray(deal[l])))
    return boardFromDeal(
      spec.variant,
      SEAT_LETTERS.map((l) => deal[l]!),
      spec.options,
    );
  return bridge.init(spec.variant, createRng(spec.seed), initSetup(spec));
}

function contractText(c: { level: number; strain: string; doubled: number; declarer: number }): string {
  return `${c.level}${GLYPH[c.strain] ?? c.strain}${c.doubled === 2 ? 'XX' : c.doubled === 1 ? 'X' : ''} by ${SEAT_LETTERS[c.declarer]}`;
}

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

function resultLine(replay: Replay, s: BridgeState): { line: string; ns: number | null; forfeit?: 'NS' | 'EW' } {
  const r = replay.result;
  const detail = (r.detail ?? {}) as { ns_score?: number; forfeit?: 'NS' | 'EW' };
  const ns =
    typeof detail.ns_score === 'number' ? detail.ns_score : s.result ? Number(s.result.detail?.ns_score ?? 0) : null;
  if (r.termination !== 'normal') {
    const side = detail.forfeit ?? (r.offender !== null ? (['NS', 'EW'] as const)[sideOf(r.offender)] : undefined);
    const who = r.offender !== null ? `${SEAT_LETTERS[r.offender]} (${r.spec.seats[r.offender]})` : 'a seat';
    const score = ns !== null ? ` — NS ${signed(ns)}` : '';
    return {
      line: `${side ? `${side} forfeits` : 'board ended'}: ${who} ${r.termination}: ${r.reason}${score}`,
      ns,
      ...(side ? { forfeit: side } : {}),
    };
  }
  if (!s.contract) return { line: 'passed out — NS 0', ns: ns ?? 0 };
  const c = s.contract;
  const tricks = s.tricksWon[sideOf(c.declarer)];
  const need = c.level + 6;
  const how = tricks >= need ? (tricks > need ? `made +${tricks - need}` : 'made') : `down ${need - tricks}`;
  return { line: `${contractText(c)}: ${tricks} tricks, ${how} — NS ${signed(ns ?? 0)}`, ns };
}

/** The other room's spec as orchestrator/formats/duplicate.ts builds it: teams' seats and room swapped. */
function otherRoom(spec: MatchSpec): { room: 'open' | 'closed'; id: string } | null {
  const d = spec.duplicate;
  if (!d) return null;
  const [a, b] = d.teams;
  const ns = d.room === 'open' ? a : b;
  const ew = d.room === 'open' ? b : a;
  if (spec.seats.join('\u0000') !== [ns, ew, ns, ew].join('\u0000')) return null;
  const room = d.room === 'open' ? 'closed' : 'open';
  const other: MatchSpec = { ...spec, seats: [ew, ns, ew, ns], duplicate: { ...d, room } };
  return { room, id: matchId(other) };
}

export function viewerData(replay: Replay, perspective?: ViewerPerspective): ViewerData {
  const { spec } = replay.result;
  let state = initial(replay);
  const start = state;
  const frames: BridgeFrame[] = [frameOf(state, false, perspective)];
  const hideExchange = (seat: number) => Boolean(perspective && !perspective.seats.includes(seat));
  const moves: ViewerMove[] = [];
  let broken: BridgeViewerExtra['broken'];
  let afterExchange: string[][] | undefined;
  let firstCall = true;
  let firstExchange = true;
  for (let i = 0; i < replay.moves.length; i++) {
    const m = replay.moves[i]!;
    const notes: string[] = [];
    let text = '—';
    let completed = false;
    if (m.action !== null && !broken) {
      const a = m.action as BridgeAction;
      text = actionText(a, hideExchange(m.seat));
      const before = state;
      try {
        state = bridge.apply(state, m.seat, a);
        if (a.type === 'call' && firstCall) {
          notes.push(`auction, dealer ${SEAT_LETTERS[before.dealer]}`);
          firstCall = false;
        }
        if (a.type === 'exchange' && firstExchange) {
          notes.push('card exchange');
          firstExchange = false;
        }
        if (a.type === 'play' && before.trick.length === 0)
          notes.push(before.tricks.length === 0 ? 'opening lead' : `trick ${before.tricks.length + 1}`);
        completed = a.type === 'play' && state.tricks.length > before.tricks.length;
        if (completed) notes.push(`trick to ${SEAT_LETTERS[state.tricks[state.tricks.length - 1]!.winner]}`);
        if (before.phase === 'exchanging' && state.phase !== 'exchanging')
          afterExchange = state.hands.map((h) => h.slice());
      } catch (err) {
        broken = { ply: i, message: (err as Error).message };
      }
    } else if (m.action !== null) {
      text = actionText(m.action as BridgeAction, hideExchange(m.seat));
    }
    if (m.standIn) notes.push('stand-in');
    if (m.retriedAfter) notes.push(`asked again after ${m.retriedAfter}`);
    frames.push(frameOf(state, completed, perspective));
    moves.push({
      ply: m.ply,
      seat: m.seat,
      text,
      latencyMs: m.latencyMs,
      ...(m.error ? { error: `${m.error.kind}: ${m.error.message}` } : {}),
      ...(notes.length ? { note: notes.join('; ') } : {}),
    });
  }

  const { line, ns, forfeit } = resultLine(replay, state);
  const c = state.contract;
  const d = spec.duplicate;
  const extra: BridgeViewerExtra = {
    board: state.board,
    dealer: state.dealer,
    vulnerability: { ...state.vulnerability },
    deal: ownOnly(
      start.deal.map((h) => h.slice()),
      perspective,
      [],
    ),
    ...(afterExchange ? { afterExchange: ownOnly(afterExchange, perspective, []) } : {}),
    ...(state.exchange
      ? {
          exchange: {
            given: ownOnly(state.exchange.given, perspective, null),
            received: ownOnly(state.exchange.received, perspective, null),
          },
        }
      : {}),
    calls: state.calls.map((call) => ({ seat: call.seat, text: callText(call) })),
    contract: c
      ? { level: c.level, strain: c.strain, doubled: c.doubled, declarer: c.declarer, text: contractText(c) }
      : null,
    dummy: c ? (c.declarer + 2) % 4 : null,
    tricks: state.tricks.map((t) => ({
      leader: t.leader,
      cards: t.cards.map(([seat, card]): [number, string] => [seat, card]),
      winner: t.winner,
    })),
    tricksWon: [...state.tricksWon],
    nsScore: ns,
    ...(forfeit ? { forfeit } : {}),
    line,
    ...(d
      ? {
          duplicate: {
            match: d.match,
            teams: [d.teams[0], d.teams[1]],
            board: d.board,
            boards: d.boards,
            room: d.room,
            ns: spec.seats[0]!,
            ew: spec.seats[1]!,
            other: otherRoom(spec),
          },
        }
      : {}),
    ...(broken ? { broken } : {}),
  };
  return {
    game: 'bridge',
    variant: spec.variant,
    id: replay.result.id,
    seats: spec.seats.slice(),
    seatNames: SEAT_LETTERS.slice(),
    moves,
    frames,
    result: `${d ? `board ${d.board}, ${d.room} room: ` : `board ${state.board}: `}${line}`,
    extra: extra as unknown as Record<string, unknown>,
  };
}
