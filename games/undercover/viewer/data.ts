// The Undercover replay viewer's data (games/core/viewer.ts), computed with the game's own rules.
//
// A game is short (a few dozen decisions), so the whole story is kept once in `extra` and every
// event carries `k`, the step that shows it (the number of moves played when it happened): the
// statements (with their check fault), the ballots, the closing of each ballot (out / tie →
// revote / nobody) and the eliminations. The renderer (viewer/render.js) shows at step k the
// events with k ≤ step. frames[k] is where the game stands after k moves: [round, phase, ballot
// (0 the round's vote, 1 the revote), the revote's candidates or null].
//
// The viewer is for people reading the replay after the game: every seat's role and word, and
// both words, are shown (marked as hidden from the players in the standard rules). Drawn for a
// perspective (a game in play on a live page), it keeps what those seats may see (hideFor).
//
// Recorded actions are the rules' own UndercoverAction (a failed speech or vote is recorded as
// the wire's fallback, `silent` / `abstain`); a null action changed nothing, as in games/replay.ts.
import type { Replay } from '../../../records/match.ts';
import { initSetup } from '../../core/game.ts';
import { createRng } from '../../../util/rng.ts';
import { HIDDEN_CARD, type ViewerData, type ViewerMove, type ViewerPerspective } from '../../core/viewer.ts';
import { playerView, seatMetrics, undercover, wordOf, type UndercoverAction, type UndercoverState } from '../rules.ts';
import type { Role } from '../roles.ts';

export type UndercoverFrame = [
  round: number,
  phase: 'speak' | 'vote' | 'over',
  ballot: 0 | 1,
  candidates: number[] | null,
];

export interface UndercoverViewerExtra {
  category: string;
  words: { civilian: string; undercover: string };
  roles: Role[];
  /** Each seat's word (null for the audience). */
  seatWords: (string | null)[];
  order: number[];
  audience: number | null;
  maxRounds: number;
  statements: Array<{ k: number; round: number; seat: number; text: string | null; fault: string | null }>;
  ballots: Array<{ k: number; round: number; ballot: 0 | 1; voter: number; target: number | null }>;
  /** A ballot's count when it closed: one out, a tie revoted among `tied`, or nobody out. */
  closes: Array<{
    k: number;
    round: number;
    ballot: 0 | 1;
    result: 'out' | 'revote' | 'nobody';
    seat?: number;
    tied?: number[];
  }>;
  eliminated: Array<{ k: number; seat: number; round: number; by: string }>;
  /** The step at which the game was over (null if the replay stops before the end). */
  overAt: number | null;
  final: null | {
    winner: 'civilian' | 'undercover';
    reason: string;
    rounds: number;
    scores: number[];
    places: number[];
    win: number[];
    survival: number[];
    accuracy: number[];
  };
  /** Set when the recorded moves could not all be re-applied (a corrupt replay): where it stopped. */
  broken?: { ply: number; message: string };
}

export const REASON_WORDS: Record<string, string> = {
  undercover_out: 'every undercover player is out',
  undercover_majority: 'the undercover players are at least as many as the civilians',
  round_cap: 'an undercover player was still in at the round cap',
};

export const BY_WORDS: Record<string, string> = {
  vote: 'voted out',
  silent: 'no statement (bot failure)',
};

function moveText(action: UndercoverAction): string {
  switch (action.kind) {
    case 'speak': {
      const t = action.statement.replace(/\s+/g, ' ').trim();
      return `says “${t.length > 60 ? `${t.slice(0, 59)}…` : t}”`;
    }
    case 'vote':
      return `votes seat ${action.target}`;
    case 'silent':
      return 'says nothing';
    case 'abstain':
      return 'ballot lost';
  }
}

/** A word or role this view may not see. */
const HIDDEN = HIDDEN_CARD;

/**
 * Cuts `x` (and the votes' move texts) down to what `perspective` may see, by the rules' own seat
 * view (rules.ts playerView): the category, the statements, the closed ballots and the
 * eliminations are everyone's; a seat's word, its role (the variant) and both words (the variant)
 * are its own; a vote of a ballot still open is only the voter's. Mutates `x` and `moves`.
 */
function hideFor(
  state: UndercoverState,
  x: UndercoverViewerExtra,
  moves: ViewerMove[],
  perspective: ViewerPerspective,
): void {
  const everyone = playerView(state, null);
  const views = perspective.seats.map((seat) => playerView(state, seat));
  const words = views.find((v) => v.words)?.words as UndercoverViewerExtra['words'] | undefined;
  x.words = words ?? { civilian: HIDDEN, undercover: HIDDEN };
  x.roles = x.roles.map((role, seat) => {
    if (seat === everyone.audience) return role;
    const own = views.find((v) => v.seat === seat);
    return (own?.role as Role | undefined) ?? (HIDDEN as Role);
  });
  x.seatWords = x.seatWords.map((word, seat) =>
    seat === everyone.audience ? word : ((views.find((v) => v.seat === seat)?.word as string | null) ?? HIDDEN),
  );
  const closed = (everyone.votes as Array<{ round: number; revote: boolean; voter: number }>).map(
    (v) => `${v.round}/${v.revote ? 1 : 0}/${v.voter}`,
  );
  const open = x.ballots.filter(
    (b) => !perspective.seats.includes(b.voter) && !closed.includes(`${b.round}/${b.ballot}/${b.voter}`),
  );
  for (const b of open) {
    const move = moves[b.k - 1];
    if (move) move.text = 'votes';
  }
  x.ballots = x.ballots.filter((b) => !open.includes(b));
}

export function viewerData(replay: Replay, perspective?: ViewerPerspective): ViewerData {
  const { result } = replay;
  const { spec } = result;
  let state: UndercoverState = undercover.init(spec.variant, createRng(spec.seed), initSetup(spec));
  const frameOf = (s: UndercoverState): UndercoverFrame => [
    s.round,
    s.phase,
    s.ballot,
    s.candidates ? s.candidates.slice() : null,
  ];
  const frames: UndercoverFrame[] = [frameOf(state)];
  const moves: ViewerMove[] = [];
  const closes: UndercoverViewerExtra['closes'] = [];
  const statementStep: number[] = [];
  const ballotStep: number[] = [];
  const eliminationStep: number[] = [];
  let overAt: number | null = null;
  let broken: UndercoverViewerExtra['broken'];

  replay.moves.forEach((record, i) => {
    const k = i + 1;
    const error = record.error ? `${record.error.kind}: ${record.error.message}` : undefined;
    const action = record.action as UndercoverAction | null;
    const notes: string[] = [];
    let text = '—';
    if (action !== null && action !== undefined && !broken) {
      const before = state;
      try {
        state = undercover.apply(state, record.seat, action);
        text = moveText(action);
        for (let j = statementStep.length; j < state.statements.length; j++) statementStep.push(k);
        for (let j = ballotStep.length; j < state.ballots.length; j++) ballotStep.push(k);
        for (let j = eliminationStep.length; j < state.eliminated.length; j++) eliminationStep.push(k);
        const said = state.statements[state.statements.length - 1];
        if (before.phase === 'speak' && said?.fault)
          notes.push(`out: ${BY_WORDS[said.fault] ?? `statement check: ${said.fault.replace(/_/g, ' ')}`}`);
        if (before.phase === 'speak' && before.round > 1 && before.pending.length === aliveCount(before))
          notes.push(`round ${before.round}`);
        // A ballot closed: the vote phase of that round and ballot is over.
        if (
          before.phase === 'vote' &&
          (state.phase !== 'vote' || state.ballot !== before.ballot || state.round !== before.round)
        ) {
          const out =
            state.eliminated.length > before.eliminated.length ? state.eliminated[state.eliminated.length - 1]! : null;
          const close =
            out && out.by === 'vote'
              ? { k, round: before.round, ballot: before.ballot, result: 'out' as const, seat: out.seat }
              : state.phase === 'vote' && state.ballot === 1 && before.ballot === 0
                ? {
                    k,
                    round: before.round,
                    ballot: before.ballot,
                    result: 'revote' as const,
                    tied: state.candidates!.slice(),
                  }
                : { k, round: before.round, ballot: before.ballot, result: 'nobody' as const };
          closes.push(close);
          notes.push(
            close.result === 'out'
              ? `seat ${close.seat} voted out`
              : close.result === 'revote'
                ? `tie: revote among seats ${close.tied!.join(', ')}`
                : 'nobody out',
          );
        }
        if (state.phase === 'over' && overAt === null) overAt = k;
      } catch (err) {
        broken = { ply: i, message: (err as Error).message };
      }
    }
    if (record.standIn) notes.push('stand-in');
    frames.push(frameOf(state));
    moves.push({
      ply: record.ply,
      seat: record.seat,
      text,
      latencyMs: record.latencyMs,
      ...(error ? { error } : {}),
      ...(notes.length ? { note: notes.join('; ') } : {}),
    });
  });

  const outcome = state.finished ? undercover.outcome(state) : null;
  const metrics = seatMetrics(state);
  const extra: UndercoverViewerExtra = {
    category: state.pair.category,
    words: { civilian: state.pair.civilian, undercover: state.pair.undercover },
    roles: state.roles.slice(),
    seatWords: state.roles.map((_, seat) => wordOf(state, seat)),
    order: state.order.slice(),
    audience: state.audience,
    maxRounds: state.maxRounds,
    statements: state.statements.map((x, j) => ({
      k: statementStep[j]!,
      round: x.round,
      seat: x.seat,
      text: x.text,
      fault: x.fault,
    })),
    ballots: state.ballots.map((b, j) => ({
      k: ballotStep[j]!,
      round: b.round,
      ballot: b.ballot,
      voter: b.voter,
      target: b.target,
    })),
    closes,
    eliminated: state.eliminated.map((e, j) => ({ k: eliminationStep[j]!, seat: e.seat, round: e.round, by: e.by })),
    overAt,
    final:
      state.finished && outcome
        ? {
            winner: state.finished.winner,
            reason: state.finished.reason,
            rounds: state.round,
            scores: outcome.scores.slice(),
            places: (outcome.places ?? []).slice(),
            win: metrics.map((m) => m.win),
            survival: metrics.map((m) => m.survival),
            accuracy: metrics.map((m) => m.accuracy),
          }
        : null,
    ...(broken ? { broken } : {}),
  };
  if (perspective) hideFor(state, extra, moves, perspective);
  return {
    game: 'undercover',
    variant: spec.variant,
    id: result.id,
    seats: [...spec.seats],
    seatNames: spec.seats.map((_, seat) => `seat ${seat}`),
    moves,
    frames,
    result: resultLine(replay, extra),
    extra: extra as unknown as Record<string, unknown>,
  };
}

const aliveCount = (s: UndercoverState) => s.order.filter((seat) => s.alive[seat]).length;

function resultLine(replay: Replay, x: UndercoverViewerExtra): string {
  const r = replay.result;
  if (r.termination !== 'normal') return `${r.termination}: ${r.reason}`;
  if (!x.final) return r.reason.replace(/_/g, ' ');
  const team =
    x.final.winner === 'civilian'
      ? x.audience !== null
        ? 'civilians (and the audience) win'
        : 'civilians win'
      : 'undercover wins';
  return `${team}: ${REASON_WORDS[x.final.reason] ?? x.final.reason.replace(/_/g, ' ')}, after ${x.final.rounds} round${x.final.rounds === 1 ? '' : 's'}`;
}
