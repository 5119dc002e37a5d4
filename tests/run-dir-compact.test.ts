// The compact run directory (docs/architecture.md, "The run directory"): gzip replays, one shared
// replay page, workspaces and round logs stored once (store/, hard links, read-only), live.jsonl
// trimmed when the run finishes, and `catarena prune`. Runs written before (6d841b9's layout, the
// fixture tests/fixtures/runs/tourney-6d841b9.tgz: 2 rounds of Gomoku, two offline agents) still
// work with resume, report, --reuse, probe, prune and the replay page.
// Over 30 s: compaction, pruning and resuming are checked on copies of a real run, with its report
// and replay page opened in Chromium. The commands (report, resume, prune) run in this process
// (catarena, tests/helpers/cli.ts): the tests check what they do to a run, not the process; no
// Node start each.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace } from '../agents/core/workspace.ts';
import { runProbe } from '../orchestrator/probe/probe.ts';
import { compactLiveFile, RunDir } from '../orchestrator/run/run-dir.ts';
import { COMPRESS_MIN, linkIntoStore } from '../orchestrator/run/file-store.ts';
import { readViewData, readViewIndex, viewerDataOf, writeReplayPages } from '../reports/html/replay-page.ts';
import { hasChromium, sharedChromium } from './helpers/browser.ts';
import { ReusedPage } from './helpers/reused-page.ts';
import { viewFileSync } from './helpers/replays.ts';
import { GOMOKU_TWO_ROUNDS, sharedRun } from './helpers/shared-runs.ts';
import { catarena } from './helpers/cli.ts';

/** `catarena <args>`: main() in this process, its output captured (no Node start per command). */

const FIXTURE = path.resolve(import.meta.dirname, 'fixtures/runs/tourney-6d841b9.tgz');
const FIXTURE_RUN = 'tourney-20261126-164850-066f';
const FIXTURE_ROOT = '/tmp/i34/fixture'; // where the fixture was written: its index names that path

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-compact-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A fresh copy of the 6d841b9 run in its own runs folder (index.jsonl rewritten to where it now is). */
function oldRun(name: string): { out: string; runDir: string } {
  const out = path.join(tmp, name);
  fs.mkdirSync(out, { recursive: true });
  execFileSync('tar', ['xzf', FIXTURE, '-C', out]);
  const index = path.join(out, 'index.jsonl');
  fs.writeFileSync(index, fs.readFileSync(index, 'utf8').split(FIXTURE_ROOT).join(out));
  return { out, runDir: path.join(out, FIXTURE_RUN) };
}

const read = (file: string) => fs.readFileSync(file, 'utf8');
const trackFile = (runDir: string, name: string) => path.join(runDir, 'tracks', 'gomoku-standard', name);
/** The run's match ids, in journal order. */
const journalIds = (runDir: string) =>
  read(path.join(runDir, 'journal.jsonl'))
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { id: string }).id);

describe('a run written by 6d841b9 (replays/<id>.json and a page per game, no store)', () => {
  // One copy that `catarena report` rebuilt, read by the report test and the Chromium test.
  let reported: Promise<{ runDir: string; W: string; r: Awaited<ReturnType<typeof catarena>> }> | undefined;
  const reportedOldRun = () =>
    (reported ??= (async () => {
      const { runDir } = oldRun('report');
      const W = read(trackFile(runDir, 'W.json'));
      return { runDir, W, r: await catarena('report', runDir) };
    })());

  it('report rebuilds the same W and metrics, and the replays show on the shared replay page', async () => {
    const { runDir, W, r } = await reportedOldRun();
    expect(r.stderr).not.toContain('Error');
    expect(r.code).toBe(0);
    expect(read(trackFile(runDir, 'W.json'))).toBe(W);
    const ids = journalIds(runDir);
    for (const id of ids) expect(viewFileSync(path.join(runDir, 'replays'), id)).not.toBeNull();
    expect(read(path.join(runDir, 'report.html'))).toContain('replays/replay.html?id=');
  }, 120_000);

  it('resume finds every game played and plays none', async () => {
    const { runDir } = oldRun('resume');
    const journal = read(path.join(runDir, 'journal.jsonl'));
    const r = await catarena('resume', runDir);
    expect(r.code).toBe(0);
    expect(read(path.join(runDir, 'journal.jsonl'))).toBe(journal);
    expect(r.stderr).toMatch(/12 games \(12 already played\)|already played/);
  }, 120_000);

  it('--reuse copies its games (replays read from <id>.json) into a new run in the new layout', async () => {
    const { out, runDir: old } = oldRun('reuse');
    // One round: its two games (round 1's strategies, the same as the old run's) are reused; two
    // rounds reused all twelve and developed twice as many strategies to do it. The agents hand in
    // the old run's round-1 bots as they are (dir:), because reuse needs byte-identical code and the
    // reference heuristics the offline agents copy have changed since 6d841b9 (an opt-in knob).
    const bot = (agent: string) => {
      const copy = path.join(out, 'bots', agent);
      fs.cpSync(path.join(trackFile(old, 'round_1'), 'strategies', agent), copy, { recursive: true });
      for (const f of fs.readdirSync(copy)) if (f.startsWith('.')) fs.rmSync(path.join(copy, f), { force: true });
      return `dir:${copy}#${agent}`;
    };
    const r = await catarena(
      'tourney',
      '--rounds',
      '1',
      '--games',
      'gomoku',
      '--variants',
      'standard',
      '--agents',
      `${bot('cautious')},${bot('aggressive')}`,
      '--reuse',
      '-o',
      out,
      '--json',
    );
    expect(r.code).toBe(0);
    const runDir = (JSON.parse(r.stdout) as { runDir: string }).runDir;
    const journal = read(path.join(runDir, 'journal.jsonl'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; reusedFrom?: string });
    expect(journal).toHaveLength(2);
    expect(journal.every((g) => g.reusedFrom)).toBe(true);
    for (const g of journal) expect(fs.existsSync(path.join(runDir, 'replays', `${g.id}.json.gz`))).toBe(true);
  }, 180_000);

  it('probe samples its states from the uncompressed replays', async () => {
    const { runDir } = oldRun('probe');
    const outcome = await runProbe({ runDir, states: 4 });
    expect(outcome.notProbed).toEqual([]);
    expect(outcome.results.map((t) => t.track)).toEqual(['gomoku-standard']);
    expect(outcome.results[0]!.sampled).toBeGreaterThan(0);
  }, 180_000);

  it('prune compresses its replays, drops the pages, stores workspace files once, and report and resume still work', async () => {
    const { runDir } = oldRun('prune');
    const W = read(trackFile(runDir, 'W.json'));
    const journal = read(path.join(runDir, 'journal.jsonl'));
    const dry = await catarena('prune', '--dry-run', runDir);
    expect(dry.code).toBe(0);
    const wouldFree = Number(/would free ([\d.]+) MB/.exec(dry.stdout)![1]);
    expect(fs.readdirSync(path.join(runDir, 'replays')).some((f) => f.endsWith('.html'))).toBe(true); // nothing changed
    const r = await catarena('prune', runDir);
    expect(r.code).toBe(0);
    expect(Number(/freed ([\d.]+) MB/.exec(r.stdout)![1])).toBeCloseTo(wouldFree, 1);
    expect(wouldFree).toBeGreaterThan(0.3);
    const replays = fs.readdirSync(path.join(runDir, 'replays'));
    expect(replays.filter((f) => f.endsWith('.json.gz'))).toHaveLength(12);
    expect(replays.filter((f) => !f.endsWith('.json.gz'))).toEqual([]);
    // The round-2 workspaces' copies of the round-1 logs are one file in the store.
    const logs = fs.readdirSync(trackFile(runDir, 'round_1/logs'));
    for (const name of logs) {
      const st = fs.statSync(path.join(trackFile(runDir, 'round_2/workspaces/cautious/logs'), name));
      expect(st.ino).toBe(fs.statSync(path.join(trackFile(runDir, 'round_1/logs'), name)).ino);
      expect(st.mode & 0o222).toBe(0);
    }
    expect(read(path.join(runDir, 'journal.jsonl'))).toBe(journal);
    expect(read(trackFile(runDir, 'W.json'))).toBe(W);
    expect((await catarena('report', runDir)).code).toBe(0);
    expect(read(trackFile(runDir, 'W.json'))).toBe(W);
    expect((await catarena('resume', runDir)).code).toBe(0);
    // Pruning again frees nothing more than the viewer data report wrote again.
    const again = await catarena('prune', '--dry-run', runDir);
    expect(again.stdout).not.toContain('stored once');
    expect(again.stdout).not.toContain('compressed (<name>.gz)');
  }, 180_000);

  describe.skipIf(!hasChromium)('in Chromium', () => {
    // The three loads in one page: a page of its own costs about 1 s of CPU more.
    let tab: ReusedPage;
    beforeAll(async () => {
      tab = await ReusedPage.open(await sharedChromium());
    }, 60_000);
    afterAll(() => tab?.close());

    it('its own per-game pages still open after report rewrote viewer.js, and so does the shared page', async () => {
      const { runDir, r } = await reportedOldRun();
      expect(r.code).toBe(0);
      const replays = path.join(runDir, 'replays');
      const id = fs
        .readdirSync(replays)
        .find((f) => f.endsWith('.html') && f !== 'replay.html')!
        .replace(/\.html$/, '');
      const old = await tab.file(path.join(replays, `${id}.html`), runDir);
      await old.page.waitForSelector('[data-testid=step]');
      expect(await old.page.locator('[data-testid=board] svg').count()).toBe(1);
      expect(old.errors).toEqual([]);
      const shared = await tab.replay(replays, id, runDir);
      await shared.page.click('[data-testid=last]');
      expect(await shared.page.locator('[data-testid=step]').textContent()).toMatch(/^move (\d+) of \1$/);
      expect(shared.errors).toEqual([]);
      expect(shared.outside).toEqual([]);
      const missing = await tab.replay(replays, 'nosuchgame', runDir);
      expect(await missing.page.locator('[data-testid=replay-error]').textContent()).toContain('catarena report');
    }, 120_000);
  });
});

describe('a run written now', () => {
  it('finishes with gzip replays, one replay page, its workspaces stored once and live.jsonl holding its progress only', async () => {
    // The tourney several files read (3 offline agents × 2 rounds × both Gomoku rule sets: 60
    // games), played once per test run; this test prunes and resumes its own copy.
    const runDir = path.join(tmp, 'fresh', 'run');
    await sharedRun('gomoku-two-rounds', GOMOKU_TWO_ROUNDS, runDir);
    const replays = fs.readdirSync(path.join(runDir, 'replays'));
    expect(replays.filter((f) => f.endsWith('.json.gz'))).toHaveLength(60);
    expect(replays.filter((f) => f.endsWith('.html'))).toEqual(['replay.html']);
    expect(replays.filter((f) => f.endsWith('.json'))).toEqual([]);
    const live = read(path.join(runDir, 'live.jsonl'))
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { type: string }).type);
    expect(new Set(live)).toEqual(new Set(['phase', 'tick']));
    // Both agents' round-2 workspaces hold the same last_round bots: one inode, read-only.
    const a = fs.statSync(trackFile(runDir, 'round_2/workspaces/cautious/last_round/aggressive/start_ai.sh'));
    const b = fs.statSync(trackFile(runDir, 'round_2/workspaces/aggressive/last_round/aggressive/start_ai.sh'));
    expect(a.ino).toBe(b.ino);
    expect(a.mode & 0o777).toBe(0o555); // executable stays executable
    // The strategy the bots run from keeps its own files.
    expect(fs.statSync(trackFile(runDir, 'round_1/strategies/aggressive/start_ai.sh')).nlink).toBe(1);
    // Log files of 8 KiB or more are stored compressed (<name>.gz), the round's and the workspaces' copies one file.
    const logs = fs.readdirSync(trackFile(runDir, 'round_1/logs'));
    expect(logs.filter((f) => f.endsWith('.gz')).length).toBeGreaterThan(0);
    for (const name of logs) {
      const st = fs.statSync(trackFile(runDir, `round_1/logs/${name}`));
      if (!name.endsWith('.gz')) expect(st.size).toBeLessThan(COMPRESS_MIN);
      else
        expect(
          zlib.gunzipSync(fs.readFileSync(trackFile(runDir, `round_1/logs/${name}`))).length,
        ).toBeGreaterThanOrEqual(COMPRESS_MIN);
      expect(fs.statSync(trackFile(runDir, `round_2/workspaces/cautious/logs/${name}`)).ino).toBe(st.ino);
    }
    expect(fs.readdirSync(path.join(runDir, 'store')).filter((f) => !/^[0-9a-f]{64}x?(\.gz)?$/.test(f))).toEqual([]);
    // The viewer data: one bundle for each track's 30 games, listed in views.js.
    expect(replays.filter((f) => f.endsWith('.js')).sort()).toEqual([
      'view-gomoku-standard-1.js',
      'view-gomoku-variant-1.js',
      'viewer.js',
      'views.js',
    ]);
    const dry = await catarena('prune', '--dry-run', runDir);
    expect(dry.stdout).not.toContain('stored once'); // the run already stored them
    expect(dry.stdout).not.toContain('compressed');
    // Prune keeps the shared replay page and its data: the report's replay links still open.
    expect((await catarena('prune', runDir)).code).toBe(0);
    expect(fs.readdirSync(path.join(runDir, 'replays')).sort()).toEqual([...replays].sort());
    const someId = replays.find((f) => f.endsWith('.json.gz'))!.slice(0, -'.json.gz'.length);
    expect((await readViewData(path.join(runDir, 'replays'), someId))?.game).toBe('gomoku');
    // A resume writes nothing through the links the workspaces share.
    const name = logs.find((f) => f.startsWith('round_report.json'))!;
    const copy = trackFile(runDir, `round_2/workspaces/cautious/logs/${name}`);
    const before = fs.statSync(copy);
    expect(before.ino).toBe(fs.statSync(trackFile(runDir, `round_1/logs/${name}`)).ino);
    expect((await catarena('resume', runDir)).code).toBe(0);
    expect(fs.statSync(copy).mtimeMs).toBe(before.mtimeMs);
    // The resumed run's logs are not written again (the CATArena files' names carry the time:
    // a second set would appear beside the first), and stay stored once: no plain file beside its .gz.
    const after = fs.readdirSync(trackFile(runDir, 'round_1/logs'));
    expect(after.sort()).toEqual([...logs].sort());
    for (const f of after.filter((x) => x.endsWith('.gz'))) expect(after).not.toContain(f.slice(0, -3));
  }, 240_000);

  it('prune refuses a run that has not finished, and a folder that is no run', async () => {
    const unfinished = path.join(tmp, 'unfinished');
    fs.mkdirSync(unfinished, { recursive: true });
    fs.writeFileSync(path.join(unfinished, 'config.json'), '{}');
    const r = await catarena('prune', unfinished);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('has not finished (no metrics.json): resume it first');
    const none = await catarena('prune', tmp);
    expect(none.stderr).toContain('is not a tournament run directory');
  });
});

describe('the store', () => {
  it("a workspace built from stored logs gets its own copies: an agent writing there changes no other workspace's files", async () => {
    const root = path.join(tmp, 'store-copy');
    const logs = path.join(root, 'round_1', 'logs');
    fs.mkdirSync(logs, { recursive: true });
    fs.writeFileSync(path.join(logs, 'round_report.json'), '{"round":1}\n');
    const bot = path.join(root, 'round_1', 'bot');
    fs.mkdirSync(bot, { recursive: true });
    fs.writeFileSync(path.join(bot, 'start_ai.sh'), 'echo\n');
    const first = await buildWorkspace({
      dir: path.join(root, 'ws1'),
      game: 'gomoku',
      variant: 'standard',
      round: 2,
      agentId: 'a',
      seed: 1,
      moveTimeoutMs: 1000,
      previous: { bots: [{ agent: 'b', dir: bot }], logsDir: logs },
    });
    const stats = await linkIntoStore(path.join(root, 'store'), [first.dir, logs]);
    expect(stats.linked).toBeGreaterThan(0);
    const second = await buildWorkspace({
      dir: path.join(root, 'ws2'),
      game: 'gomoku',
      variant: 'standard',
      round: 2,
      agentId: 'c',
      seed: 1,
      moveTimeoutMs: 1000,
      previous: { bots: [{ agent: 'b', dir: bot }], logsDir: logs },
    });
    const copy = path.join(second.logsDir!, 'round_report.json');
    fs.chmodSync(copy, 0o644);
    fs.writeFileSync(copy, 'changed by an agent\n');
    expect(read(path.join(logs, 'round_report.json'))).toBe('{"round":1}\n');
    expect(read(path.join(first.logsDir!, 'round_report.json'))).toBe('{"round":1}\n');
  });

  it('live.jsonl of a finished run keeps its progress lines, drops game lines and a torn last line', async () => {
    const file = path.join(tmp, 'live.jsonl');
    const lines = [
      { type: 'phase', text: 'round 1/1', at: 'x' },
      { type: 'start', id: 'g', gameId: 'g1', spec: {}, setup: null, at: 'x' },
      { type: 'move', id: 'g', gameId: 'g1', move: { ply: 0 }, at: 'x' },
      { type: 'end', id: 'g', gameId: 'g1', scores: [1, 0], winner: 0, termination: 'normal', reason: '', at: 'x' },
      { type: 'tick', done: 1, total: 1, at: 'x' },
    ].map((l) => JSON.stringify(l));
    fs.writeFileSync(file, `${lines.join('\n')}\n{"type":"tick","do`);
    const size = fs.statSync(file).size;
    const freed = await compactLiveFile(file);
    expect(read(file)).toBe(`${lines[0]}\n${lines[4]}\n`);
    expect(freed).toBe(size - fs.statSync(file).size);
  });

  it('a replay is read back from either layout', async () => {
    const { runDir } = oldRun('read');
    const run = new RunDir(runDir);
    const id = fs
      .readdirSync(run.replaysDir)
      .find((f) => f.endsWith('.json'))!
      .replace(/\.json$/, '');
    expect((await run.readReplay(id)).result.id).toBe(id);
  });

  it('a store written before (store/<2 hex>/<key>, logs uncompressed) moves up and compresses its logs, the links kept', async () => {
    const root = path.join(tmp, 'old-store');
    const round = (n: number, rel: string) => path.join(root, 'tracks', 'gomoku-standard', `round_${n}`, rel);
    const big = JSON.stringify(
      Array.from({ length: 800 }, (_, i) => ({ game: i, winner: i % 2 ? 'cautious' : 'aggressive' })),
    );
    expect(big.length).toBeGreaterThan(COMPRESS_MIN);
    const files: Array<[string, string, number]> = [
      [round(1, 'logs/report.json'), big, 0o644],
      [round(1, 'logs/round_report.json'), '{"round":1}\n', 0o644],
      [round(2, 'workspaces/a/logs/report.json'), big, 0o644],
      [round(2, 'workspaces/b/logs/report.json'), big, 0o644],
      [round(2, 'workspaces/a/last_round/b/start_ai.sh'), 'echo\n', 0o755],
      [round(2, 'workspaces/a/notes.json'), `${big}\n`, 0o644], // not a log: stored once, not compressed
    ];
    // The store as runs written before made it.
    for (const [file, text, mode] of files) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text, { mode });
      const key = `${createHash('sha256').update(text).digest('hex')}${mode & 0o111 ? 'x' : ''}`;
      const target = path.join(root, 'store', key.slice(0, 2), key);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      if (fs.existsSync(target)) {
        fs.rmSync(file);
        fs.linkSync(target, file);
      } else fs.linkSync(file, target);
    }
    const inodeOf = (f: string) => fs.statSync(f).ino;
    const shInode = inodeOf(round(2, 'workspaces/a/last_round/b/start_ai.sh'));
    const notesInode = inodeOf(round(2, 'workspaces/a/notes.json'));
    const run = new RunDir(root);
    const dry = await run.linkFinishedFiles({ dryRun: true });
    const stats = await run.linkFinishedFiles();
    expect(dry.compressed).toBe(3);
    expect(stats.compressed).toBe(3);
    const packed = round(1, 'logs/report.json.gz');
    expect(stats.compressedFreed).toBe(big.length - fs.statSync(packed).size);
    expect(dry.compressedFreed).toBe(stats.compressedFreed);
    expect(zlib.gunzipSync(fs.readFileSync(packed)).toString()).toBe(big);
    expect(fs.existsSync(round(1, 'logs/report.json'))).toBe(false);
    for (const ws of ['a', 'b'])
      expect(inodeOf(round(2, `workspaces/${ws}/logs/report.json.gz`))).toBe(inodeOf(packed));
    expect(fs.statSync(packed).mode & 0o222).toBe(0);
    // Everything else keeps its inode; the store is one flat folder, no file in it unlinked.
    expect(inodeOf(round(2, 'workspaces/a/last_round/b/start_ai.sh'))).toBe(shInode);
    expect(inodeOf(round(2, 'workspaces/a/notes.json'))).toBe(notesInode);
    const store = fs.readdirSync(path.join(root, 'store'), { withFileTypes: true });
    expect(store.filter((e) => !e.isFile())).toEqual([]);
    expect(store).toHaveLength(4); // report.json (compressed), round_report.json, start_ai.sh, notes.json
    for (const e of store) expect(fs.statSync(path.join(root, 'store', e.name)).nlink).toBeGreaterThan(1);
    // Again: nothing to do.
    const again = await run.linkFinishedFiles();
    expect([again.linked, again.compressed, again.unlinkedFreed]).toEqual([0, 0, 0]);
    // A workspace built from the stored logs gets them as the round wrote them, writable.
    const ws = await buildWorkspace({
      dir: path.join(root, 'ws3'),
      game: 'gomoku',
      variant: 'standard',
      round: 2,
      agentId: 'c',
      seed: 1,
      moveTimeoutMs: 1000,
      previous: { bots: [], logsDir: round(1, 'logs') },
    });
    expect(fs.readdirSync(ws.logsDir!).sort()).toEqual(['report.json', 'round_report.json']);
    fs.writeFileSync(path.join(ws.logsDir!, 'report.json'), 'changed by an agent\n');
    expect(zlib.gunzipSync(fs.readFileSync(packed)).toString()).toBe(big);
  });
});

describe('the replay viewer data', () => {
  it('is bundled per track in views.js, written by tracks at once, kept while newer than its replays', async () => {
    const { runDir } = oldRun('bundles');
    const run = new RunDir(runDir);
    const ids = journalIds(runDir);
    const dir = run.replaysDir;
    fs.writeFileSync(path.join(dir, `${ids[0]}.view.js`), 'catarenaReplayData("");\n'); // a per-game file of runs written before
    const [a, b] = await Promise.all([
      writeReplayPages(dir, ids.slice(0, 5), { bundle: 'one' }),
      writeReplayPages(dir, ids.slice(5), { bundle: 'two' }),
    ]);
    expect([...a, ...b]).toEqual(ids);
    expect(Object.fromEntries(await readViewIndex(dir))).toEqual({
      'view-one-1.js': ids.slice(0, 5),
      'view-two-1.js': ids.slice(5),
    });
    expect(fs.existsSync(path.join(dir, `${ids[0]}.view.js`))).toBe(false);
    for (const id of [ids[0]!, ids[11]!])
      expect(await readViewData(dir, id)).toEqual(await viewerDataOf(await run.readReplay(id)));
    // Written again with nothing new: the bundle is not rewritten; a game named again alone keeps the others.
    const mtime = fs.statSync(path.join(dir, 'view-one-1.js')).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    expect(await writeReplayPages(dir, ids.slice(0, 5), { bundle: 'one' })).toEqual(ids.slice(0, 5));
    expect(fs.statSync(path.join(dir, 'view-one-1.js')).mtimeMs).toBe(mtime);
    await writeReplayPages(dir, [ids[1]!], { bundle: 'one' });
    expect((await readViewIndex(dir)).get('view-one-1.js')!.sort()).toEqual(ids.slice(0, 5).sort());
  });

  it('spans bundles of about 1 MB; a rewrite keeps games from the old bundles while it replaces them', async () => {
    const { runDir } = oldRun('many-bundles');
    const run = new RunDir(runDir);
    const ids = journalIds(runDir);
    const dir = run.replaysDir;
    // 300 kB of extras a game: three games to a bundle.
    const pad = (id: string) => ({ pad: `${id}:`.padEnd(300_000, '.') });
    expect(await writeReplayPages(dir, ids, { bundle: 't', extra: pad })).toEqual(ids);
    const first = await readViewIndex(dir);
    expect(first.size).toBe(Math.ceil(ids.length / 3));
    expect([...first.values()].flat()).toEqual(ids);
    const mtimes = new Map([...first.keys()].map((f) => [f, fs.statSync(path.join(dir, f)).mtimeMs]));
    // One game's replay is newer than its bundle: its data is made again, now without the extras,
    // so every later game moves to an earlier bundle, read from the old bundle it was in.
    const changed = ids[1]!;
    const replay = fs.readdirSync(dir).find((f) => f.startsWith(`${changed}.json`))!;
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(dir, replay), later, later);
    expect(await writeReplayPages(dir, ids, { bundle: 't' })).toEqual(ids);
    const second = await readViewIndex(dir);
    expect([...second.values()].flat()).toEqual(ids);
    expect(second.get('view-t-1.js')).toEqual(ids.slice(0, 4));
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.new'))).toEqual([]);
    for (const file of fs.readdirSync(dir).filter((f) => f.startsWith('view-t-')))
      expect(second.has(file), `${file} is listed`).toBe(true);
    expect(await readViewData(dir, changed)).toEqual(await viewerDataOf(await run.readReplay(changed)));
    for (const id of ids.filter((i) => i !== changed))
      expect(await readViewData(dir, id)).toEqual({
        ...(await viewerDataOf(await run.readReplay(id))),
        extra: expect.objectContaining(pad(id)),
      });
    // The last bundle holds the same games as before: not rewritten.
    const last = `view-t-${first.size}.js`;
    if (JSON.stringify(second.get(last)) === JSON.stringify(first.get(last)))
      expect(fs.statSync(path.join(dir, last)).mtimeMs).toBe(mtimes.get(last));
  });

  it('grows round by round as a tourney writes it: earlier full bundles are neither read nor rewritten', async () => {
    const { runDir } = oldRun('round-bundles');
    const run = new RunDir(runDir);
    const ids = journalIds(runDir);
    const dir = run.replaysDir;
    const pad = (id: string) => ({ pad: `${id}:`.padEnd(300_000, '.') }); // three games to a bundle
    // "Round 1": the first seven games (bundles 1 and 2 full, 3 partial); then all of them.
    expect(await writeReplayPages(dir, ids.slice(0, 7), { bundle: 't', extra: pad })).toEqual(ids.slice(0, 7));
    // Bundle 1 made unreadable (its time kept): a rewrite that read it would fail on it.
    const one = path.join(dir, 'view-t-1.js');
    const { mtime } = fs.statSync(one);
    fs.writeFileSync(one, 'not a bundle');
    fs.utimesSync(one, mtime, mtime);
    expect(await writeReplayPages(dir, ids, { bundle: 't', extra: pad })).toEqual(ids);
    expect(fs.readFileSync(one, 'utf8')).toBe('not a bundle');
    // The same bundles as one write of every game.
    const grown = await readViewIndex(dir);
    const fresh = path.join(tmp, 'round-bundles-fresh');
    fs.cpSync(dir, fresh, { recursive: true });
    for (const f of fs.readdirSync(fresh).filter((f) => f.startsWith('view'))) fs.rmSync(path.join(fresh, f));
    expect(await writeReplayPages(fresh, ids, { bundle: 't', extra: pad })).toEqual(ids);
    expect(Object.fromEntries(grown)).toEqual(Object.fromEntries(await readViewIndex(fresh)));
    for (const file of [...grown.keys()].filter((f) => f !== 'view-t-1.js'))
      expect(fs.readFileSync(path.join(dir, file), 'utf8'), file).toBe(fs.readFileSync(path.join(fresh, file), 'utf8'));
    expect(await readViewData(dir, ids[8]!)).toEqual(await readViewData(fresh, ids[8]!));
  });
});
