// The compliance check a strategy passes before it plays (fastchess --compliance, CATArena's
// health check): it starts, answers health, joins, and answers legal moves on fixed positions.
// CATArena has no such check, so by default only a bot that cannot play at all is refused: one
// that does not start or become healthy, or answers no validation position with a legal move. An
// illegal move on some validation position or a refused join is a warning: the bot plays and its games
// show the errors. `strict` refuses a bot on any validation-position problem.
import { createRng } from '../util/rng.ts';
import type { PositionCheck, ValidationReport } from '../records/tourney.ts';
import type { LiveGame } from '../games/core/wire.ts';
import { adapterFor, gameDescriptor } from '../games/registry.ts';
import { type BotHandle, BotStartError, type Sandbox } from '../sandbox/types.ts';
import { releasePort, startOnFreePort } from '../sandbox/ports.ts';
import type { GameServerPool } from './game-server/game-servers.ts';
import { holderOf, type SeatHolder } from './game-server/seat-ledger.ts';
import { BotClient } from './match/bot-client.ts';
import { askBot, joinBot, sendCall } from './match/bot-calls.ts';
import { languageProblem } from './language-check.ts';
import type { TaskTrack } from '../records/task-track.ts';

export interface ValidateOptions {
  dir: string;
  game: string;
  variant: string;
  sandbox: Sandbox;
  hosts: GameServerPool;
  moveMs?: number;
  startTimeoutMs?: number;
  logFile?: string;
  /** Plies played before each validation position (deterministic). */
  positionPlies?: number[];
  /** Refuse the bot on any validation-position problem (default: only when it cannot play at all). */
  strict?: boolean;
  /** A label for the bot's messages (default "validate"). */
  name?: string;
  /** The task track it was built for: a bot not in the track's language is refused before it starts. */
  taskTrack?: TaskTrack;
}

/** The problems not tied to one validation position: the bot never started, or it answered none in the protocol. */
export function generalProblems(report: ValidationReport): string[] {
  return report.problems.filter((problem) => !report.positions.some((p) => problem.startsWith(`${p.name}: `)));
}

/** How a validation-position line is marked: ok, warn (a problem that does not keep the bot out) or FAIL. */
export function positionMark(report: ValidationReport, check: PositionCheck): 'ok' | 'warn' | 'FAIL' {
  return check.ok ? 'ok' : report.ok ? 'warn' : 'FAIL';
}

/** The most characters of a bot's answer a validation report (and so a strategy record) keeps. */
const MAX_RECORDED_ANSWER_CHARS = 4_096;

/**
 * A bot's answer as the report keeps it: a legal one as the game read it (Undercover's statement
 * cut at the game's limit), anything longer than MAX_RECORDED_ANSWER_CHARS of JSON cut, saying so.
 */
function recordedAnswer(
  adapter: ReturnType<typeof adapterFor>,
  answer: Awaited<ReturnType<typeof askBot>>,
  state: unknown,
  seat: number,
): unknown {
  const kept = answer.ok && adapter.answer ? adapter.answer(answer.action, state, seat) : answer.body;
  const json = JSON.stringify(kept) ?? '';
  if (json.length <= MAX_RECORDED_ANSWER_CHARS) return kept;
  return `${json.slice(0, MAX_RECORDED_ANSWER_CHARS)} … [cut by catarena: ${json.length} characters of JSON]`;
}

export async function validateBot(options: ValidateOptions): Promise<ValidationReport> {
  return (await check(options, false)).report;
}

/**
 * Validates the bot and, when it passes, leaves it running and hands it over: a tourney's fleet
 * plays with the very process that passed (a bot start saved per strategy). The caller stops it.
 */
export async function validateAndKeep(
  options: ValidateOptions,
): Promise<{ report: ValidationReport; bot?: BotHandle }> {
  return check(options, true);
}

type Adapter = ReturnType<typeof adapterFor>;
type Host = Awaited<ReturnType<GameServerPool['get']>>;

async function check(options: ValidateOptions, keep: boolean): Promise<{ report: ValidationReport; bot?: BotHandle }> {
  const adapter = adapterFor(options.game);
  const strict = options.strict ?? false;
  const report: ValidationReport = {
    dir: options.dir,
    game: options.game,
    variant: options.variant,
    ok: false,
    strict,
    started: false,
    startMs: 0,
    positions: [],
    problems: [],
    warnings: [],
    logTail: '',
  };
  const wrongLanguage = languageProblem(options.dir, options.taskTrack);
  if (wrongLanguage) {
    report.problems.push(wrongLanguage);
    return { report };
  }
  const host = await options.hosts.get(options.game, options.variant);
  const handle = await startForValidation(options, adapter, host, report);
  if (!handle) return { report };
  const client = new BotClient(handle.url, { connect: handle.connect, callerId: handle.callerId });
  try {
    for (const plies of options.positionPlies ?? [0, 1, 6, 15])
      await checkPosition({ options, adapter, host, client, report }, plies);
    judge(report);
  } finally {
    report.logTail = await handle.logTail(2_000).catch(() => '');
    await client.close();
    if (!(keep && report.ok)) {
      await handle.stop();
      releasePort(handle.port);
    }
  }
  return keep && report.ok ? { report, bot: handle } : { report };
}

/** Starts the bot; one that does not start (or become healthy) is the report's problem, with its log. */
async function startForValidation(
  options: ValidateOptions,
  adapter: Adapter,
  host: Host,
  report: ValidationReport,
): Promise<BotHandle | undefined> {
  const t0 = performance.now();
  let handle;
  try {
    handle = await startOnFreePort(options.sandbox, {
      dir: options.dir,
      health: adapter.health,
      startTimeoutMs: options.startTimeoutMs,
      logFile: options.logFile,
      name: options.name ?? 'validate',
      ...host.botAccess(),
    });
  } catch (err) {
    report.problems.push(`the bot did not start: ${(err as Error).message}`);
    report.logTail = err instanceof BotStartError ? err.logTail : '';
    return undefined;
  }
  report.started = true;
  report.startMs = Math.round(performance.now() - t0);
  return handle;
}

/** The game after `plies` random legal moves (seeded by the ply count: every bot sees the same positions). */
function validationPosition(adapter: Adapter, game: string, variant: string, plies: number) {
  const { tables } = gameDescriptor(game);
  const rng = createRng(1000 + plies);
  const seatIds = tables
    ? Array.from({ length: tables.validationSeats }, (_, i) => (i === 0 ? 'you' : `opponent_${i}`))
    : undefined;
  let state = adapter.game.init(variant, rng, seatIds ? { seats: seatIds.length } : undefined);
  for (let k = 0; k < plies && adapter.game.outcome(state) === null; k++) {
    const seat = adapter.game.toMove(state)!;
    const legal = adapter.game.legalActions(state, seat);
    state = adapter.game.apply(state, seat, legal[rng.int(0, legal.length - 1)]);
  }
  return { state, seatIds };
}

interface PositionRun {
  options: ValidateOptions;
  adapter: Adapter;
  host: Host;
  client: BotClient;
  report: ValidationReport;
}

/** Asks the bot for its move on one validation position (joining first where the game joins) and records the check. */
async function checkPosition({ options, adapter, host, client, report }: PositionRun, plies: number): Promise<void> {
  const { state, seatIds } = validationPosition(adapter, options.game, options.variant, plies);
  const seat = adapter.game.toMove(state);
  if (seat === null) return;
  const live: LiveGame = {
    id: host.newGameId(),
    variant: options.variant,
    state,
    history: [],
    seatIds,
    managedByArena: true,
    createdAt: new Date().toISOString(),
  };
  const holders: SeatHolder[] = [];
  holders[seat] = holderOf(client.callerId); // the other seats play no bot
  host.register(live, holders);
  const ctx = { gameId: live.id, gameServerUrl: host.url, seatIds };
  const name = `position after ${plies} plies (${adapter.game.seatNames(options.variant)[seat] ?? `seat ${seat}`} to move)`;
  if (adapter.join) {
    const res = await joinBot(client, adapter, state, seat, ctx, { deadlineMs: 5_000, maxResponseBytes: 1 << 20 });
    if (!res.ok) {
      report.positions.push({
        name: `/join_game for ${name}`,
        ok: false,
        kind: 'join_failed',
        latencyMs: Math.round(res.latencyMs),
        problem: `/join_game failed (${res.failure.kind}): ${res.failure.message}`,
      });
      // Strict: as before, a refused join ends that position. Otherwise ask for the move anyway,
      // as a game where joins are only logged (Bridge) would.
      if (report.strict) {
        host.finish(live.id);
        return;
      }
    }
  }
  const limits = { deadlineMs: options.moveMs ?? 10_000, maxResponseBytes: 1 << 20 };
  const answer = await askBot(client, adapter, state, seat, ctx, limits);
  const check: PositionCheck = { name, ok: answer.ok, latencyMs: Math.round(answer.latencyMs) };
  if (answer.body !== undefined) check.answer = recordedAnswer(adapter, answer, state, seat);
  if (!answer.ok) {
    check.kind = answer.failure.kind;
    check.problem = answerProblem(adapter.turn(state, seat, ctx).path, answer.failure);
  }
  report.positions.push(check);
  if (adapter.leave)
    await sendCall(client, adapter.leave(state, seat, ctx), { deadlineMs: 2_000, maxResponseBytes: 1 << 20 });
  host.finish(live.id);
}

/** A failed answer in plain words. */
function answerProblem(path: string, { kind, message }: { kind: string; message: string }): string {
  return kind === 'illegal'
    ? `${path} answered an ${message.startsWith('illegal') ? '' : 'illegal action: '}${message}`
    : kind === 'malformed'
      ? `${path} answer is malformed: ${message}`
      : `${path} failed (${kind}): ${message}`;
}

/** The verdict: position problems refuse the bot when strict or when it played none; else they are warnings. */
function judge(report: ValidationReport): void {
  const found = report.positions.filter((p) => !p.ok && p.problem).map((p) => `${p.name}: ${p.problem}`);
  const plays = report.positions.some((p) => p.ok);
  if (report.strict || !plays) report.problems.push(...found);
  else report.warnings.push(...found);
  if (!plays && !report.strict) report.problems.unshift('the bot answered no validation position with a legal move');
  report.ok = report.problems.length === 0 && report.positions.length > 0;
}
