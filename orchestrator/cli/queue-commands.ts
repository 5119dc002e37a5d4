// worker, queue status, schedule and history: distributed games on BullMQ/Redis and nightly runs.
// Each action loads what it needs when it runs, so `catarena --help` loads none of it.
import path from 'node:path';
import type { HistorySources } from '../run/history-sources.ts';
import type { RunIndexEntry } from '../run/run-index.ts';
import { type Command, Option } from 'commander';
import { concurrencyOption, intOption } from './options.ts';
import { printErr, printJson, printOut } from './print.ts';

const queueOption = (required: boolean) => {
  const option = new Option(
    '-q, --queue <url>',
    'Redis URL of the queue, e.g. redis://127.0.0.1:6379 or rediss://user@host:6380 (password: CATARENA_REDIS_PASSWORD; CA file: CATARENA_REDIS_CA_FILE)',
  ).env('CATARENA_QUEUE');
  return required ? option.makeOptionMandatory() : option;
};
const say = (message: string) => printErr(`catarena: ${message}`);

export function registerQueueCommands(program: Command): void {
  registerWorkerCommand(program);
  registerQueueStatusCommand(program);
  registerScheduleCommand(program);
  registerHistoryCommand(program);
}

interface WorkerFlags {
  queue: string;
  concurrency: number | 'auto';
  sandbox: 'process' | 'docker' | 'unsafe';
  workDir: string;
  runsDir?: string;
  maxBots?: number;
  name?: string;
  tourneys: boolean;
  lockMs?: number;
  develop: number;
  artifactDays?: number;
}

function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description(
      'Play queued games (from "catarena tourney --queue …") with this machine\'s sandbox, keeping bots warm ' +
        'across games; develop queued strategies for the agents this machine can run (their keys are read from ' +
        'this environment and never leave it); and run scheduled tourneys. Code arrives through Redis (content-addressed). ' +
        'SIGTERM or Ctrl-C: finish the games in flight, then exit; a second signal quits at once (its games ' +
        'are re-run by another worker once their lock expires).',
    )
    .addOption(queueOption(true))
    .option(
      '-c, --concurrency <n|auto>',
      'bots thinking (and games played) at once; auto (default) adapts from 1 to the cores to the measured throughput, as a tourney does',
      concurrencyOption,
      'auto',
    )
    .addOption(
      new Option(
        '--sandbox <kind>',
        'where bots run: process (default; isolated by bubblewrap), docker, or unsafe (plain processes)',
      )
        .choices(['process', 'docker', 'unsafe'])
        .default('process'),
    )
    .option('--work-dir <dir>', 'artifact cache and bot logs (default .catarena-worker)', '.catarena-worker')
    .option('--runs-dir <dir>', 'parent folder of scheduled runs (default: the config\'s out, "runs")')
    .option(
      '--artifact-days <n>',
      'delete cached strategy folders (<work-dir>/artifacts) no game or development used for n days; 0: never (default 14)',
      intOption(0),
    )
    .option(
      '--max-bots <n>',
      'idle bots kept running, least recently used stopped first (default 8 × concurrency, or 8 × cores with auto)',
      intOption(1),
    )
    .option('--name <name>', 'worker name shown in "queue status" (default host:pid)')
    .option('--no-tourneys', 'play games only; do not run scheduled tourneys')
    .option(
      '--lock-ms <ms>',
      'a game whose worker stops renewing its lock this long is re-run elsewhere (default 30000)',
      intOption(1_000),
    )
    .option(
      '--develop <n>',
      'developments at once (queued tourneys develop on workers that can run the agent: its key in this environment, its image); 0: develop nothing',
      intOption(0),
      1,
    )
    .action(runWorker);
}

/** Starts a worker, then serves until a signal: the first drains, a second quits at once. */
async function runWorker(flags: WorkerFlags): Promise<void> {
  const { startQueueWorker } = await import('../worker/worker.ts');
  const worker = await startQueueWorker({
    url: flags.queue,
    concurrency: flags.concurrency,
    sandbox: flags.sandbox,
    workDir: path.resolve(flags.workDir),
    runsDir: flags.runsDir && path.resolve(flags.runsDir),
    maxBots: flags.maxBots,
    name: flags.name,
    tourneys: flags.tourneys,
    lockDurationMs: flags.lockMs,
    develop: flags.develop,
    artifactMaxAgeDays: flags.artifactDays,
    report: say,
  });
  say(
    `worker ${worker.name} ready on ${(await import('../queue/url.ts')).publicQueueUrl(flags.queue)} (concurrency ${flags.concurrency}, ${flags.sandbox} sandbox)`,
  );
  await untilDrained(worker);
  say(
    `worker ${worker.name} stopped after ${worker.played} games (${await worker.botsStarted()} bot starts) and ${worker.developed} developments`,
  );
}

function untilDrained(worker: { drain(): Promise<void> }): Promise<void> {
  return new Promise<void>((resolve) => {
    let signals = 0;
    const onSignal = () => {
      if (++signals === 1) {
        say(`draining: finishing the games in flight (signal again to quit now)`);
        void worker.drain().then(resolve);
      } else {
        // Not worker.kill(): a close already under way ignores force, and Redis may be gone.
        // Bots and containers are stopped by the sandboxes' exit hooks.
        say('quitting now; the games in flight are re-run by another worker once their lock expires');
        process.exit(130);
      }
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

function registerQueueStatusCommand(program: Command): void {
  const queue = program.command('queue').description('Inspect the game queue.');
  queue
    .command('status')
    .description(
      'Waiting, active, delayed, completed and failed jobs; connected workers and what each plays; recent failures; schedules.',
    )
    .addOption(queueOption(true))
    .option('--json', 'print as JSON')
    .action(async (flags: { queue: string; json?: boolean }) => {
      const { formatQueueStatus, queueStatus } = await import('../queue/status.ts');
      const status = await queueStatus(flags.queue);
      if (flags.json) printJson(status);
      else printOut(formatQueueStatus(status));
    });
}

interface ScheduleFlags {
  queue: string;
  cron?: string;
  config?: string;
  name: string;
  tz?: string;
  reuse?: boolean;
  retries?: number;
  retryDelay?: number;
  catchUp?: 'none' | 'latest' | 'all';
  onFailure?: string;
  webhook?: string;
  list?: boolean;
  remove?: string;
}

function registerScheduleCommand(program: Command): void {
  program
    .command('schedule')
    .description(
      "Register a recurring tourney (a BullMQ job scheduler): at each cron time a worker runs the config's " +
        'tourney with its games on the queue. The same --name again replaces it. Needs a running worker.',
    )
    .addOption(queueOption(true))
    .option('--cron <pattern>', 'cron pattern, e.g. "0 2 * * *" (02:00 every day)')
    .option('--config <file>', 'tourney config (YAML or JSON, as for "tourney --config")')
    .option('--name <name>', "scheduler name, also the run directories' prefix", 'nightly')
    .option('--tz <zone>', 'time zone of the cron pattern, e.g. Europe/Berlin (default: local time)')
    .option('--reuse', 'reuse results of games whose code and settings did not change since an earlier run')
    .option(
      '--retries <n>',
      'tries again after a night fails on an infrastructure error (Redis away past 60 s, a game failing on every worker), resuming its folder (default 2)',
      intOption(0),
    )
    .option(
      '--retry-delay <ms>',
      'wait before the first retry, doubled for each next one (default 60000)',
      intOption(0),
    )
    .addOption(
      new Option(
        '--catch-up <policy>',
        'firings that passed while no worker took the schedule (none up, or all busy): run none, only the latest (default), or all; each one not run is recorded as missed',
      ).choices(['none', 'latest', 'all']),
    )
    .option(
      '--on-failure <command>',
      "shell command run (sh -c, on the worker that saw it, stopped after 30 s) when a night fails for good (after its retries), is missed, or regresses (an agent's S below its band: docs/queue.md); the alert's JSON on its stdin",
    )
    .option(
      '--webhook <url>',
      'http(s) URL POSTed the same JSON on the same nights; stored in Redis with the schedule (as the command is): a token in it is readable by whoever can read the queue',
    )
    .option('--list', 'list registered schedules (an overdue one says so)')
    .option('--remove <name>', 'remove a schedule')
    .action(async (flags: ScheduleFlags) => {
      if (flags.list) return printSchedules(flags.queue);
      if (flags.remove) return removeScheduleNamed(flags.queue, flags.remove);
      await registerSchedule(flags);
    });
}

async function printSchedules(queue: string): Promise<void> {
  const { listSchedules, lostSchedules } = await import('../worker/nightly.ts');
  const { describeNext } = await import('../queue/schedule-state.ts');
  const schedules = await listSchedules(queue);
  const { describeLost } = await import('../queue/lost-schedules.ts');
  for (const lost of await lostSchedules(queue)) say(describeLost(lost));
  printOut(
    schedules.length
      ? schedules
          .map(
            (s) =>
              `${s.name}  "${s.cron}"${s.tz ? ` ${s.tz}` : ''}  ${describeNext(s.next, s.overdue, s.catchUp)}  catch-up ${s.catchUp}${s.alerts ? `  alerts: ${s.alerts}` : ''}`,
          )
          .join('\n')
      : 'no schedules',
  );
}

async function removeScheduleNamed(queue: string, name: string): Promise<void> {
  const { removeSchedule } = await import('../worker/nightly.ts');
  const removed = await removeSchedule(queue, name);
  printOut(removed ? `removed schedule ${name}` : `no schedule named ${name}`);
}

async function registerSchedule(flags: ScheduleFlags): Promise<void> {
  if (!flags.cron || !flags.config)
    throw new Error('schedule needs --cron "<pattern>" and --config <file> (or --list, --remove <name>)');
  const { scheduleTourney } = await import('../worker/nightly.ts');
  const { readConfigFile } = await import('../config/tourney-config.ts');
  const config = { ...(await readConfigFile(flags.config)), ...(flags.reuse ? { reuse: true } : {}) };
  const info = await scheduleTourney({
    url: flags.queue,
    name: flags.name,
    cron: flags.cron,
    tz: flags.tz,
    config,
    retries: flags.retries,
    retryDelayMs: flags.retryDelay,
    catchUp: flags.catchUp,
    ...(flags.onFailure !== undefined || flags.webhook !== undefined
      ? { alerts: { onFailure: flags.onFailure, webhook: flags.webhook } }
      : {}),
  });
  printOut(
    `schedule ${info.name} registered: "${info.cron}"${info.tz ? ` ${info.tz}` : ''}, next run ${info.next ?? '?'}, catch-up ${info.catchUp}`,
  );
  for (const warning of info.warnings ?? []) say(`! ${warning}`);
}

interface HistoryFlags {
  out: string;
  queue?: string;
  agent?: string;
  schedule?: string;
  json?: boolean;
  html?: boolean;
  taskTracks?: boolean;
  acceptTampered?: boolean;
}

function registerHistoryCommand(program: Command): void {
  program
    .command('history')
    .description(
      "Each agent's scores across tourney runs (oldest first), from the run index, with each run's status: finished, " +
        'failed, killed, missed (from the nights list with --queue; from the run folders otherwise), interrupted, running ' +
        'or folder deleted. A change of setup (agents, tracks, rounds, rules) is marked between the rows.',
    )
    .option('-o, --out <dir>', 'parent folder of the run directories (its index.jsonl)', 'runs')
    .addOption(
      new Option('-q, --queue <url>', "read the queue's index of queued runs (all machines) instead of --out's").env(
        'CATARENA_QUEUE',
      ),
    )
    .option('--agent <id|spec>', 'only this agent: its id (cautious) or its spec (offline:cautious)')
    .option('--schedule <name>', 'only the runs and nights of this schedule (its --name)')
    .option('--json', 'print as JSON')
    .option(
      '--task-tracks',
      'print the task-track tables over the runs instead: ML ability (Table 14 layout) and S per bot language with its variance (Table 15 layout); docs/tracks.md',
    )
    .option(
      '--html',
      "write the history page (S and L per agent and track across runs, with intervals; links to each run's report) to <out>/index.html and print its path",
    )
    .option(
      '--accept-tampered',
      "show runs whose journal's chain breaks or whose index entry was changed (named on stderr) instead of leaving them out",
    )
    .action(runHistory);
}

async function runHistory(flags: HistoryFlags): Promise<void> {
  const [{ withRedis }, { checkedRuns }, sources] = await Promise.all([
    import('../queue/connection.ts'),
    import('../run/history.ts'),
    import('../run/history-sources.ts'),
  ]);
  // Finished runs from the index; failed, killed and missed nights from the nights list
  // (--queue) or the run folders' status.json; runs whose folder is gone are marked.
  const found = flags.queue
    ? await withRedis(flags.queue, sources.queueHistory)
    : await sources.localHistory(path.resolve(flags.out));
  // Each run's journal chain and sealed index entry: a run whose results were changed is left out.
  const { entries, notes } = await checkedRuns(found.entries, flags.acceptTampered);
  for (const note of notes) say(note);
  if (flags.html) return writeHistoryHtml(flags, entries, found);
  if (flags.taskTracks) return printTaskTracks(flags, entries);
  await printHistoryRows(flags, entries, found);
}

/** The list, or only the runs and nights of --schedule. */
const ofSchedule = <T extends { schedule?: string }>(flags: HistoryFlags, list: T[]) =>
  flags.schedule === undefined ? list : list.filter((e) => e.schedule === flags.schedule);

async function writeHistoryHtml(flags: HistoryFlags, entries: RunIndexEntry[], found: HistorySources): Promise<void> {
  const [{ writeHistoryPage }, { INDEX_FILE }] = await Promise.all([
    import('../run/run-index.ts'),
    import('../run/run-dir.ts'),
  ]);
  const page = await writeHistoryPage(path.resolve(flags.out, INDEX_FILE), ofSchedule(flags, entries), {
    ends: ofSchedule(flags, found.ends),
    deleted: found.deleted,
  });
  printOut(
    `history: ${page} (${ofSchedule(flags, entries).length} run(s), ${ofSchedule(flags, found.ends).length} not finished)`,
  );
}

async function printTaskTracks(flags: HistoryFlags, entries: RunIndexEntry[]): Promise<void> {
  const { scoresFromIndex, taskTrackSections } = await import('../../reports/markdown-task-tracks.ts');
  const { agentIdFromName } = await import('../run/history.ts');
  const agent = flags.agent && agentIdFromName(flags.agent);
  const scores = scoresFromIndex(ofSchedule(flags, entries)).filter((s) => !agent || s.agent === agent);
  if (flags.json) printJson(scores);
  else printOut(taskTrackSections(scores).join('\n\n') || 'no indexed run here is on a task track other than standard');
}

async function printHistoryRows(flags: HistoryFlags, entries: RunIndexEntry[], found: HistorySources): Promise<void> {
  const { agentIdFromName, formatHistory, historyRows } = await import('../run/history.ts');
  const rows = historyRows(entries, flags.agent, { ...found, schedule: flags.schedule });
  if (flags.schedule && !rows.length) {
    const names = [...new Set([...entries, ...found.ends].flatMap((e) => e.schedule ?? []))].sort();
    throw new Error(
      `no run or night of schedule ${flags.schedule} here; schedules: ${names.join(', ') || 'none'} (names as in "schedule --list")`,
    );
  }
  if (flags.agent && !rows.some((r) => Object.keys(r.scores).length) && entries.length) {
    const agents = [...new Set(entries.flatMap((e) => e.leaderboard.map((r) => r.agent)))].sort();
    throw new Error(
      `no indexed run has agent ${flags.agent} (as id ${agentIdFromName(flags.agent)}); the runs' agents: ${agents.join(', ')}`,
    );
  }
  if (flags.json) printJson(rows);
  else printOut(formatHistory(rows));
}
