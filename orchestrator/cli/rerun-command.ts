// rerun: a recorded run again, its agents' model requests answered from the recording
// (orchestrator/tourney/rerun.ts, docs/rerun.md). Loaded when the command runs, not to print help.
import path from 'node:path';
import type { Command } from 'commander';
import { RUN_FILES } from '../../records/run-layout.ts';
import { intOption } from './options.ts';
import { printErr, printJson, printOut } from './print.ts';

interface RerunFlags {
  out?: string;
  fromRound?: number;
  swap?: string;
  liveAfterDivergence?: boolean;
  json?: boolean;
}

export function registerRerunCommand(program: Command): void {
  program
    .command('rerun')
    .summary("a recorded run again with no provider call: every model request answered from the run's recording")
    .description(
      "Runs a tourney's config again with each agent's model requests (the built-in agent's, the CLI agents' and the " +
        "LLM-player bots') answered from the run's recordings/, in order per agent, track and round; volatile fields (ids, " +
        'timestamps, ports, paths, durations) do not count. The first request of an agent and round that really differs stops ' +
        "its replay and is reported with both versions side by side; that agent's further requests are refused (it fails its " +
        'round) unless --live-after-divergence sends them to the live endpoint (which needs its key). Then compares the ' +
        "rerun's games and W with the original's, game by game, and writes rerun.json and rerun.md in the rerun's directory. " +
        'Exits 0 when identical, 1 when anything differs. See docs/rerun.md.',
    )
    .argument('<run-dir>', 'a tourney run directory recorded with catarena tourney (without --no-record)')
    .option('-o, --out <dir>', "the rerun's run directory (new or empty; default <run-dir>-rerun-<time>)")
    .option(
      '--live-after-divergence',
      "after an agent's request differs, send its further requests to the live endpoint",
    )
    .option(
      '--swap <agent>=<spec>',
      'a fork: this agent of the run becomes <spec> (its id kept) and runs live from --from-round on; every other agent is replayed',
    )
    .option('--from-round <k>', 'with --swap: the first round the new spec develops (default 1)', intOption(1, 100))
    .option('--json', 'print the comparison as JSON')
    .action(async (dir: string, flags: RerunFlags) => {
      const [{ rerunRun }, { createProgress }, { parseSwap }] = await Promise.all([
        import('../tourney/rerun.ts'),
        import('../progress.ts'),
        import('../tourney/fork.ts'),
      ]);
      if (flags.fromRound && !flags.swap) throw new Error('--from-round goes with --swap <agent>=<spec> (a fork)');
      const progress = createProgress('rerun', process.stderr, Boolean(flags.json));
      const result = await rerunRun({
        from: dir,
        ...(flags.out ? { out: flags.out } : {}),
        ...(flags.liveAfterDivergence ? { liveAfterDivergence: true } : {}),
        ...(flags.swap ? { fork: { ...parseSwap(flags.swap), fromRound: flags.fromRound ?? 1 } } : {}),
        progress,
      });
      if (flags.json) printJson(result);
      else {
        printOut(
          `rerun of ${result.from}: ${result.replayed} of ${result.recorded} recorded exchanges replayed, ${result.divergences.length} divergence(s)`,
        );
        printOut(
          `games: ${result.games.same}/${result.games.compared} the same; W: ${result.W.differences.length} of ${result.W.compared} entries differ`,
        );
        for (const d of result.divergences.slice(0, 5))
          printErr(
            `catarena: ${d.agent} (${d.track}, round ${d.round}) request ${d.order} differs at ${d.differences[0]?.path ?? '$'}`,
          );
        printOut(
          `${result.identical ? 'identical to the original' : 'differs from the original'}: ${path.join(result.runDir, RUN_FILES.rerunMd)}`,
        );
      }
      program.setOptionValue('exitCode', result.identical ? 0 : 1);
    });
}
