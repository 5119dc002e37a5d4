// The run directory's size on disk (du: allocated blocks, hard links once) after the default
// tourney (`catarena tourney --rounds 4`, the offline agents), per top-level entry, then after
// `catarena prune`; and an estimate at paper scale (`--preset paper`) from the same run: what
// grows with the games (replays, round logs, journal, live.jsonl's progress lines) scaled per
// game by the paper's repetitions over the default's, the rest (workspaces, strategies, reports)
// as measured. Goals (issue 34): default ≤ 30 MB, paper scale ≤ 25% of 1.2 GB.
//   npm run bench -- rundir-size [--rounds 4]
import fs from 'node:fs';
import path from 'node:path';
import { gameDescriptor } from '../games/registry.ts';
import type { MatchResult } from '../records/match.ts';
import { diskUsage, megabytes } from '../orchestrator/run/disk-usage.ts';
import { pruneRun } from '../orchestrator/run/prune.ts';
import { readViewIndex } from '../reports/html/replay-page.ts';
import { measureTourney } from './tourney-process.ts';
import { isRoundDirName, RUN_DIRS, RUN_FILES } from '../records/run-layout.ts';

/** Paper-scale games per default game, per game: the paper preset's repetitions over the default's. */
const paperScale = (game: string) => {
  const d = gameDescriptor(game);
  return (d.presets.paper?.reps ?? d.defaults.reps) / d.defaults.reps;
};

const blocks = (file: string) => fs.statSync(file).blocks * 512;

export async function benchRundirSize() {
  const i = process.argv.indexOf('--rounds');
  const r = await measureTourney(['--rounds', i > 0 ? process.argv[i + 1]! : '4'], 'rundir');
  const measured = await diskUsage(r.runDir);
  console.log(
    `default tourney: ${r.games} games, run directory ${megabytes(measured.bytes)} (${measured.files} files; content ${megabytes(measured.apparent)})`,
  );
  for (const [name, u] of Object.entries(measured.byEntry)
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .slice(0, 8))
    console.log(`  ${megabytes(u.bytes).padStart(10)}  ${name}`);

  // What scales with the games, per game: its replay files, its share of its track's round logs and of the journal.
  const results = fs
    .readFileSync(path.join(r.runDir, RUN_FILES.journal), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as MatchResult);
  const replays = path.join(r.runDir, RUN_DIRS.replays);
  // A game's share of its viewer data: its bundle's blocks over the games the bundle holds.
  const viewShare = new Map<string, number>();
  for (const [file, ids] of await readViewIndex(replays))
    for (const id of ids) viewShare.set(id, blocks(path.join(replays, file)) / ids.length);
  let scaling = 0;
  let scaled = 0;
  let paperGames = 0;
  const logBytes = new Map<string, number>();
  for (const track of fs.readdirSync(path.join(r.runDir, RUN_DIRS.tracks))) {
    const dir = path.join(r.runDir, RUN_DIRS.tracks, track);
    let bytes = 0;
    for (const round of fs.readdirSync(dir).filter(isRoundDirName))
      bytes += (await diskUsage(path.join(dir, round, RUN_DIRS.logs))).bytes;
    logBytes.set(track, bytes);
  }
  const gamesOf = new Map<string, number>();
  for (const g of results)
    gamesOf.set(`${g.spec.game}-${g.spec.variant}`, (gamesOf.get(`${g.spec.game}-${g.spec.variant}`) ?? 0) + 1);
  for (const g of results) {
    const track = `${g.spec.game}-${g.spec.variant}`;
    const own = blocks(path.join(replays, `${g.id}.json.gz`)) + (viewShare.get(g.id) ?? 0);
    const bytes =
      own +
      (logBytes.get(track) ?? 0) / gamesOf.get(track)! +
      blocks(path.join(r.runDir, RUN_FILES.journal)) / results.length +
      blocks(path.join(r.runDir, RUN_FILES.live)) / results.length;
    scaling += bytes;
    scaled += bytes * paperScale(g.spec.game);
    paperGames += paperScale(g.spec.game);
  }
  const paper = measured.bytes - scaling + scaled;
  const today = 1.2e9;
  console.log(
    `paper scale (estimated from this run: ${Math.round(paperGames)} games): ${megabytes(paper)} = ${((paper / today) * 100).toFixed(0)}% of 1.2 GB (goal ≤ 25%)`,
  );

  const pruned = await pruneRun(r.runDir);
  const after = await diskUsage(r.runDir);
  console.log(
    `after catarena prune: ${megabytes(after.bytes)} (freed ${megabytes(pruned.freed)}: ${pruned.steps.map((s) => `${s.what} ${megabytes(s.bytes)}`).join('; ')})`,
  );
  fs.rmSync(r.out, { recursive: true, force: true });
  return {
    games: r.games,
    bytes: measured.bytes,
    byEntry: Object.fromEntries(Object.entries(measured.byEntry).map(([k, u]) => [k, u.bytes])),
    paper: { games: Math.round(paperGames), bytes: Math.round(paper), shareOfToday: paper / today },
    pruned: after.bytes,
  };
}
