// Round logs must keep their bytes across a change of their writers (agents read them; see
// docs/catarena-compat.md). For every track and round of finished tourney runs, this writes the
// round's logs again with another checkout's writers (`--old`, e.g. a worktree of main) from the
// run's journal and replays, at the time the run's own logs carry, and compares them byte for
// byte with the logs the run wrote; then does the same with this checkout's writers at a fixed time.
//   node --import tsx scripts/round-logs-equal.ts --old /path/to/other/checkout <run-dir>…
// Exits 1 on any difference. Runs from scripts/w-fingerprint.mjs --keep cover the four games.
// A finished run's logs stored compressed (<name>.gz, orchestrator/run/file-store.ts) are read
// uncompressed under their own names.
import fs from 'node:fs';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { matchId, type MatchResult, type Replay } from '../records/match.ts';
import { trackName, type StrategyRecord } from '../records/tourney.ts';
import { roundSpecs } from '../orchestrator/tourney/track-schedule.ts';
import { agentIds } from '../orchestrator/tourney/summarize.ts';
import { RunDir } from '../orchestrator/run/run-dir.ts';
import { GZ_EXT } from '../orchestrator/run/file-store.ts';
import { writeRoundLogs, type RoundLogsInput } from '../reports/round-logs.ts';
import { RUN_DIRS } from '../records/run-layout.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--old');
if (at < 0 || args.length < 3) {
  console.error('usage: node --import tsx scripts/round-logs-equal.ts --old <checkout> <run-dir>…');
  process.exit(2);
}
const oldRoot = path.resolve(args[at + 1]!);
const runDirs = args.filter((_, i) => i !== at && i !== at + 1);
const old = (await import(pathToFileURL(path.join(oldRoot, 'reports', 'round-logs.ts')).href)) as {
  writeRoundLogs(dir: string, input: RoundLogsInput & { replays: Replay[] }): Promise<string[]>;
};

/** Every file under dir, relative, sorted. */
function files(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** The files under dir by name, their bytes; a compressed one (<name>.gz) uncompressed, under its name. */
function tree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const names = files(dir);
  for (const name of names) {
    const bytes = fs.readFileSync(path.join(dir, name));
    const plain = name.slice(0, -GZ_EXT.length);
    if (name.endsWith(GZ_EXT) && !names.includes(plain)) out.set(plain, zlib.gunzipSync(bytes));
    else out.set(name, bytes);
  }
  return new Map([...out].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

/** The time the run's logs were written, as far as they show it (the writers' `now`). */
function nowOf(logs: Map<string, Buffer>): Date {
  for (const [name, bytes] of logs) {
    const text = () => JSON.parse(bytes.toString('utf8'));
    if (/^chess_arena_report_.*\.json$/.test(name)) return new Date(text().timestamp);
    if (/^undercover_report_.*\.json$/.test(name)) return new Date(text().start_time);
    const unix = /^tournament_(?:report_)?tournament_(\d+)\.json$/.exec(name);
    if (unix) return new Date(Number(unix[1]) * 1000);
  }
  return new Date(0); // no file shows the time (Hold'em): it is not used
}

/** Differences between two folders' files: names on one side only, and files whose bytes differ. */
function compare(a: string, b: string): string[] {
  const fa = tree(a);
  const fb = tree(b);
  const out = [...[...fa.keys()].filter((f) => !fb.has(f)).map((f) => `only in ${a}: ${f}`)];
  out.push(...[...fb.keys()].filter((f) => !fa.has(f)).map((f) => `only in ${b}: ${f}`));
  for (const [f, bytes] of fa) if (fb.has(f) && !bytes.equals(fb.get(f)!)) out.push(`differs: ${f}`);
  return out;
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'round-logs-equal-'));
let failures = 0;
let checked = 0;
for (const root of runDirs) {
  const run = new RunDir(root);
  const config = await run.readConfig();
  const journal = await run.openJournal();
  const order = agentIds(config);
  for (const name of fs.readdirSync(path.join(root, RUN_DIRS.tracks)).sort()) {
    const [game, ...rest] = name.split('-');
    const track = { game: game!, variant: rest.join('-') };
    const records = await run.strategies(trackName(track));
    const rounds: StrategyRecord[][] = [];
    for (const r of records) (rounds[r.round - 1] ??= []).push(r);
    // The tourney holds a round's records in the order of its agents.
    for (const round of rounds) round.sort((x, y) => order.indexOf(x.agent) - order.indexOf(y.agent));
    for (let n = 1; n <= rounds.length; n++) {
      const logs = run.logsDir(track, n);
      if (!fs.existsSync(logs)) continue;
      const specs = roundSpecs(config, track, rounds.slice(0, n), n);
      const results = specs.map((s) => journal.get(matchId(s))).filter((r): r is MatchResult => !!r);
      const replays = await Promise.all(results.map((r) => run.readReplay(r.id)));
      const input = {
        game: track.game,
        variant: track.variant,
        round: n,
        policy: config.policy,
        strategies: rounds.slice(0, n).flat(),
        results,
      };
      const label = `${path.basename(root)} ${name} round ${n}`;
      // The run's own logs against the other checkout's writers at the same time.
      // Written into folders named `logs`, as the run's: Hold'em's report names its history files by that folder.
      const before = path.join(scratch, `${checked}-old`, RUN_DIRS.logs);
      await old.writeRoundLogs(before, { ...input, replays, now: nowOf(tree(logs)) });
      // This checkout's writers, reading replays one at a time, against the other's at a fixed time.
      const fixed = new Date(1_700_000_000_123);
      const oldFixed = path.join(scratch, `${checked}-old-fixed`, RUN_DIRS.logs);
      const newFixed = path.join(scratch, `${checked}-new-fixed`, RUN_DIRS.logs);
      await old.writeRoundLogs(oldFixed, { ...input, replays, now: fixed });
      await writeRoundLogs(newFixed, { ...input, replay: (r) => run.readReplay(r.id), now: fixed });
      const diffs = [...compare(logs, before), ...compare(oldFixed, newFixed)];
      checked++;
      const own = tree(logs);
      const bytes = [...own.values()].reduce((sum, b) => sum + b.length, 0);
      if (diffs.length) {
        failures++;
        console.log(`${label}: DIFFERENT\n  ${diffs.join('\n  ')}`);
      } else console.log(`${label}: ${own.size} files, ${bytes} bytes, identical`);
    }
  }
}
fs.rmSync(scratch, { recursive: true, force: true });
console.log(failures ? `${failures} of ${checked} rounds differ` : `all ${checked} rounds identical`);
process.exit(failures ? 1 : 0);
