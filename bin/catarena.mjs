#!/usr/bin/env node
// Entry point. Runs the compiled JavaScript in .build/ (scripts/build.mjs, run by `npm install`),
// rebuilding it first when a source file is newer, so a start costs no transpiling. Without a
// usable build (esbuild missing, a read-only checkout), or with CATARENA_FROM_SOURCE=1, it loads
// the TypeScript sources through tsx instead.
//
// The old generation grows by half its live size between full collections instead of V8's
// dynamic factor (up to 4x): a long run's garbage is otherwise collected only once the heap is
// three times what it holds, so the peak RSS grows with the games played though what is kept
// does not. This is when a collection starts, not a limit: the heap can still grow as far as
// V8 allows. The price is more frequent full collections of a small heap.
//
// TurboFan inlines at most 300 bytecodes per optimised function instead of 920: the orchestrator's
// hot paths are generic over five games, so big inlined bodies met new object shapes, deoptimised
// and were compiled again (a 2-round tourney compiled 871 times, some functions six times, up to
// 90 ms each). Less inlining cost less CPU in all: see the commit that set it.
import v8 from 'node:v8';

v8.setFlagsFromString('--heap-growing-percent=50');
v8.setFlagsFromString('--max-inlined-bytecode-size-cumulative=300');
let main;
if (!process.env.CATARENA_FROM_SOURCE) {
  try {
    const { build, buildIsFresh } = await import('../scripts/build.mjs');
    if (!buildIsFresh()) await build();
    ({ main } = await import('../.build/orchestrator/cli/main.js'));
  } catch (err) {
    if (process.env.CATARENA_DEBUG)
      process.stderr.write(`catarena: no compiled build (${err.message}); running the TypeScript sources\n`);
  }
}
if (!main) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../orchestrator/cli/main.ts'));
}
process.exitCode = await main(process.argv);
