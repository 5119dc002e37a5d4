// catarena's command line. Each command is a thin layer: parse options, call one module, print.
import { Command, CommanderError } from 'commander';
import { gameIds } from '../../games/registry.ts';
import { registerExportCommands } from './export-commands.ts';
import { registerPlayCommands } from './play-commands.ts';
import { registerProbeCommand } from './probe-command.ts';
import { registerPruneCommand } from './prune-command.ts';
import { registerRerunCommand } from './rerun-command.ts';
import { registerQueueCommands } from './queue-commands.ts';
import { registerRateCommand } from './rate-command.ts';
import { registerServeCommand } from './serve-command.ts';
import { registerTourneyCommands } from './tourney-commands.ts';
import { printErr } from './print.ts';
import { CATARENA_VERSION } from '../../util/version.ts';

export function buildProgram(): Command {
  const program = new Command('catarena')
    .description(
      'Tournament orchestrator for code-agent strategy bots (CATArena-compatible).\n' +
        `Games: ${gameIds().join(', ')}. A bot is a folder with start_ai.sh, started as "bash start_ai.sh <port>".`,
    )
    .version(CATARENA_VERSION, '--version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerTourneyCommands(program);
  registerPlayCommands(program);
  registerRateCommand(program);
  registerQueueCommands(program);
  registerExportCommands(program);
  registerProbeCommand(program);
  registerServeCommand(program);
  registerPruneCommand(program);
  registerRerunCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof program.getOptionValue('exitCode') === 'number' ? program.getOptionValue('exitCode') : 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    printErr(`catarena: ${(err as Error).message}`);
    if (process.env.CATARENA_DEBUG) printErr(`${(err as Error).stack}`);
    return 1;
  }
}
