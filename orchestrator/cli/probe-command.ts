// probe: how alike the run's strategies decide (docs/probe.md). The probe and the reports are
// loaded when the command runs, not to print help.
import path from 'node:path';
import type { Command } from 'commander';
import { intOption } from './options.ts';
import { printErr, printJson, printOut } from './print.ts';

interface ProbeFlags {
  states: number;
  seed?: number;
  games?: string;
  llmPlayer: string[];
  llmBaseUrl?: string;
  timeout?: number;
  concurrency?: number;
  report: boolean;
  json?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerProbeCommand(program: Command): void {
  program
    .command('probe')
    .summary('how often the strategies of a run choose the same action on endgame states (consistency matrices)')
    .description(
      "Asks every strategy of a tournament run for its action on endgame states sampled from the run's replays, twice, and reports how often " +
        'two strategies (or one asked twice) chose the same action: per game and rule set a consistency matrix, round n vs n+1 per agent, ' +
        "and code vs LLM-player (--llm-player). Each bot is started again in the run's sandbox and asked through the game's own protocol; " +
        'a timeout or bad answer is counted in a failures table, not fatal.\n\n' +
        "Endgame states: Gomoku and chess the last 10 moves of a game, Hold'em the turn and river decisions, Bridge the card plays of the " +
        'last 6 tricks, each as that seat saw it; forced moves (one legal action) are left out.\n\n' +
        'Writes <run-dir>/probe/<game>-<variant>/ (consistency.json, consistency.csv, consistency.svg, actions.json) and, when the run has ' +
        'report.md, rebuilds report.md and report.html (as "catarena report" does) with a probe section. See docs/probe.md.',
    )
    .argument('<run-dir>', 'a tournament run directory (catarena tourney)')
    .option('-n, --states <n>', 'endgame states per game and rule set', intOption(1, 100_000), 100)
    .option('--seed <n>', "sampling seed (default: the run's seed)", intOption(-(2 ** 31), 2 ** 31 - 1))
    .option('-g, --games <list>', 'only these games of the run, comma-separated (default: all)')
    .option(
      '--llm-player <spec>',
      'also ask an LLM-player, as the llm-player agent takes it: llm-player:<provider>/<model>[#id] (repeatable); its key from the environment',
      collect,
      [],
    )
    .option(
      '--llm-base-url <url>',
      "the LLM-players' endpoint (an OpenAI-compatible server: http://127.0.0.1:8000/v1); CATARENA_LLM_BASE_URL overrides it",
    )
    .option('--timeout <ms>', "deadline of one action (default: the run's move deadline for the game)", intOption(1))
    .option('-c, --concurrency <n>', 'bots asked at once (default: the number of cores)', intOption(1, 256))
    .option('--no-report', 'do not rebuild report.md and report.html')
    .option('--json', 'print the results as JSON')
    .action(async (dir: string, flags: ProbeFlags) => {
      const [{ runProbe }, { RunDir }, { pathExists }] = await Promise.all([
        import('../probe/probe.ts'),
        import('../run/run-dir.ts'),
        import('../../util/fs.ts'),
      ]);
      const runDir = path.resolve(dir);
      if (!(await pathExists(runDir))) throw new Error(`${runDir} does not exist`);
      const outcome = await runProbe({
        runDir,
        states: flags.states,
        seed: flags.seed,
        games: flags.games
          ?.split(',')
          .map((g) => g.trim())
          .filter(Boolean),
        llmPlayers: flags.llmPlayer,
        llmBaseUrl: flags.llmBaseUrl,
        timeoutMs: flags.timeout,
        concurrency: flags.concurrency,
        onProgress: (line) => printErr(`[probe] ${line}`),
      });
      const run = new RunDir(runDir);
      let reports = '';
      if (flags.report && (await pathExists(run.reportFile))) {
        printErr('[probe] rebuilding report.md and report.html');
        const { summarizeRun } = await import('../tourney/summarize.ts');
        await summarizeRun(runDir);
        reports = `reports: ${run.reportFile}, ${run.reportHtmlFile}`;
      }
      if (flags.json) {
        printJson(outcome);
        return;
      }
      for (const r of outcome.results) {
        const diagonal = r.matrix.values.map((row, i) => row[i]).filter((v): v is number => v !== null);
        const failed = r.failures.reduce((n, f) => n + f.failed, 0);
        printOut(
          `${r.track}: ${r.sampled} states × ${r.subjects.length} bots × 2 in ${(r.wallMs / 1000).toFixed(1)} s (${((r.wallMs / 1000) * (100 / r.sampled)).toFixed(1)} s per 100 states); ` +
            `self-consistency ${diagonal.length ? `${Math.min(...diagonal).toFixed(2)}–${Math.max(...diagonal).toFixed(2)}` : '—'}; ${failed} failed answers → ${run.probeDir(r.track)}`,
        );
      }
      for (const n of outcome.notProbed) printOut(`${n.track}: not probed (${n.reason})`);
      if (reports) printOut(reports);
    });
}
