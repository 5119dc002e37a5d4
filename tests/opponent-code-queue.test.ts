// --opponent-code hidden with development on a queue worker (a real redis-server and a `catarena
// worker` process): the coordinator builds the workspace under the setting and the job carries it,
// so what the worker's agent develops in — and the TASK.md the worker writes for its own game
// server — holds no rival's folder and no rival source quoted in the logs.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { leakerDir, leaks, round2, roundReport } from './helpers/opponent-code.ts';
import { queueFixture } from './helpers/queue.ts';
import { hasRedis } from './helpers/redis.ts';

describe.runIf(hasRedis() || Boolean(process.env.CI))('queue: --opponent-code hidden on workers', () => {
  const q = queueFixture();

  it("a worker's workspace and TASK.md follow the setting", async () => {
    const worker = await q.startWorker('dev', ['--develop', '2']);
    const runDir = path.join(tempDir(), 'queued');
    await runTourney({
      config: resolveConfig({
        games: ['gomoku'],
        variants: ['standard'],
        rounds: 2,
        agents: [`dir:${BUILTIN('random')}#steady`, `dir:${leakerDir()}#leaker`],
        concurrency: 2,
        bootstrapSamples: 20,
        startTimeoutMs: 5_000,
        queue: q.redis.url,
        opponentCode: 'hidden',
      }),
      runDir,
    });
    await q.stopWorker(worker);

    const ws = round2(runDir, 'steady'); // as the worker's agent left it, landed by the coordinator
    expect(fs.readdirSync(path.join(ws, 'last_round'))).toEqual(['steady']);
    expect(leaks(ws)).toEqual([]);
    expect(roundReport(ws).strategies.find((s) => s.agent === 'leaker')!.failure).toBe(
      'invalid_bot: the bot failed the entry check',
    );
    const task = fs.readFileSync(path.join(ws, 'TASK.md'), 'utf8');
    expect(task).toMatch(/A live game server is at http/); // written on the worker
    expect(task).toMatch(/reports of your own games are in `\.\/logs`/);
    expect(task).not.toMatch(/code of every agent/);
  }, 60_000);
});
