// The evolution report on every track of the default tourney (four games × two rule sets, the
// three offline agents), in report.md, the run's JSON files and report.html opened in Chromium.
// The run is developed, not played: the offline agents write their round-1 and round-2 bots in
// real workspaces (round 2 reading round 1's bots and a round report, as in a tourney), the
// strategy records are saved as the tourney saves them, and `summarizeRun` builds the reports from
// the run directory as `catarena report` does; the games, which the evolution does not use, are left out.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { buildWorkspace } from '../agents/core/workspace.ts';
import { createOfflineAgent } from '../agents/offline/index.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { RunDir, saveStrategyRecord } from '../orchestrator/run/run-dir.ts';
import { summarizeRun } from '../orchestrator/tourney/summarize.ts';
import { variantsOf } from '../orchestrator/config/tourney-config.ts';
import { strategyId, trackName, type RoundReport, type StrategyRecord } from '../records/tourney.ts';
import { hashDir } from '../util/fs.ts';
import { hasChromium, openFile, screenshot, sharedChromium } from './helpers/browser.ts';
import { tempDir } from './helpers/bots.ts';

const ROUNDS = 2;
let runDir: string;
let tracks: string[];
let agents: string[];

/** Develops every agent's bot for every default track and round, records them, and builds the reports. */
async function developedRun(): Promise<void> {
  runDir = path.join(tempDir('catarena-evolution-'), 'run');
  const run = new RunDir(runDir);
  const config = resolveConfig({ rounds: ROUNDS });
  await run.writeConfig(config);
  const offline = config.agents.map((spec) => createOfflineAgent(spec, config.seed));
  agents = offline.map((a) => a.id);
  tracks = [];
  for (const game of config.games) {
    for (const variant of variantsOf(config, game)) {
      const track = { game, variant };
      tracks.push(trackName(track));
      for (let round = 1; round <= ROUNDS; round++) {
        const logsDir = run.logsDir(track, round - 1);
        if (round > 1) {
          // The round report the agents learn from: the first agent won every game.
          const h2h = (wins: number) => ({ games: 4, wins, draws: 0, losses: 4 - wins, score: wins / 4 });
          const report: RoundReport = {
            game,
            variant,
            round: round - 1,
            policy: 'strict',
            games: 12,
            strategies: agents.map((a) => ({
              id: strategyId(a, round - 1),
              agent: a,
              round: round - 1,
              status: 'ok' as const,
            })),
            standings: agents.map((a, k) => ({
              id: strategyId(a, round - 1),
              agent: a,
              round: round - 1,
              ...h2h(k === 0 ? 4 : 1),
              failures: {},
              avgMoveMs: 10,
            })),
            pairwise: {},
          };
          fs.mkdirSync(logsDir, { recursive: true });
          fs.writeFileSync(path.join(logsDir, 'round_report.json'), JSON.stringify(report));
        }
        for (const agent of offline) {
          const ws = await buildWorkspace({
            dir: run.workspaceDir(track, round, agent.id),
            game,
            variant,
            round,
            agentId: agent.id,
            seed: config.seed,
            moveTimeoutMs: 2000,
            previous:
              round > 1
                ? { bots: agents.map((a) => ({ agent: a, dir: run.strategyDir(track, round - 1, a) })), logsDir }
                : undefined,
          });
          const result = await agent.develop(ws, { wallMs: 60_000 });
          const dir = run.strategyDir(track, round, agent.id);
          fs.cpSync(result.botDir, dir, { recursive: true });
          const record: StrategyRecord = {
            id: strategyId(agent.id, round),
            agent: agent.id,
            agentKind: agent.kind,
            round,
            game,
            variant,
            dir,
            hash: await hashDir(dir),
            status: 'ok',
            cost: result.cost,
            buildLog: `${result.log}\n\n## validation: passed\n`,
          };
          await saveStrategyRecord(record);
        }
      }
    }
  }
  await summarizeRun(runDir);
}

describe('the evolution report on every track of the default tourney', () => {
  beforeAll(developedRun, 120_000);

  it('writes evolution.json, similarity.json and each round-2 diff; report.md summarises every track', () => {
    const md = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
    expect(md).toContain('## Strategy evolution: what the agents changed, read and borrowed');
    for (const track of tracks) {
      const dir = path.join(runDir, 'tracks', track);
      const evolution = JSON.parse(fs.readFileSync(path.join(dir, 'evolution.json'), 'utf8'));
      const similarity = JSON.parse(fs.readFileSync(path.join(dir, 'similarity.json'), 'utf8'));
      expect(evolution.steps).toHaveLength(agents.length * ROUNDS);
      expect(similarity.rounds.map((r: { round: number }) => r.round)).toEqual([1, 2]);
      expect(similarity.settings).toMatchObject({ k: 12, w: 8, threshold: 0.7, base: true });
      // The offline agents tune one reference bot: the same code (params.json is data), so every
      // pair is 1, none flagged as borrowed (its own previous bot was just as close).
      for (const r of similarity.rounds)
        for (const row of r.values) for (const v of row) expect(v === null || v === 1).toBe(true);
      expect(similarity.flags.length).toBeGreaterThan(0);
      expect(similarity.flags.every((f: { borrowed: boolean }) => !f.borrowed)).toBe(true);
      for (const s of evolution.steps.filter((x: { round: number }) => x.round === 2)) {
        // Each round-2 bot changed its parameters and notes, and read the report and every agent's params.json first.
        expect(s.diff.changes.map((c: { path: string }) => c.path).sort()).toEqual(['NOTES.md', 'params.json']);
        expect(fs.readFileSync(path.join(dir, 'round_2', 'strategies', `${s.agent}.diff`), 'utf8')).toMatch(
          /^--- a\/NOTES\.md\n\+\+\+ b\/NOTES\.md\n@@ /,
        );
        expect(s.reads.source).toBe('offline agent file log');
        expect(s.reads.logs).toEqual(['round_report.json']);
        expect(s.reads.own).toEqual(['params.json']);
        expect(Object.keys(s.reads.rivals).sort()).toEqual(agents.filter((a) => a !== s.agent).sort());
        expect(s.profile.linesOfCode).toBeGreaterThan(100);
        expect(s.profile.techniques.length).toBeGreaterThan(0);
      }
      expect(md).toContain(`### ${track}\n`);
    }
    const ms = tracks.map(
      (t) => JSON.parse(fs.readFileSync(path.join(runDir, 'tracks', t, 'evolution.json'), 'utf8')).cpuMs as number,
    );
    console.log(
      `evolution CPU per track (ms): ${ms.join(', ')}; total ${ms.reduce((a, b) => a + b, 0)} ms for ${tracks.length} tracks × ${agents.length} agents × ${ROUNDS} rounds`,
    );
  });

  describe.skipIf(!hasChromium)('in Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await sharedChromium();
    });

    it('report.html: a timeline per track that clicks through the rounds (first and last track), and a similarity heatmap per round', async () => {
      const { page, errors, outside } = await openFile(browser, path.join(runDir, 'report.html'), runDir);
      await expect(page.locator('nav a[href="#evolution"]').count()).resolves.toBe(1);
      expect(await page.locator('section.evolution').count()).toBe(tracks.length);
      // Every track's timeline and heatmaps, read in one call (a Playwright round trip per count
      // costs more than the page does); the click-through below on the first and the last track.
      const shapes = await page.evaluate((ids) => {
        return ids.map((track) => {
          const section = document.querySelector(`section.evolution[data-track="${track}"]`);
          if (!section) return null;
          const maps = [...section.querySelectorAll('svg[data-chart="similarity"]')];
          return {
            steps: section.querySelectorAll('button.evo-step').length,
            detailsShown: [...section.querySelectorAll('.evo-detail')].filter((d) => d.checkVisibility()).length,
            cells: maps.map((m) => m.querySelectorAll('rect.cell').length),
            values: maps[1] ? [...maps[1].querySelectorAll('rect.cell')].map((c) => c.getAttribute('data-value')) : [],
          };
        });
      }, tracks);
      for (const [k, track] of tracks.entries()) {
        const shape = shapes[k]!;
        expect(shape, track).not.toBeNull();
        expect(shape.steps, track).toBe(agents.length * ROUNDS);
        expect(shape.detailsShown, track).toBe(0);
        // One heatmap per round: round 1 is its bots against each other, round 2 against round 1's and each other.
        expect(shape.cells, track).toEqual([agents.length * agents.length, agents.length * 2 * agents.length]);
        expect(
          shape.values.filter((v) => v === ''),
          track,
        ).toHaveLength(agents.length); // each bot against itself
        expect(
          shape.values.filter((v) => v !== '').every((v) => Number(v) >= 0 && Number(v) <= 1),
          track,
        ).toBe(true);
      }
      for (const track of [tracks[0]!, tracks.at(-1)!]) {
        const section = page.locator(`section.evolution[data-track="${track}"]`);
        // Round 2 of the second agent: its diff, what it read, its profile.
        await section.locator(`button.evo-step[data-step$="-${agents[1]}-r2"]`).click();
        const detail = section.locator('.evo-detail:visible');
        expect(await detail.count()).toBe(1);
        expect(await detail.getAttribute('data-step-id')).toBe(`${agents[1]}@r2`);
        expect(await detail.locator('pre.diff .ins').count()).toBeGreaterThan(0);
        await expect(detail.locator('table.evo-reads').innerText()).resolves.toContain('round_report.json');
        const href = await detail.locator('a', { hasText: 'the full diff' }).getAttribute('href');
        expect(fs.existsSync(path.join(runDir, href!))).toBe(true);
        // Back to round 1 with its button.
        await detail.locator('button.evo-goto').click();
        expect(await section.locator('.evo-detail:visible').getAttribute('data-step-id')).toBe(`${agents[1]}@r1`);
        expect(await section.locator('button.evo-step[aria-pressed="true"]').count()).toBe(1);
      }
      await screenshot(page, 'evolution.png');
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
      await page.close();
    });
  });
});
