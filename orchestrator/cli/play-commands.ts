// play, arena and validate: run bot folders against each other or check one, for one game. The
// games and their rules are loaded at once (option choices, checks); sandboxes, the arena and the
// validator only when a command runs.
import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { checkVariant, gameDescriptor, gameIds } from '../../games/registry.ts';
import { BOT_START_TIMEOUT_MS, DEFAULT_LIMITS } from '../../records/match.ts';
import type { GameServerPool } from '../game-server/game-servers.ts';
import type { ArenaOptions, ArenaOutcome } from '../arena.ts';
import type { MatchResult, MatchSpec, Replay } from '../../records/match.ts';
import type { ValidationReport } from '../../records/tourney.ts';
import {
  parseSprtParams,
  SprtMonitor,
  SprtParamError,
  type SprtParams,
  type SprtResult,
} from '../../reports/metrics/sprt.ts';
import { moveTimeoutHelp, repMeaningHelp } from './game-help.ts';
import { MAX_ARENA_GAMES, playSchedule, sprtSchedule } from '../formats/two-bot.ts';
import { withInterrupt } from './interrupt.ts';
import { concurrencyOption, defaultConcurrency, intOption, newRunDir, resolveBotDir } from './options.ts';
import { printErr, printJson, printOut } from './print.ts';
import { forTerminal } from '../../util/terminal.ts';
import { RUN_DIRS, RUN_FILES } from '../../records/run-layout.ts';

interface CommonOpts {
  game: string;
  variant: string;
  moveTimeout?: number;
  startTimeout: number;
  policy: 'strict' | 'catarena';
  concurrency: number | 'auto';
  seed: number;
  out: string;
  runDir?: string;
  sandbox: string;
  serverPort?: number;
  botOption?: Record<string, string>;
  json?: boolean;
  humanTimeout: number;
  humanPort: number;
  humanHost: string;
}

function keyValue(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const m = /^([\w.-]+)=(.*)$/.exec(value);
  if (!m) throw new InvalidArgumentError('expected key=value, e.g. algorithm=minimax');
  return { ...previous, [m[1]!]: m[2]! };
}

/** The game-server pool: a fixed port when asked, else CATArena's port if free, else any port. */
async function hostsFor(game: string, variant: string, port?: number): Promise<GameServerPool> {
  const { GameServerPool } = await import('../game-server/game-servers.ts');
  return new GameServerPool(port ? { ports: { [`${game}/${variant}`]: port } } : {});
}

function addCommon(cmd: Command): Command {
  return cmd
    .addOption(new Option('-g, --game <game>', 'game to play').choices(gameIds()).default(gameIds()[0]))
    .option('-V, --variant <variant>', 'rule set: standard or variant', 'standard')
    .option(
      '--move-timeout <ms>',
      `per-move deadline; the request is aborted when it passes (default: the game's: ${moveTimeoutHelp()})`,
      intOption(1),
    )
    .option('--start-timeout <ms>', 'how long a bot may take to become healthy', intOption(100), BOT_START_TIMEOUT_MS)
    .addOption(
      new Option(
        '--policy <policy>',
        'forfeit policy: strict (every failure loses) or catarena (CATArena outcomes, e.g. illegal move = draw)',
      )
        .choices(['strict', 'catarena'])
        .default('strict'),
    )
    .option(
      '-c, --concurrency <n|auto>',
      'thinking bots (and games) at once; auto (default) adapts from 1 to the cores to the measured throughput',
      concurrencyOption,
      'auto',
    )
    .option('--seed <n>', 'run seed (schedules, variant setups)', intOption(-(2 ** 31), 2 ** 31 - 1), 1)
    .option('-o, --out <dir>', 'parent folder of run directories', 'runs')
    .option('--run-dir <dir>', 'use (or resume) this run directory instead of a new one')
    .addOption(
      new Option('--sandbox <kind>', 'where bots run (process: each isolated by bubblewrap; unsafe: plain processes)')
        .choices(['process', 'docker', 'unsafe'])
        .default('process'),
    )
    .option(
      '--server-port <port>',
      "port of the game-server API bots may call (default: CATArena's, 9000 / 20000 for gomoku, if free)",
      intOption(1, 65535),
    )
    .option(
      '--bot-option <key=value>',
      'match option, repeatable: sent to bots with every turn (chess: algorithm=simple|minimax; default simple) or read by the rules (chess: adjudication=catarena|engine; default catarena)',
      keyValue,
    )
    .option('--json', 'print the result as JSON on stdout')
    .option(
      '--human-timeout <ms>',
      'per-move deadline of a "human" seat (a person playing on a web page; the bots keep --move-timeout)',
      intOption(1000),
      300_000,
    )
    .option(
      '--human-port <port>',
      "port of the human seat's page (default: any free port; the URL is printed)",
      intOption(0, 65535),
      0,
    )
    .option(
      '--human-host <host>',
      "address the human seat's page listens on; other than 127.0.0.1 the page needs the printed token",
      '127.0.0.1',
    );
}

/** The per-move deadline: the flag, else the game's default (Hold'em 3 s), else 10 s. */
function moveTimeoutFor(game: string, flag?: number): number {
  return flag ?? gameDescriptor(game).defaults.moveTimeoutMs;
}

function checkGame(opts: CommonOpts): void {
  checkVariant(opts.game, opts.variant);
}

async function arenaFromCli(
  kind: string,
  dirs: string[],
  opts: CommonOpts,
  reps: number,
  maxGames?: number,
  extra: Pick<ArenaOptions, 'matches' | 'stopWhen'> = {},
): Promise<ArenaOutcome> {
  checkGame(opts);
  const [{ sandboxForBots }, { refsFromDirs, runArena }, { createProgress }] = await Promise.all([
    import('../config/sandbox-choice.ts'),
    import('../arena.ts'),
    import('../progress.ts'),
  ]);
  const botDirs = dirs.filter((d) => d !== HUMAN).map((d) => resolveBotDir(d, opts.game));
  const sandbox = sandboxForBots(opts.sandbox, { dirs: botDirs });
  const runDir = opts.runDir ? path.resolve(opts.runDir) : newRunDir(opts.out, kind);
  // A "human" seat: a person on a web page (orchestrator/human/), one game at a time, on a longer deadline.
  const humanAt = dirs.indexOf(HUMAN);
  if (dirs.filter((d) => d === HUMAN).length > 1) throw new Error('only one seat can be "human"');
  const human = humanAt >= 0 ? await startHuman(opts) : undefined;
  const bots = refsFromDirs(botDirs);
  if (human)
    bots.splice(humanAt, 0, {
      id: human.id,
      dir: path.join(runDir, HUMAN),
      warm: human.handle(),
      sharedInstances: true,
    });
  const hosts = await hostsFor(opts.game, opts.variant, opts.serverPort);
  try {
    const outcome = await withInterrupt((signal) => {
      // Stopped while the person is to move: give the turn up now, and leave that game unplayed.
      signal.addEventListener('abort', () => human?.abort(), { once: true });
      return runArena({
        game: opts.game,
        variant: opts.variant,
        bots,
        reps,
        seed: opts.seed,
        concurrency: human ? 1 : opts.concurrency,
        limits: {
          ...DEFAULT_LIMITS,
          moveMs: moveTimeoutFor(opts.game, opts.moveTimeout),
          ...(human ? { seatMoveMs: { [human.id]: opts.humanTimeout } } : {}),
        },
        policy: opts.policy,
        runDir,
        sandbox,
        maxGames,
        protocolOptions: opts.botOption,
        startTimeoutMs: opts.startTimeout,
        progress: createProgress(kind, process.stderr, Boolean(opts.json)),
        hosts,
        signal,
        ...(human
          ? {
              humans: [human.id],
              onSchedule: (specs: readonly MatchSpec[]) => human.schedule(specs),
              onLive: human.onLive,
              onGame: (replay: Replay) => human.recorded(replay),
              discard: (replay: Replay) => human.abandoned(replay.result.id),
            }
          : {}),
        ...extra,
      });
    });
    human?.finish(`all ${outcome.results.length} games played; results in ${outcome.runDir}`);
    return outcome;
  } finally {
    await human?.close();
    await hosts.closeAll();
    await sandbox.close();
  }
}

/** The seat argument that is a person: `catarena play builtin:heuristic human`. */
const HUMAN = 'human';

async function startHuman(opts: CommonOpts) {
  const { HumanSeat } = await import('../human/human-seat.ts');
  const seat = new HumanSeat({
    game: opts.game,
    variant: opts.variant,
    host: opts.humanHost,
    port: opts.humanPort,
    log: (line) => printErr(line),
  });
  await seat.start();
  return seat;
}

async function printArena(outcome: ArenaOutcome, opts: CommonOpts, total: number, sprt?: SprtSummary): Promise<void> {
  const { formatCrossTable } = await import('../../reports/tables/crosstable.ts');
  if (opts.json) {
    printJson({ runDir: outcome.runDir, table: outcome.table, bots: outcome.bots, ...(sprt ? { sprt } : {}) });
    return;
  }
  const lines = [formatCrossTable(outcome.table), ''];
  for (const bot of outcome.bots) {
    if (bot.startError) lines.push(`! ${bot.id} could not run: ${bot.startError.split('\n')[0]} (log: ${bot.logFile})`);
    else if (bot.restarts)
      lines.push(
        `! ${bot.id} crashed and was restarted ${bot.restarts} time(s) (log: ${bot.logFile})${bot.lastCrash ? `\n  last crash: ${bot.lastCrash.replace(/\n/g, '\n  | ')}` : ''}`,
      );
  }
  if (outcome.results.length < total && !(sprt && sprt.decision !== 'continue'))
    lines.push(
      `! only ${outcome.results.length} of ${total} games finished; run again with --run-dir ${outcome.runDir} to resume`,
    );
  if (sprt) lines.push(sprt.line, sprt.message);
  lines.push(`policy: ${opts.policy}   games: ${outcome.results.length}   run directory: ${outcome.runDir}`);
  lines.push(
    `replays: ${path.join(outcome.runDir, RUN_DIRS.replays)}   results: ${path.join(outcome.runDir, RUN_FILES.results)}, crosstable.csv`,
  );
  printOut(lines.join('\n'));
}

function sprtOption(value: string): SprtParams {
  try {
    return parseSprtParams(value);
  } catch (err) {
    if (err instanceof SprtParamError)
      throw new InvalidArgumentError(
        value.includes('=') ? err.message : `${err.message} (put --sprt after the two bots, or give it parameters)`,
      );
    throw err;
  }
}

/** What `play --sprt` reports: the test (at its decision), the games behind it, and why it stopped. */
interface SprtSummary extends SprtResult {
  /** What one unit of the test is: pairs, deal pairs, matches. */
  unit: string;
  /** Games (holdem: table rounds; bridge: matches) inside the units counted, from botA's side. */
  games: number;
  wins: number;
  draws: number;
  losses: number;
  /** Every game of the run, including any finished after the decision. */
  played: number;
  maxGames: number;
  stopped: 'decided' | 'max' | 'interrupted';
  message: string;
  line: string;
}

function signed(x: number, digits = 1): string {
  if (!Number.isFinite(x)) return x > 0 ? '+inf' : '-inf';
  return `${x >= 0 ? '+' : ''}${x.toFixed(digits)}`;
}

function sprtLine(monitor: SprtMonitor, unit: readonly [string, string]): string {
  const r = monitor.result;
  const t = monitor.counted;
  const e = r.estimate;
  const elo = r.units
    ? `, Elo ${signed(e.elo)} ± ${Number.isFinite(e.error) ? e.error.toFixed(1) : 'inf'}, LOS ${(e.los * 100).toFixed(1)}%`
    : '';
  return (
    `SPRT [${r.elo0}, ${r.elo1}] LLR ${r.llr.toFixed(2)} (${r.lower.toFixed(2)}, ${r.upper.toFixed(2)}) after ${r.units} ${unit[r.units === 1 ? 0 : 1]}: ` +
    `W-D-L ${t.wins}-${t.draws}-${t.losses}${r.pentanomial ? `, ptnml ${r.pentanomial.join('-')}` : ''}${elo}`
  );
}

/** `play --sprt`: the arena stops scheduling games once the test is decided; --run-dir resumes it. */
async function playSprt(
  a: string,
  b: string,
  opts: CommonOpts & { games?: number },
  params: SprtParams,
): Promise<void> {
  checkGame(opts);
  const { refsFromDirs } = await import('../arena.ts');
  const { reps, maxGames, matches, unit, counted } = sprtSchedule(gameDescriptor(opts.game), opts.games ?? 1000);
  const [idA, idB] = refsFromDirs([a, b].map((d) => resolveBotDir(d, opts.game))).map((r) => r.id) as [string, string];
  const monitor = new SprtMonitor(params, idA, idB);
  // A progress line every `every` units (at least two), and when the test is decided.
  const every = Math.max(2, opts.concurrency === 'auto' ? defaultConcurrency() : opts.concurrency);
  let printed = 0;
  let calls = 0;
  const progress = () => {
    if (monitor.units.length === printed) return;
    printed = monitor.units.length;
    process.stderr.write(`${process.stderr.isTTY ? '\r\x1b[2K' : ''}${forTerminal(sprtLine(monitor, unit))}\n`);
  };
  const stopWhen = (results: MatchResult[]): boolean => {
    const before = monitor.units.length;
    monitor.update(results);
    const after = monitor.units.length;
    // The first call sees what a resumed run already has.
    if (monitor.decided || Math.floor(after / every) > Math.floor(before / every) || (calls++ === 0 && after > 0))
      progress();
    return monitor.decided;
  };
  const outcome = await arenaFromCli('play', [a, b], opts, reps, maxGames, { matches, stopWhen });
  monitor.update(outcome.results);
  progress();
  const r = monitor.result;
  const t = monitor.counted;
  const played = outcome.results.length;
  const stopped = monitor.decided ? 'decided' : played >= maxGames ? 'max' : 'interrupted';
  const after = `after ${r.units} ${unit[r.units === 1 ? 0 : 1]}, ${t.games} ${counted}`;
  const message =
    r.decision === 'H1'
      ? `H1 accepted: ${idA} is stronger than ${idB} by at least ${r.elo1} Elo (LLR ${r.llr.toFixed(2)} ≥ ${r.upper.toFixed(2)} ${after})`
      : r.decision === 'H0'
        ? `H0 accepted: ${idA} is not stronger than ${idB} by ${r.elo1} Elo; the data favour ${r.elo0} Elo or less (LLR ${r.llr.toFixed(2)} ≤ ${r.lower.toFixed(2)} ${after})`
        : stopped === 'max'
          ? `undecided after ${played} games (max reached): LLR ${r.llr.toFixed(2)} inside (${r.lower.toFixed(2)}, ${r.upper.toFixed(2)}); a larger --games with --run-dir ${outcome.runDir} goes on`
          : `undecided after ${played} games (stopped before the maximum of ${maxGames}); run again with --run-dir ${outcome.runDir} to continue`;
  if (opts.json) printErr(message);
  const summary: SprtSummary = {
    ...r,
    unit: unit[1],
    games: t.games,
    wins: t.wins,
    draws: t.draws,
    losses: t.losses,
    played,
    maxGames,
    stopped,
    message,
    line: sprtLine(monitor, unit),
  };
  await printArena(outcome, opts, maxGames, summary);
}

export function registerPlayCommands(program: Command): void {
  registerPlayCommand(program);
  registerArenaCommand(program);
  registerValidateCommand(program);
}

function registerPlayCommand(program: Command): void {
  addCommon(
    program
      .command('play')
      .description(
        'Play games between two bots (colours alternate) and print the result.\nBots: folders with start_ai.sh, or builtin:<name> (e.g. builtin:heuristic, builtin:random).\nholdem: a heads-up table; each game is one table round (2000 chips until one player has all).',
      )
      .argument('<botA>', 'first bot folder, or human (you, on a web page whose URL is printed)')
      .argument('<botB>', 'second bot folder, or human')
      .option(
        '-n, --games <n>',
        `number of games (colours alternate; holdem: table rounds, seats rotate; bridge: boards, each in both rooms); with --sprt the most to play (default: 2; with --sprt 1000; at most ${MAX_ARENA_GAMES})`,
        intOption(1, MAX_ARENA_GAMES),
      )
      .option(
        '--sprt [params]',
        'stop as soon as a sequential probability ratio test (GSPRT, logistic Elo, as fastchess and fishtest run it) decides between ' +
          'H0 "botA is elo0 Elo stronger" and H1 "botA is elo1 Elo stronger"; params: elo0=0,elo1=10,alpha=0.05,beta=0.05 (each optional). ' +
          'The test counts colour-swapped game pairs (holdem: pairs of table rounds on the same deals; bridge: duplicate matches of the default length, 2 boards), ' +
          'prints its LLR as it goes and the decision at the end (exit code 0 whatever it is); --run-dir continues a stopped test',
        sprtOption,
      ),
  ).action(async (a: string, b: string, opts: CommonOpts & { games?: number; sprt?: SprtParams | true }) => {
    if (opts.sprt) {
      await playSprt(a, b, opts, opts.sprt === true ? parseSprtParams('') : opts.sprt);
      return;
    }
    const { reps, total } = playSchedule(gameDescriptor(opts.game).format, opts.games ?? 2);
    const outcome = await arenaFromCli('play', [a, b], opts, reps, total);
    await printArena(outcome, opts, total);
  });
}

function registerArenaCommand(program: Command): void {
  addCommon(
    program
      .command('arena')
      .description(
        'Round-robin between bot folders: every pair, colours swapped, R repetitions.\n' +
          'holdem: all bots at one table (split into tables of ≤ 12), R table rounds with seats rotated over shared deals;\n' +
          'the table shows tables won and, per opponent, who finished ahead.\n' +
          'Writes journal, replays, results.json and crosstable.csv to a run directory; --run-dir resumes.',
      )
      .argument('<bots...>', 'bot folders (two or more)')
      .option(
        '-r, --reps <n>',
        `repetitions (default 1), per game: ${repMeaningHelp()}`,
        intOption(1, MAX_ARENA_GAMES),
        1,
      ),
  ).action(async (dirs: string[], opts: CommonOpts & { reps: number }) => {
    if (dirs.length < 2) throw new Error('arena needs at least two bot folders');
    const pairs = (dirs.length * (dirs.length - 1)) / 2;
    const tables = gameDescriptor(opts.game).tables;
    const total = tables ? Math.ceil(dirs.length / tables.maxSeats) * opts.reps : pairs * 2 * opts.reps; // bridge: 2 rooms × reps boards
    if (total > MAX_ARENA_GAMES)
      throw new Error(
        `arena: ${dirs.length} bots × --reps ${opts.reps} make ${total} games, more than the ${MAX_ARENA_GAMES} one run may schedule; use fewer --reps`,
      );
    const outcome = await arenaFromCli('arena', dirs, opts, opts.reps);
    await printArena(outcome, opts, total);
  });
}

interface ValidateFlags {
  game: string;
  variant: string;
  moveTimeout?: number;
  startTimeout: number;
  sandbox: string;
  serverPort?: number;
  strictValidation?: boolean;
  track?: 'standard' | 'ml' | 'js' | 'go';
  json?: boolean;
}

function registerValidateCommand(program: Command): void {
  program
    .command('validate')
    .description(
      'Start a bot, check health, ask for moves on fixed positions, and report latency and protocol errors in plain words.',
    )
    .argument('<botdir>', 'bot folder (or builtin:<name>)')
    .addOption(new Option('-g, --game <game>', 'game').choices(gameIds()).default(gameIds()[0]))
    .option('-V, --variant <variant>', 'rule set', 'standard')
    .option('--move-timeout <ms>', `per-move deadline (default: ${moveTimeoutHelp()})`, intOption(1))
    .option('--start-timeout <ms>', 'how long the bot may take to become healthy', intOption(100), BOT_START_TIMEOUT_MS)
    .addOption(
      new Option('--sandbox <kind>', 'where the bot runs (process: isolated by bubblewrap; unsafe: a plain process)')
        .choices(['process', 'docker', 'unsafe'])
        .default('process'),
    )
    .option('--server-port <port>', 'port of the game-server API bots may call', intOption(1, 65535))
    .option(
      '--strict-validation',
      'fail on any validation-position problem (an illegal move, a refused join); by default these are warnings and only a bot that cannot play fails',
    )
    .addOption(
      new Option(
        '--track <task track>',
        "also check the bot is written in the task track's language (docs/tracks.md)",
      ).choices(['standard', 'ml', 'js', 'go']),
    )
    .option('--json', 'print the report as JSON')
    .action(validateFromCli);
}

/** Starts the bot in its sandbox, validates it and prints the report; exit code 1 when it fails. */
async function validateFromCli(dir: string, opts: ValidateFlags, cmd: Command): Promise<void> {
  checkVariant(opts.game, opts.variant);
  const [{ sandboxForBots }, { validateBot }] = await Promise.all([
    import('../config/sandbox-choice.ts'),
    import('../validate.ts'),
  ]);
  const sandbox = sandboxForBots(opts.sandbox, { dirs: [resolveBotDir(dir, opts.game)] });
  const hosts = await hostsFor(opts.game, opts.variant, opts.serverPort);
  try {
    const report = await validateBot({
      dir: resolveBotDir(dir, opts.game),
      game: opts.game,
      variant: opts.variant,
      sandbox,
      hosts,
      moveMs: moveTimeoutFor(opts.game, opts.moveTimeout),
      startTimeoutMs: opts.startTimeout,
      strict: opts.strictValidation,
      taskTrack: opts.track,
    });
    if (opts.json) printJson(report);
    else printOut(await validationText(report));
    cmd.parent?.setOptionValue('exitCode', report.ok ? 0 : 1);
  } finally {
    await hosts.closeAll();
    await sandbox.close();
  }
}

/** The report in plain words: verdict, start, each position, problems, and a failed bot's last output. */
async function validationText(report: ValidationReport): Promise<string> {
  const { generalProblems, positionMark } = await import('../validate.ts');
  const verdict = report.ok
    ? report.warnings.length
      ? 'PASS with warnings (the bot plays; its games will show these errors)'
      : 'PASS'
    : 'FAIL';
  const lines = [`${verdict}  ${report.dir}  (${report.game}/${report.variant}${report.strict ? ', strict' : ''})`];
  if (report.started) lines.push(`  started and healthy in ${report.startMs} ms`);
  for (const p of report.positions)
    lines.push(
      `  ${positionMark(report, p).padEnd(4)} ${p.name}: ${p.ok ? `answered ${JSON.stringify(p.answer)}` : p.problem} (${p.latencyMs} ms)`,
    );
  for (const problem of generalProblems(report)) lines.push(`  ${problem}`);
  if (!report.ok && report.logTail)
    lines.push(
      '  --- bot output (last lines) ---',
      ...report.logTail
        .trimEnd()
        .split('\n')
        .slice(-15)
        .map((l) => `  | ${l}`),
    );
  return lines.join('\n');
}
