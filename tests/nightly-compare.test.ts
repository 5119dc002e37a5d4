// Nightly runs, part 3: reading nights together. `compare A B runs/*` over nights whose config
// changed uses the runs where both agents played and names the ones it skipped; `combine` and
// `compare` warn when runs share a seed or copied games (--reuse) from another, since those are
// not independent repeats; `history --agent` takes the agent's id or its spec. Three small local
// runs (offline agents, one Gomoku round), two copies of one of them (one with a changed setting).
// Their bots run as plain processes: nothing here depends on the sandbox (tests/sandbox-*.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig, type TourneyConfigInput } from '../orchestrator/config/tourney-config.ts';
import { readIndexFile } from '../orchestrator/run/run-index.ts';
import { historyRows } from '../orchestrator/run/history.ts';
import { combineRuns } from '../orchestrator/tourney/combine.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { tempDir } from './helpers/bots.ts';
import { catarena } from './helpers/cli.ts';

const base: TourneyConfigInput = {
  games: ['gomoku'],
  variants: ['standard'],
  rounds: 1,
  agents: ['offline:cautious', 'offline:aggressive'],
  bootstrapSamples: 50,
  concurrency: 2,
  sandbox: 'unsafe',
};

describe('nightly: compare and combine across nights', () => {
  const out = tempDir('catarena-nights-');
  const dir = (name: string) => path.join(out, name);

  beforeAll(async () => {
    const play = (name: string, input: TourneyConfigInput) =>
      runTourney({ config: resolveConfig(base, input, { out }), runDir: dir(name) });
    // night-1, then night-3 reusing all its games (--reuse finds games of the same seed only);
    // night-4 without aggressive alongside.
    await Promise.all([
      play('night-1', { seed: 11 }).then(() => play('night-3', { seed: 11, reuse: true })),
      play('night-4', { seed: 14, agents: ['offline:cautious', 'offline:imitator'] }),
    ]);
    // night-2: a copy of night-1 (the same seed); night-5: a copy with a setting changed.
    fs.cpSync(dir('night-1'), dir('night-2'), { recursive: true });
    fs.cpSync(dir('night-1'), dir('night-5'), { recursive: true });
    const config = path.join(dir('night-5'), 'config.json');
    fs.writeFileSync(
      config,
      JSON.stringify({ ...JSON.parse(fs.readFileSync(config, 'utf8')), seed: 15, strictValidation: true }),
    );
  }, 120_000);

  it('combine warns when runs share a seed or reused games from another', async () => {
    const warnings: string[] = [];
    await combineRuns([dir('night-1'), dir('night-2'), dir('night-3')], dir('combined'), undefined, false, (m) =>
      warnings.push(m),
    );
    expect(warnings).toEqual([
      expect.stringMatching(/^night-1, night-2, night-3 share seed 11: not independent repeats/),
      expect.stringMatching(/^night-3 reused 2 of its 2 games from night-1 \(--reuse\): copies, not new samples/),
    ]);
  });

  it('compare A B runs/* uses the runs where both played, names the skipped ones, and notes config changes', async () => {
    const entries = [...fs.readdirSync(out).map((f) => path.join(out, f))];
    // In this process (main(), output captured): what `compare` prints, without a CLI load.
    const r = await catarena('compare', 'offline:cautious', 'aggressive', ...entries, '--json');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/compared over 4 run\(s\): night-1, night-2, night-3, night-5/);
    expect(r.stderr).toMatch(
      /skipped .*night-4: no track with both cautious and aggressive \(its agents: cautious, imitator\)/,
    );
    expect(r.stderr).toMatch(/skipped .*index\.jsonl: not a run directory/);
    expect(r.stderr).toMatch(/! config changed in night-5 \(from night-3\): strictValidation: false vs true/);
    expect(r.stderr).toMatch(/! night-1, night-2, night-3 share seed 11/);
    expect(r.stderr).toMatch(/! night-3 reused 2 of its 2 games from night-1/);
    const rows = JSON.parse(r.stdout) as Array<{ track: string; metric: string; repeats: number }>;
    expect(rows.find((row) => row.metric === 'S')?.repeats).toBe(4);
  }, 60_000);

  it('history --agent takes the id or the spec', async () => {
    const entries = await readIndexFile(path.join(out, 'index.jsonl'));
    const byId = historyRows(entries, 'cautious');
    expect(byId.map((row) => row.runId).sort()).toEqual(['night-1', 'night-3', 'night-4']);
    expect(historyRows(entries, 'offline:cautious')).toEqual(byId);
    expect(historyRows(entries, 'offline:aggressive').map((row) => Object.keys(row.scores))).toEqual([
      ['aggressive'],
      ['aggressive'],
    ]);
    // Each run's seed is in the index.
    expect(Object.fromEntries(entries.map((e) => [e.runId, e.seed]))).toEqual({
      'night-1': 11,
      'night-3': 11,
      'night-4': 14,
    });
  });
});
