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
import type { LiveGame, WireAdapter } from '../../games/core/wire.ts';
import type { LiveListener } from '../../records/live.ts';
import { askBot, joinBot, sendCall, type JoinResult } from './bot-calls.ts';
import type { GameServer } from '../game-server/game-server.ts';
import { holderOf } from '../game-server/seat-ledger.ts';
import type { BotClient } from './bot-client.ts';
import { CpuSlots } from '../concurrency/cpu-slots.ts';

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

export async function runMatch(spec: MatchSpec, options: RunMatchOptions): Promise<Replay> {
  const { adapter, host, bots } = options;
  const game = adapter.game;
  const slots = options.slots ?? new CpuSlots(1);
  if (bots.length !== spec.seats.length) throw new Error(`match needs ${spec.seats.length} bots, got ${bots.length}`);

  const started = performance.now();
  const startedAt = new Date().toISOString();
  let state = game.init(spec.variant, createRng(spec.seed), initSetup(spec));
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
  const moves: MoveRecord[] = [];
  const seatStats = spec.seats.map(() => emptySeatStats(adapter.join !== undefined));
  const maxPlies = options.maxPlies ?? 100_000;
  const id = matchId(spec);
  const now = () => new Date().toISOString();
  const emit: LiveListener = (event) => {
    try {
      options.onLive?.(event);
    } catch {
      // an observer never stops a game
    }
  };
  /** A seat's per-move deadline: its strategy's own (a human seat's), else the match's. */
  const moveMs = (seat: Seat) => spec.limits.seatMoveMs?.[spec.seats[seat]!] ?? spec.limits.moveMs;
  const pushMove = (move: MoveRecord) => {
    moves.push(move);
    emit({ type: 'move', id, gameId: live.id, move, at: now(), state });
  };
  emit({ type: 'start', id, gameId: live.id, spec, setup, at: startedAt, state });

  let ended: { outcome: Outcome; termination: Termination; offender: Seat | null; reason: string } | undefined;

  // A bot that never started: a stand-in plays its seat where the game has one, else it forfeits.
  const standIns = adapter.standIn ? bots.flatMap((b, seat) => (b.client === null ? [seat] : [])) : [];
  for (const seat of standIns) count(seatStats[seat]!, 'crash');
  const missing = adapter.standIn ? -1 : bots.findIndex((b) => b.client === null);
  if (missing >= 0) {
    count(seatStats[missing]!, 'crash');
    const outcome = adapter.onFailure(state, missing, 'crash', spec.policy);
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
    ended = {
      outcome: end,
      termination: 'crash',
      offender: missing,
      reason: `bot did not start: ${bots[missing]!.unavailable ?? 'unavailable'}${end !== outcome.end ? "; the other side's bot did not start either" : ''}`,
    };
  }

  // Joins, in the adapter's order (seat order by default: black, then white, as CATArena).
  if (adapter.join) {
    for (const seat of adapter.joinOrder ?? bots.map((_, s) => s)) {
      if (ended) break;
      const client = bots[seat]!.client!;
      // Sent once its bot answers no other game's call, so another game's move clock never counts it.
      const res = await slots.withBot(client, () =>
        joinCounted(seatStats[seat]!, client, adapter, state, seat, ctx, {
          deadlineMs: spec.limits.joinMs,
          maxResponseBytes: spec.limits.maxResponseBytes,
        }),
      );
      if (!res.ok) {
        count(seatStats[seat]!, 'join_failed');
        const outcome = adapter.onJoinFailure(state, seat, spec.policy);
        if (outcome)
          ended = {
            outcome,
            termination: 'join_failed',
            offender: seat,
            reason: `join_game failed: ${res.failure.message}`,
          };
      }
    }
  }

  while (!ended) {
    const done = game.outcome(state);
    if (done) {
      ended = { outcome: done, termination: 'normal', offender: null, reason: done.reason };
      break;
    }
    if (moves.length >= maxPlies)
      throw new Error(`${spec.game}/${spec.variant} did not end within ${maxPlies} plies (rules bug?)`);
    const loopStart = performance.now();
    const seat = game.toMove(state)!;
    const stats = seatStats[seat]!;
    const client = bots[seat]!.client;
    if (!client) {
      const action = adapter.standIn!(state, seat);
      state = game.apply(state, seat, action);
      const encoded = adapter.encode(action);
      live.state = state;
      live.history.push({ seat, action: encoded, timestamp: new Date().toISOString() });
      pushMove({ ply: moves.length, seat, action: encoded, latencyMs: 0, standIn: true });
      continue;
    }
    // Its bot free first (no slot held while it answers another game), then a slot.
    await slots.acquire(client);
    let answer;
    try {
      emit({ type: 'turn', id, gameId: live.id, seat, deadlineMs: moveMs(seat), at: now(), state });
      answer = await askBot(client, adapter, state, seat, ctx, {
        deadlineMs: moveMs(seat),
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
      count(stats, failure.kind);
      const judged = spec.policy === 'catarena' ? (failure.catarena ?? failure.kind) : failure.kind;
      const resolution = adapter.onFailure(state, seat, judged, spec.policy);
      if ('end' in resolution) {
        pushMove({
          ply: moves.length,
          seat,
          action: null,
          latencyMs: round(answer.latencyMs),
          error: { kind: failure.kind, message: failure.message },
        });
        ended = { outcome: resolution.end, termination: failure.kind, offender: seat, reason: failure.message };
        break;
      }
      action = resolution.action;
    }

    state = game.apply(state, seat, action);
    const encoded = adapter.encode(action);
    live.state = state;
    live.history.push({ seat, action: encoded, timestamp: new Date().toISOString() });
    pushMove({
      ply: moves.length,
      seat,
      action: encoded,
      latencyMs: round(answer.latencyMs),
      ...(failure ? { error: { kind: failure.kind, message: failure.message } } : {}),
      ...(answer.ok && answer.retriedAfter ? { retriedAfter: answer.retriedAfter } : {}),
    });
    options.onMoveTiming?.(performance.now() - loopStart, answer.latencyMs);
  }

  // Tell bots the game is over (CATArena never does; bots that keep per-game state like it).
  if (adapter.leave && missing < 0) {
    await Promise.all(
      bots.map(async (bot, seat) => {
        // A bot that just timed out or crashed would only make us wait again.
        if (seat === ended.offender && (ended.termination === 'timeout' || ended.termination === 'crash')) return;
        const client = bot.client;
        if (!client) return;
        return slots.withBot(client, () =>
          sendCall(client, adapter.leave!(state, seat, ctx), {
            deadlineMs: spec.limits.joinMs,
            maxResponseBytes: spec.limits.maxResponseBytes,
          }),
        );
      }),
    );
  }
  const integrity = host.finish(live.id);

  emit({
    type: 'end',
    id,
    gameId: live.id,
    scores: ended.outcome.scores,
    winner: ended.outcome.winner,
    termination: ended.termination,
    reason: ended.reason,
    at: now(),
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
    seatStats: seatStats.map((s) => ({ ...s, totalMs: round(s.totalMs), maxMs: round(s.maxMs) })),
    startedAt,
    durationMs: round(performance.now() - started),
  };
  return { result, setup, moves };
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
