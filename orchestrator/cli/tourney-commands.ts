// tourney, resume and report: the iterative tournament and its reports. The tournament, the
// agents and the reports are loaded when a command runs, not to print help.
import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { parseBudgetPerAgent, type BudgetPerAgent } from '../config/budget-per-agent.ts';
import { AGENT_SPEC_HELP } from '../../agents/core/spec-help.ts';
import { PRESET_NAMES } from '../../games/core/descriptor.ts';
import { gamesHelp, moveTimeoutHelp, repsHelp } from './game-help.ts';
import type { TourneySummary } from '../../records/tourney.ts';
import type { TourneyConfig, TourneyConfigInput } from '../config/tourney-config.ts';
import { concurrencyOption, intOption, newRunDir } from './options.ts';
import { withInterrupt } from './interrupt.ts';
import { printErr, printJson, printOut } from './print.ts';
import { roundDirName, RUN_DIRS, RUN_FILES } from '../../records/run-layout.ts';

interface TourneyFlags {
  rounds?: number;
  games?: string;
  variants?: string;
  agents?: string;
  reps?: number | 'auto';
  maxGames?: number;
  targetWidth?: number;
  maxMinutes?: number;
  concurrency?: number | 'auto';
  seed?: number;
  repeats?: number;
  repeatConcurrency?: number;
  out?: string;
  policy?: 'strict' | 'catarena';
  moveTimeout?: number;
  sandbox?: 'process' | 'docker' | 'unsafe';
  track?: 'standard' | 'ml' | 'js' | 'go';
  opponentCode?: 'visible' | 'logs-only' | 'hidden';
  config?: string;
  preset?: string;
  resume?: string;
  queue?: string;
  reuse?: boolean;
  strictValidation?: boolean;
  check?: boolean;
  /** --skip-check <name>, repeatable or comma-separated: checks to skip by name. */
  skipCheck?: string[];
  json?: boolean;
  budgetUsd?: number;
  budgetPerAgent?: BudgetPerAgent;
  anchors?: true | number;
}

/** --skip-check a --skip-check b,c → [a, b, c]. */
const collectNames = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
];

const SKIP_CHECK_HELP =
  'skip one check by name, its row kept and marked skipped (repeatable or comma-separated): "endpoint" (every agent\'s), ' +
  '"model table", "Docker", "agent image", or <agent>:<check> for one agent\'s (e.g. codex:endpoint)';

/** --reps: a positive integer or "auto". */
function repsOption(value: string): number | 'auto' {
  return value.trim().toLowerCase() === 'auto' ? 'auto' : intOption(1)(value);
}

/** A number in (min, max]. */
function numberOption(min: number, max = Infinity) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= min || n > max)
      throw new InvalidArgumentError(
        `expected a number above ${min}${Number.isFinite(max) ? ` and at most ${max}` : ''}, got "${value}"`,
      );
    return n;
  };
}

const list = (v?: string) =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

async function printSummary(summary: TourneySummary, seconds: number | null, json?: boolean): Promise<void> {
  const [{ renderLeaderboard }, { formatSeconds }] = await Promise.all([
    import('../../reports/leaderboard-text.ts'),
    import('../progress.ts'),
  ]);
  if (json) {
    printJson({ runDir: summary.runDir, leaderboard: summary.leaderboard, generalizability: summary.generalizability });
    return;
  }
  const lines = [renderLeaderboard(summary), ''];
  if (seconds !== null) lines.push(`finished in ${formatSeconds(seconds)}`);
  lines.push(
    `report: ${path.join(summary.runDir, RUN_FILES.reportHtml)} (open in a browser; also report.md)`,
    `run directory: ${summary.runDir}`,
  );
  printOut(lines.join('\n'));
}

/** The end of a --repeats run, `combine` and `report` on a study: the combined board and where the reports are. */
function printCombined(
  combined: { runDir: string; leaderboard: unknown },
  board: string,
  json?: boolean,
  finished?: string,
): void {
  if (json) {
    printJson({ runDir: combined.runDir, leaderboard: combined.leaderboard });
    return;
  }
  const lines = [board, ''];
  if (finished) lines.push(finished);
  lines.push(
    `report: ${path.join(combined.runDir, RUN_FILES.reportHtml)} (combined over the repeats; also report.md and combined.json)`,
    `run directory: ${combined.runDir}`,
  );
  printOut(lines.join('\n'));
}

/** A stored run's config with the settings a resume may change. */
async function resumeConfig(
  runDir: string,
  flags: { concurrency?: number | 'auto'; queue?: string; embedded?: boolean },
): Promise<TourneyConfig> {
  const { RunDir } = await import('../run/run-dir.ts');
  const config = await new RunDir(runDir).readConfig();
  if (flags.concurrency) config.concurrency = flags.concurrency;
  if (flags.queue) config.queue = flags.queue;
  if (flags.embedded) delete config.queue;
  return config;
}

/** `--accept-tampered`: what report, resume and combine say of the flag. */
const ACCEPT_TAMPERED =
  'rebuild from a journal whose chain breaks (a result changed, removed or added after it was written) instead of refusing it; the reports then carry a warning at the top';

async function playTourney(
  program: Command,
  config: TourneyConfig,
  runDir: string,
  json?: boolean,
  acceptTampered = false,
  record = true,
): Promise<void> {
  const [{ createProgress }, { InterruptedError, runTourney }, { buildAlarmLines }, { everyBuildFailed }] =
    await Promise.all([
      import('../progress.ts'),
      import('../tourney/tourney.ts'),
      import('../../reports/alarms.ts'),
      import('../../reports/summary.ts'),
    ]);
  const progress = createProgress('tourney', process.stderr, Boolean(json));
  const started = Date.now();
  progress.phase(
    `run directory ${runDir}${config.queue ? ` · games on queue ${(await import('../queue/url.ts')).publicQueueUrl(config.queue)}` : ''}${(config.repeats ?? 1) > 1 ? ` · ${config.repeats} repeats` : ''}`,
  );
  try {
    if ((config.repeats ?? 1) > 1) {
      const [{ runRepeats }, { renderCombinedLeaderboard }, { formatSeconds }] = await Promise.all([
        import('../tourney/repeats.ts'),
        import('../../reports/markdown-combined.ts'),
        import('../progress.ts'),
      ]);
      const combined = await withInterrupt((signal) =>
        runRepeats({ config, runDir, progress, signal, acceptTampered }),
      );
      printCombined(
        combined,
        renderCombinedLeaderboard(combined),
        json,
        `finished in ${formatSeconds((Date.now() - started) / 1000)}`,
      );
      return;
    }
    const summary = await withInterrupt((signal) =>
      runTourney({ config, runDir, progress, signal, acceptTampered, record }),
    );
    await printSummary(summary, (Date.now() - started) / 1000, json);
    // Agents that never had a bot play: said last, where nobody misses it.
    for (const line of buildAlarmLines(summary)) printErr(`catarena: !!! ${line}`);
    if (everyBuildFailed(summary.tracks)) {
      printErr(
        `catarena: every build failed; the build logs are under ${path.join(runDir, RUN_DIRS.tracks, '*', roundDirName('*'), RUN_DIRS.strategies)}/*.build.log`,
      );
      program.setOptionValue('exitCode', 1);
    }
  } catch (err) {
    if (err instanceof InterruptedError) {
      printErr(`catarena: ${err.message}`);
      program.setOptionValue('exitCode', 130);
      return;
    }
    throw err;
  }
}

/** The options that make a tourney config (shared by tourney and doctor). */
function addConfigOptions(cmd: Command): Command {
  return addSpendingAndCheckOptions(
    cmd
      .option('-n, --rounds <n>', 'development rounds (default 4)', intOption(1, 100))
      .option('-g, --games <list>', `games, comma-separated (${gamesHelp()})`)
      .option(
        '--variants <list>',
        'rule sets: standard,variant (default both), or per game: gomoku:variant,chess:standard',
      )
      .option(
        '-a, --agents <list>',
        `agents, comma-separated: ${AGENT_SPEC_HELP} (offline:<kind>#2 for a second one; default: the three offline agents)`,
      )
      .option(
        '-r, --reps <n|auto>',
        `per game, by default: ${repsHelp()}. ` +
          'auto: play the schedule once, then more where the metrics are least certain until W is stable (L1 fluctuation < 5%), see --max-games, --target-width. For all games: overrides per-game reps of --preset and --config',
        repsOption,
      )
      .option(
        '--max-games <n>',
        'with --reps auto: most games per track (default 5 × the schedule played once)',
        intOption(1),
      )
      .option(
        '--target-width <w>',
        'with --reps auto: stop when every S and L 95% interval is at most this wide (instead of when W is stable)',
        numberOption(0, 2),
      )
      .option('--max-minutes <m>', 'with --reps auto: most minutes the added games may take per track', numberOption(0))
      .option(
        '-c, --concurrency <n|auto>',
        'thinking bots (and games) at once; auto (default) adapts from 1 to the cores to the measured throughput',
        concurrencyOption,
      )
      .option('--seed <n>', 'run seed (default 1)', intOption(-(2 ** 31), 2 ** 31 - 1))
      .option(
        '--repeats <k>',
        'repeat the whole tourney (development and games) K times, repeat r with seed + r − 1, in repeats/<r>/ of one run directory, and write the combined report: mean ± SD tables, Table 8 (rank SD), rank agreement, intervals over development and games (default 1)',
        intOption(1, 100),
      )
      .option('--repeat-concurrency <n>', 'with --repeats: repeats played side by side (default 2)', intOption(1, 16))
      .option('-o, --out <dir>', 'parent folder of run directories (default runs)')
      .addOption(new Option('--policy <policy>', 'forfeit policy (default strict)').choices(['strict', 'catarena']))
      .option(
        '--move-timeout <ms>',
        `per-move deadline in ms (default: ${moveTimeoutHelp()}); for all games, overriding per-game deadlines of --preset and --config`,
        intOption(1),
      )
      .addOption(
        new Option(
          '--sandbox <kind>',
          'where bots run: process (default; each bot isolated by bubblewrap), docker, or unsafe (plain processes, no isolation)',
        ).choices(['process', 'docker', 'unsafe']),
      )
      .addOption(
        new Option(
          '--track <task track>',
          'task track: the task prompt and the language bots must be written in (standard: any; ml: Python with numpy/scikit-learn; js; go); per agent with agentTracks in --config; see docs/tracks.md',
        ).choices(['standard', 'ml', 'js', 'go']),
      )
      .addOption(
        new Option(
          '--opponent-code <setting>',
          "what round 2+ workspaces show of rivals: visible (default, as CATArena: every agent's previous code and all logs), logs-only (own code, all logs), hidden (own code, logs of own games only); see docs/architecture.md",
        ).choices(['visible', 'logs-only', 'hidden']),
      )
      .option(
        '--config <file>',
        'YAML or JSON config file (fields as in the flags: rounds, games, variants, agents, reps, …)',
      )
      .addOption(new Option('--preset <name>', "preset: paper (the paper's Table 6 settings)").choices(PRESET_NAMES))
      .option(
        '-q, --queue <url>',
        'play games on "catarena worker"s through this Redis queue, e.g. redis://127.0.0.1:6379',
      )
      .option(
        '--reuse',
        'copy results of games whose code and settings equal a game of an earlier run indexed in --out',
      ),
  );
}

/** --budget-per-agent's value, or the forms it takes. */
function budgetPerAgentOption(value: string): BudgetPerAgent {
  try {
    return parseBudgetPerAgent(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message.replace(/^--budget-per-agent "[^"]*": /, ''));
  }
}

/** The tourney's budgets, its anchored ratings and how strict its entry check is. */
function addSpendingAndCheckOptions(cmd: Command): Command {
  return cmd
    .option(
      '--budget-usd <dollars>',
      "a hard cap on estimated development dollars (usage × the model table, agents/core/models.json): each model request is admitted under it, running developments stop when it is reached and none starts after; the agents' last bots play the remaining rounds, and the report says so (docs/first-real-run.md)",
      numberOption(0),
    )
    .option(
      '--budget-per-agent <amount>',
      "the same budget for every agent's development of each strategy, so agents compare at equal cost: dollars ($0.50), tokens (200k-tokens) or wall time (15m); a development stops at it and its bot as it stands plays; report.html draws each agent's score against its dollars (docs/first-real-run.md)",
      budgetPerAgentOption,
    )
    .option(
      '--anchors [games]',
      "after the last round, rate every strategy on its game's anchor pool (fixed reference bots with committed ratings, docs/anchors.md) with at most this many games each (default 40), so runs with different fields compare on one scale; report.md, report.html and history show the ratings",
      intOption(2, 10_000),
    )
    .option(
      '--strict-validation',
      "refuse a round's bot on any entry-check problem (an illegal move on a validation position, a refused join); by default only bots that do not start or answer no validation position with a legal move sit out, the rest play with warnings",
    );
}

/** The config the flags (over --config, over --preset, over the defaults) make. */
async function configFromFlags(flags: TourneyFlags): Promise<TourneyConfig> {
  const { ConfigError, gameSettings, PRESETS, parseVariantsFlag, readConfigFile, resolveConfig } = await import(
    '../config/tourney-config.ts'
  );
  const file = flags.config ? await readConfigFile(flags.config) : undefined;
  const variantsFlag = flags.variants ? parseVariantsFlag(flags.variants) : undefined;
  const cli: TourneyConfigInput = {
    rounds: flags.rounds,
    games: list(flags.games),
    variants: variantsFlag?.variants as TourneyConfigInput['variants'],
    agents: list(flags.agents),
    reps: flags.reps,
    autoReps:
      (flags.maxGames ?? flags.targetWidth ?? flags.maxMinutes) !== undefined
        ? { maxGames: flags.maxGames, targetWidth: flags.targetWidth, maxMinutes: flags.maxMinutes }
        : undefined,
    concurrency: flags.concurrency,
    seed: flags.seed,
    repeats: flags.repeats,
    repeatConcurrency: flags.repeatConcurrency,
    out: flags.out,
    policy: flags.policy,
    moveTimeoutMs: flags.moveTimeout,
    sandbox: flags.sandbox,
    track: flags.track,
    opponentCode: flags.opponentCode,
    queue: flags.queue,
    reuse: flags.reuse,
    strictValidation: flags.strictValidation,
    budgetUsd: flags.budgetUsd,
    budgetPerAgent: flags.budgetPerAgent,
    anchors: flags.anchors === undefined ? undefined : { maxGames: flags.anchors === true ? 40 : flags.anchors },
    // --variants gomoku:variant → perGame.gomoku.variants, merged into lower layers' perGame.
    perGame:
      variantsFlag && Object.keys(variantsFlag.perGame).length
        ? (Object.fromEntries(
            Object.entries(variantsFlag.perGame).map(([game, variants]) => [game, { variants }]),
          ) as TourneyConfigInput['perGame'])
        : undefined,
  };
  const config = resolveConfig(flags.preset ? PRESETS[flags.preset as keyof typeof PRESETS] : undefined, file, cli);
  const autoFlag = (['maxGames', 'targetWidth', 'maxMinutes'] as const).find((k) => flags[k] !== undefined);
  if (autoFlag && !config.games.some((g) => gameSettings(config, g).auto)) {
    throw new ConfigError(
      `--${autoFlag.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} only applies with --reps auto (or reps: auto in the config for some game)`,
    );
  }
  return config;
}

/**
 * Runs the doctor's checks; true when everything is ready. The table is printed when asked for
 * (doctor) or when something is missing; a ready tourney says so in one line.
 */
async function checkFirst(
  config: TourneyConfig,
  json?: boolean,
  quietWhenReady = false,
  missing: string[] = [],
  worker = false,
  skipChecks: string[] = [],
): Promise<boolean> {
  const { doctorReady, formatDoctor, runDoctor } = await import('../doctor.ts');
  const started = Date.now();
  const rows = await runDoctor(config, { worker, skipChecks });
  const ready = doctorReady(rows);
  missing.push(
    ...rows.filter((r) => !r.ok).map((r) => `${r.subject} ${r.check}: ${r.detail.replace(/\s+/g, ' ').slice(0, 200)}`),
  );
  const notes = rows.filter((r) => r.warn);
  if (ready && quietWhenReady) {
    printErr(
      `catarena: preflight: all ${rows.length} checks ready in ${((Date.now() - started) / 1000).toFixed(1)} s (keys, endpoints and models, images; --no-check skips them, --skip-check <name> one)${notes
        .map(
          (r) =>
            `\n  ${r.skipped ? 'skipped' : 'warning'}: ${r.subject} ${r.check}: ${r.detail.replace(/\s+/g, ' ').slice(0, 240)}`,
        )
        .join('')}`,
    );
  } else if (json) printJson({ ready, checks: rows });
  else printOut(formatDoctor(rows));
  return ready;
}

export function registerTourneyCommands(program: Command): void {
  registerTourneyCommand(program);
  registerDoctorCommand(program);
  registerResumeCommand(program);
  registerReportCommand(program);
  registerCompareCommand(program);
  registerCombineCommand(program);
}

function registerTourneyCommand(program: Command): void {
  addConfigOptions(program.command('tourney'))
    .description(
      'Run the iterative tournament: each round every agent develops a bot per game and rule set, ' +
        'bots play the round field and all earlier bots, and the next round sees the previous round only. ' +
        'With no options: 4 rounds of the offline agents (cautious, aggressive, imitator) on all four games ' +
        '(gomoku, chess, holdem, bridge), standard and variant rules, in 1½ to 3½ minutes on 2 cores (quick defaults; ' +
        "--preset paper for the paper's scale). Settings: defaults < --preset < --config file < flags.",
    )
    .option(
      '--resume <run-dir>',
      'resume an interrupted run with its stored config (same as: catarena resume <run-dir>)',
    )
    .option('--check', "run the doctor's checks first and stop if anything is missing (the default)")
    .option(
      '--no-check',
      "skip the checks made before the run starts (each agent's key, endpoint and model with one model-list request, images, Docker, Redis)",
    )
    .option('--skip-check <name>', SKIP_CHECK_HELP, collectNames)
    .option('--json', 'print the summary as JSON')
    .option(
      '--no-record',
      "do not record the agents' model exchanges in <run-dir>/recordings/ (recorded by default, keys redacted; catarena rerun replays them)",
    )
    .action((flags: TourneyFlags & { record?: boolean }) => runTourney(program, flags));
}

/** A new run (or --resume's), checked first unless --no-check, then played. */
async function runTourney(program: Command, flags: TourneyFlags & { record?: boolean }): Promise<void> {
  let config;
  let runDir: string;
  if (flags.resume) {
    runDir = path.resolve(flags.resume);
    config = await resumeConfig(runDir, flags);
  } else {
    config = await configFromFlags(flags);
    runDir = newRunDir(config.out, 'tourney');
  }
  // Before anything is spent: a wrong key, a model the endpoint does not serve, a missing image
  // stop the run here, in seconds, with the doctor's table (unless --no-check).
  const missing: string[] = [];
  if (flags.check !== false && !(await checkFirst(config, flags.json, true, missing, false, flags.skipCheck))) {
    printErr(
      `catarena: not started: the checks above failed (catarena doctor repeats them; --no-check skips them):\n${missing
        .slice(0, 5)
        .map((m) => `  ${m}`)
        .join('\n')}`,
    );
    program.setOptionValue('exitCode', 1);
    return;
  }
  await playTourney(program, config, runDir, flags.json, false, flags.record !== false);
}

function registerDoctorCommand(program: Command): void {
  addConfigOptions(
    program
      .command('doctor')
      .description(
        'Check, before a run spends anything, what every agent of the config needs — its spec and API key, its endpoint ' +
          'reachable with the key accepted (one model-list request, through the egress proxy for CLI agents), Docker and its ' +
          'image — and what the run needs (the bot image for --sandbox docker, Redis for --queue). Prints a table; exits 1 if ' +
          "anything is missing. Takes the tourney's config flags.",
      ),
  )
    .option('--json', 'print the checks as JSON')
    .option('--skip-check <name>', SKIP_CHECK_HELP, collectNames)
    .option(
      '--worker',
      "with --queue: check this machine as a worker: every agent the queue's runs use (and the config's), as the worker decides which agents' developments it takes",
    )
    .action(async (flags: TourneyFlags & { worker?: boolean }) => {
      if (flags.worker && !flags.queue)
        throw new Error('doctor --worker needs --queue redis://… (the queue this worker serves)');
      const ready = await checkFirst(
        await configFromFlags(flags),
        flags.json,
        false,
        [],
        flags.worker,
        flags.skipCheck,
      );
      program.setOptionValue('exitCode', ready ? 0 : 1);
    });
}

function registerResumeCommand(program: Command): void {
  program
    .command('resume')
    .description(
      'Continue a killed or interrupted tourney from its run directory: developed strategies and finished ' +
        'games (the journal) are kept, nothing is played twice. A queued run re-attaches to its queue and ' +
        'collects games workers finished meanwhile.',
    )
    .argument('<run-dir>', 'the tourney run directory')
    .option(
      '-c, --concurrency <n|auto>',
      'thinking bots (and games) at once, or auto (default: as stored)',
      concurrencyOption,
    )
    .option('-q, --queue <url>', 'play the rest through this Redis queue (default: the stored one)')
    .option('--embedded', 'play the rest in this process even if the run was queued')
    .option('--accept-tampered', ACCEPT_TAMPERED)
    .option('--json', 'print the summary as JSON')
    .action(
      async (
        dir: string,
        flags: {
          concurrency?: number | 'auto';
          queue?: string;
          embedded?: boolean;
          json?: boolean;
          acceptTampered?: boolean;
        },
      ) => {
        const runDir = path.resolve(dir);
        await playTourney(program, await resumeConfig(runDir, flags), runDir, flags.json, flags.acceptTampered);
      },
    );
}

function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('Rebuild W, metrics and reports of a tournament run from its journal and strategy records.')
    .argument('<run-dir>', 'a tournament run directory')
    .option('--accept-tampered', ACCEPT_TAMPERED)
    .option('--json', 'print the summary as JSON')
    .action(reportRun);
}

/** Rebuilds a run's reports: a --repeats run's combined one, else its own. */
async function reportRun(dir: string, flags: { json?: boolean; acceptTampered?: boolean }): Promise<void> {
  const { RunDir } = await import('../run/run-dir.ts');
  const config = await new RunDir(path.resolve(dir)).readConfig();
  const acceptTampered = Boolean(flags.acceptTampered);
  if ((config.repeats ?? 1) > 1) {
    const [{ combineRuns }, { renderCombinedLeaderboard }] = await Promise.all([
      import('../tourney/combine.ts'),
      import('../../reports/markdown-combined.ts'),
    ]);
    const combined = await combineRuns([path.resolve(dir)], path.resolve(dir), config, acceptTampered);
    printCombined(combined, renderCombinedLeaderboard(combined), flags.json);
    return;
  }
  const { summarizeRun } = await import('../tourney/summarize.ts');
  const summary = await summarizeRun(path.resolve(dir), { acceptTampered });
  await printSummary(summary, null, flags.json);
  if (summary.incomplete) printErr(`catarena: !!! ${summary.incomplete.line}`);
  if (summary.journal?.state === 'tampered')
    printErr(`catarena: !!! ${(await import('../../records/journal-integrity.ts')).integrityLine(summary.journal)}`);
}

function registerCompareCommand(program: Command): void {
  program
    .command('compare')
    .description(
      'Did agent A score better than agent B? A paired test over the runs (repeats) and tracks in which both played: per track and overall, ' +
        'the mean difference in S and L with its interval over repeats (development and games), a sign-flip p-value and P(A better). ' +
        'For "did the new version get better?", enter both versions in the same runs (e.g. claude-code#v1, claude-code#v2). A --repeats run stands for its repeats.',
    )
    .argument('<agentA>', 'agent id (as in the report) or its spec (claude-code#v2, offline:cautious)')
    .argument('<agentB>', 'agent id or spec')
    .argument(
      '<run-dirs...>',
      'finished tourney run directories, e.g. runs/*: the runs with a track both played are used, whatever else changed; the rest are named and skipped',
    )
    .option('--json', 'print the rows as JSON')
    .action(compareRuns);
}

/** Agent A against agent B over the runs where both played a track. */
async function compareRuns(nameA: string, nameB: string, dirs: string[], flags: { json?: boolean }): Promise<void> {
  const [{ readComparableRuns }, { compareAgents, formatComparison }, { agentIdFromName }] = await Promise.all([
    import('../tourney/combine.ts'),
    import('../../reports/compare.ts'),
    import('../run/history.ts'),
  ]);
  const [a, b] = [agentIdFromName(nameA), agentIdFromName(nameB)];
  const { repeats, skipped, notes } = await readComparableRuns(
    dirs.map((d) => path.resolve(d)),
    a,
    b,
  );
  for (const line of skipped) printErr(`catarena: skipped ${line}`);
  if (!repeats.length)
    throw new Error(`no finished run of these ${dirs.length} has a track with both ${a} and ${b} (skipped above)`);
  printErr(`catarena: compared over ${repeats.length} run(s): ${repeats.map((r) => r.runId).join(', ')}`);
  for (const note of notes) printErr(`catarena: ! ${note}`);
  const rows = compareAgents(repeats, a, b, { seed: repeats[0]!.seed });
  if (flags.json) printJson(rows);
  else printOut(formatComparison(a, b, rows));
}

function registerCombineCommand(program: Command): void {
  program
    .command('combine')
    .description(
      'Combine finished runs of one study — the same agents, games, rule sets, rounds and settings, e.g. nightly runs of one config — into ' +
        "the report of repeated tourneys (as --repeats writes): mean ± SD tables, Table 8 (SD of ranks), rank agreement, intervals over the agents' " +
        'development and the games. Refuses runs that are not comparable, naming the difference. A --repeats run stands for its repeats.',
    )
    .argument(
      '<run-dirs...>',
      'finished tourney run directories (in seed order: the combined samples are seeded from the first)',
    )
    .option('-o, --out <dir>', 'where combined.json, report.md and report.html go (default runs/combined-<time>)')
    .option('--accept-tampered', ACCEPT_TAMPERED)
    .option('--json', 'print the leaderboard as JSON')
    .action(async (dirs: string[], flags: { out?: string; json?: boolean; acceptTampered?: boolean }) => {
      const [{ combineRuns }, { renderCombinedLeaderboard }] = await Promise.all([
        import('../tourney/combine.ts'),
        import('../../reports/markdown-combined.ts'),
      ]);
      const out = flags.out ? path.resolve(flags.out) : newRunDir('runs', 'combined');
      const combined = await combineRuns(
        dirs.map((d) => path.resolve(d)),
        out,
        undefined,
        Boolean(flags.acceptTampered),
        (note) => printErr(`catarena: ! ${note}`),
      );
      printCombined(combined, renderCombinedLeaderboard(combined), flags.json);
    });
}
