// The two ratings beside the paper's metrics as a real Hold'em tourney writes them: Plackett–Luce
// per track in metrics.json, report.md and report.html (read in Chromium), and the one rating
// across every track on the leaderboard (report.md, report.html, the terminal summary). The
// numbers in the reports are those a fit of the run's journal gives.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { renderLeaderboard } from '../reports/leaderboard-text.ts';
import { tableRatings } from '../reports/metrics/table-ratings.ts';
import type { MatchResult } from '../records/match.ts';
import type { TourneySummary } from '../records/tourney.ts';
import { hasChromium, openFile, sharedChromium } from './helpers/browser.ts';
import { tempDir } from './helpers/bots.ts';

let summary: TourneySummary;

beforeAll(async () => {
  // 3 offline agents, one round, both rule sets: a round table of 3 played 3 times per rule set.
  const config = resolveConfig({
    games: ['holdem'],
    rounds: 1,
    reps: 3,
    concurrency: 2,
    bootstrapSamples: 100,
    perGame: { holdem: { options: { handCap: 40 } } },
  });
  summary = await runTourney({ config, runDir: path.join(tempDir('catarena-table-ratings-'), 'run') });
}, 120_000);

const journal = (): MatchResult[] =>
  fs
    .readFileSync(path.join(summary.runDir, 'journal.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as MatchResult)
    .filter((r) => r.spec);

describe("ratings for tables and across games in a Hold'em tourney's reports", () => {
  it('metrics.json holds Plackett–Luce ratings per track, the fit of the journal, and the cross-game rating', () => {
    expect(summary.tracks.map((t) => t.variant)).toEqual(['standard', 'variant']);
    const results = journal();
    for (const t of summary.tracks) {
      const r = t.tableRatings!;
      expect(r.model).toBe('plackett-luce');
      expect(r.tables).toBe(t.games);
      expect(r.agents.map((a) => a.id).sort()).toEqual([...t.agents].sort());
      // Recomputed from the journal: the same numbers.
      const byId = new Map(t.strategies.map((s) => [s.id, s]));
      const own = results
        .filter((g) => g.spec.game === t.game && g.spec.variant === t.variant)
        .sort((a, b) => (a.id < b.id ? -1 : 1));
      const again = tableRatings(
        own,
        (id) => ({ agent: byId.get(id)!.agent, round: byId.get(id)!.round }),
        t.agents,
        1,
        {
          anchor: r.anchor === 'mean' ? undefined : r.anchor,
          samples: 100,
          seed: resolveConfig({}).seed,
        },
      );
      expect(again).toEqual(r);
      const file = JSON.parse(
        fs.readFileSync(path.join(summary.runDir, 'tracks', `holdem-${t.variant}`, 'metrics.json'), 'utf8'),
      );
      expect(file.tableRatings).toEqual(r);
    }
    const cross = summary.crossGame!;
    expect(cross.tracks.map((x) => x.track)).toEqual(['holdem-standard', 'holdem-variant']);
    expect(cross.agents.map((a) => a.id).sort()).toEqual([...summary.tracks[0]!.agents].sort());
    const written = JSON.parse(fs.readFileSync(path.join(summary.runDir, 'metrics.json'), 'utf8'));
    expect(written.crossGame).toEqual(cross);
  });

  it('report.md shows them: a Plackett–Luce section per track and Elo (all tracks) on the leaderboard', () => {
    const md = fs.readFileSync(path.join(summary.runDir, 'report.md'), 'utf8');
    const section = md.slice(md.indexOf('## Ratings for tables (Plackett–Luce)'));
    expect(section).toContain('### holdem-standard');
    expect(section).toContain('### holdem-variant');
    const r = summary.tracks[0]!.tableRatings!;
    for (const a of r.agents)
      expect(section).toMatch(
        new RegExp(`\\| ${a.id} \\| (0 \\(anchor\\)|-?\\d+ \\[-?\\d+, -?\\d+\\]) \\| ${a.games} \\|`),
      );
    const board = md.slice(md.indexOf('## Leaderboard'), md.indexOf('## Strategy coding'));
    expect(board).toContain('| Elo (all tracks) |');
    expect(board).toContain('each track weighing the same');
    // The terminal summary: one more column.
    const text = renderLeaderboard(summary).split('\n');
    expect(text[1]).toMatch(/rank L\s+Elo all\s+holdem-standard S\/L/);
  });

  it.skipIf(!hasChromium)('report.html shows them in Chromium', async () => {
    const browser = await sharedChromium();
    const { page, errors } = await openFile(browser, path.join(summary.runDir, 'report.html'), summary.runDir);
    const header = await page.locator('table.leaderboard thead').innerText();
    expect(header).toContain('Elo (all tracks)');
    await expect(page.locator('[data-testid="cross-game"]').innerText()).resolves.toContain(
      'each track weighing the same',
    );
    for (const t of summary.tracks) {
      const section = page.locator(`#track-holdem-${t.variant}`);
      await expect(section.locator('table.metrics thead').innerText()).resolves.toContain(
        'Elo, tables (Plackett–Luce)',
      );
      const rows = section.locator('table.table-ratings tbody tr');
      expect(await rows.count()).toBe(t.tableRatings!.strategies.length);
      await expect(rows.first().isVisible()).resolves.toBe(true);
      // The report's order: highest first, equal ratings by id (an anchor and a strategy can tie at 0).
      const best = [...t.tableRatings!.strategies].sort((a, b) => b.elo - a.elo || a.id.localeCompare(b.id))[0]!;
      await expect(rows.first().innerText()).resolves.toContain(best.id);
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
