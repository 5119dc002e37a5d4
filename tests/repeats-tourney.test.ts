// `catarena tourney --repeats`, `combine` and `resume` of a multi-repeat run, through the real CLI
// with deterministic bots (the reference heuristic with a fixed search and no noise, entered as
// dir: agents), on Gomoku's variant, whose forbidden cells come from the seed: the repeats differ,
// and the same seed gives the same games. Checks that a repeat is exactly a single run with its
// seed, that `combine` of single runs with seeds s, s + 1 equals `--repeats 2 --seed s`, that
// incomparable runs are refused with the reason, and that a SIGKILLed `--repeats` run resumes to
// the same combined numbers with no game played twice (the study all checks read is that resumed
// run: the same numbers as the uninterrupted single runs' combine). The study is a `catarena`
// process (it is SIGKILLed); the other commands call the same main() in this process (catarena,
// tests/helpers/cli.ts): what they check is what the commands do and print, not a Node start each.
// Over 30 s: four tourneys of real bot processes (two repeats of a killed and resumed study, two single runs).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/bots.ts';
import { expandRepeats, readRepeats } from '../orchestrator/tourney/combine.ts';
import { compareAgents } from '../reports/compare.ts';
import { catarena } from './helpers/cli.ts';

const CLI = path.resolve(import.meta.dirname, '../bin/catarena.mjs');
const BOT = path.resolve(import.meta.dirname, '../games/gomoku/bots/heuristic');
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const journalIds = (dir: string) =>
  fs.existsSync(path.join(dir, 'journal.jsonl'))
    ? fs
        .readFileSync(path.join(dir, 'journal.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l).id as string)
    : [];

/** What must be equal between two studies of the same repeats (not where or when they were written). */
// Development wall time is a clock reading, not a result: left out.
const numbers = (combined: {
  tracks: unknown;
  leaderboard: unknown;
  leaderboardAgreement: unknown;
  repeats: Array<{ seed: number; games: number }>;
}) => ({
  tracks: JSON.parse(JSON.stringify(combined.tracks, (k, v) => (k === 'wallMs' ? undefined : v))),
  leaderboard: combined.leaderboard,
  agreement: combined.leaderboardAgreement,
  repeats: combined.repeats.map((r) => ({ seed: r.seed, games: r.games })),
});

/** `catarena <args>` in this process: the exit code and what it printed. */

let root: string;
let config: string;
const tourney = async (...args: string[]) => {
  const r = await catarena('tourney', '--config', config, '--out', path.join(root, 'runs'), '--json', ...args);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).runDir as string;
};

beforeAll(() => {
  root = tempDir('catarena-repeats-');
  const agents = [
    { depth: 1, candidates: 8, attack: 1.4, defense: 0.8, timeBudgetMs: 60000, randomness: 0 },
    { depth: 1, candidates: 10, attack: 0.8, defense: 1.3, timeBudgetMs: 60000, randomness: 0 },
  ].map((params, k) => {
    const dir = path.join(root, `bot${k + 1}`);
    fs.cpSync(BOT, dir, { recursive: true });
    const file = path.join(dir, 'params.json');
    fs.writeFileSync(file, JSON.stringify({ ...readJson(file), ...params }));
    return `dir:${dir}#bot${k + 1}`;
  });
  const base = { games: ['gomoku'], variants: ['variant'], agents, concurrency: 2, bootstrapSamples: 200, seed: 7 };
  config = path.join(root, 'study.json');
  fs.writeFileSync(config, JSON.stringify({ ...base, rounds: 2 }));
});

describe('tourney --repeats, combine and resume', () => {
  // The study: `--repeats 2`, SIGKILLed while repeat 2 plays its first games, then resumed. Every
  // check below reads the resumed study; the single runs of the combine test are played
  // uninterrupted, so a resume that changed a number shows there.
  let study: string;
  let killed: { cut: string[][]; finished1: boolean; stderr: string };
  beforeAll(async () => {
    const out = path.join(root, 'runs');
    const proc = spawn(process.execPath, [CLI, 'tourney', '--config', config, '--out', out, '--repeats', '2'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr!.on('data', (c) => (stderr += c));
    const exited = new Promise((r) => proc.once('exit', r));
    let runDir = '';
    const t0 = Date.now();
    // Killed while repeat 2 plays its first games.
    while (!(runDir && journalIds(path.join(runDir, 'repeats', '2')).length >= 3)) {
      if (proc.exitCode !== null) throw new Error(`ended before it was killed:\n${stderr}`);
      if (Date.now() - t0 > 180_000) throw new Error(`repeat 2 never started:\n${stderr}`);
      runDir ||= /run directory (\S+)/.exec(stderr)?.[1] ?? '';
      await new Promise((r) => setTimeout(r, 50));
    }
    proc.kill('SIGKILL');
    await exited;
    // Two repeats play side by side by default: repeat 1 may be done or still playing.
    const cut = [1, 2].map((r) => journalIds(path.join(runDir, 'repeats', String(r))));
    expect(fs.existsSync(path.join(runDir, 'combined.json'))).toBe(false);
    // Whether repeat 1 had finished when killed, read before the resume writes its summary.
    const finished1 = fs.existsSync(path.join(runDir, 'repeats', '1', 'metrics.json'));
    const resumed = await catarena('resume', runDir);
    expect(resumed.code, resumed.stderr).toBe(0);
    study = runDir;
    killed = { cut, finished1, stderr: resumed.stderr };
  }, 300_000);

  it('writes each repeat (two played side by side) as a single run with seed + r − 1, and the combined report at the top', () => {
    expect(readJson(path.join(study, 'config.json'))).toMatchObject({ repeats: 2, seed: 7 });
    for (const r of [1, 2]) {
      const dir = path.join(study, 'repeats', String(r));
      expect(readJson(path.join(dir, 'config.json')).seed).toBe(6 + r);
      expect(readJson(path.join(dir, 'config.json')).repeats).toBeUndefined();
      for (const f of ['journal.jsonl', 'metrics.json', 'report.md', 'report.html', 'tracks/gomoku-variant/W.json'])
        expect(fs.existsSync(path.join(dir, f)), f).toBe(true);
      expect(journalIds(dir)).toHaveLength(12);
    }
    const combined = readJson(path.join(study, 'combined.json'));
    expect(combined.repeats.map((r: { seed: number }) => r.seed)).toEqual([7, 8]);
    const md = fs.readFileSync(path.join(study, 'report.md'), 'utf8');
    for (const heading of [
      'over 2 repeats',
      'Table 8 layout',
      'Rank agreement between repeats',
      'Failed builds per repeat',
    ])
      expect(md).toContain(heading);
    expect(fs.readFileSync(path.join(study, 'report.html'), 'utf8')).toContain('Table 8 layout');
    // Indexed once, as a study; its repeats are not indexed on their own.
    const index = fs
      .readFileSync(path.join(root, 'runs', 'index.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
    expect(index.filter((e) => e.runDir === study)).toMatchObject([{ repeats: 2 }]);
    expect(fs.existsSync(path.join(study, 'repeats', 'index.jsonl'))).toBe(false);
  });

  it("indexes each pair's comparison over the study's repeats, as catarena compare gives it", async () => {
    const index = fs
      .readFileSync(path.join(root, 'runs', 'index.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l));
    const { pairwise } = index.find((e) => e.runDir === study);
    expect(pairwise.length).toBeGreaterThan(0);
    const { a, b, repeats: K, S } = pairwise[0];
    expect(K).toBe(2);
    const { repeats } = await readRepeats(await expandRepeats([study]));
    const row = compareAgents(repeats, a, b, { seed: repeats[0]!.seed }).find(
      (r) => r.track === 'all tracks' && r.metric === 'S',
    )!;
    expect(S).toEqual({ diff: row.diff, lo: row.lo, hi: row.hi, p: row.p, pBetter: row.pBetter });
  });

  it('combine of single runs with seeds 7 and 8 equals --repeats 2 --seed 7; report on the study rebuilds the same', async () => {
    const first = await tourney('--seed', '7');
    const second = await tourney('--seed', '8');
    for (const [single, r] of [
      [first, 1],
      [second, 2],
    ] as const) {
      expect(fs.readFileSync(path.join(single, 'tracks/gomoku-variant/W.json'), 'utf8')).toBe(
        fs.readFileSync(path.join(study, 'repeats', String(r), 'tracks/gomoku-variant/W.json'), 'utf8'),
      );
    }
    const out = path.join(root, 'combined');
    const r = await catarena('combine', first, second, '-o', out);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Leaderboard over 2 repeats');
    expect(numbers(readJson(path.join(out, 'combined.json')))).toEqual(
      numbers(readJson(path.join(study, 'combined.json'))),
    );
    // compare on the separate runs and on the study (which stands for its repeats): the same table.
    const cmp = await catarena('compare', 'bot1', 'bot2', first, second, '--json');
    expect(cmp.code, cmp.stderr).toBe(0);
    expect(
      JSON.parse(cmp.stdout).map(
        (r: { track: string; metric: string; repeats: number }) => `${r.track} ${r.metric} ${r.repeats}`,
      ),
    ).toEqual(['gomoku-variant S 2', 'all tracks S 2', 'gomoku-variant L 2', 'all tracks L 2']);
    expect((await catarena('compare', 'bot1', 'bot2', study, '--json')).stdout).toBe(cmp.stdout);
    const before = numbers(readJson(path.join(study, 'combined.json')));
    const again = await catarena('report', study);
    expect(again.code, again.stderr).toBe(0);
    expect(numbers(readJson(path.join(study, 'combined.json')))).toEqual(before);

    // Not repeats of one study: refused, saying what differs. The other run is a copy of the first
    // whose config says one round (combine compares the runs' config.json: no tourney played for it).
    const other = path.join(root, 'one-round');
    execFileSync('cp', ['-a', `${first}/.`, other]);
    fs.writeFileSync(
      path.join(other, 'config.json'),
      JSON.stringify({ ...readJson(path.join(other, 'config.json')), rounds: 1 }, null, 2),
    );
    const refused = await catarena('combine', first, other, '-o', path.join(root, 'no'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not a repeat of .*: they differ in rounds: 2 vs 1/);
    expect(fs.existsSync(path.join(root, 'no', 'combined.json'))).toBe(false);
  }, 240_000);

  it("a SIGKILLed --repeats run resumes with no game played twice (its numbers equal the single runs' combined, above)", () => {
    const { cut, finished1, stderr } = killed;
    expect(cut[1]!.length).toBeLessThan(12);
    if (finished1) expect(stderr).toContain('repeat 1/2 finished earlier');
    else expect(stderr).not.toContain('repeat 1/2 finished earlier');
    for (const r of [1, 2]) {
      const after = journalIds(path.join(study, 'repeats', String(r)));
      expect(after.slice(0, cut[r - 1]!.length)).toEqual(cut[r - 1]);
      expect(after).toHaveLength(12);
      expect(new Set(after).size).toBe(12);
    }
  });

  it('--help shows the new flags and the combine command', async () => {
    const help = await catarena('tourney', '--help');
    expect(help.stdout).toContain('--repeats <k>');
    expect(help.stdout).toContain('--repeat-concurrency <n>');
    // (and the adaptive repetitions' flags, for tests/cli.test.ts)
    for (const flag of ['--reps <n|auto>', '--max-games', '--target-width', '--max-minutes'])
      expect(help.stdout).toContain(flag);
    const combine = await catarena('combine', '--help');
    expect(combine.stdout).toMatch(/Usage: catarena combine \[options\] <run-dirs\.\.\.>/);
    expect(combine.stdout).toContain('--out <dir>');
    expect((await catarena('compare', '--help')).stdout).toMatch(
      /Usage: catarena compare \[options\] <agentA> <agentB> <run-dirs\.\.\.>/,
    );
  });
});
