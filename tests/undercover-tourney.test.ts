// Undercover through the real CLI: `catarena tourney --games undercover --rounds 2` with the
// offline agents writes W, metrics and reports like the other games, and the round logs carry the
// game's report (composite scores, team Elo). The default tourney leaves the game out.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initSetup } from '../games/core/game.ts';
import { createRng } from '../util/rng.ts';
import { initUndercover } from '../games/undercover/rules.ts';
import { tableSpecs } from '../orchestrator/formats/batch.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import { catarena } from './helpers/cli.ts';
import { tempDir } from './helpers/bots.ts';
import { logNames, readLogSync } from './helpers/run-logs.ts';

describe('undercover in a tourney', () => {
  it('is not in the default games, and can be named', () => {
    expect(resolveConfig({}).games).not.toContain('undercover');
    expect(resolveConfig({ games: ['undercover'] }).games).toEqual(['undercover']);
  });

  it('rotates seats and roles over shared word pairs: in a group of k table rounds every strategy holds every seat of one deal', () => {
    const members = ['a', 'b', 'c', 'd', 'e', 'f'];
    const specs = tableSpecs(
      { kind: 'round', label: 'round:1', members },
      { game: 'undercover', variant: 'standard', tableRounds: 6, seed: 3, limits: DEFAULT_LIMITS, policy: 'strict' },
    );
    const deals = specs.map((spec) => ({
      spec,
      state: initUndercover('standard', createRng(spec.seed), initSetup(spec)),
    }));
    expect(new Set(deals.map((d) => d.state.pair.index)).size).toBe(1);
    for (const id of members) {
      const seats = deals.map(({ spec }) => spec.seats.indexOf(id));
      expect(new Set(seats).size).toBe(6);
      // The deal puts 2 undercover players at fixed seats, so each strategy is undercover in 2 of the 6.
      expect(deals.filter(({ spec, state }) => state.roles[spec.seats.indexOf(id)] === 'undercover')).toHaveLength(2);
    }
  });

  it('plays 2 rounds with the offline agents and writes W, metrics, reports and the round report', async () => {
    const out = tempDir('catarena-uc-tourney-');
    const r = await catarena(
      'tourney',
      '--games',
      'undercover',
      '--variants',
      'standard',
      '--rounds',
      '2',
      '--out',
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/undercover-standard/);
    const [run] = fs.readdirSync(out).filter((d) => d.startsWith('tourney-'));
    const dir = path.join(out, run!);
    for (const f of [
      'report.md',
      'report.html',
      'metrics.json',
      'tracks/undercover-standard/W.json',
      'tracks/undercover-standard/metrics.json',
    ])
      expect(fs.existsSync(path.join(dir, f)), f).toBe(true);
    // Round 1: one table of the 3 strategies, 6 table rounds; round 2: the round table, three
    // own tables of 2 and the field of 6 — 6 table rounds each: 6 + 6 + 3·6 + 6 = 36 games.
    const journal = fs
      .readFileSync(path.join(dir, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(journal.filter((e) => e.result?.spec?.game === 'undercover' || e.spec?.game === 'undercover').length).toBe(
      36,
    );
    const logs = path.join(dir, 'tracks/undercover-standard/round_2/logs');
    const reportFile = logNames(logs).find((f) => /^undercover_report_.*\.json$/.test(f))!;
    const report = JSON.parse(readLogSync(path.join(logs, reportFile)));
    expect(Object.keys(report.team_elo)).toHaveLength(6);
    for (const s of Object.values(report.stats) as Array<{ composite: number; games: number }>) {
      expect(s.games).toBeGreaterThan(0);
      expect(s.composite).toBeGreaterThanOrEqual(0);
      expect(s.composite).toBeLessThanOrEqual(1);
    }
    expect(report.games[0].statements.length).toBeGreaterThan(0);
    // Per role: every strategy's role games add up to its games; per category: every game once.
    for (const s of Object.values(report.stats) as Array<{
      games: number;
      by_role: Record<string, { games: number }>;
    }>) {
      expect(Object.values(s.by_role).reduce((n, r) => n + r.games, 0)).toBe(s.games);
    }
    expect(
      Object.values(report.by_category as Record<string, { games: number }>).reduce((n, c) => n + c.games, 0),
    ).toBe(report.games.length);
  }, 180_000);
});
