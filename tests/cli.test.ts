// The command line as a user runs it: real bots, real run directories. The first test starts the
// real binary (bin/catarena.mjs, from the compiled build, as users run it); every other command is
// about what it does and prints, so it calls the same main() in this process (catarena,
// tests/helpers/cli.ts) instead of paying a Node start-up and module loading each (23 processes).
// The Gomoku and Hold'em heuristics play as shallow copies of their code (botWithParams): a move
// costs milliseconds instead of a search of up to 1.5 s, and no claim here is about their strength
// (they still beat the random bot); builtin:<name> stays covered by builtin:random in each command.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN, botDir, botWithParams, misbehavingBot, shallowHeuristic, tempDir } from './helpers/bots.ts';
import { replaysIn } from './helpers/replays.ts';
import type { Replay } from '../records/match.ts';
import { catarena } from './helpers/cli.ts';

describe('catarena CLI', () => {
  it('--help explains the commands, run from the compiled build, not through tsx (every module the CLI imports, JSON data included, is in .build/)', async () => {
    const { execFile } = await import('node:child_process');
    const r = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(
        'node',
        [path.resolve(import.meta.dirname, '../bin/catarena.mjs'), '--help'],
        { env: { ...process.env, CATARENA_DEBUG: '1', CATARENA_FROM_SOURCE: '' } },
        (err, stdout, stderr) => (err ? reject(err) : resolve({ stdout, stderr })),
      ),
    );
    expect(r.stderr).not.toMatch(/no compiled build/);
    for (const cmd of ['play', 'arena', 'validate', 'tourney', 'resume', 'worker', 'queue', 'schedule', 'history'])
      expect(r.stdout).toContain(cmd);
    const worker = await catarena('worker', '--help');
    for (const flag of ['--queue', '--concurrency', '--sandbox', '--max-bots', '--lock-ms', 'SIGTERM'])
      expect(worker.stdout).toContain(flag);
    const play = await catarena('play', '--help');
    expect(play.stdout).toMatch(/--move-timeout/);
    expect(play.stdout).toMatch(/--policy/);
  });

  it('the compiled CLI is a bundle: each module loads once, from an entry or a shared chunk, game modules too', async () => {
    // A resolve hook prints every file the process loads. scripts/build.mjs bundles the CLI and
    // the game modules it loads by URL; a one-file module of .build/ loaded beside them would be a
    // second copy of a module (its own state, its own classes).
    const { execFile } = await import('node:child_process');
    const hook = `data:text/javascript,${encodeURIComponent(
      "import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(" +
        "\"export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write('loaded ' + r.url + '\\\\n'); return r; }\"));",
    )}`;
    const out = tempDir();
    const bin = path.resolve(import.meta.dirname, '../bin/catarena.mjs');
    // One round of two offline agents: a tourney loads all three game modules (kit, report, viewer).
    const args = ['--import', hook, bin, 'tourney', '--games', 'gomoku', '--variants', 'standard', '--rounds', '1'];
    const stderr = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [...args, '--agents', 'offline:cautious,offline:aggressive', '--sandbox', 'unsafe', '-o', out],
        { env: { ...process.env, CATARENA_FROM_SOURCE: '' } },
        (err, _stdout, text) => (err ? reject(new Error(`${err.message}\n${text}`)) : resolve(text)),
      ),
    );
    const build = `${pathToFileURL(path.resolve(import.meta.dirname, '../.build')).href}/`;
    const loaded = [...stderr.matchAll(/^loaded (\S+)$/gm)].map((m) => m[1]!).filter((u) => u.startsWith(build));
    const rel = [...new Set(loaded.map((u) => u.slice(build.length)))];
    const entry =
      /^(orchestrator\/cli\/main|games\/\w+\/(agents\/offline-kit|reports\/catarena-report|viewer\/data))\.js$/;
    expect(rel.filter((f) => !f.startsWith('chunks/') && !entry.test(f))).toEqual([]);
    for (const kind of ['agents/offline-kit', 'reports/catarena-report', 'viewer/data'])
      expect(rel).toContain(`games/gomoku/${kind}.js`);
    expect(rel.filter((f) => f.startsWith('chunks/')).length).toBeGreaterThan(0);
  });

  it("the compiled CLI knows catarena's own reference bots where bubblewrap is missing: it plays them unsandboxed, with a warning", async () => {
    // A PATH with node, bash and dirname (what the CLI and start_ai.sh need) and no bwrap. The
    // compiled build once took .build/games for the games folder and refused builtin:random here.
    const { execFile } = await import('node:child_process');
    const bin = tempDir();
    for (const tool of [process.execPath, '/bin/bash', '/usr/bin/dirname'])
      fs.symlinkSync(tool, path.join(bin, path.basename(tool)));
    const out = tempDir();
    const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [
          path.resolve(import.meta.dirname, '../bin/catarena.mjs'),
          'play',
          'builtin:random',
          BUILTIN('random'),
          '--game',
          'gomoku',
          '--games',
          '1',
          '--out',
          out,
        ],
        { env: { ...process.env, PATH: bin, CATARENA_FROM_SOURCE: '' } },
        (err, _stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stderr }),
      ),
    );
    expect(r.stderr).toMatch(/bots run UNSANDBOXED \(unsafe\): bwrap not found.*Only catarena's own bots run so/);
    expect(r.code, r.stderr).toBe(0);
  });

  it('play prints the result and where the replays are', async () => {
    const out = tempDir();
    const r = await catarena(
      'play',
      shallowHeuristic(),
      'builtin:random',
      '--games',
      '2',
      '--out',
      out,
      '--variant',
      'variant',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/heuristic\s+1\.000\s+2W\/0D\/0L/);
    const runDir = /run directory: (\S+)/.exec(r.stdout)![1]!;
    expect(fs.readdirSync(path.join(runDir, 'replays'))).toHaveLength(2);
    const replay = replaysIn(path.join(runDir, 'replays'))[0]! as Replay & { setup: { forbidden: unknown[] } };
    expect(replay.setup.forbidden).toHaveLength(15);
    expect(replay.moves.length).toBe(replay.result.plies);
    expect(replay.moves[0]).toMatchObject({
      ply: 0,
      seat: 0,
      action: expect.any(Array),
      latencyMs: expect.any(Number),
    });
  });

  it('arena writes the cross-table as JSON and CSV', async () => {
    const out = tempDir();
    const r = await catarena(
      'arena',
      shallowHeuristic(),
      'builtin:random',
      misbehavingBot('ok'),
      '--reps',
      '1',
      '--out',
      out,
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.table).toHaveLength(3);
    const csv = fs.readFileSync(path.join(result.runDir, 'crosstable.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('strategy,heuristic,random,ok,total,score,games,timeouts,failures,avg_move_ms');
    expect(csv).toHaveLength(4);
    expect(fs.readFileSync(path.join(result.runDir, 'journal.jsonl'), 'utf8').trim().split('\n')).toHaveLength(6);
    // resume is for tourneys; for an arena run it says how to continue one.
    const resume = await catarena('resume', result.runDir);
    expect(resume.code).toBe(1);
    expect(resume.stderr).toContain(
      `is a "catarena play" or "arena" run (a journal but no config.json); resume it by running the same command again with --run-dir ${result.runDir}`,
    );
  });

  it('holdem: play counts table rounds, arena seats everyone at one table, validate probes a 6-seat table', async () => {
    const out = tempDir();
    // 50 Monte Carlo simulations a decision instead of 1000: the same code, a quicker hand.
    const heuristic = botWithParams(BUILTIN('heuristic', 'holdem'), { simulations: 50 });
    const play = await catarena(
      'play',
      heuristic,
      'builtin:random',
      '-g',
      'holdem',
      '--games',
      '3',
      '--out',
      out,
      '--json',
    );
    expect(play.code, play.stderr).toBe(0);
    const result = JSON.parse(play.stdout);
    expect(fs.readdirSync(path.join(result.runDir, 'replays'))).toHaveLength(3);
    expect(result.table.map((r: { games: number }) => r.games)).toEqual([3, 3]);
    const arena = await catarena(
      'arena',
      heuristic,
      'builtin:random',
      'builtin:random',
      '-g',
      'holdem',
      '-V',
      'variant',
      '-r',
      '2',
      '--out',
      out,
    );
    expect(arena.code, arena.stderr).toBe(0);
    expect(arena.stdout).toMatch(/games: 2 /);
    const journal = fs
      .readFileSync(path.join(/run directory: (\S+)/.exec(arena.stdout)![1]!, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const r of journal) expect(r.spec.seats).toHaveLength(3);
    expect(journal[0].spec.limits.moveMs).toBe(3000);
    const good = await catarena('validate', 'builtin:random', '-g', 'holdem');
    expect(good.code, good.stdout).toBe(0);
    expect(good.stdout).toMatch(/^PASS/);
    const bad = await catarena('validate', misbehavingBot('ok'), '-g', 'holdem');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/\/action failed/);
  });

  it('validate passes a good bot and explains a bad one in plain words', async () => {
    const good = await catarena('validate', shallowHeuristic(), '--variant', 'variant');
    expect(good.code, good.stdout + good.stderr).toBe(0);
    expect(good.stdout).toMatch(/^PASS/);
    expect(good.stdout).toMatch(/started and healthy in \d+ ms/);
    const bad = await catarena('validate', misbehavingBot('off_board'));
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^FAIL/);
    expect(bad.stdout).toMatch(/illegal move \[15,3\]: off_board/);
  });

  it('rejects bad input with a clear message', async () => {
    const noBot = await catarena('play', '/nonexistent/bot', 'builtin:random');
    expect(noBot.code).toBe(1);
    expect(noBot.stderr).toMatch(/start_ai\.sh is missing/);
    const badVariant = await catarena('play', 'builtin:random', 'builtin:random', '--variant', 'renju');
    expect(badVariant.stderr).toMatch(/unknown variant "renju" for gomoku; available: standard, variant/);
    const badNumber = await catarena('arena', 'a', 'b', '--reps', 'zero');
    expect(badNumber.code).toBe(2);
    expect(badNumber.stderr).toMatch(/expected a whole number/);
  });

  it('tourney runs from a config file, prints a leaderboard, and report rebuilds it; it says loudly when an agent never had a working bot, and exits non-zero when no agent had one', async () => {
    const dir = tempDir();
    const broken = (name: string) => botDir(name, '#!/bin/bash\necho "SyntaxError: pretend" >&2\nexit 1\n');
    const config = path.join(dir, 'small.yaml');
    fs.writeFileSync(
      config,
      `games: [gomoku]\nrounds: 1\nvariants: [standard]\nagents: [offline:cautious, "dir:${broken('broken')}"]\nbootstrapSamples: 50\n`,
    );
    const r = await catarena('tourney', '--config', config, '--out', dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Leaderboard/);
    // Two agents, not three: one pairing, its colour-swapped pair (one development and game pair less).
    expect(r.stderr).toMatch(/round 1\/1 · gomoku-standard · 2 games/);
    expect(r.stderr).toMatch(/!!! Every build of agent broken failed \(1 of 1 strategies\)/);
    const runDir = /run directory: (\S+)/.exec(r.stdout)![1]!;
    const report = await catarena('report', runDir, '--json');
    expect(report.code, report.stderr).toBe(0);
    expect(
      JSON.parse(report.stdout)
        .leaderboard.map((e: { agent: string }) => e.agent)
        .sort(),
    ).toEqual(['broken', 'cautious']);
    const out = tempDir();
    const all = await catarena(
      'tourney',
      '--games',
      'gomoku',
      '--rounds',
      '1',
      '--variants',
      'standard',
      '--agents',
      `dir:${broken('b1')},dir:${broken('b2')}`,
      '--out',
      out,
    );
    expect(all.code).toBe(1);
    expect(all.stderr).toMatch(/!!! Every build of every agent failed/);
    expect(all.stderr).toMatch(/every build failed; the build logs are under/);
    const allDir = /run directory: (\S+)/.exec(all.stdout)![1]!;
    expect(fs.readFileSync(path.join(allDir, 'report.md'), 'utf8')).toMatch(/> \*\*Every build of every agent failed/);
  });

  it('tourney rejects a bad config naming the field', async () => {
    const dir = tempDir();
    const config = path.join(dir, 'bad.yaml');
    fs.writeFileSync(config, 'rounds: two\nagents: [offline:cautious]\n');
    const r = await catarena('tourney', '--config', config, '--out', dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/invalid tournament config:\n\s+rounds: /);
    const agent = await catarena('tourney', '--agents', 'offline:sneaky', '--rounds', '1', '--out', dir);
    expect(agent.stderr).toMatch(/cautious, aggressive, imitator/);
    const report = await catarena('report', dir);
    expect(report.stderr).toMatch(/not a tournament run directory/);
    // Adaptive repetitions: the flags that only make sense with --reps auto say so; bad values name the flag.
    const budget = await catarena('tourney', '--max-games', '100', '--out', dir);
    expect(budget.code).toBe(1);
    expect(budget.stderr).toMatch(/--max-games only applies with --reps auto/);
    const reps = await catarena('tourney', '--reps', 'many', '--out', dir);
    expect(reps.stderr).toMatch(/--reps.*expected a whole number/);
    const width = await catarena('tourney', '--reps', 'auto', '--target-width', '5', '--out', dir);
    expect(width.stderr).toMatch(/--target-width.*at most 2/);
    // tourney --help lists the adaptive-repetition flags: tests/repeats-tourney.test.ts ('--help shows …').
  });
});
