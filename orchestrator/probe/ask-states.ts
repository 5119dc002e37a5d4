// Putting a sampled state before one bot, exactly as a game does (orchestrator/match/bot-calls.ts,
// the machinery of the match runner and of the entry check): the state is registered with the
// game server as a live game (so bots that read it back find it), the seat joins where the game
// has joins, is asked for its action under the deadline, and leaves. Nothing a bot does here is
// fatal: a failure is an answer of its own kind.
import type { LiveGame, WireAdapter } from '../../games/core/wire.ts';
import { DEFAULT_LIMITS } from '../../records/match.ts';
import type { ProbeAnswer } from '../../reports/probe-consistency.ts';
import type { BotFleet } from '../executor/bot-fleet.ts';
import type { GameServer } from '../game-server/game-server.ts';
import { holderOf, type SeatHolder } from '../game-server/seat-ledger.ts';
import { askBot, joinBot, sendCall } from '../match/bot-calls.ts';
import type { BotClient } from '../match/bot-client.ts';
import type { ProbeRules } from './probe-rules.ts';
import type { SampledState } from './sample-states.ts';

const MAX_RESPONSE_BYTES = 1 << 20;

export interface AskContext {
  adapter: WireAdapter<unknown, unknown>;
  host: GameServer;
  rules: ProbeRules;
  /** Deadline of one action (leave: at most 2 s; a join has a game's join deadline, DEFAULT_LIMITS.joinMs). */
  timeoutMs: number;
}

/** One state asked of one running bot. */
export async function askState(client: BotClient, s: SampledState, ctx: AskContext): Promise<ProbeAnswer> {
  const { adapter, host } = ctx;
  const live: LiveGame = {
    id: host.newGameId(),
    variant: s.variant,
    state: s.state,
    history: s.history.slice(),
    seatIds: s.seatIds,
    managedByArena: true,
    createdAt: new Date().toISOString(),
  };
  const holders: SeatHolder[] = [];
  holders[s.seat] = holderOf(client.callerId); // the other seats play no bot
  host.register(live, holders);
  const turn = {
    gameId: live.id,
    gameServerUrl: host.url,
    seatIds: s.seatIds,
    ...(s.options ? { options: s.options } : {}),
  };
  try {
    if (adapter.join) {
      const joined = await joinBot(client, adapter, s.state, s.seat, turn, {
        deadlineMs: DEFAULT_LIMITS.joinMs,
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
      // A refused join counts as a failure where it would end the game (Gomoku); Bridge plays on, so do we.
      if (!joined.ok && adapter.onJoinFailure(s.state, s.seat, 'strict')) {
        return {
          ok: false,
          kind: 'join_failed',
          message: `/join_game failed (${joined.failure.kind}): ${joined.failure.message}`,
          latencyMs: Math.round(joined.latencyMs),
        };
      }
    }
    const answer = await askBot(client, adapter, s.state, s.seat, turn, {
      deadlineMs: ctx.timeoutMs,
      maxResponseBytes: MAX_RESPONSE_BYTES,
    });
    if (adapter.leave && (answer.ok || (answer.failure.kind !== 'timeout' && answer.failure.kind !== 'crash'))) {
      await sendCall(client, adapter.leave(s.state, s.seat, turn), {
        deadlineMs: Math.min(2_000, ctx.timeoutMs),
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
    }
    const latencyMs = Math.round(answer.latencyMs);
    if (!answer.ok) return { ok: false, kind: answer.failure.kind, message: answer.failure.message, latencyMs };
    return {
      ok: true,
      key: ctx.rules.key(adapter, s.state, s.seat, answer.action),
      action: adapter.encode(answer.action),
      latencyMs,
    };
  } finally {
    host.finish(live.id);
  }
}

/**
 * Every state asked of one subject's bot twice: all states in order, then all again (the second
 * pass is the diagonal's "asked twice"). The bot comes from the fleet, started on first use; after
 * a timeout or crash the fleet health-checks it before the next state and restarts it if it died.
 */
export async function askSubject(
  fleet: BotFleet,
  id: string,
  states: readonly SampledState[],
  ctx: AskContext,
  onAnswer?: () => void,
): Promise<[ProbeAnswer[], ProbeAnswer[]]> {
  const passes: [ProbeAnswer[], ProbeAnswer[]] = [[], []];
  for (const pass of passes) {
    for (const s of states) {
      const client = await fleet.client(id);
      let answer: ProbeAnswer;
      if (!client) {
        answer = {
          ok: false,
          kind: 'not_started',
          message: fleet.startError(id) ?? 'the bot did not start',
          latencyMs: 0,
        };
      } else {
        answer = await askState(client, s, ctx).catch((err: Error) => ({
          ok: false as const,
          kind: 'crash' as const,
          message: err.message,
          latencyMs: 0,
        }));
        if (!answer.ok && (answer.kind === 'timeout' || answer.kind === 'crash')) fleet.markSuspect(id);
      }
      pass.push(answer);
      onAnswer?.();
    }
  }
  return passes;
}
