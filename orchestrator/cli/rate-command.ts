// `catarena rate <bot>`: the bot's rating on the game's anchor pool (docs/anchors.md).
import path from 'node:path';
import { type Command, Option } from 'commander';
import { checkVariant, gameDescriptor, gameIds } from '../../games/registry.ts';
import { BOT_START_TIMEOUT_MS, DEFAULT_LIMITS } from '../../records/match.ts';
import type { AnchoredRating } from '../../records/anchors.ts';
import { moveTimeoutHelp } from './game-help.ts';
import { withInterrupt } from './interrupt.ts';
import { concurrencyOption, intOption, newRunDir, resolveBotDir } from './options.ts';
import { printJson, printOut } from './print.ts';
import { RUN_DIRS } from '../../records/run-layout.ts';

interface RateCliOptions {
  game: string;
  variant: string;
  seed: number;
  targetWidth: number;
  maxGames: number;
  poolVersion?: number;
  moveTimeout?: number;
  startTimeout: number;
  policy: 'strict' | 'catarena';
  concurrency: number | 'auto';
  out: string;
  runDir?: string;
  sandbox: string;
  json?: boolean;
}

function ratingLine(r: AnchoredRating): string {
  const round = (x: number) => (Number.isFinite(x) ? Math.round(x) : 'n/a');
  const against = Object.entries(r.opponents)
    .map(([id, n]) => `${id} ${n}`)
    .join(', ');
  const why = { target: 'interval at target', 'max-games': 'game cap reached', interrupted: 'interrupted' }[r.stopped];
  return (
    `${r.bot}: ${round(r.elo)} Elo [${round(r.lo)}, ${round(r.hi)}] (${Math.round(r.level * 100)}%) on the ${r.game}/${r.variant} anchor pool v${r.poolVersion}` +
    `\ngames: ${r.games} (${why}); against ${against || 'nobody'}`
  );
}

export function registerRateCommand(program: Command): void {
  program
    .command('rate')
    .description(
      "Rate a bot on the game's anchor pool: fixed reference bots with committed ratings (docs/anchors.md).\n" +
        'Plays it against the anchors nearest its current estimate (the middle of the pool to start), refits its rating with the anchors held fixed, and stops when the interval is narrower than --target-width or at --max-games.\n' +
        'Prints the rating on the pool scale (Elo, 0 = the pool mean) with its interval, the pool version and the games; the games and replays are in the run directory.',
    )
    .argument('<bot>', 'bot folder (with start_ai.sh), or builtin:<name>')
    .addOption(new Option('-g, --game <game>', 'game').choices(gameIds()).default(gameIds()[0]))
    .option('-V, --variant <variant>', 'rule set: standard or variant', 'standard')
    .option('--seed <n>', 'seed of the games (deals, setups, seating)', intOption(-(2 ** 31), 2 ** 31 - 1), 1)
    .option('--target-width <elo>', 'stop once the interval (hi − lo) is at most this many Elo', intOption(1), 200)
    .option('--max-games <n>', 'stop after this many games at most', intOption(1, 10_000), 200)
    .option('--pool-version <n>', 'the anchor pool version (default: the newest fitted)', intOption(1))
    .option('--move-timeout <ms>', `per-move deadline (default: the game's: ${moveTimeoutHelp()})`, intOption(1))
    .option('--start-timeout <ms>', 'how long a bot may take to become healthy', intOption(100), BOT_START_TIMEOUT_MS)
    .addOption(
      new Option('--policy <policy>', 'forfeit policy: strict or catarena')
        .choices(['strict', 'catarena'])
        .default('strict'),
    )
    .option('-c, --concurrency <n|auto>', 'games and thinking bots at once, or auto', concurrencyOption, 'auto')
    .option('-o, --out <dir>', 'parent folder of run directories', 'runs')
    .option('--run-dir <dir>', 'use this run directory instead of a new one')
    .addOption(
      new Option('--sandbox <kind>', 'where bots run (process: each isolated by bubblewrap; unsafe: plain processes)')
        .choices(['process', 'docker', 'unsafe'])
        .default('process'),
    )
    .option('--json', 'print the rating as JSON on stdout')
    .action(async (bot: string, opts: RateCliOptions) => {
      checkVariant(opts.game, opts.variant);
      const [{ sandboxForBots }, { refsFromDirs }, { rateBot }, { createProgress }] = await Promise.all([
        import('../config/sandbox-choice.ts'),
        import('../arena.ts'),
        import('../rate.ts'),
        import('../progress.ts'),
      ]);
      const dir = resolveBotDir(bot, opts.game);
      const sandbox = sandboxForBots(opts.sandbox, { dirs: [dir] });
      const runDir = opts.runDir ? path.resolve(opts.runDir) : newRunDir(opts.out, 'rate');
      try {
        const rating = await withInterrupt((signal) =>
          rateBot({
            game: opts.game,
            variant: opts.variant,
            bot: refsFromDirs([dir])[0]!,
            seed: opts.seed,
            targetWidth: opts.targetWidth,
            maxGames: opts.maxGames,
            poolVersion: opts.poolVersion,
            concurrency: opts.concurrency,
            limits: { ...DEFAULT_LIMITS, moveMs: opts.moveTimeout ?? gameDescriptor(opts.game).defaults.moveTimeoutMs },
            policy: opts.policy,
            runDir,
            sandbox,
            startTimeoutMs: opts.startTimeout,
            progress: createProgress('rate', process.stderr, Boolean(opts.json)),
            signal,
          }),
        );
        if (opts.json) printJson({ runDir, ...rating });
        else
          printOut(`${ratingLine(rating)}\nrun directory: ${runDir}   replays: ${path.join(runDir, RUN_DIRS.replays)}`);
      } finally {
        await sandbox.close();
      }
    });
}
