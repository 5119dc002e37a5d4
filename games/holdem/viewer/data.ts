// The replay viewer's data for a Hold'em table round (games/core/viewer.ts). A table round can
// run to 720 hands and ~10,000 actions, so nothing is snapshotted per action: each hand keeps
// what the renderer (viewer/render.js) needs to rebuild any step inside it — the stacks it
// started with, the hole cards, the board as far as it was dealt, the forced bets, every
// decision as [seat, street, kind, chips added, street bet after], and at the end the pots with
// their winners and the hands shown. The renderer finds the hand of step k by a binary search
// over the hands' move offsets (`off`) and replays at most one hand's actions.
//
// Recorded actions are the wire adapter's encoding, {action, amount?} with a raise's amount the
// street total: exactly the rules' Action, so they are applied as they are. The rules record
// one history entry per decision (a raise to the whole stack becomes an all-in), which gives
// each move its text and its chips.
import type { Replay } from '../../../records/match.ts';
import { initSetup } from '../../core/game.ts';
import { createRng } from '../../../util/rng.ts';
import { HIDDEN_CARD, type ViewerData, type ViewerMove, type ViewerPerspective } from '../../core/viewer.ts';
import { bestFive } from '../evaluator.ts';
import type { Action, HandState, HistoryEntry } from '../hand.ts';
import { handLogs, holdem, type TableState } from '../table.ts';

/** Streets by index, as `a` entries carry them. */
export const STREETS = ['preflop', 'flop', 'turn', 'river'] as const;
/** Action kinds by index: decisions 0–4, a move that changed nothing 5, forced bets 6–8. */
export const KINDS = ['fold', 'check', 'call', 'raise', 'all_in', 'none', 'ante', 'small_blind', 'big_blind'] as const;

/** One hand, compact (a 720-hand table round stays a few hundred kB). */
export interface ViewerHand {
  /** Hand number (1-based) and blind level. */
  n: number;
  lv: number;
  sb: number;
  bb: number;
  ante: number;
  /** Button, small-blind and big-blind seats. */
  btn: number;
  sbs: number;
  bbs: number;
  /** Stacks at the start of the hand, per seat (0 = out of the tournament). */
  st: number[];
  /** Hole cards per seat, null for a seat that is out. */
  hole: (string[] | null)[];
  /** The board as far as it was dealt by the end of the hand (the renderer shows it by street). */
  bd: string[];
  /** Index of the hand's first move in ViewerData.moves. */
  off: number;
  /** Forced bets: [seat, kind (6 ante, 7 small blind, 8 big blind), chips]. */
  pre: Array<[number, number, number]>;
  /** Decisions, one per move: [seat, street 0–3, kind 0–5, chips added, street bet after]. */
  a: Array<[number, number, number, number, number]>;
  /** Pots at the end: amount, eligible seats, shares [seat, chips]. Absent while a hand is unfinished. */
  pots?: Array<{ amt: number; el: number[]; w: Array<[number, number]> }>;
  /** Uncalled bet returned: [seat, chips]. */
  ret?: [number, number];
  /** Showdown: [seat, hand category, best five cards] in showing order. */
  sd?: Array<[number, string, string[]]>;
  /** Seats busted in this hand. */
  out?: number[];
}

export interface HoldemViewerExtra {
  startingChips: number;
  handCap: number;
  deck: 'standard' | 'short';
  hands: ViewerHand[];
  /** Final chips and places per seat (from the rebuilt table). */
  chips: number[];
  places: number[] | null;
  /** Seat → hand in which it was eliminated. */
  eliminated: Array<{ seat: number; hand: number }>;
  /** Set when the recorded moves could not all be re-applied (a corrupt replay): where it stopped. */
  broken?: { ply: number; message: string };
}

const FORCED: Record<string, number> = { ante: 6, small_blind: 7, big_blind: 8 };
const CATEGORY_TEXT = (c: string) => c.replace(/-/g, ' ');

/**
 * A decision as people write it: "raise to 200", "call 40", "all-in 1450", "fold"; `open` (nobody
 * has bet on this street yet, after the flop) makes a raise a bet: "bet 120".
 */
export function actionText(e: Pick<HistoryEntry, 'action' | 'amount' | 'to'>, open = false): string {
  switch (e.action) {
    case 'raise':
      return open ? `bet ${e.to}` : `raise to ${e.to}`;
    case 'call':
      return `call ${e.amount}`;
    case 'all_in':
      return `all-in ${e.to}`;
    case 'small_blind':
      return `small blind ${e.amount}`;
    case 'big_blind':
      return `big blind ${e.amount}`;
    default:
      return e.action;
  }
}

/** The texts of a hand's decisions, in order. */
function decisionTexts(decisions: readonly HistoryEntry[]): string[] {
  let street: string = 'preflop';
  let top = 1; // pre-flop the blinds are the bet
  return decisions.map((e) => {
    if (e.street !== street) {
      street = e.street;
      top = 0;
    }
    const text = actionText(e, top === 0);
    top = Math.max(top, e.to);
    return text;
  });
}

function compactHand(
  h: HandState,
  number: number,
  level: number,
  off: number,
  busted: number[] | null,
  variant: TableState['variant'],
): { hand: ViewerHand; texts: string[] } {
  const decisions = h.history.filter((e) => !(e.action in FORCED));
  const out: ViewerHand = {
    n: number,
    lv: level,
    sb: h.smallBlind,
    bb: h.bigBlind,
    ante: h.ante,
    btn: h.button,
    sbs: h.sbSeat,
    bbs: h.bbSeat,
    st: h.startStacks.slice(),
    hole: h.seats.map((p, seat) => (h.startStacks[seat]! > 0 ? p.hole.slice() : null)),
    bd: (h.result?.board ?? h.board).slice(),
    off,
    pre: h.history.filter((e) => e.action in FORCED).map((e) => [e.seat, FORCED[e.action]!, e.amount]),
    a: decisions.map((e) => [e.seat, STREETS.indexOf(e.street), KINDS.indexOf(e.action), e.amount, e.to]),
  };
  const r = h.result;
  if (r) {
    out.pots = r.pots.map((p) => ({
      amt: p.amount,
      el: p.eligible.slice(),
      w: p.shares.map((s): [number, number] => [s.seat, s.amount]),
    }));
    if (r.returned) out.ret = [r.returned.seat, r.returned.amount];
    if (r.showdown.length) {
      out.sd = r.showdown.map((seat) => {
        const best = bestFive([...h.seats[seat]!.hole, ...r.board], variant);
        return [seat, CATEGORY_TEXT(best.category), best.cards];
      });
    }
    if (busted?.length) out.out = busted.slice();
  }
  return { hand: out, texts: decisionTexts(decisions) };
}

/** Strategy ids made unique for the move list ("heuristic", "heuristic (4)"). */
function seatLabels(ids: readonly string[]): string[] {
  return ids.map((id, seat) => (ids.indexOf(id) !== ids.lastIndexOf(id) ? `${id} (${seat + 1})` : id));
}

function resultLine(replay: Replay, chips: number[], hands: number, labels: string[]): string {
  const r = replay.result;
  if (r.termination !== 'normal') return `${r.termination}: ${r.reason}`;
  const leaders = (r.places ?? []).flatMap((p, seat) => (p === 1 ? [seat] : []));
  const who = leaders.map((s) => labels[s]).join(', ');
  const standIns = r.standIns?.length ? ` (stand-in for ${r.standIns.map((x) => labels[x.seat]).join(', ')})` : '';
  if (r.reason === 'last_player') return `${who} wins: last player with chips, after ${hands} hands${standIns}`;
  if (r.reason === 'hand_cap') {
    const lead = leaders.length ? chips[leaders[0]!] : Math.max(...chips);
    return leaders.length > 1
      ? `${who} share the win: tied chip leaders at the hand cap (${hands} hands), ${lead} chips each${standIns}`
      : `${who} wins: chip leader at the hand cap (${hands} hands) with ${lead} chips${standIns}`;
  }
  return `${r.reason}${standIns}`;
}

/**
 * Hole cards as `perspective` may see them, by the rule of the game's own seat view (GET
 * /games/{id}/state, games/holdem/wire.ts stateBody): a seat's own cards, and another's once its
 * hand was shown at a showdown; every other hole card becomes HIDDEN_CARD. Mutates `hands`.
 */
function hideHoleCards(hands: ViewerHand[], perspective: ViewerPerspective): void {
  for (const h of hands) {
    const shown = new Set((h.sd ?? []).map(([seat]) => seat));
    h.hole = h.hole.map((cards, seat) =>
      cards && !perspective.seats.includes(seat) && !shown.has(seat) ? cards.map(() => HIDDEN_CARD) : cards,
    );
  }
}

export function viewerData(replay: Replay, perspective?: ViewerPerspective): ViewerData {
  const { spec } = replay.result;
  const labels = seatLabels(spec.seats);
  let state = holdem.init(spec.variant, createRng(spec.seed), initSetup(spec));
  // Hand number of every move (before it was applied).
  const handOfMove: number[] = [];
  let broken: HoldemViewerExtra['broken'];
  const moves = replay.moves;
  for (let i = 0; i < moves.length; i++) {
    const m = moves[i]!;
    if (broken || state.finished) {
      // Past a failure to rebuild (or past the end): keep the moves listed, attached to the last hand.
      handOfMove.push(state.handNumber);
      broken ??= { ply: i, message: 'move after the end of the table' };
      continue;
    }
    handOfMove.push(state.handNumber);
    if (m.action === null) continue;
    try {
      state = holdem.apply(state, m.seat, m.action as Action);
    } catch (err) {
      broken = { ply: i, message: (err as Error).message };
    }
  }

  // Moves per hand → the offset of each hand's first move.
  const logs = handLogs(state);
  const all: Array<{ number: number; level: number; hand: HandState; busted: number[] | null }> = logs.map((l) => ({
    ...l,
  }));
  if (!state.finished) all.push({ number: state.handNumber, level: state.level, hand: state.hand, busted: null });
  const lastNumber = all.length ? all[all.length - 1]!.number : 1;
  const counts = new Array<number>(lastNumber + 2).fill(0);
  for (const h of handOfMove) counts[h]!++;
  const hands: ViewerHand[] = [];
  const texts = new Map<number, string[]>();
  let off = 0;
  let next = 1;
  for (const h of all) {
    for (; next < h.number; next++) off += counts[next]!;
    const compact = compactHand(h.hand, h.number, h.level, off, h.busted, state.variant);
    hands.push(compact.hand);
    texts.set(h.number, compact.texts);
    off += counts[h.number]!;
    next = h.number + 1;
  }

  // Move texts from the rules' own history: the k-th move of a hand is its k-th decision.
  const byNumber = new Map(hands.map((h) => [h.n, h]));
  const viewerMoves: ViewerMove[] = [];
  let prevHand = 0;
  let k = 0; // moves of the current hand so far
  let d = 0; // decisions of the current hand so far
  for (let i = 0; i < moves.length; i++) {
    const m = moves[i]!;
    const hn = handOfMove[i]!;
    if (hn !== prevHand) k = d = 0;
    const hand = byNumber.get(hn);
    let text: string;
    if (m.action === null) {
      text = '—';
      // Keeps the hand's actions in step with its moves (a null action changes nothing).
      if (hand && !broken) hand.a.splice(k, 0, [m.seat, hand.a[k]?.[1] ?? 0, KINDS.indexOf('none'), 0, 0]);
    } else {
      const a = m.action as Action;
      text =
        texts.get(hn)?.[d] ??
        (a.action === 'raise' ? `raise to ${a.amount}` : String(a.action ?? JSON.stringify(m.action)));
      d++;
    }
    k++;
    const notes: string[] = [];
    if (hn !== prevHand && hand) {
      const skipped = hn - prevHand - 1;
      notes.push(
        `hand ${hn}${skipped > 0 ? ` (${skipped === 1 ? `hand ${hn - 1}` : `hands ${prevHand + 1}–${hn - 1}`} played out without a decision)` : ''}`,
      );
      const before = byNumber.get(hn - 1);
      if (!before || before.lv !== hand.lv)
        notes.push(`blinds ${hand.sb}/${hand.bb}${hand.ante ? ` ante ${hand.ante}` : ''}`);
    }
    if (m.standIn) notes.push('stand-in');
    if (m.retriedAfter) notes.push(`asked again after ${m.retriedAfter}`);
    prevHand = hn;
    viewerMoves.push({
      ply: m.ply,
      seat: m.seat,
      text,
      latencyMs: m.latencyMs,
      ...(m.error ? { error: `${m.error.kind}: ${m.error.message}` } : {}),
      ...(notes.length ? { note: notes.join('; ') } : {}),
    });
  }

  if (perspective) hideHoleCards(hands, perspective);
  const last = state.hand;
  const chips = last.result ? last.result.stacks.slice() : last.seats.map((p) => p.stack);
  const outcome = holdem.outcome(state);
  const extra: HoldemViewerExtra = {
    startingChips: state.config.startingChips,
    handCap: state.config.handCap,
    deck: state.variant === 'variant' ? 'short' : 'standard',
    hands,
    chips,
    places: outcome?.places ?? replay.result.places ?? null,
    eliminated: state.eliminated.map((e) => ({ seat: e.seat, hand: e.hand })),
    ...(broken ? { broken } : {}),
  };
  return {
    game: 'holdem',
    variant: spec.variant,
    id: replay.result.id,
    seats: spec.seats.slice(),
    seatNames: labels,
    moves: viewerMoves,
    frames: [],
    result: resultLine(replay, chips, state.handNumber, labels),
    extra: extra as unknown as Record<string, unknown>,
  };
}
