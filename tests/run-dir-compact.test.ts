// The compact run directory (docs/architecture.md, "The run directory"): gzip replays, one shared
// replay page, workspaces and round logs stored once (store/, hard links, read-only), live.jsonl
// trimmed when the run finishes, and `catarena prune`. Runs written before (6d841b9's layout, the
// fixture tests/fixtures/runs/tourney-6d841b9.tgz: 2 rounds of Gomoku, two offline agents) still
// work with resume, report, --reuse, probe, prune and the replay page.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildWorkspace } from '../agents/core/workspace.ts';
import { runProbe } from '../orchestrator/probe/probe.ts';
import { compactLiveFile, RunDir } from '../orchestrator/run/run-dir.ts';
import { linkIntoStore } from '../orchestrator/run/file-store.ts';
import { catarena } from './helpers/cli.ts';
import { hasChromium, openReplayPage, sharedChromium } from './helpers/browser.ts';

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

describe('a run written by 6d841b9 (replays/<id>.json and a page per game, no store)', () => {
  it('report rebuilds the same W and metrics, and the replays show on the shared replay page', async () => {
    const { runDir } = oldRun('report');
    const W = read(trackFile(runDir, 'W.json'));
    const r = await catarena('report', runDir);
    expect(r.stderr).not.toContain('Error');
    expect(r.code).toBe(0);
    expect(read(trackFile(runDir, 'W.json'))).toBe(W);
    const ids = read(path.join(runDir, 'journal.jsonl'))
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { id: string }).id);
    for (const id of ids) expect(fs.existsSync(path.join(runDir, 'replays', `${id}.view.js`))).toBe(true);
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
    const { out } = oldRun('reuse');
    const r = await catarena(
      'tourney',
      '--rounds',
      '2',
      '--games',
      'gomoku',
      '--variants',
      'standard',
      '--agents',
      'offline:cautious,offline:aggressive',
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
    expect(journal).toHaveLength(12);
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
  }, 180_000);

  describe.skipIf(!hasChromium)('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await sharedChromium();
    }, 60_000);

    it('its own per-game pages still open after report rewrote viewer.js, and so does the shared page', async () => {
      const { runDir } = oldRun('pages');
      expect((await catarena('report', runDir)).code).toBe(0);
      const replays = path.join(runDir, 'replays');
      const id = fs
        .readdirSync(replays)
        .find((f) => f.endsWith('.html') && f !== 'replay.html')!
        .replace(/\.html$/, '');
      const { openFile } = await import('./helpers/browser.ts');
      const old = await openFile(browser, path.join(replays, `${id}.html`), runDir);
      await old.page.waitForSelector('[data-testid=step]');
      expect(await old.page.locator('[data-testid=board] svg').count()).toBe(1);
      expect(old.errors).toEqual([]);
      await old.page.close();
      const shared = await openReplayPage(browser, replays, id, runDir);
      await shared.page.click('[data-testid=last]');
      expect(await shared.page.locator('[data-testid=step]').textContent()).toMatch(/^move (\d+) of \1$/);
      expect(shared.errors).toEqual([]);
      expect(shared.outside).toEqual([]);
      await shared.page.close();
      const missing = await openReplayPage(browser, replays, 'nosuchgame', runDir);
      expect(await missing.page.locator('[data-testid=replay-error]').textContent()).toContain('catarena report');
      await missing.page.close();
    }, 120_000);
  });
});

describe('a run written now', () => {
  it('finishes with gzip replays, one replay page, its workspaces stored once and live.jsonl holding its progress only', async () => {
    const out = path.join(tmp, 'fresh');
    const r = await catarena(
      'tourney',
      '--rounds',
      '2',
      '--games',
      'gomoku',
      '--variants',
      'standard',
      '--agents',
      'offline:cautious,offline:aggressive',
      '-o',
      out,
      '--json',
    );
    expect(r.code).toBe(0);
    const runDir = (JSON.parse(r.stdout) as { runDir: string }).runDir;
    const replays = fs.readdirSync(path.join(runDir, 'replays'));
    expect(replays.filter((f) => f.endsWith('.json.gz'))).toHaveLength(12);
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
    const dry = await catarena('prune', '--dry-run', runDir);
    expect(dry.stdout).not.toContain('stored once'); // the run already stored them
    // A resume writes nothing through the links the workspaces share.
    const copy = trackFile(runDir, 'round_2/workspaces/cautious/logs/round_report.json');
    const before = fs.statSync(copy);
    expect(before.ino).toBe(fs.statSync(trackFile(runDir, 'round_1/logs/round_report.json')).ino);
    expect((await catarena('resume', runDir)).code).toBe(0);
    expect(fs.statSync(copy).mtimeMs).toBe(before.mtimeMs);
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
});
