// export: a run's games in a format other programs read. `--pgn`: every chess game of a run
// directory (tourney, play or arena) in one PGN file, from the journal and the replays.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { Replay } from '../../records/match.ts';
import { pathExists } from '../../util/fs.ts';
import { printOut } from './print.ts';

interface ExportFlags {
  pgn?: boolean;
  out?: string;
  all?: boolean;
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

export function registerExportCommands(program: Command): void {
  program
    .command('export')
    .description(
      'Export the games of a run directory (tourney, play or arena) for other programs.\n\n' +
        "--pgn: every chess game in one PGN file (Seven Tag Roster, Termination, each move's time as {[%emt]}). " +
        'Variant games are written as Chess960 ([Variant "Chess960"], [SetUp "1"], [FEN], [Obstacles]) when no piece ever ended its move on an obstacle. ' +
        'A game in which an obstacle removed a piece is no valid PGN game: it is skipped unless --all, which writes it with [Variant "Chess960 with obstacles"] and a comment saying so.',
    )
    .argument('<run-dir>', 'a run directory (with journal.jsonl and replays/)')
    .option('--pgn', 'write the chess games as PGN (the only format so far)')
    .option('-o, --out <file>', 'the PGN file to write (default: <run-dir>/games.pgn)')
    .option('--all', 'also export variant games an obstacle made unrepresentable (as reference, with a comment)')
    .action(async (dir: string, flags: ExportFlags) => {
      if (!flags.pgn) throw new Error('export: choose a format: --pgn (e.g. catarena export --pgn runs/<run-id>)');
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
}
