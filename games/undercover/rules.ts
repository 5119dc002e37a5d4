// Undercover ("Who is the spy?"), CK-Arena's rules as a pure game. Civilians share one word of a
// pair, the undercover players (a third of the speakers, at least one) get the other. Each round
// every alive player, in a seeded speaking order, makes one statement about their word without
// saying it; then the round's vote: the most-voted player is out; a tie is voted again among the
// tied (once), and if that ties too nobody goes. Civilians win when every undercover player is
// out; the undercover team wins when its players are at least as many as the civilians, or when
// one of them is still in after the round cap.
//
// Rule sets:
// * standard: a player knows their word, not their role; every alive player votes.
// * variant (CK-Arena's Undercover-Audience): the last seat is the audience. The players know both
//   words and their role; only the audience votes (one ballot, so no ties), it has no word and is
//   never out; it wins with the civilians. A two-seat table has no audience: both seats are
//   players who know both words and their roles, and vote as in standard.
//
// Decisions:
// * A statement is checked mechanically (engine/statement-check.mjs, its header has the rules):
//   empty, longer than 300 characters, naming the speaker's word (the word or one of its
//   inflections, as whole words, after undoing look-alike letters and invisible characters), or
//   repeating a statement another player made in an earlier round (the same set of words)
//   eliminates the speaker at once, as in CK-Arena. So does no statement at all (a bot failure:
//   `silent`).
// * A failed vote (timeout, garbage, an illegal target) is an abstention: the ballot is lost.
//   Votes of an open ballot are secret; they become public when the ballot closes.
// * End conditions are checked after every elimination (not at the deal, so a two-seat table,
//   1 civilian against 1 undercover, is played: a tourney's own tables can be that small).
// * The round cap (option maxRounds, default max(3, speakers)) ends the game after that round's
//   vote; undercover players still in then win.
// * Scores are the composite score of CK-Arena per seat (0.75·win + 0.15·survival + 0.10·voting
//   accuracy; survival 1 if still in at the end; accuracy = correct ballots / ballots cast, 0
//   without a ballot); places rank seats by it, so W's pairwise projection uses it.
import type { Game, GameSetup, Outcome } from '../core/game.ts';
import type { Rng } from '../../util/rng.ts';
import type { Seat } from '../../records/match.ts';
import { statementFault, type StatementFault } from './engine/statement-check.mjs';
import {
  compositeScore,
  DEFAULT_SEATS,
  MAX_SEATS,
  MIN_SEATS,
  teamOf,
  undercoverCount,
  voteCorrect,
  type Role,
  type Team,
} from './roles.ts';
import { wordPairs } from './words.ts';

export const UNDERCOVER_VARIANTS = ['standard', 'variant'] as const;
export type UndercoverVariant = (typeof UNDERCOVER_VARIANTS)[number];

export type UndercoverAction =
  | { kind: 'speak'; statement: string }
  | { kind: 'vote'; target: Seat }
  /** A failed speech (no usable statement): the speaker is out. */
  | { kind: 'silent' }
  /** A failed vote: the ballot is lost. */
  | { kind: 'abstain' };

export type Elimination = { seat: Seat; round: number; by: 'vote' | 'silent' | StatementFault };

export interface StatementRecord {
  round: number;
  seat: Seat;
  /** Null for a failed speech. */
  text: string | null;
  /** Why the statement eliminated its speaker, or null when it passed. */
  fault: StatementFault | 'silent' | null;
}

export interface BallotRecord {
  round: number;
  /** 0 = the round's vote, 1 = the revote among the tied. */
  ballot: 0 | 1;
  voter: Seat;
  /** Null for a lost ballot. */
  target: Seat | null;
}

export interface UndercoverState {
  variant: UndercoverVariant;
  seats: number;
  /** The variant's audience seat (the last), else null. */
  audience: Seat | null;
  pair: { index: number; category: string; civilian: string; undercover: string };
  roles: Role[];
  /** Speaking order of the players (seeded, the same every round; the out are skipped). */
  order: Seat[];
  maxRounds: number;
  round: number;
  phase: 'speak' | 'vote' | 'over';
  /** 0 = the round's vote, 1 = the revote. */
  ballot: 0 | 1;
  /** Seats still to act in this phase, in order. */
  pending: Seat[];
  /** The tied seats of a revote; null in a round's first vote. */
  candidates: Seat[] | null;
  alive: boolean[];
  statements: StatementRecord[];
  ballots: BallotRecord[];
  eliminated: Elimination[];
  finished: null | { winner: Team; reason: 'undercover_out' | 'undercover_majority' | 'round_cap' };
}

/** The word a seat holds (null for the audience). */
export function wordOf(s: UndercoverState, seat: Seat): string | null {
  const role = s.roles[seat];
  return role === 'civilian' ? s.pair.civilian : role === 'undercover' ? s.pair.undercover : null;
}

const players = (s: UndercoverState): Seat[] => s.roles.flatMap((r, seat) => (r === 'audience' ? [] : [seat]));
const aliveIn = (s: UndercoverState, seats: readonly Seat[]) => seats.filter((seat) => s.alive[seat]);

function intOption(options: GameSetup['options'], key: string, fallback: number, min: number): number {
  const raw = options?.[key];
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min)
    throw new Error(`undercover option ${key} must be an integer ≥ ${min}, got ${JSON.stringify(raw)}`);
  return v;
}

export function initUndercover(variant: string, rng: Rng, setup: GameSetup = {}): UndercoverState {
  if (!(UNDERCOVER_VARIANTS as readonly string[]).includes(variant))
    throw new Error(`unknown undercover variant "${variant}"; available: ${UNDERCOVER_VARIANTS.join(', ')}`);
  const v = variant as UndercoverVariant;
  const seats = setup.seats ?? DEFAULT_SEATS;
  // A table of two has no room for an audience: it plays the variant's knowledge, voting as in standard.
  const audience = v === 'variant' && seats >= 3 ? seats - 1 : null;
  const speakers = audience === null ? seats : seats - 1;
  if (!Number.isInteger(seats) || seats > MAX_SEATS || speakers < MIN_SEATS) {
    throw new Error(
      `undercover: a table seats ${MIN_SEATS}–${MAX_SEATS} players${audience === null ? '' : ' plus the audience'}, got ${seats} seats`,
    );
  }
  const pairs = wordPairs();
  const picked = pairs[rng.int(0, pairs.length - 1)]!;
  const flip = rng.int(0, 1) === 1;
  const [civilian, undercover] = flip ? [picked.words[1], picked.words[0]] : picked.words;
  const speakerSeats = Array.from({ length: speakers }, (_, i) => i);
  const spies = new Set(rng.shuffle(speakerSeats).slice(0, undercoverCount(speakers)));
  const roles: Role[] = Array.from({ length: seats }, (_, seat) =>
    seat === audience ? 'audience' : spies.has(seat) ? 'undercover' : 'civilian',
  );
  const order = rng.shuffle(speakerSeats);
  return {
    variant: v,
    seats,
    audience,
    pair: { index: picked.index, category: picked.category, civilian, undercover },
    roles,
    order,
    maxRounds: intOption(setup.options, 'maxRounds', Math.max(3, speakers), 1),
    round: 1,
    phase: 'speak',
    ballot: 0,
    pending: order.slice(),
    candidates: null,
    alive: Array(seats).fill(true),
    statements: [],
    ballots: [],
    eliminated: [],
    finished: null,
  };
}

/** The winner once an elimination changed the teams, else null. */
function decided(s: UndercoverState): UndercoverState['finished'] {
  const alive = aliveIn(s, players(s));
  const spies = alive.filter((seat) => s.roles[seat] === 'undercover').length;
  if (spies === 0) return { winner: 'civilian', reason: 'undercover_out' };
  if (spies >= alive.length - spies) return { winner: 'undercover', reason: 'undercover_majority' };
  return null;
}

function eliminate(s: UndercoverState, seat: Seat, by: Elimination['by']): UndercoverState {
  const alive = s.alive.slice();
  alive[seat] = false;
  const next = {
    ...s,
    alive,
    eliminated: [...s.eliminated, { seat, round: s.round, by }],
    pending: s.pending.filter((p) => p !== seat),
  };
  const finished = decided(next);
  return finished ? { ...next, phase: 'over', pending: [], finished } : next;
}

/** Who votes: the audience in the variant, else every alive player. */
const voters = (s: UndercoverState): Seat[] =>
  s.audience !== null ? [s.audience] : aliveIn(s, s.order).sort((a, b) => a - b);

function startVote(s: UndercoverState, ballot: 0 | 1, candidates: Seat[] | null): UndercoverState {
  return { ...s, phase: 'vote', ballot, candidates, pending: voters(s) };
}

function nextRound(s: UndercoverState): UndercoverState {
  if (s.round >= s.maxRounds)
    return {
      ...s,
      phase: 'over',
      pending: [],
      candidates: null,
      finished: { winner: 'undercover', reason: 'round_cap' },
    };
  return { ...s, round: s.round + 1, phase: 'speak', ballot: 0, candidates: null, pending: aliveIn(s, s.order) };
}

/** Counts the closed ballot: out goes the one most voted; a first tie is revoted, a second passes. */
function closeBallot(s: UndercoverState): UndercoverState {
  const counts = new Map<Seat, number>();
  for (const b of s.ballots)
    if (b.round === s.round && b.ballot === s.ballot && b.target !== null)
      counts.set(b.target, (counts.get(b.target) ?? 0) + 1);
  const top = Math.max(0, ...counts.values());
  const tied = [...counts]
    .filter(([, n]) => n === top)
    .map(([seat]) => seat)
    .sort((a, b) => a - b);
  if (top === 0) return nextRound(s);
  if (tied.length > 1) return s.ballot === 0 ? startVote(s, 1, tied) : nextRound(s);
  const after = eliminate({ ...s, pending: [] }, tied[0]!, 'vote');
  return after.finished ? after : nextRound(after);
}

/** Why `target` is no vote of `seat` now, or null. */
function voteFault(s: UndercoverState, seat: Seat, target: unknown): string | null {
  if (!Number.isInteger(target) || (target as number) < 0 || (target as number) >= s.seats)
    return `no such seat: ${JSON.stringify(target)}`;
  const t = target as Seat;
  if (t === seat) return 'cannot vote for yourself';
  if (s.roles[t] === 'audience') return 'the audience cannot be voted out';
  if (!s.alive[t]) return `seat ${t} is already out`;
  if (s.candidates && !s.candidates.includes(t)) return `the revote is among seats ${s.candidates.join(', ')} only`;
  return null;
}

/** Vote targets of a seat now. */
export function voteTargets(s: UndercoverState, seat: Seat): Seat[] {
  return Array.from({ length: s.seats }, (_, t) => t).filter((t) => voteFault(s, seat, t) === null);
}

/**
 * Every statement made so far, as the /speak body lists them: the statement check keeps those a new
 * one must not repeat (other seats', earlier rounds', passed).
 */
export const earlierStatements = (
  s: UndercoverState,
): Array<{ round: number; seat: Seat; statement: string | null; eliminated?: string }> =>
  s.statements.map((x) => ({
    round: x.round,
    seat: x.seat,
    statement: x.text,
    ...(x.fault ? { eliminated: x.fault } : {}),
  }));

/** Statements a random player may make: a clue of fresh tokens per round and seat (they may still fail the check). */
function sampleStatements(s: UndercoverState, seat: Seat): string[] {
  const tag = `r${s.round}s${seat}`;
  return [`A clue ${tag}: it belongs with ${s.pair.category}`, `Think of ${tag} and everyday life`];
}

export const undercover: Game<UndercoverState, UndercoverAction, unknown> = {
  id: 'undercover',
  variants: UNDERCOVER_VARIANTS,
  seatNames: () => [],
  init: initUndercover,
  toMove: (s) => (s.phase === 'over' ? null : (s.pending[0] ?? null)),
  validate(s, seat, action) {
    if (s.phase === 'over') return 'the game is over';
    if (s.pending[0] !== seat) return 'not your turn';
    if (!action || typeof action !== 'object') return 'not an action';
    if (s.phase === 'speak') {
      if (action.kind === 'silent') return null;
      if (action.kind !== 'speak') return 'it is time to speak';
      return typeof action.statement === 'string' ? null : 'a statement is text';
    }
    if (action.kind === 'abstain') return null;
    if (action.kind !== 'vote') return 'it is time to vote';
    return voteFault(s, seat, action.target);
  },
  legalActions(s, seat) {
    if (s.phase === 'over' || s.pending[0] !== seat) return [];
    if (s.phase === 'speak') return sampleStatements(s, seat).map((statement) => ({ kind: 'speak', statement }));
    return voteTargets(s, seat).map((target) => ({ kind: 'vote', target }));
  },
  apply(s, seat, action) {
    const fault = undercover.validate(s, seat, action);
    if (fault) throw new Error(`undercover: illegal action by seat ${seat}: ${fault}`);
    if (s.phase === 'speak') {
      const text = action.kind === 'speak' ? action.statement : null;
      const bad =
        text === null
          ? 'silent'
          : statementFault(text, wordOf(s, seat)!, { seat, round: s.round, statements: earlierStatements(s) });
      let next: UndercoverState = {
        ...s,
        statements: [...s.statements, { round: s.round, seat, text, fault: bad }],
        pending: s.pending.slice(1),
      };
      if (bad) next = eliminate(next, seat, bad);
      if (next.phase === 'over') return next;
      return next.pending.length ? next : startVote(next, 0, null);
    }
    const target = action.kind === 'vote' ? action.target : null;
    const next = {
      ...s,
      ballots: [...s.ballots, { round: s.round, ballot: s.ballot, voter: seat, target }],
      pending: s.pending.slice(1),
    };
    return next.pending.length ? next : closeBallot(next);
  },
  outcome: (s) => (s.finished ? outcomeOf(s) : null),
  view: (s, seat) => playerView(s, seat),
};

/** Per seat: win, survival and voting accuracy (the parts of the composite score). */
export function seatMetrics(
  s: UndercoverState,
): Array<{ win: number; survival: number; accuracy: number; ballots: number; correct: number }> {
  const winner = s.finished?.winner;
  return s.roles.map((role, seat) => {
    const mine = s.ballots.filter((b) => b.voter === seat);
    const correct = mine.filter((b) => b.target !== null && voteCorrect(role, s.roles[b.target]!)).length;
    return {
      win: winner !== undefined && teamOf(role) === winner ? 1 : 0,
      survival: s.alive[seat] ? 1 : 0,
      accuracy: mine.length ? correct / mine.length : 0,
      ballots: mine.length,
      correct,
    };
  });
}

function outcomeOf(s: UndercoverState): Outcome {
  const metrics = seatMetrics(s);
  const scores = metrics.map((m) => Math.round(compositeScore(m.win, m.survival, m.accuracy) * 1e6) / 1e6);
  const places = scores.map((x) => 1 + scores.filter((o) => o > x).length);
  return {
    scores,
    reason: s.finished!.reason,
    winner: null,
    places,
    detail: {
      winningTeam: s.finished!.winner,
      roles: s.roles.slice(),
      words: {
        civilian: s.pair.civilian,
        undercover: s.pair.undercover,
        category: s.pair.category,
        pair: s.pair.index,
      },
      win: metrics.map((m) => m.win),
      survival: metrics.map((m) => m.survival),
      votingAccuracy: metrics.map((m) => m.accuracy),
      rounds: s.round,
      eliminated: s.eliminated,
    },
  };
}

/**
 * What a seat may see: its word (and, in the variant, its role and both words), the statements,
 * who is out and how, and the closed ballots. Roles and words of others show once the game is over.
 */
export function playerView(s: UndercoverState, seat: Seat | null): Record<string, unknown> {
  const over = s.phase === 'over';
  const closed = s.ballots.filter(
    (b) => over || b.round < s.round || b.ballot < s.ballot || (b.round === s.round && s.phase === 'speak'),
  );
  const own =
    seat === null
      ? {}
      : { seat, word: wordOf(s, seat), ...(s.variant === 'variant' || over ? { role: s.roles[seat] } : {}) };
  return {
    variant: s.variant,
    category: s.pair.category,
    round: s.round,
    max_rounds: s.maxRounds,
    phase: s.phase,
    revote: s.ballot === 1 && s.phase === 'vote',
    candidates: s.candidates,
    speaking_order: s.order,
    audience: s.audience,
    alive: s.alive.flatMap((a, i) => (a && i !== s.audience ? [i] : [])),
    statements: s.statements.map((x) => ({
      round: x.round,
      seat: x.seat,
      statement: x.text,
      ...(x.fault ? { eliminated: x.fault } : {}),
    })),
    votes: closed.map((b) => ({ round: b.round, revote: b.ballot === 1, voter: b.voter, target: b.target })),
    eliminated: s.eliminated,
    ...own,
    ...(s.variant === 'variant' && seat !== null && seat !== s.audience
      ? { words: { civilian: s.pair.civilian, undercover: s.pair.undercover } }
      : {}),
    ...(over
      ? {
          result: {
            winner: s.finished!.winner,
            reason: s.finished!.reason,
            roles: s.roles,
            words: { civilian: s.pair.civilian, undercover: s.pair.undercover },
          },
        }
      : {}),
  };
}
