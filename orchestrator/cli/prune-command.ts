// prune: makes finished run directories small (orchestrator/run/prune.ts); with --keep or
// --older-than, deletes whole finished runs of a runs folder (orchestrator/run/retention.ts).
import { type Command, Option } from 'commander';
import { megabytes } from '../run/disk-usage.ts';
import { intOption } from './options.ts';
import { printOut } from './print.ts';

interface PruneFlags {
  dryRun?: boolean;
  keep?: number;
  olderThan?: string;
  schedule?: string;
  queue?: string;
}

export function registerPruneCommand(program: Command): void {
  program
    .command('prune')
    .description(
      'Make finished run directories small: keeps the journal, W, metrics, reports, replays and strategies (all resume, report, --reuse and probe read); ' +
        "drops live.jsonl's game lines and older runs' per-game replay pages (catarena report writes the shared page), compresses replays of older runs, " +
        'and stores each workspace and round-log file once (store/, hard links). Says how much it frees. ' +
        'With --keep or --older-than it DELETES whole runs instead: the arguments are then runs folders (e.g. runs/), ' +
        'and of their finished runs it deletes those neither option keeps, with their lines in index.jsonl (and, with --queue, ' +
        "the queue's run list); a run that is running, or failed, was killed or interrupted, is never deleted.",
    )
    .argument('<runs...>', 'run directories; with --keep / --older-than, folders holding run directories')
    .option('--dry-run', 'say what would be freed or deleted, change nothing')
    .option('--keep <n>', 'delete runs: keep the newest n finished runs of each folder (of --schedule)', intOption(0))
    .option(
      '--older-than <age>',
      'delete runs: only those that finished longer ago than this, e.g. 30d, 12h, 2w (with --keep: beyond the newest n and older)',
    )
    .option('--schedule <name>', 'with --keep / --older-than: only the runs of this schedule')
    .addOption(
      new Option(
        '-q, --queue <url>',
        "with --keep / --older-than: also drop the deleted runs from this queue's run list",
      ).env('CATARENA_QUEUE'),
    )
    .action(async (runs: string[], opts: PruneFlags) => {
      if (opts.keep !== undefined || opts.olderThan !== undefined) return deleteRuns(runs, opts);
      if (opts.schedule)
        throw new Error('--schedule selects runs to delete: give --keep <n> or --older-than <age> too');
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

async function deleteRuns(folders: string[], opts: PruneFlags): Promise<void> {
  const { parseAge, pruneRunsFolder } = await import('../run/retention.ts');
  const olderThanMs = opts.olderThan === undefined ? undefined : parseAge(opts.olderThan);
  for (const folder of folders) {
    const result = await pruneRunsFolder(folder, {
      keep: opts.keep,
      olderThanMs,
      schedule: opts.schedule,
      dryRun: opts.dryRun,
      queueUrl: opts.queue,
    });
    const verb = opts.dryRun ? 'would delete' : 'deleted';
    const bytes = result.deleted.reduce((n, d) => n + d.bytes, 0);
    printOut(
      `${result.out}: ${verb} ${result.deleted.length} finished run(s), ${megabytes(bytes)}; kept ${result.kept} finished${result.notFinished.length ? `, left ${result.notFinished.length} not finished alone` : ''}`,
    );
    for (const d of result.deleted)
      printOut(
        `  ${verb}  ${d.runDir}  (finished ${d.finishedAt.slice(0, 16).replace('T', ' ')}, ${megabytes(d.bytes)})`,
      );
    for (const n of result.notFinished) printOut(`  left     ${n.runDir}  (${n.state})`);
    if (result.indexDropped) printOut(`  ${result.indexDropped} index line(s) dropped`);
  }
}
