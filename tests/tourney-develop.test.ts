// Strategies develop side by side: agents of a round and later tracks overlap, bounded by
// developConcurrency; with 1 they develop one at a time. Results are the same strategies either way.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Agent, DevelopBudget, Workspace } from '../agents/core/types.ts';
import { createAgent } from '../agents/registry.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { tempDir } from './helpers/bots.ts';

/** Wraps offline agents and records how many develop at once; each waits (≤ 5 s) until `hold` are in flight, so overlap is observed, not raced. */
function observed(hold: number) {
  const seen = { inFlight: 0, most: 0, calls: [] as string[] };
  const wrap = (inner: Agent): Agent => ({
    id: inner.id,
    kind: inner.kind,
    async develop(ws: Workspace, budget: DevelopBudget) {
      seen.calls.push(`${inner.id}:${ws.game}/${ws.variant}@${ws.round}`);
      seen.inFlight++;
      seen.most = Math.max(seen.most, seen.inFlight);
      const until = Date.now() + 5_000;
      while (seen.inFlight < hold && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      try {
        return await inner.develop(ws, budget);
      } finally {
        seen.inFlight--;
      }
    },
  });
  return { seen, agents: ['offline:cautious', 'offline:aggressive'].map((spec) => wrap(createAgent(spec, 1))) };
}

const hashes = (runDir: string) =>
  ['gomoku-standard', 'gomoku-variant'].flatMap((track) =>
    ['cautious', 'aggressive'].map(
      (agent) =>
        JSON.parse(
          fs.readFileSync(
            path.join(runDir, 'tracks', track, 'round_1', 'strategies', `${agent}.strategy.json`),
            'utf8',
          ),
        ).hash as string,
    ),
  );

describe('tourney: parallel development', () => {
  it('develops up to developConcurrency strategies at once across agents and tracks, and the same strategies one at a time', async () => {
    const base = { rounds: 1, games: ['gomoku'], concurrency: 2, bootstrapSamples: 20, seed: 7 };
    const parallel = observed(3);
    const dirA = path.join(tempDir(), 'run');
    await runTourney({
      config: resolveConfig({ ...base, developConcurrency: 3 }),
      runDir: dirA,
      agents: parallel.agents,
    });
    expect(parallel.seen.calls).toHaveLength(4);
    expect(parallel.seen.most).toBe(3);

    const serial = observed(1);
    const dirB = path.join(tempDir(), 'run');
    await runTourney({
      config: resolveConfig({ ...base, developConcurrency: 1 }),
      runDir: dirB,
      agents: serial.agents,
    });
    expect(serial.seen.most).toBe(1);
    expect(hashes(dirB)).toEqual(hashes(dirA));
  }, 120_000);
});
