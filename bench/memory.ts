// The orchestrator's peak RSS against the games it plays: the same small tourney (the offline
// agents, Gomoku standard rules, 3 rounds) at 1×, 4× and 16× the repetitions. Goal: the 16× run
// within 1.2× of the 1× run (issue 34). Each row also prints the orchestrator's own CPU time (what
// bin/catarena.mjs's heap setting trades for the peak) and the load average when it ended.
//   npm run bench -- memory [--scales 1,4,16] [--rounds 3]
import fs from 'node:fs';
import os from 'node:os';
import { measureTourney } from './tourney-process.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : fallback;
};

export async function benchMemory() {
  const scales = arg('--scales', '1,4,16').split(',').map(Number);
  const rounds = arg('--rounds', '3');
  const rows: Array<{
    reps: number;
    games: number;
    moves: number;
    maxRssMb: number;
    cpuS: number;
    wallS: number;
    load: number;
  }> = [];
  for (const reps of scales) {
    const r = await measureTourney(
      ['--rounds', rounds, '--games', 'gomoku', '--variants', 'standard', '--reps', String(reps)],
      `memory-${reps}`,
    );
    const load = os.loadavg()[0]!;
    rows.push({
      reps,
      games: r.games,
      moves: r.moves,
      maxRssMb: Math.round(r.maxRssMb),
      cpuS: Math.round(r.cpuS * 10) / 10,
      wallS: Math.round(r.wallS),
      load: Math.round(load * 10) / 10,
    });
    console.log(
      `reps ${String(reps).padStart(2)}: ${String(r.games).padStart(5)} games  max RSS ${r.maxRssMb.toFixed(0)} MB  orchestrator CPU ${r.cpuS.toFixed(1)} s  (${r.wallS.toFixed(0)} s, load ${load.toFixed(1)})`,
    );
    fs.rmSync(r.out, { recursive: true, force: true });
  }
  const ratio = rows.at(-1)!.maxRssMb / rows[0]!.maxRssMb;
  console.log(`max RSS at ${rows.at(-1)!.reps}× ÷ 1×: ${ratio.toFixed(2)} (goal ≤ 1.2)`);
  return { rounds: Number(rounds), rows, ratio };
}
