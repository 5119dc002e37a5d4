// A Hold'em table tournament ("a tournament round" in CATArena's words) as one pure game: every
// seat starts with the same stack, hands are dealt until one player has all the chips or the
// hand cap is reached, blinds rise on a schedule, busted players are out. The seat to act is
// always a player with a real decision; between hands the state moves on by itself.
//
// Decisions (compat Part A):
// * The blind level of hand h is the first level whose cumulative duration is ≥ h, applied to
//   hand h itself (CATArena applies it one hand late; we do not copy that lag).
// * The button moves to the next seat with chips each hand; heads-up the button posts the small
//   blind and acts first pre-flop (real rules, not CATArena's quirk).
// * Decks come from the table seed and the hand number, so tables with the same seed deal the
//   same cards to the same seats (duplicate deals).
// * Winner: the last player with chips, or at the hand cap the chip leader; an exact tie for the
//   lead splits the win (scores 1/k each). Places: survivors by chips, then the eliminated in
//   reverse order of elimination; players busted in the same hand rank by their stack at the
//   start of that hand (TDA); exact ties share a place.
import type { Game, GameSetup, Outcome } from '../core/game.ts';
import type { Seat } from '../../records/match.ts';
import { createRng, deriveSeed, type Rng } from '../../util/rng.ts';
import { HOLDEM_VARIANTS, shuffledDeck, type HoldemVariant } from './cards.ts';
import { evaluate7 } from './evaluator.ts';
import {
  applyAction,
  startHand,
  validActions,
  validate,
  type Action,
  type HandState,
  type Rank,
  type ValidAction,
} from './hand.ts';

export interface BlindLevel {
  smallBlind: number;
  bigBlind: number;
  /** Hands played at this level. */
  hands: number;
}

/** CATArena's arena/blind_structure.json: 29 levels of 24 hands; the last level stays. */
const PAPER_LEVELS: Array<[number, number]> = [
  [10, 20],
  [20, 30],
  [20, 40],
  [30, 50],
  [30, 60],
  [40, 80],
  [50, 100],
  [60, 120],
  [100, 200],
  [100, 200],
  [150, 250],
  [200, 300],
  [200, 400],
  [300, 500],
  [300, 600],
  [400, 800],
  [500, 1000],
  [600, 1200],
  [1000, 1500],
  [1000, 2000],
  [1500, 2500],
  [2000, 3000],
  [2000, 4000],
  [2500, 5000],
  [3000, 6000],
  [4000, 8000],
  [5000, 10000],
  [6000, 12000],
  [7500, 15000],
];

export function paperBlinds(handsPerLevel = 24): BlindLevel[] {
  return PAPER_LEVELS.map(([smallBlind, bigBlind]) => ({ smallBlind, bigBlind, hands: handsPerLevel }));
}

export interface TableConfig {
  startingChips: number;
  /** The round ends after this many hands; the chip leader wins. */
  handCap: number;
  blinds: BlindLevel[];
}

/** The paper's Table 6: 2000 chips, 720 hands, levels every 24 hands. */
export const TABLE_DEFAULTS: TableConfig = { startingChips: 2000, handCap: 720, blinds: paperBlinds(24) };

/** Table config from match options (startingChips, handCap, handsPerLevel); defaults elsewhere. */
export function tableConfig(options: GameSetup['options'] = {}): TableConfig {
  const int = (key: string, fallback: number, min: number): number => {
    const raw = options[key];
    if (raw === undefined) return fallback;
    const v = Number(raw);
    if (!Number.isInteger(v) || v < min)
      throw new Error(`hold'em option ${key} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
    return v;
  };
  return {
    startingChips: int('startingChips', TABLE_DEFAULTS.startingChips, 1),
    handCap: int('handCap', TABLE_DEFAULTS.handCap, 1),
    blinds: paperBlinds(int('handsPerLevel', 24, 1)),
  };
}

/** The blind level in force for hand `hand` (1-based). */
export function blindLevel(blinds: readonly BlindLevel[], hand: number): BlindLevel & { level: number } {
  let through = 0;
  for (let i = 0; i < blinds.length; i++) {
    through += blinds[i]!.hands;
    if (hand <= through) return { ...blinds[i]!, level: i + 1 };
  }
  return { ...blinds[blinds.length - 1]!, level: blinds.length };
}

/** A finished hand, as reports and the game-server history need it. */
export interface HandLog {
  number: number;
  level: number;
  /** The finished hand state: seats with hole cards, board, every action, pots and winners. */
  hand: HandState;
  /** Seats busted in this hand. */
  busted: Seat[];
}

/** Completed hands as a persistent list (newest first), so apply() never copies the log. */
export interface HandLogList {
  head: HandLog;
  tail: HandLogList | null;
}

export interface TableState {
  variant: HoldemVariant;
  config: TableConfig;
  /** Source of every hand's deck. */
  dealSeed: number;
  /** The hand being played (number = hand.number), or the last one once the table is finished. */
  handNumber: number;
  level: number;
  hand: HandState;
  /** Seats in order of elimination, with the hand and the stack they started it with. */
  eliminated: Array<{ seat: Seat; hand: number; startStack: number }>;
  log: HandLogList | null;
  finished: null | { reason: 'last_player' | 'hand_cap'; outcome: Outcome };
}

export const rankFor =
  (variant: HoldemVariant): Rank =>
  (cards) =>
    evaluate7(cards, variant).value;

function dealHand(
  variant: HoldemVariant,
  config: TableConfig,
  dealSeed: number,
  number: number,
  stacks: number[],
  button: number,
): { hand: HandState; level: number } {
  const level = blindLevel(config.blinds, number);
  const deck = shuffledDeck(variant, createRng(deriveSeed(dealSeed, 'hand', number)));
  const hand = startHand(
    { stacks, button, smallBlind: level.smallBlind, bigBlind: level.bigBlind, deck },
    rankFor(variant),
  );
  return { hand, level: level.level };
}

function nextWithChips(stacks: readonly number[], from: number): number {
  for (let k = 1; k <= stacks.length; k++) {
    const seat = (from + k) % stacks.length;
    if (stacks[seat]! > 0) return seat;
  }
  throw new Error("hold'em: nobody has chips");
}

export function initTable(variant: string, rng: Rng, setup: GameSetup = {}): TableState {
  if (!HOLDEM_VARIANTS.includes(variant as HoldemVariant))
    throw new Error(`unknown hold'em variant "${variant}"; available: ${HOLDEM_VARIANTS.join(', ')}`);
  const seats = setup.seats ?? 2;
  if (!Number.isInteger(seats) || seats < 2 || seats > 12)
    throw new Error(`hold'em: a table seats 2–12 players, got ${seats}`);
  const config = tableConfig(setup.options);
  const dealSeed = rng.int(-(2 ** 31), 2 ** 31 - 1);
  const button = createRng(deriveSeed(dealSeed, 'button')).int(0, seats - 1);
  const { hand, level } = dealHand(
    variant as HoldemVariant,
    config,
    dealSeed,
    1,
    Array(seats).fill(config.startingChips),
    button,
  );
  return settle({
    variant: variant as HoldemVariant,
    config,
    dealSeed,
    handNumber: 1,
    level,
    hand,
    eliminated: [],
    log: null,
    finished: null,
  });
}

/** After a hand completes: log it, bust players, end the table or deal the next hand. */
function settle(s: TableState): TableState {
  while (s.hand.result && !s.finished) {
    const stacks = s.hand.result.stacks;
    const busted = stacks.flatMap((c, seat) => (c === 0 && s.hand.startStacks[seat]! > 0 ? [seat] : []));
    const eliminated = [
      ...s.eliminated,
      ...busted.map((seat) => ({ seat, hand: s.handNumber, startStack: s.hand.startStacks[seat]! })),
    ];
    const log: HandLogList = { head: { number: s.handNumber, level: s.level, hand: s.hand, busted }, tail: s.log };
    const alive = stacks.filter((c) => c > 0).length;
    if (alive <= 1 || s.handNumber >= s.config.handCap) {
      const reason = alive <= 1 ? 'last_player' : 'hand_cap';
      return {
        ...s,
        eliminated,
        log,
        finished: { reason, outcome: tableOutcome(stacks, eliminated, reason, s.handNumber) },
      };
    }
    const number = s.handNumber + 1;
    const next = dealHand(s.variant, s.config, s.dealSeed, number, stacks, nextWithChips(stacks, s.hand.button));
    s = { ...s, handNumber: number, level: next.level, hand: next.hand, eliminated, log };
  }
  return s;
}

function tableOutcome(
  stacks: readonly number[],
  eliminated: TableState['eliminated'],
  reason: string,
  hands: number,
): Outcome {
  const n = stacks.length;
  // Sort key per seat: survivors above the eliminated; later eliminations above earlier ones.
  const key = (seat: number): [number, number, number] => {
    if (stacks[seat]! > 0) return [1, stacks[seat]!, 0];
    const e = eliminated.find((x) => x.seat === seat)!;
    return [0, e.hand, e.startStack];
  };
  const better = (a: number, b: number): boolean => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! > y[i]!;
    return false;
  };
  const places = Array.from(
    { length: n },
    (_, seat) => 1 + Array.from({ length: n }, (_, o) => o).filter((o) => better(o, seat)).length,
  );
  const leaders = places.flatMap((p, seat) => (p === 1 ? [seat] : []));
  const scores = places.map((p) => (p === 1 ? 1 / leaders.length : 0));
  return {
    scores,
    reason,
    winner: leaders.length === 1 ? leaders[0]! : null,
    places,
    detail: { chips: stacks.slice(), hands },
  };
}

/** Completed hands, oldest first. */
export function handLogs(s: TableState): HandLog[] {
  const out: HandLog[] = [];
  for (let node = s.log; node; node = node.tail) out.push(node.head);
  return out.reverse();
}

export function tableValidActions(s: TableState): ValidAction[] {
  return s.finished ? [] : validActions(s.hand);
}

export const holdem: Game<TableState, Action, TableState> = {
  id: 'holdem',
  variants: HOLDEM_VARIANTS,
  seatNames: () => [],
  init: initTable,
  toMove: (s) => (s.finished ? null : s.hand.toAct),
  validate: (s, seat, action) => (s.finished ? 'The table is finished' : validate(s.hand, seat, action)),
  legalActions(s, seat) {
    if (s.finished || s.hand.toAct !== seat) return [];
    return validActions(s.hand).flatMap((v): Action[] => {
      if (v.action === 'raise')
        return v.min === v.max
          ? [{ action: 'raise', amount: v.min }]
          : [
              { action: 'raise', amount: v.min },
              { action: 'raise', amount: v.max },
            ];
      return [{ action: v.action }];
    });
  },
  apply(s, seat, action) {
    if (s.finished) throw new Error('The table is finished');
    return settle({ ...s, hand: applyAction(s.hand, seat, action, rankFor(s.variant)) });
  },
  outcome: (s) => s.finished?.outcome ?? null,
  // The full state holds every hole card; per-seat views are built by the wire adapter.
  view: (s) => s,
};
