// `catarena serve`'s pages and the report as a person sees them, in Debian's Chromium at 390 px
// (a phone) and 1,280 px: no page scrolls sideways (the runs list, a live page with Hold'em and
// Bridge boards in flight, a finished tourney's live page, its report, a chess and a Hold'em
// replay); a finished play/arena run links only what it has (no report.html that 404s) and its
// games' replays open from its page; the live page orders its leaderboard by the report's rule,
// states it as the report does, and names and colours strategies as the report does; a chess
// replay pairs its moves under move numbers and every replay plays itself. Screenshots of both
// widths go to docs/screenshots/ when CATARENA_SCREENSHOTS=1. Over 30 s on a loaded machine: three
// real one-game arenas (chess, Hold'em, Bridge, side by side), a copy of the shared tourney and ten
// Chromium page loads, six of them laid out at both widths, all in one page (a page of its own
// costs a context and a renderer: about 1 s of CPU more a load).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hasChromium, sharedChromium } from './helpers/browser.ts';
import { ReusedPage } from './helpers/reused-page.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { GOMOKU_TWO_ROUNDS, sharedRun } from './helpers/shared-runs.ts';
import { readReplaySync } from './helpers/replays.ts';
import { refsFromDirs, runArena } from '../orchestrator/arena.ts';
import { ServeServer } from '../orchestrator/serve/server.ts';
import { DEFAULT_LIMITS, type Replay } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';
import { scoreColour, strategyLabel, LEADERBOARD_RULE } from '../reports/board-rule.ts';
import { startTimeOf } from '../util/procfs.mjs';
import type { TourneySummary } from '../records/tourney.ts';

const WIDTHS = [390, 1280] as const;
const SHOTS =
  process.env.CATARENA_SCREENSHOTS === '1' ? path.resolve(import.meta.dirname, '../docs/screenshots') : null;

// catarena's reference bots, as plain processes: the sandbox kind changes nothing drawn here, and a
// bubblewrap start costs more CPU (tests/sandbox-isolated.test.ts runs the reference bots isolated).
const sandbox = createSandbox('unsafe');
afterAll(() => sandbox.close());

/** One game of `game` between two built-in bots, as `catarena arena` plays it, in its own run directory. */
async function arena(out: string, name: string, game: string, bots: string[], options = {}): Promise<Replay> {
  const runDir = path.join(out, name);
  await runArena({
    game,
    variant: 'standard',
    bots: refsFromDirs(bots.map((b) => BUILTIN(b, game))),
    reps: 1,
    maxGames: 1,
    seed: 7,
    concurrency: 1,
    limits: DEFAULT_LIMITS,
    policy: 'strict',
    runDir,
    sandbox,
    ...options,
  });
  const id = JSON.parse(fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8').split('\n')[0]!).id as string;
  return readReplaySync(runDir, id);
}

/** A run that is running now (this process), with these games in flight at their first `moves` moves. */
function runningRun(dir: string, games: Array<{ replay: Replay; moves: number }>): void {
  fs.mkdirSync(dir, { recursive: true });
  const startedAt = new Date(Date.now() - 1_000).toISOString();
  const at = new Date().toISOString();
  fs.writeFileSync(
    path.join(dir, 'status.json'),
    JSON.stringify({
      state: 'running',
      kind: 'arena',
      pid: process.pid,
      pidStart: startTimeOf(process.pid),
      host: os.hostname(),
      startedAt,
      updatedAt: startedAt,
    }),
  );
  const lines = games.flatMap(({ replay, moves }, k) => {
    const { id, spec, serverGameId } = replay.result;
    const gameId = serverGameId ?? `g${k}`;
    return [
      { type: 'start', id, gameId, spec, setup: replay.setup, at },
      ...replay.moves.slice(0, moves).map((move) => ({ type: 'move', id, gameId, move, at })),
    ];
  });
  fs.writeFileSync(path.join(dir, 'live.jsonl'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

const viewportOf = (width: number) => ({ width, height: width < 600 ? 844 : 900 });

const overflow = (page: Page) =>
  page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));

describe.skipIf(!hasChromium)('serve and report pages in Chromium', () => {
  let tab: ReusedPage;
  let server: ServeServer;
  let out: string;
  let tourney: TourneySummary;
  let chess: Replay;
  let holdem: Replay;
  let bridge: Replay;

  beforeAll(async () => {
    out = tempDir();
    // The three arenas wait mostly on their bots' answers: played side by side.
    [tourney, chess, holdem, bridge] = await Promise.all([
      sharedRun('gomoku-two-rounds', GOMOKU_TWO_ROUNDS, path.join(out, 'tourney-shared')),
      arena(out, 'play-chess', 'chess', ['heuristic', 'random']),
      arena(out, 'play-holdem', 'holdem', ['heuristic', 'heuristic'], { protocolOptions: { handCap: 3 } }),
      arena(out, 'play-bridge', 'bridge', ['heuristic', 'heuristic']),
    ]);
    runningRun(path.join(out, 'arena-live'), [
      { replay: holdem, moves: Math.min(12, holdem.moves.length) },
      { replay: bridge, moves: Math.min(40, bridge.moves.length) },
      { replay: chess, moves: Math.min(20, chess.moves.length) },
    ]);
    server = new ServeServer({ out, port: 0 });
    await server.start();
    tab = await ReusedPage.open(await sharedChromium());
  }, 240_000);

  afterAll(async () => {
    await tab?.close();
    await server?.close();
  });

  /** Lets the page draw what it was just given (two animation frames: style, layout and paint). */
  const settled = (page: Page) =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

  /** Loads `url` at `width` into the file's one page; its uncaught errors are `errors`. */
  const open = async (width: number, url: string, ready: string) => {
    await tab.page.setViewportSize(viewportOf(width));
    const { page, uncaught } = await tab.url(new URL(url, server.url).href);
    await page.locator(ready).first().waitFor({ timeout: 20_000 });
    await settled(page);
    return { page, errors: uncaught };
  };

  it('a finished play/arena run links only what exists, and its game opens as a replay', async () => {
    const { page, errors } = await open(1280, '/run/play-chess/', '[data-testid="games-list"] li a');
    expect(await page.locator('[data-testid="state"]').innerText()).toBe('finished');
    const hrefs = await page
      .locator('[data-testid="links"] a, [data-testid="games-list"] a')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
    expect(hrefs.length).toBeGreaterThan(1);
    for (const href of hrefs) expect((await page.request.get(href)).status(), href).toBe(200);
    expect(await page.locator('[data-testid="report-link"]').count()).toBe(0); // play/arena write no report.html
    await page.locator('[data-testid="games-list"] li a').first().click();
    await page.locator('[data-testid="step"]').waitFor();
    expect(await page.locator('[data-testid="board"] svg').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it('a forged replay id or a link in replays/ is refused', async () => {
    const base = new URL('/run/play-chess/replay-data', server.url).href;
    expect((await fetch(`${base}?id=..%2F..%2Fetc%2Fpasswd`)).status).toBe(400);
    fs.symlinkSync('/etc/passwd', path.join(out, 'play-chess', 'replays', 'evil.json.gz'));
    expect((await fetch(`${base}?id=evil`)).status).toBe(403);
  });

  it('the live page orders, names and colours as the report does, and says its rule', async () => {
    const { page, errors } = await open(1280, '/run/tourney-shared/', 'table.leaderboard tbody tr');
    const order = await page
      .locator('table.leaderboard tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-agent')));
    expect(order).toEqual(tourney.leaderboard.map((e) => e.agent));
    expect(await page.locator('[data-testid="rule"]').innerText()).toBe(LEADERBOARD_RULE);
    // Names: W's headers are the report's labels (agent@<round>).
    const heads = await page.locator('table.W thead th[title]').allInnerTexts();
    const labels = tourney.tracks.flatMap((t) => t.W.strategies);
    expect(heads.length).toBeGreaterThan(0);
    for (const h of heads) expect(labels).toContain(h);
    expect(heads).toContain(strategyLabel(`${tourney.tracks[0]!.agents[0]}@r1`));
    // Colours: a cell's background is the report's colour of its value.
    const cell = await page
      .locator('table.W td.cell[data-n]:not([data-n="0"])')
      .first()
      .evaluate((td) => ({
        bg: (td as HTMLElement).style.background,
        text: td.getAttribute('title') ?? '',
      }));
    const value = Number(/: ([\d.]+) over/.exec(cell.text)![1]);
    expect(cell.bg.replace(/\s/g, '')).toBe(scoreColour(value));
    // One board over both tracks (the shared tourney has two).
    expect(await page.locator('table.leaderboard').count()).toBe(1);
    expect(tourney.tracks).toHaveLength(2);
    expect(errors).toEqual([]);
    // The report states the same rule.
    const report = await open(1280, '/run/tourney-shared/files/report.html', 'table.leaderboard');
    expect(await report.page.locator('[data-testid="rule"]').innerText()).toBe(LEADERBOARD_RULE);
    expect(report.errors).toEqual([]);
  });

  it('a chess replay pairs its moves under move numbers and plays itself', async () => {
    const { page } = await open(1280, `/run/play-chess/replay?id=${chess.result.id}`, '[data-testid="step"]');
    const first = page.locator('[data-testid="moves"] li').first();
    expect(await first.locator('.no').innerText()).toBe('1.');
    expect(await first.locator('.ply').count()).toBe(2);
    await page.locator('[data-testid="first"]').click();
    await page.locator('[data-testid="speed"]').selectOption('400'); // 2.5 moves/s: still playing when paused
    await page.locator('[data-testid="play"]').click();
    await expect
      .poll(async () => Number(/move (\d+)/.exec(await page.locator('[data-testid="step"]').innerText())![1]), {
        timeout: 10_000,
      })
      .toBeGreaterThan(3);
    await page.locator('[data-testid="play"]').click(); // pause
    const held = await page.locator('[data-testid="step"]').innerText();
    await page.waitForTimeout(200);
    expect(await page.locator('[data-testid="step"]').innerText()).toBe(held);
  });

  // Each page is loaded once, at a phone's width, then laid out again at each wider width (the
  // window resized): the page's own CSS and resize handlers must hold at every width.
  it(`no page scrolls sideways at ${WIDTHS.join(' or ')} px`, async () => {
    const pages: Array<[string, string, string]> = [
      ['runs', '/', 'table[data-testid="runs"] tbody tr'],
      ['live', '/run/arena-live/', '[data-testid="boards"] .game .board > *'],
      ['live-tourney', '/run/tourney-shared/', 'table.leaderboard tbody tr'],
      ['report', '/run/tourney-shared/files/report.html', 'table.leaderboard'],
      ['replay', `/run/play-chess/replay?id=${chess.result.id}`, '[data-testid="step"]'],
      ['replay-holdem', `/run/play-holdem/replay?id=${holdem.result.id}`, '[data-testid="step"]'],
    ];
    for (const [name, url, ready] of pages) {
      const { page, errors } = await open(WIDTHS[0], url, ready);
      if (name === 'live') await expect.poll(() => page.locator('[data-testid="boards"] .game').count()).toBe(3);
      for (const width of WIDTHS) {
        if (width !== WIDTHS[0]) {
          await page.setViewportSize(viewportOf(width));
          await settled(page);
        }
        await checkWidth(page, name, width);
      }
      expect(errors, name).toEqual([]);
    }
  }, 300_000);
});

/** At this width: nothing scrolls sideways, and the live page's boards stay in their boxes, apart. */
async function checkWidth(page: Page, name: string, width: number): Promise<void> {
  const { scroll, inner } = await overflow(page);
  expect(inner, `${name}: the window is ${width} px`).toBe(width);
  expect(scroll, `${name} at ${width} px`).toBeLessThanOrEqual(inner);
  if (name === 'live') {
    // Boards in flight stay inside their boxes, side by side or stacked, never over each other.
    const boxes = await page.locator('[data-testid="boards"] .game').evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        const board = e.querySelector('.board')!;
        const inner = [...board.children].map((c) => c.getBoundingClientRect().right);
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, content: Math.max(...inner) };
      }),
    );
    for (const b of boxes) expect(b.content, `${name} at ${width} px`).toBeLessThanOrEqual(b.right + 1);
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
        expect(apart, `boards ${i} and ${j} overlap at ${width} px`).toBe(true);
      }
  }
  if (SHOTS && ['runs', 'live', 'report', 'replay'].includes(name)) {
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `serve-${name}-${width}.png`) });
  }
}
