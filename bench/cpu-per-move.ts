// The orchestrator's own CPU per move over a whole default tourney (`catarena tourney --rounds 4`,
// the offline agents): its process's CPU time (bots excluded) ÷ the moves of every game. Goal
// ≤ 0.3 ms (issue 34). Development, reports and start-up are in the numerator too.
//   npm run bench -- cpu-per-move [--rounds 4] [--games gomoku,...]
import fs from 'node:fs';
import os from 'node:os';
import { measureTourney } from './tourney-process.ts';

export async function benchCpuPerMove() {
  const i = process.argv.indexOf('--rounds');
  const g = process.argv.indexOf('--games');
  const args = ['--rounds', i > 0 ? process.argv[i + 1]! : '4', ...(g > 0 ? ['--games', process.argv[g + 1]!] : [])];
  const load = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
  const loadBefore = load();
  const r = await measureTourney(args, 'cpu');
  const msPerMove = (r.cpuS * 1000) / r.moves;
  const ms = (s: number) => ((s * 1000) / r.moves).toFixed(3);
  console.log(
    `${r.games} games, ${r.moves} moves in ${r.wallS.toFixed(0)} s; orchestrator CPU ${r.cpuS.toFixed(1)} s → ${msPerMove.toFixed(3)} ms per move (goal ≤ 0.3)`,
  );
  console.log(
    `  user ${ms(r.userS)} + system ${ms(r.sysS)} ms per move; main thread ${r.mainS === null ? '?' : ms(r.mainS)}, other threads (V8 compiler and GC, libuv pool) ${r.mainS === null ? '?' : ms(r.cpuS - r.mainS)}; load before ${loadBefore}, after ${load()}`,
  );
  fs.rmSync(r.out, { recursive: true, force: true });
  return {
    args,
    games: r.games,
    moves: r.moves,
    wallS: r.wallS,
    cpuS: r.cpuS,
    userS: r.userS,
    sysS: r.sysS,
    mainS: r.mainS,
    msPerMove,
  };
}
