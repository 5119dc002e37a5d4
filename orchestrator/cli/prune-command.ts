// prune: makes finished run directories small (orchestrator/run/prune.ts).
import type { Command } from 'commander';
import { megabytes } from '../run/disk-usage.ts';
import { printOut } from './print.ts';

export function registerPruneCommand(program: Command): void {
  program
    .command('prune')
    .description(
      'Make finished run directories small: keeps the journal, W, metrics, reports, replays and strategies (all resume, report, --reuse and probe read); ' +
        "drops live.jsonl's game lines and older runs' per-game replay pages (catarena report writes the shared page), compresses replays of older runs, " +
        'and stores each workspace and round-log file once (store/, hard links). Says how much it frees.',
    )
    .argument('<runs...>', 'run directories')
    .option('--dry-run', 'say what would be freed, change nothing')
    .action(async (runs: string[], opts: { dryRun?: boolean }) => {
      const { pruneRun } = await import('../run/prune.ts');
      let total = 0;
      for (const dir of runs) {
        const result = await pruneRun(dir, { dryRun: opts.dryRun });
        total += result.freed;
        printOut(`${result.runDir}: ${opts.dryRun ? 'would free' : 'freed'} ${megabytes(result.freed)}`);
        for (const s of result.steps)
          printOut(`  ${megabytes(s.bytes).padStart(10)}  ${s.what}${s.files ? ` (${s.files} files)` : ''}`);
      }
      if (runs.length > 1)
        printOut(`${opts.dryRun ? 'would free' : 'freed'} ${megabytes(total)} in ${runs.length} runs`);
      if (!opts.dryRun) printOut('replay pages: catarena report <run dir> writes them again');
    });
}
