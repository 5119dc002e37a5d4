// The compliance check a strategy passes before it plays (fastchess --compliance, CATArena's
// health check): it starts, answers health, joins, and answers legal moves on fixed positions.
import { createRng } from '../games/core/rng.ts';
import type { LiveGame } from '../games/core/wire.ts';
import { adapterFor } from '../games/registry.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { BotStartError } from '../sandbox/types.ts';
import { allocatePort, releasePort } from '../sandbox/ports.ts';
import type { GameServerPool } from './host/game-servers.ts';
import { BotClient } from './match/bot-client.ts';

export interface ProbeResult {
  name: string;
  ok: boolean;
  latencyMs: number;
  answer?: unknown;
  problem?: string;
}

export interface ValidationReport {
  dir: string;
  game: string;
  variant: string;
  ok: boolean;
  started: boolean;
  startMs: number;
  probes: ProbeResult[];
  /** Plain-words problems, empty when ok. */
  problems: string[];
  logTail: string;
}

export interface ValidateOptions {
  dir: string;
  game: string;
  variant: string;
  sandbox: Sandbox;
  hosts: GameServerPool;
  moveMs?: number;
  startTimeoutMs?: number;
  logFile?: string;
  /** Plies played before each probe position (deterministic). */
  probePlies?: number[];
}


/** The problems not tied to a probe: only a bot that never started has them (the probes did not run). */
export function startProblems(report: ValidationReport): string[] {
  return report.started ? [] : report.problems;
}

export async function validateBot(options: ValidateOptions): Promise<ValidationReport> {
  const adapter = adapterFor(options.game);
  const report: ValidationReport = { dir: options.dir, game: options.game, variant: options.variant, ok: false, started: false, startMs: 0, probes: [], problems: [], logTail: '' };
  const port = await allocatePort();
  const host = await options.hosts.get(options.game, options.variant);
  const t0 = performance.now();
  let handle;
  try {
    handle = await options.sandbox.start({ dir: options.dir, port, health: adapter.health, startTimeoutMs: options.startTimeoutMs, logFile: options.logFile, name: 'validate', ...host.botAccess() });
  } catch (err) {
    releasePort(port);
    report.problems.push(`the bot did not start: ${(err as Error).message}`);
    report.logTail = err instanceof BotStartError ? err.logTail : '';
    return report;
  }
  report.started = true;
  report.startMs = Math.round(performance.now() - t0);
  const client = new BotClient(handle.url, { socketPath: handle.socketPath });
  try {
    const moveMs = options.moveMs ?? 10_000;
    const limits = { deadlineMs: moveMs, maxResponseBytes: 1 << 20 };
    for (const plies of options.probePlies ?? [0, 1, 6, 15]) {
      const rng = createRng(1000 + plies);
      const seatIds = adapter.tables ? Array.from({ length: adapter.tables.probeSeats }, (_, i) => (i === 0 ? 'you' : `opponent_${i}`)) : undefined;
      let state = adapter.game.init(options.variant, rng, seatIds ? { seats: seatIds.length } : undefined);
      for (let k = 0; k < plies && adapter.game.outcome(state) === null; k++) {
        const seat = adapter.game.toMove(state)!;
        const legal = adapter.game.legalActions(state, seat);
        state = adapter.game.apply(state, seat, legal[rng.int(0, legal.length - 1)]);
      }
      const seat = adapter.game.toMove(state);
      if (seat === null) continue;
      const live: LiveGame = { id: host.newGameId(), variant: options.variant, state, history: [], seatIds, managedByArena: true, createdAt: new Date().toISOString() };
      host.register(live);
      const ctx = { gameId: live.id, gameServerUrl: host.url, seatIds };
      const name = `position after ${plies} plies (${adapter.game.seatNames(options.variant)[seat] ?? `seat ${seat}`} to move)`;
      if (adapter.join) {
        const call = adapter.join(state, seat, ctx);
        const res = await client.post(call.path, call.body, { deadlineMs: 5_000, maxResponseBytes: 1 << 20 });
        if (!res.ok) {
          report.probes.push({ name: `${call.path} for ${name}`, ok: false, latencyMs: Math.round(res.latencyMs), problem: `${call.path} failed (${res.failure.kind}): ${res.failure.message}` });
          host.finish(live.id);
          continue;
        }
      }
      const call = adapter.turn(state, seat, ctx);
      const res = await client.post(call.path, call.body, limits);
      const probe: ProbeResult = { name, ok: false, latencyMs: Math.round(res.latencyMs) };
      if (!res.ok) probe.problem = `${call.path} failed (${res.failure.kind}): ${res.failure.message}`;
      else {
        probe.answer = res.body;
        const parsed = adapter.parse(res.body, state, seat);
        if (!parsed.ok) probe.problem = `${call.path} answer is ${parsed.kind}: ${parsed.message}`;
        else {
          const illegal = adapter.game.validate(state, seat, parsed.action);
          if (illegal) probe.problem = `${call.path} answered an illegal move ${JSON.stringify(adapter.encode(parsed.action))}: ${illegal}`;
          else probe.ok = true;
        }
      }
      report.probes.push(probe);
      if (adapter.leave) {
        const leave = adapter.leave(state, seat, ctx);
        await client.post(leave.path, leave.body, { deadlineMs: 2_000, maxResponseBytes: 1 << 20 });
      }
      host.finish(live.id);
    }
    for (const p of report.probes) if (!p.ok && p.problem) report.problems.push(`${p.name}: ${p.problem}`);
    report.ok = report.problems.length === 0 && report.probes.length > 0;
  } finally {
    report.logTail = await handle.logTail(2_000).catch(() => '');
    await client.close();
    await handle.stop();
    releasePort(port);
  }
  return report;
}
