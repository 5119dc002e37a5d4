// export: a run's games in a format other programs read. `--pgn`: every chess game of a run
// directory (tourney, play or arena) in one PGN file, from the journal and the replays.
// `--bundle`: the whole run as one checksummed .tar.gz for publishing, which `verify` re-checks
// (orchestrator/run/bundle-export.ts, orchestrator/tourney/bundle-verify.ts; docs/bundles.md).
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { Replay } from '../../records/match.ts';
import { pathExists } from '../../util/fs.ts';
import { printOut } from './print.ts';

interface ExportFlags {
  pgn?: boolean;
  bundle?: boolean;
  out?: string;
  all?: boolean;
  force?: boolean;
}

export interface PgnExport {
  file: string;
  games: number;
  /** Variant games left out because an obstacle removed a piece (no PGN reader can follow them). */
  skipped: number;
  /** Journal entries whose replay file is missing. */
  missing: string[];
}

/** Writes every chess game of a run directory into one PGN file. */
export async function exportPgn(runDirArg: string, options: { out?: string; all?: boolean } = {}): Promise<PgnExport> {
  const [{ RunDir }, { gameDescriptor, gameIds }] = await Promise.all([
    import('../run/run-dir.ts'),
    import('../../games/registry.ts'),
  ]);
  const pgnGames = gameIds().filter((g) => gameDescriptor(g).export?.format === 'pgn');
  const run = new RunDir(runDirArg);
  if (!(await pathExists(run.root))) throw new Error(`${run.root} does not exist`);
  if (!(await run.hasJournal()))
    throw new Error(
      `${run.root} is not a run directory (no journal.jsonl; give the folder "catarena tourney", "play" or "arena" wrote)`,
    );
  const results = (await run.openJournal()).results().filter((r) => pgnGames.includes(r.spec.game));
  if (!results.length) throw new Error(`${run.root} has no chess games (its journal holds none); nothing to export`);
  const name = path.basename(run.root);
  const games: string[] = [];
  const missing: string[] = [];
  let skipped = 0;
  for (const result of results) {
    let replay: Replay;
    try {
      replay = await run.readReplay(result.id);
    } catch {
      missing.push(result.id);
      continue;
    }
    const pgn = gameDescriptor(result.spec.game).export!.record(
      { ...replay, result },
      { event: `catarena ${name} ${result.spec.game} ${result.spec.variant}` },
    );
    if (!pgn.representable && !options.all) {
      skipped++;
      continue;
    }
    games.push(pgn.text);
  }
  if (!games.length) {
    throw new Error(
      missing.length === results.length
        ? `${run.root}: the journal names ${results.length} chess games but none has its replay in ${run.replaysDir}`
        : `${run.root}: all ${skipped} chess games are variant games in which an obstacle removed a piece, which PGN cannot express; --all exports them anyway`,
    );
  }
  const file = path.resolve(options.out ?? path.join(run.root, 'games.pgn'));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, gameDescriptor(results[0]!.spec.game).export!.file(games));
  return { file, games: games.length, skipped, missing };
}

async function exportBundleCommand(dir: string, flags: ExportFlags): Promise<void> {
  const { exportBundle } = await import('../run/bundle-export.ts');
  const out = await exportBundle(dir, { out: flags.out, force: flags.force });
  const mb = (out.bytes / 1e6).toFixed(1);
  const lines = [`exported ${out.files} files (${mb} MB before compression) to ${out.file}`];
  if (out.skipped.length)
    lines.push(
      `left out ${out.skipped.length} entr${out.skipped.length === 1 ? 'y' : 'ies'} that are not regular files of the run:`,
      ...out.skipped.slice(0, 20).map((s) => `  ${s}`),
      ...(out.skipped.length > 20 ? [`  … and ${out.skipped.length - 20} more`] : []),
    );
  lines.push(`check it with: catarena verify ${out.file}`);
  printOut(lines.join('\n'));
}

export function registerExportCommands(program: Command): void {
  program
    .command('export')
    .description(
      'Export the games of a run directory (tourney, play or arena) for other programs.\n\n' +
        "--pgn: every chess game in one PGN file (Seven Tag Roster, Termination, each move's time as {[%emt]}). " +
        'Variant games are written as Chess960 ([Variant "Chess960"], [SetUp "1"], [FEN], [Obstacles]) when no piece ever ended its move on an obstacle. ' +
        'A game in which an obstacle removed a piece is no valid PGN game: it is skipped unless --all, which writes it with [Variant "Chess960 with obstacles"] and a comment saying so.\n\n' +
        "--bundle: the run as one .tar.gz for publishing (docs/bundles.md): journal.jsonl with its chain proof (the run's key, disclosed: the run is over), " +
        "replays, strategies as played, round logs, config, format, provenance, W and metrics, recordings/ when present, and MANIFEST.sha256 with every file's SHA-256. " +
        "Links, sockets and fifos in agents' folders are left out, never followed. `catarena verify <bundle>` re-checks it.",
    )
    .argument('<run-dir>', 'a run directory (with journal.jsonl and replays/)')
    .option('--pgn', 'write the chess games as PGN')
    .option('--bundle', 'write the whole run as a checksummed .tar.gz bundle')
    .option(
      '-o, --out <file>',
      'the file to write (default: <run-dir>/games.pgn; with --bundle <run-dir>.bundle.tar.gz)',
    )
    .option('--all', 'also export variant games an obstacle made unrepresentable (as reference, with a comment)')
    .option('--force', 'with --bundle: overwrite an existing output file')
    .action(async (dir: string, flags: ExportFlags) => {
      if (flags.pgn && flags.bundle) throw new Error('export: choose one format: --pgn or --bundle');
      if (flags.bundle) return exportBundleCommand(dir, flags);
      if (!flags.pgn)
        throw new Error(
          'export: choose a format: --pgn (e.g. catarena export --pgn runs/<run-id>) or --bundle (catarena export --bundle runs/<run-id>)',
        );
      const out = await exportPgn(dir, { out: flags.out, all: flags.all });
      const lines = [`exported ${out.games} chess game${out.games === 1 ? '' : 's'} to ${out.file}`];
      if (out.skipped)
        lines.push(
          `skipped ${out.skipped} variant game${out.skipped === 1 ? '' : 's'} in which an obstacle removed a piece (not valid PGN; --all includes them)`,
        );
      if (out.missing.length)
        lines.push(
          `! ${out.missing.length} game${out.missing.length === 1 ? '' : 's'} of the journal had no replay file: ${out.missing.slice(0, 5).join(', ')}${out.missing.length > 5 ? ', …' : ''}`,
        );
      printOut(lines.join('\n'));
    });

  program
    .command('verify')
    .description(
      'Re-check a run bundle (catarena export --bundle) with nothing but the bundle: it is extracted into a temporary folder ' +
        '(an entry with an absolute or ".." path, a link or a device is refused), then every file against MANIFEST.sha256 ' +
        '(changed, missing or extra files fail), the journal chain under the key the bundle discloses (and the run index seal over its end), ' +
        'and W and the metrics rebuilt from the journal as `catarena report` does against those in the bundle. ' +
        'Prints one line per check; exits 1 when any fails.',
    )
    .argument('<bundle>', 'a .tar.gz written by catarena export --bundle')
    .action(async (bundle: string, _flags: unknown, cmd: Command) => {
      const { verifyBundle } = await import('../tourney/bundle-verify.ts');
      const verdict = await verifyBundle(bundle);
      const mark = (c: { ok: boolean; skipped?: boolean }) => (c.skipped ? 'skip' : c.ok ? 'pass' : 'FAIL');
      printOut(
        [
          ...verdict.checks.map((c) => `${mark(c)}  ${c.check}: ${c.detail}`),
          verdict.ok ? `verified: ${bundle}` : `NOT verified: ${bundle} (see the FAIL lines above)`,
        ].join('\n'),
      );
      cmd.parent?.setOptionValue('exitCode', verdict.ok ? 0 : 1);
    });
}
