// Plays one game from a MatchSpec against running bots, through the game's wire adapter.
// The runner owns time (deadlines, latencies) and failure handling; the rules own the outcome.
import { initSetup, type Outcome } from '../../games/core/game.ts';
import {
  type FailureKind,
  matchId,
  type MatchResult,
  type MatchSpec,
  type MoveRecord,
  type Replay,
  type Seat,
  type SeatStats,
  type Termination,
} from '../../records/match.ts';
import { createRng } from '../../util/rng.ts';
import type { FailureResolution, LiveGame, TurnContext, WireAdapter } from '../../games/core/wire.ts';
import type { LiveListener } from '../../records/live.ts';
import { askBot, joinBot, sendCall, type JoinResult, type TurnAnswer } from './bot-calls.ts';
import type { GameServer } from '../game-server/game-server.ts';
import { holderOf } from '../game-server/seat-ledger.ts';
import type { BotClient } from './bot-client.ts';
import { CpuSlots } from '../concurrency/cpu-slots.ts';
import { isoNow } from '../../util/iso-clock.ts';

export interface SeatBot {
  strategyId: string;
  /** Null when the bot could not be started: the seat forfeits without playing. */
  client: BotClient | null;
  /** Why the bot is unavailable (start error), for the result's reason. */
  unavailable?: string;
}

export interface RunMatchOptions {
  adapter: WireAdapter<unknown, unknown>;
  host: GameServer;
  /** One bot per seat, in seat order. */
  bots: SeatBot[];
  /** Busy-bot slots shared by all concurrent games (default: one). */
  slots?: CpuSlots;
  /** Safety net against a rules bug that never ends a game. */
  maxPlies?: number;
  /** Observer for benchmarks: per-move loop time and the HTTP part of it. */
  onMoveTiming?: (loopMs: number, latencyMs: number) => void;
  /** Observer of the game in flight: start, each turn asked and move played, end (records/live.ts). */
  onLive?: LiveListener;
}

/** How a game ended, and who (if anyone) ended it. */
interface MatchEnd {
  outcome: Outcome;
  termination: Termination;
  offender: Seat | null;
  reason: string;
}

/** One game in flight: what its steps share (made once per game, never per move). */
interface MatchRun {
  spec: MatchSpec;
  options: RunMatchOptions;
  adapter: WireAdapter<unknown, unknown>;
  game: WireAdapter<unknown, unknown>['game'];
  bots: SeatBot[];
  slots: CpuSlots;
  id: string;
  state: unknown;
  setup: unknown;
  live: LiveGame;
  ctx: TurnContext;
  moves: MoveRecord[];
  seatStats: SeatStats[];
  started: number;
  startedAt: string;
}

export async function runMatch(spec: MatchSpec, options: RunMatchOptions): Promise<Replay> {
  const { adapter, bots } = options;
  if (bots.length !== spec.seats.length) throw new Error(`match needs ${spec.seats.length} bots, got ${bots.length}`);
  const run = startMatch(spec, options);

  // A bot that never started: a stand-in plays its seat where the game has one, else it forfeits.
  const standIns = adapter.standIn ? bots.flatMap((b, seat) => (b.client === null ? [seat] : [])) : [];
  for (const seat of standIns) count(run.seatStats[seat]!, 'crash');
  const missing = adapter.standIn ? -1 : bots.findIndex((b) => b.client === null);
  let ended = missing >= 0 ? forfeitMissingBot(run, missing) : undefined;
  if (!ended && adapter.join) ended = await joinSeats(run);
  if (!ended) ended = await playMoves(run);

  if (adapter.leave && missing < 0) await tellBotsGameOver(run, ended);
  return finishMatch(run, ended, standIns);
}

/** The game set up, registered with the game server and announced to the live observer. */
function startMatch(spec: MatchSpec, options: RunMatchOptions): MatchRun {
  const { adapter, host, bots } = options;
  const game = adapter.game;
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const state = game.init(spec.variant, createRng(spec.seed), initSetup(spec));
  const setup = adapter.setup?.(state) ?? null;
  const live: LiveGame = {
    id: host.newGameId(),
    variant: spec.variant,
    state,
    history: [],
    seatIds: spec.seats,
    managedByArena: true,
    createdAt: startedAt,
  };
  // Who holds each seat: the game server serves a seat's private state to its bot only.
  host.register(
    live,
    bots.map((b) => (b.client ? holderOf(b.client.callerId) : null)),
  );
  const ctx = { gameId: live.id, gameServerUrl: host.url, options: spec.options, seatIds: spec.seats };
  const run: MatchRun = {
    spec,
    options,
    adapter,
    game,
    bots,
    slots: options.slots ?? new CpuSlots(1),
    id: matchId(spec),
    state,
    setup,
    live,
    ctx,
    moves: [],
    seatStats: spec.seats.map(() => emptySeatStats(adapter.join !== undefined)),
    started,
    startedAt,
  };
  emit(run, { type: 'start', id: run.id, gameId: live.id, spec, setup, at: startedAt, state });
  return run;
}

/** The end when a seat's bot never started and the game has no stand-in for it. */
function forfeitMissingBot(run: MatchRun, missing: Seat): MatchEnd {
  const { spec, bots, seatStats } = run;
  count(seatStats[missing]!, 'crash');
  const outcome = run.adapter.onFailure(run.state, missing, 'crash', spec.policy);
  if (!('end' in outcome))
    throw new Error(`${spec.game}: a bot that never started must end the game or have a stand-in`);
  // When the other side's bot did not start either, nobody wins what nobody played: every
  // seat without a bot scores 0 (otherwise seat order would hand one of them a win).
  const absent = bots.flatMap((b, seat) => (b.client === null && seat !== missing ? [seat] : []));
  let end = outcome.end;
  if (absent.some((seat) => end.scores[seat]! > 0)) {
    end = {
      ...end,
      scores: end.scores.map((x, seat) => (bots[seat]!.client === null ? 0 : x)),
      winner: end.winner !== null && bots[end.winner]!.client === null ? null : end.winner,
    };
    if (end.places) end = { ...end, places: end.scores.map((x) => (x > 0 ? 1 : 2)) };
  }
  // Each other strategy whose bot did not start counts its failed start once (in its first seat).
  for (const id of new Set(absent.map((seat) => spec.seats[seat]!).filter((id) => id !== spec.seats[missing])))
    count(seatStats[spec.seats.indexOf(id)]!, 'crash');
  return {
    outcome: end,
    termination: 'crash',
    offender: missing,
    reason: `bot did not start: ${bots[missing]!.unavailable ?? 'unavailable'}${end !== outcome.end ? "; the other side's bot did not start either" : ''}`,
  };
}

/** Joins, in the adapter's order (seat order by default: black, then white, as CATArena). */
async function joinSeats(run: MatchRun): Promise<MatchEnd | undefined> {
  const { spec, adapter, bots } = run;
  for (const seat of adapter.joinOrder ?? bots.map((_, s) => s)) {
    const client = bots[seat]!.client!;
    // Sent once its bot answers no other game's call, so another game's move clock never counts it.
    const res = await run.slots.withBot(client, () =>
      joinCounted(run.seatStats[seat]!, client, adapter, run.state, seat, run.ctx, {
        deadlineMs: spec.limits.joinMs,
        maxResponseBytes: spec.limits.maxResponseBytes,
      }),
    );
    if (res.ok) continue;
    count(run.seatStats[seat]!, 'join_failed');
    const outcome = adapter.onJoinFailure(run.state, seat, spec.policy);
    if (outcome)
      return {
        outcome,
        termination: 'join_failed',
        offender: seat,
        reason: `join_game failed: ${res.failure.message}`,
      };
  }
  return undefined;
}

/**
 * Asks each seat to move until the rules or a failure end the game: the hot path of every game,
 * so one await per move (the bot's answer) and nothing allocated beyond the move's own records.
 */
async function playMoves(run: MatchRun): Promise<MatchEnd> {
  const { spec, adapter, game, bots, slots, live, moves, seatStats } = run;
  const maxPlies = run.options.maxPlies ?? 100_000;
  for (;;) {
    const done = game.outcome(run.state);
    if (done) return { outcome: done, termination: 'normal', offender: null, reason: done.reason };
    if (moves.length >= maxPlies)
      throw new Error(`${spec.game}/${spec.variant} did not end within ${maxPlies} plies (rules bug?)`);
    const loopStart = performance.now();
    const seat = game.toMove(run.state)!;
    const stats = seatStats[seat]!;
    const client = bots[seat]!.client;
    if (!client) {
      const encoded = applyMove(run, seat, adapter.standIn!(run.state, seat));
      pushMove(run, { ply: moves.length, seat, action: encoded, latencyMs: 0, standIn: true });
      continue;
    }
    // Its bot free first (no slot held while it answers another game), then a slot.
    await slots.acquire(client);
    let answer: TurnAnswer;
    try {
      const deadlineMs = moveMs(spec, seat);
      emit(run, { type: 'turn', id: run.id, gameId: live.id, seat, deadlineMs, at: isoNow(), state: run.state });
      answer = await askBot(client, adapter, run.state, seat, run.ctx, {
        deadlineMs,
        maxResponseBytes: spec.limits.maxResponseBytes,
      });
    } finally {
      slots.release(client);
    }
    stats.moves++;
    stats.totalMs += answer.latencyMs;
    stats.maxMs = Math.max(stats.maxMs, answer.latencyMs);
    const failure = answer.ok ? undefined : answer.failure;
    let action = answer.ok ? answer.action : undefined;
    if (failure) {
      const resolution = judgeFailure(run, seat, failure, answer.latencyMs);
      if ('end' in resolution)
        return { outcome: resolution.end, termination: failure.kind, offender: seat, reason: failure.message };
      action = resolution.action;
    }
    const encoded = applyMove(run, seat, action);
    pushMove(run, {
      ply: moves.length,
      seat,
      action: encoded,
      latencyMs: round(answer.latencyMs),
      ...(failure ? { error: { kind: failure.kind, message: failure.message } } : {}),
      ...(answer.ok && answer.retriedAfter ? { retriedAfter: answer.retriedAfter } : {}),
    });
    run.options.onMoveTiming?.(performance.now() - loopStart, answer.latencyMs);
  }
}

type TurnFailure = Extract<TurnAnswer, { ok: false }>['failure'];

/** A failed turn under the match's policy: the game ends (the move recorded as an error) or an action stands in. */
function judgeFailure(run: MatchRun, seat: Seat, failure: TurnFailure, latencyMs: number): FailureResolution<unknown> {
  const { spec } = run;
  count(run.seatStats[seat]!, failure.kind);
  const judged = spec.policy === 'catarena' ? (failure.catarena ?? failure.kind) : failure.kind;
  const resolution = run.adapter.onFailure(run.state, seat, judged, spec.policy);
  if ('end' in resolution)
    pushMove(run, {
      ply: run.moves.length,
      seat,
      action: null,
      latencyMs: round(latencyMs),
      error: { kind: failure.kind, message: failure.message },
    });
  return resolution;
}

/** Plays `action` for `seat` on the game and its live view; returns the action as sent on the wire. */
function applyMove(run: MatchRun, seat: Seat, action: unknown): unknown {
  run.state = run.game.apply(run.state, seat, action);
  const encoded = run.adapter.encode(action);
  run.live.state = run.state;
  run.live.history.push({ seat, action: encoded, timestamp: isoNow() });
  return encoded;
}

/** Tells bots the game is over (CATArena never does; bots that keep per-game state like it). */
async function tellBotsGameOver(run: MatchRun, ended: MatchEnd): Promise<void> {
  const { spec, adapter } = run;
  await Promise.all(
    run.bots.map(async (bot, seat) => {
      // A bot that just timed out or crashed would only make us wait again.
      if (seat === ended.offender && (ended.termination === 'timeout' || ended.termination === 'crash')) return;
      const client = bot.client;
      if (!client) return;
      return run.slots.withBot(client, () =>
        sendCall(client, adapter.leave!(run.state, seat, run.ctx), {
          deadlineMs: spec.limits.joinMs,
          maxResponseBytes: spec.limits.maxResponseBytes,
        }),
      );
    }),
  );
}

/** Closes the game on the server, announces its end and builds its replay. */
function finishMatch(run: MatchRun, ended: MatchEnd, standIns: Seat[]): Replay {
  const { id, spec, live, bots } = run;
  const integrity = run.options.host.finish(live.id);
  emit(run, {
    type: 'end',
    id,
    gameId: live.id,
    scores: ended.outcome.scores,
    winner: ended.outcome.winner,
    termination: ended.termination,
    reason: ended.reason,
    at: isoNow(),
  });
  const result: MatchResult = {
    id,
    spec,
    serverGameId: live.id,
    scores: ended.outcome.scores,
    winner: ended.outcome.winner,
    termination: ended.termination,
    reason: ended.reason,
    offender: ended.offender,
    ...(ended.outcome.places ? { places: ended.outcome.places } : {}),
    ...(ended.outcome.detail ? { detail: ended.outcome.detail } : {}),
    ...(standIns.length
      ? { standIns: standIns.map((seat) => ({ seat, reason: bots[seat]!.unavailable ?? 'unavailable' })) }
      : {}),
    ...(integrity.length ? { integrity } : {}),
    plies: live.history.length,
    seatStats: run.seatStats.map((s) => ({ ...s, totalMs: round(s.totalMs), maxMs: round(s.maxMs) })),
    startedAt: run.startedAt,
    durationMs: round(performance.now() - run.started),
  };
  return { result, setup: run.setup, moves: run.moves };
}

/** A seat's per-move deadline: its strategy's own (a human seat's), else the match's. */
function moveMs(spec: MatchSpec, seat: Seat): number {
  return spec.limits.seatMoveMs?.[spec.seats[seat]!] ?? spec.limits.moveMs;
}

function pushMove(run: MatchRun, move: MoveRecord): void {
  run.moves.push(move);
  emit(run, { type: 'move', id: run.id, gameId: run.live.id, move, at: isoNow(), state: run.state });
}

/** Tells the live observer; an observer never stops a game. */
function emit(run: MatchRun, event: Parameters<LiveListener>[0]): void {
  try {
    run.options.onLive?.(event);
  } catch {
    // an observer never stops a game
  }
}

/** A seat's stats before the game; with a join step, its joins counted from 0 (0 for a seat the game ends before). */
function emptySeatStats(hasJoin: boolean): SeatStats {
  return { moves: 0, totalMs: 0, maxMs: 0, errors: {}, ...(hasJoin ? { joins: 0 } : {}) };
}

/** joinBot, with the join requests it took (its retry included) recorded in the seat's stats. */
async function joinCounted(stats: SeatStats, ...call: Parameters<typeof joinBot>): Promise<JoinResult> {
  const res = await joinBot(...call);
  stats.joins = res.requests;
  return res;
}

function count(stats: SeatStats, kind: FailureKind | 'join_failed'): void {
  stats.errors[kind] = (stats.errors[kind] ?? 0) + 1;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
