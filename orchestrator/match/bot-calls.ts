// How the arena asks a bot to join and to act, with the adapter's CATArena retries: one place
// for the match runner and the validation probe, so both ask exactly as a game does.
import type { FailureKind, Seat } from '../../records/match.ts';
import type { TurnContext, WireAdapter, WireCall } from '../../games/core/wire.ts';
import type { BotClient, CallFailure, CallOptions, CallResult } from './bot-client.ts';

export function sendCall(client: BotClient, call: WireCall, options: CallOptions): Promise<CallResult> {
  return client.post(call.path, call.body, { ...options, form: call.form });
}

/** A join's answer, and how many join requests it took (2 when the adapter's retry was sent). */
export type JoinResult = CallResult & { requests: number };

/** POST the join; a refusal the adapter knows CATArena retries is tried once more. */
export async function joinBot(
  client: BotClient,
  adapter: WireAdapter<unknown, unknown>,
  state: unknown,
  seat: Seat,
  ctx: TurnContext,
  options: CallOptions,
): Promise<JoinResult> {
  const first = await sendCall(client, adapter.join!(state, seat, ctx), options);
  if (first.ok || first.failure.kind !== 'http_error' || !adapter.retryJoin) return { ...first, requests: 1 };
  const retry = adapter.retryJoin(first.failure, state, seat, ctx);
  if (!retry) return { ...first, requests: 1 };
  const second = await sendCall(client, retry, options);
  const latencyMs = first.latencyMs + second.latencyMs;
  return second.ok
    ? { ...second, latencyMs, requests: 2 }
    : { ok: false, failure: first.failure, latencyMs, requests: 2 };
}

export type TurnAnswer<A = unknown> =
  | { ok: true; action: A; latencyMs: number; body: unknown; retriedAfter?: string }
  | {
      ok: false;
      failure: { kind: FailureKind; message: string; catarena?: FailureKind };
      latencyMs: number;
      body?: unknown;
    };

/**
 * Asks the seat's bot for its action and checks it: transport, parsing, then the rules. An HTTP
 * error is retried once where the adapter says CATArena does, within what is left of the deadline;
 * the move's latency is the time of both calls.
 */
export async function askBot(
  client: BotClient,
  adapter: WireAdapter<unknown, unknown>,
  state: unknown,
  seat: Seat,
  ctx: TurnContext,
  options: CallOptions,
): Promise<TurnAnswer> {
  let res = await sendCall(client, adapter.turn(state, seat, ctx), options);
  let latencyMs = res.latencyMs;
  let parse = adapter.parse;
  let retriedAfter: CallFailure | undefined;
  if (!res.ok && res.failure.kind === 'http_error' && adapter.retryTurn && options.deadlineMs - latencyMs > 0) {
    retriedAfter = res.failure;
    const second = await sendCall(client, adapter.retryTurn(state, seat, ctx), {
      ...options,
      deadlineMs: options.deadlineMs - latencyMs,
    });
    latencyMs += second.latencyMs;
    if (second.ok) {
      res = second;
      parse = adapter.parseRetry ?? adapter.parse;
    }
  }
  if (!res.ok) return { ok: false, failure: { kind: res.failure.kind, message: res.failure.message }, latencyMs };
  const parsed = parse(res.body, state, seat);
  if (!parsed.ok)
    return {
      ok: false,
      failure: {
        kind: parsed.kind,
        message: parsed.message,
        ...(parsed.catarena ? { catarena: parsed.catarena } : {}),
      },
      latencyMs,
      body: res.body,
    };
  const illegal = adapter.game.validate(state, seat, parsed.action);
  if (illegal)
    return {
      ok: false,
      failure: {
        kind: 'illegal',
        message: `illegal move ${JSON.stringify(adapter.encode(parsed.action))}: ${illegal}`,
      },
      latencyMs,
      body: res.body,
    };
  return {
    ok: true,
    action: parsed.action,
    latencyMs,
    body: res.body,
    ...(retriedAfter ? { retriedAfter: retriedAfter.message } : {}),
  };
}
