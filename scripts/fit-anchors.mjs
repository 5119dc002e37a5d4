#!/usr/bin/env node
// Fits an anchor pool (docs/anchors.md): plays the round robin of the newest unfitted pool
// version of a game's rule set in games/<game>/anchors.json, fits the anchors' ratings and writes
// them (with the seed, repetitions, games, rules, date and the anchors' code hashes) into that file.
// A fitted version is never refitted: add a version to the file to fit again.
//   nice -n 10 node scripts/fit-anchors.mjs --game gomoku --variant standard --reps 4 [--seed 1]
//     [--concurrency 2] [--sandbox process|unsafe] [--file <anchors.json>] [--out runs]
// The round robin's run directory (journal, replays) is left under --out (default runs/).
import path from 'node:path';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const game = arg('--game');
if (!game) {
  process.stderr.write(
    'usage: node scripts/fit-anchors.mjs --game <game> [--variant standard] [--reps 4] [--seed 1]\n',
  );
  process.exit(2);
}
const { register } = await import('tsx/esm/api');
register();
const [{ fitAnchorPool }, { sandboxForBots }, { newRunDir }, { createProgress }] = await Promise.all([
  import('../orchestrator/anchors.ts'),
  import('../orchestrator/config/sandbox-choice.ts'),
  import('../orchestrator/cli/options.ts'),
  import('../orchestrator/progress.ts'),
]);
const variant = arg('--variant', 'standard');
const concurrency = arg('--concurrency', '2');
const sandbox = sandboxForBots(arg('--sandbox', 'process'), { dirs: [] });
try {
  const pool = await fitAnchorPool({
    game,
    variant,
    file: arg('--file') && path.resolve(arg('--file')),
    reps: Number(arg('--reps', '4')),
    seed: Number(arg('--seed', '1')),
    concurrency: concurrency === 'auto' ? 'auto' : Number(concurrency),
    sandbox,
    runDir: newRunDir(arg('--out', 'runs'), `anchors-${game}-${variant}`),
    progress: createProgress('fit', process.stderr, false),
  });
  const fit = pool.fit;
  process.stdout.write(
    `${game}/${variant} pool v${pool.version}: ${fit.games} games, ${fit.model}, seed ${fit.seed}, reps ${fit.reps}\n` +
      fit.ratings
        .map(
          (r) =>
            `  ${r.id.padEnd(24)} ${r.elo.toFixed(0).padStart(6)} [${r.lo.toFixed(0)}, ${r.hi.toFixed(0)}]  ${r.games} games`,
        )
        .join('\n') +
      '\n',
  );
} finally {
  await sandbox.close();
}
