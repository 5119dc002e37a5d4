// `catarena serve` as a user watches it, in Debian's Chromium: the runs page of an empty folder
// shows a tourney started after the server (no restart, no reload), its live page shows games in
// flight and W gaining cells as games end without a reload, the finished run's report is served
// as it is, a killed run shows as killed, and with --queue a worker appears on the queue page.
// Nothing any page loads comes from anywhere but the server. The tourney (`catarena tourney`) and
// the worker (startQueueWorker, what `catarena worker` runs) run in this process: the pages are
// what is tested, not a Node start (about 2 s of CPU each); tests/cli.test.ts and the queue tests
// start both as processes.
// Over 30 s on a loaded machine: a tourney played while Chromium watches it live, and a queue worker.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, screenshot, sharedChromium } from './helpers/browser.ts';
import { ReusedPage } from './helpers/reused-page.ts';
import { tempDir } from './helpers/bots.ts';
import { hasRedis, startRedis, type TestRedis } from './helpers/redis.ts';
import { catarena } from './helpers/cli.ts';
import { ServeServer } from '../orchestrator/serve/server.ts';
import { queueStatus } from '../orchestrator/queue/status.ts';
import { startQueueWorker, type RunningWorker } from '../orchestrator/worker/worker.ts';

/** The file's one Chromium page, loaded again by each test (a page of its own costs about 1 s of CPU more). */
let tab: ReusedPage | undefined;
const openUrl = async (_browser: Browser, url: string) =>
  (tab ??= await ReusedPage.open(await sharedChromium())).url(url);
afterAll(() => tab?.close());

/** Games counted in the page's W tables (each pair game fills two cells). */
const filled = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('table.W td.cell')].reduce((n, td) => n + Number(td.getAttribute('data-n') || 0), 0),
  );

describe.skipIf(!hasChromium)('catarena serve in Chromium', () => {
  let browser: Browser;
  let out: string;
  let server: ServeServer;
  let tourney: Promise<unknown> | undefined;

  beforeAll(async () => {
    browser = await sharedChromium();
    out = tempDir();
    server = new ServeServer({ out, port: 0 });
    await server.start();
  }, 60_000);

  afterAll(async () => {
    await tourney?.catch(() => {});
    await server?.close();
  });

  it('a tourney started after the server: its live page shows games in flight and W filling in, with no reload', async () => {
    const runs = await openUrl(browser, server.url);
    await expect.poll(() => runs.page.locator('table[data-testid="runs"] tbody tr').count()).toBe(0);
    // Two offline agents (of the default three), two rounds, one rule set: 12 games (2 in round 1,
    // 10 in round 2, after a development). With one round W could be full before the page read it
    // the second time; a second rule set (24 games) showed nothing more.
    const run = catarena(
      'tourney',
      '--games',
      'gomoku',
      '--variants',
      'standard',
      '--rounds',
      '2',
      '--agents',
      'offline:cautious,offline:aggressive',
      '-o',
      out,
    );
    tourney = run;
    const exited = run.then((r) => (r.code === 0 ? 0 : `${r.code}: ${r.stderr}`));
    // The run shows up on the page that was open before it started.
    const row = runs.page.locator('table[data-testid="runs"] tbody tr[data-state="running"]');
    await row.waitFor({ timeout: 60_000 });
    await row.locator('a').first().click();
    await runs.page.waitForURL(/\/run\/tourney-[^/]+\/$/);
    const page = runs.page;
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
    await page.locator('[data-testid="state"]').filter({ hasText: 'running' }).waitFor();
    const before = await filled(page);
    // A game in flight is drawn with its board, and W gains cells as games finish.
    await page.waitForFunction(
      () => (window as unknown as { catarenaServe: { boardsSeen: number } }).catarenaServe.boardsSeen > 0,
      undefined,
      { timeout: 60_000 },
    );
    await expect.poll(() => filled(page), { timeout: 60_000 }).toBeGreaterThan(before);
    const mid = await filled(page);
    await screenshot(page, 'serve-live.png');
    await expect.poll(() => filled(page), { timeout: 120_000 }).toBeGreaterThan(mid);
    expect(await exited).toBe(0);
    await page.locator('[data-testid="state"]').filter({ hasText: 'finished' }).waitFor({ timeout: 30_000 });
    // The same page all along: no reload, no navigation.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1);
    const runDir = path.join(out, fs.readdirSync(out).find((f) => f.startsWith('tourney-'))!);
    const journal = fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8').trim().split('\n').length;
    await expect.poll(() => page.locator('[data-testid="games"]').innerText()).toBe(String(journal));
    // Every pair game counts in two cells.
    expect(await filled(page)).toBe(2 * journal);
    // One board, per agent (the report's rule, reports/board-rule.ts; one over both tracks of a run:
    // tests/serve-pages.test.ts), and a link to the report it wrote.
    expect(await page.locator('table.leaderboard').count()).toBe(1);
    await page.locator('[data-testid="report-link"]').waitFor({ timeout: 30_000 });
    // The finished run's report, served as it is.
    const report = await page.request.get(
      `${new URL(page.url()).origin}/run/${path.basename(runDir)}/files/report.html`,
    );
    expect(report.status()).toBe(200);
    expect(await report.text()).toBe(fs.readFileSync(path.join(runDir, 'report.html'), 'utf8'));
    expect(
      (
        await page.request.get(`${new URL(page.url()).origin}/run/${path.basename(runDir)}/files/../../etc/passwd`)
      ).status(),
    ).not.toBe(200);
    expect(runs.errors).toEqual([]);
    expect(runs.outside).toEqual([]);
  }, 300_000);

  it('a run whose process is gone without saying so shows as killed', async () => {
    const dir = path.join(out, 'tourney-killed');
    fs.mkdirSync(dir, { recursive: true });
    const dead = spawn('true');
    await new Promise((r) => dead.on('exit', r));
    const now = new Date().toISOString();
    fs.writeFileSync(
      path.join(dir, 'status.json'),
      JSON.stringify({
        state: 'running',
        kind: 'tourney',
        pid: dead.pid,
        pidStart: '1',
        host: (await import('node:os')).hostname(),
        startedAt: now,
        updatedAt: now,
      }),
    );
    const { page, errors, outside } = await openUrl(browser, server.url);
    await expect.poll(() => page.locator('tr[data-run="tourney-killed"]').getAttribute('data-state')).toBe('killed');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });
});

describe.skipIf(!hasChromium || !hasRedis())('catarena serve --queue in Chromium', () => {
  let redis: TestRedis;
  let server: ServeServer;
  let worker: RunningWorker | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    server = new ServeServer({ out: tempDir(), port: 0, queue: redis.url, queueStatus: () => queueStatus(redis.url) });
    await server.start();
  }, 60_000);

  afterAll(async () => {
    await worker?.drain();
    await server?.close();
    await redis?.stop();
  });

  it('a worker appears on the queue page', async () => {
    const browser = await sharedChromium();
    const { page, errors, outside } = await openUrl(browser, `${server.url}queue`);
    await page.locator('[data-testid="queues"] tr[data-queue]').first().waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid="workers"] tr[data-worker]').count()).toBe(0);
    worker = await startQueueWorker({
      url: redis.url,
      name: 'serve-test-worker',
      concurrency: 1,
      sandbox: 'unsafe', // it plays nothing here
      workDir: tempDir('catarena-worker-serve-'),
    });
    await page.locator('[data-testid="workers"] tr[data-worker="serve-test-worker"]').waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  }, 120_000);
});

describe('catarena serve on another address', () => {
  it('prints a token and refuses every request without it', async () => {
    const server = new ServeServer({ out: tempDir(), host: '127.0.0.2', port: 0 });
    await server.start();
    try {
      expect(server.token).toMatch(/^[0-9a-f]{32}$/);
      expect(server.url).toBe(`http://127.0.0.2:${server.port}/?token=${server.token}`);
      const origin = `http://127.0.0.2:${server.port}`;
      expect((await fetch(`${origin}/`)).status).toBe(403);
      expect((await fetch(`${origin}/api/runs?token=${'0'.repeat(32)}`)).status).toBe(403);
      const ok = await fetch(server.url);
      expect(ok.status).toBe(200);
      // The token is kept as a cookie for the pages' own links.
      const cookie = ok.headers.get('set-cookie')!.split(';')[0]!;
      expect((await fetch(`${origin}/api/runs`, { headers: { cookie } })).status).toBe(200);
      // Read-only: nothing but GET.
      expect((await fetch(server.url, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });

  it('on 127.0.0.1 needs no token', async () => {
    const server = new ServeServer({ out: tempDir(), port: 0 });
    await server.start();
    try {
      expect(server.token).toBeNull();
      expect((await fetch(`http://127.0.0.1:${server.port}/api/runs`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
