// tourney --anchors (orchestrator/tourney/anchored-strategies.ts): after the last round every
// strategy that played is rated on its game's anchor pool; the ratings (with their pool version)
// are in anchored.json, each rating's games in a rate run under anchored/, in report.md and
// report.html, in the run index and in `history`; a second pass rates nothing again.
// One round of two offline agents on the Gomoku variant, 6 games per rating (about 15 s).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { formatHistory, historyRows } from '../orchestrator/run/history.ts';
import { readIndexFile } from '../orchestrator/run/index-read.ts';
import { rateStrategies, readAnchored } from '../orchestrator/tourney/anchored-strategies.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import type { TourneySummary } from '../records/tourney.ts';
import { tempDir } from './helpers/bots.ts';

describe('tourney --anchors', () => {
  let out: string;
  let runDir: string;
  let summary: TourneySummary;

  beforeAll(async () => {
    out = tempDir('catarena-anchors-');
    runDir = path.join(out, 'run');
    const config = resolveConfig({
      games: ['gomoku'],
      variants: ['variant'],
      rounds: 1,
      agents: ['offline:cautious', 'offline:aggressive'],
      bootstrapSamples: 20,
      anchors: { maxGames: 6 },
    });
    summary = await runTourney({ config, runDir, index: true });
  }, 300_000);

  it('rates each strategy on the pool, its games journaled with replays in anchor-ratings/<track>/<agent>-r<round>/', async () => {
    const anchored = await readAnchored(runDir);
    expect(anchored.map((a) => `${a.track} ${a.agent}@${a.round}`).sort()).toEqual([
      'gomoku-variant aggressive@1',
      'gomoku-variant cautious@1',
    ]);
    for (const a of anchored) {
      expect(a.rating.poolVersion).toBeGreaterThanOrEqual(1);
      expect(a.rating.games).toBeGreaterThanOrEqual(2);
      expect(a.rating.games).toBeLessThanOrEqual(6);
      expect(a.rating.lo).toBeLessThan(a.rating.elo);
      expect(a.rating.hi).toBeGreaterThan(a.rating.elo);
      const dir = path.join(runDir, 'anchor-ratings', a.track, `${a.agent}-r${a.round}`);
      const journal = fs.readFileSync(path.join(dir, 'journal.jsonl'), 'utf8').trim().split('\n');
      expect(journal).toHaveLength(a.rating.games);
      for (const line of journal)
        expect(fs.existsSync(path.join(dir, 'replays', `${JSON.parse(line).id}.json.gz`))).toBe(true);
    }
    expect(summary.anchored).toHaveLength(2);
  });

  it("report.md and report.html show them; the index and history carry each agent's last rating", async () => {
    const md = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
    expect(md).toContain('## Ratings on the anchor scale (--anchors)');
    expect(md).toMatch(/### gomoku-variant \(pool gomoku\/variant v\d+\)/);
    expect(md).toMatch(/\| cautious \| -?\d+ \[-?\d+, -?\d+\] \(\d\) \|/);
    const html = fs.readFileSync(path.join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('<h2 id="anchored">Ratings on the anchor scale</h2>');
    expect(html).toContain('<a href="#anchored">Anchored ratings</a>');
    const entries = await readIndexFile(path.join(out, 'index.jsonl'));
    const [entry] = entries.filter((e) => e.runDir === runDir);
    expect(entry?.anchored?.map((a) => a.agent).sort()).toEqual(['aggressive', 'cautious']);
    const text = formatHistory(historyRows(entries));
    expect(text).toMatch(/anchor scale: .*cautious@1 gomoku-variant -?\d+ \[-?\d+, -?\d+\] pool v\d+/);
    expect(formatHistory(historyRows(entries, 'aggressive'))).not.toContain('cautious@1 gomoku-variant');
  });

  it('a second pass (a resumed run) rates nothing again', async () => {
    const before = fs.readFileSync(path.join(runDir, 'anchored.json'), 'utf8');
    const config = resolveConfig({ games: ['gomoku'], variants: ['variant'], rounds: 1, anchors: { maxGames: 6 } });
    const again = await rateStrategies({
      root: runDir,
      config,
      tracks: [
        {
          name: 'gomoku-variant',
          game: 'gomoku',
          variant: 'variant',
          rounds: [summary.tracks[0]!.strategies as never],
        },
      ],
      sandbox: undefined as never, // never used: nothing is left to rate
    });
    expect(again).toHaveLength(2);
    expect(fs.readFileSync(path.join(runDir, 'anchored.json'), 'utf8')).toBe(before);
  });
});
