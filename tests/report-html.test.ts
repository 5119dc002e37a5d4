// report.html and the history page as a user sees them: a real tourney, opened from file:// in
// Debian's Chromium; charts drawn with data, no console errors, no request leaving the run
// directory, a click on a W cell listing the pairing's games and their replays. Screenshots are
// kept with CATARENA_TEST_SHOTS=<folder> (tests/helpers/browser.ts).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import type { TourneySummary } from '../records/tourney.ts';
import { hasChromium, sharedChromium, openFile, screenshot, type OpenedPage } from './helpers/browser.ts';
import { tempDir } from './helpers/bots.ts';
import { GOMOKU_TWO_ROUNDS, sharedRun } from './helpers/shared-runs.ts';
import { viewFileSync } from './helpers/replays.ts';
import { indexEntry, indexRun } from '../orchestrator/run/run-index.ts';
import { pairwiseOfRun } from '../orchestrator/tourney/combine.ts';

describe.skipIf(!hasChromium)('report.html and the history page in Chromium', () => {
  let browser: Browser;
  let out: string;
  let first: TourneySummary;
  let second: TourneySummary;

  beforeAll(async () => {
    out = tempDir();
    // The first run is tourney.test's (played once per test run; this file gets a copy), indexed
    // here as runTourney indexes a finished run.
    first = await sharedRun('gomoku-two-rounds', GOMOKU_TWO_ROUNDS, path.join(out, 'run-1'));
    const played = resolveConfig(GOMOKU_TWO_ROUNDS);
    const entry = {
      ...indexEntry(first, { reused: 0, games: played.games, rounds: played.rounds }),
      pairwise: await pairwiseOfRun(first.runDir),
    };
    await indexRun(entry);
    // A copy of it indexed as a run of the same setup: the lines and bands join across the two.
    const copy = path.join(out, 'run-1b');
    fs.cpSync(first.runDir, copy, { recursive: true, verbatimSymlinks: true });
    await indexRun({ ...entry, runId: `${entry.runId}-b`, runDir: copy, finishedAt: new Date().toISOString() });
    // The second run is a one-round run of another seed: the history page charts runs of different
    // lengths (a user who changes --rounds between nightly runs) with a "setup changed" gap between
    // them, and it plays 12 games, not 60.
    const config = resolveConfig({ ...GOMOKU_TWO_ROUNDS, seed: 2, rounds: 1, out });
    second = await runTourney({ config, runDir: path.join(out, 'run-2') });
    browser = await sharedChromium();
  }, 300_000);

  // The three report tests read one page of report.html, loaded once (the last one leaves it for a replay).
  let report: Promise<OpenedPage> | undefined;
  const reportPage = () => (report ??= openFile(browser, path.join(first.runDir, 'report.html'), first.runDir));

  it('report.html: charts with data, tables, no errors, nothing from outside, under 3 MB', async () => {
    const file = path.join(first.runDir, 'report.html');
    expect(fs.statSync(file).size).toBeLessThan(3 * 1024 * 1024);
    const { page, errors, outside } = await reportPage();
    // Per track: W as a heatmap with every off-diagonal cell (6 strategies → 30), learning curves, two interval charts.
    for (const track of first.tracks) {
      const id = `${track.game}-${track.variant}`;
      const cells = page.locator(`svg.heatmap[data-id="${id}"] rect.cell`);
      expect(await cells.count()).toBe(30);
      expect(await page.locator(`svg.heatmap[data-id="${id}"] rect.cell[data-value=""]`).count()).toBe(0); // every pair met
      expect(await page.locator(`svg[data-chart="line"][data-id="${id}-G"] circle.point`).count()).toBe(3 * 2);
      expect(await page.locator(`svg[data-chart="interval"][data-id="${id}-S"] circle.point`).count()).toBe(3);
    }
    // The leaderboard and the tables carry the numbers of metrics.json.
    const leader = first.leaderboard[0]!;
    await expect(page.locator('table.leaderboard tbody tr').first().innerText()).resolves.toContain(leader.agent);
    expect(await page.locator('table.metrics').count()).toBe(first.tracks.length);
    expect(await page.locator('table.terminations tbody tr').count()).toBe(first.tracks.length);
    // A click on a W cell lists that pairing's games (2: one colour-swapped pair) with replay links.
    await page.locator('svg.heatmap[data-id="gomoku-standard"] rect.cell').first().click();
    const panel = page.locator('#games');
    await expect(panel.isVisible()).resolves.toBe(true);
    expect(await panel.locator('tbody tr').count()).toBe(2);
    const href = await panel.locator('a').first().getAttribute('href');
    expect(href).toMatch(/^replays\/replay\.html\?id=[0-9a-f]{20}$/);
    expect(viewFileSync(path.join(first.runDir, 'replays'), href!.split('=')[1]!)).not.toBeNull();
    await screenshot(page, 'report.png');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('report.html: the strategy evolution of every track, a timeline to click through and a similarity heatmap per round', async () => {
    const { page, errors, outside } = await reportPage();
    for (const track of first.tracks) {
      const id = `${track.game}-${track.variant}`;
      const section = page.locator(`section.evolution[data-track="${id}"]`);
      expect(await section.locator('button.evo-step').count()).toBe(3 * 2);
      await section.locator('button.evo-step[data-step$="-cautious-r2"]').click();
      const detail = section.locator('.evo-detail:visible');
      expect(await detail.getAttribute('data-step-id')).toBe('cautious@r2');
      // The offline agent changed its parameters, having read the round report and every agent's params.json.
      await expect(detail.locator('table.evo-files').innerText()).resolves.toContain('params.json');
      const reads = await detail.locator('table.evo-reads').innerText();
      expect(reads).toContain('round_report.json');
      expect(reads).toContain('params.json');
      await detail.locator('button.evo-goto').click();
      expect(await section.locator('.evo-detail:visible').getAttribute('data-step-id')).toBe('cautious@r1');
      const maps = section.locator('svg[data-chart="similarity"]');
      expect(await maps.count()).toBe(2);
      expect(await maps.nth(1).locator('rect.cell').count()).toBe(3 * 6);
    }
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('a replay opened from a W cell steps to its end', async () => {
    const { page, errors, outside } = await reportPage();
    await page.locator('svg.heatmap[data-id="gomoku-variant"] rect.cell').nth(3).click();
    const link = page.locator('#games a').first();
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^replays\/replay\.html\?id=\w+$/); // gomoku has a viewer
    await link.click();
    await page.waitForURL(/replays\/replay\.html\?id=/);
    await page.waitForSelector('[data-testid="step"]');
    const steps = Number(/of (\d+)/.exec(await page.locator('[data-testid="step"]').innerText())![1]) + 1;
    await page.locator('[data-testid="last"]').click();
    await expect(page.locator('[data-testid="step"]').innerText()).resolves.toBe(`move ${steps - 1} of ${steps - 1}`);
    await page.keyboard.press('ArrowLeft');
    await expect(page.locator('[data-testid="step"]').innerText()).resolves.toBe(`move ${steps - 2} of ${steps - 1}`);
    await screenshot(page, 'replay.png');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  });

  it('the history page (runs/index.html, written when a run is indexed) charts S and L per run, each pair over time, and links the reports', async () => {
    const file = path.join(out, 'index.html');
    expect(fs.existsSync(file)).toBe(true);
    const { page, errors, outside } = await openFile(browser, file, out);
    // Three runs: every agent has a point per run in the S chart of each track.
    for (const track of ['gomoku-standard', 'gomoku-variant'])
      expect(await page.locator(`svg[data-id="${track}-S"] circle.point`).count()).toBe(3 * 3);
    // Pairwise over time: each pair of the three agents has its S difference in every run; the
    // intervals of the two runs of one setup are joined as a band, none across the setup change.
    expect(await page.locator('section.pair').count()).toBe(3);
    for (let k = 0; k < 3; k++) {
      expect(await page.locator(`svg[data-id="pair-${k}-S"] circle.point`).count()).toBe(3);
      expect(await page.locator(`svg[data-id="pair-${k}-S"] polygon.band`).count()).toBe(1);
      expect(await page.locator(`svg[data-id="pair-${k}-S"]`).textContent()).toContain('setup changed');
      expect(await page.locator(`svg[data-id="pair-${k}-better"] circle.point`).count()).toBeGreaterThanOrEqual(3); // S in every run, L where a run has it
    }
    const links = await page
      .locator('table a')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href')));
    expect(links).toHaveLength(3);
    for (const l of links) expect(fs.existsSync(path.join(out, l!))).toBe(true);
    expect(links).toContain(`${path.basename(second.runDir)}/report.html`);
    await screenshot(page, 'history.png');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  });
});
