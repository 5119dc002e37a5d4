// Development on BullMQ workers (a real redis-server, `catarena worker` processes): with --queue
// every (agent, track, round) develops on a worker, and the coordinator — this test process —
// starts no agent. Deterministic bots give the same strategies and the same W as in-process; an LLM
// agent (the built-in one, against a scripted OpenAI-compatible server) develops only on the
// worker that holds its key, and that key is in no Redis key, job, run-directory file or log.
// With --opponent-code hidden, the coordinator builds the workspace under the setting and the job
// carries it, so what a worker's agent develops in, and the TASK.md the worker writes for its own
// game server, holds no rival's folder and no rival source quoted in the logs.
// Over 30 s: agents develop on two queue worker processes (one pair for the file) and in-process
// for the same W; each worker is a CLI process that loads the whole orchestrator.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DirAgent } from '../agents/dir/dir-agent.ts';
import { OfflineAgent } from '../agents/offline/index.ts';
import { resolveConfig, type TourneyConfigInput } from '../orchestrator/config/tourney-config.ts';
import { connectQueue } from '../orchestrator/queue/connection.ts';
import { queueStatus } from '../orchestrator/queue/status.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { botWithParams, BUILTIN, tempDir } from './helpers/bots.ts';
import { hasRedis } from './helpers/redis.ts';
import { leakerDir, leaks, round2, roundReport } from './helpers/opponent-code.ts';
import { queueFixture, wOf } from './helpers/queue.ts';
import { perConversation, startScriptedLlm } from './helpers/scripted-llm.ts';
import type { WorkerProcess } from './helpers/worker-process.ts';
import { catarena } from './helpers/cli.ts';

const records = (runDir: string) =>
  fs
    .readdirSync(runDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.strategy.json'))
    .sort()
    .map(
      (f) =>
        JSON.parse(fs.readFileSync(path.join(runDir, f), 'utf8')) as {
          id: string;
          hash: string;
          status: string;
          agent: string;
          agentKind: string;
          dir: string;
          cost: { toolCalls: number; tokens: unknown };
        },
    );
const gunzipAsync = promisify(gunzip);
const developedBy = (output: string) => Number(/and (\d+) developments/.exec(output)?.[1]);

/** Every value stored under catarena:* (artifacts unpacked), as text: what a key must never be in. */
async function redisContents(url: string): Promise<string> {
  const redis = await connectQueue(url);
  const parts: string[] = [];
  try {
    for (const key of await redis.keys('catarena:*')) {
      const type = await redis.type(key);
      parts.push(key);
      if (type === 'string') {
        const value = await redis.getBuffer(key);
        parts.push(
          key.startsWith('catarena:artifact:') && value ? (await gunzipAsync(value)).toString('utf8') : String(value),
        );
      } else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
      else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
      else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
      else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, '0', '-1')));
      else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
    }
  } finally {
    redis.disconnect();
  }
  return parts.join('\n');
}

describe.runIf(hasRedis() || Boolean(process.env.CI))('queue: development on workers (real redis-server)', () => {
  const q = queueFixture();
  const SENTINEL = 'sk-sentinel-queue-develop-7f3a';
  let server: Awaited<ReturnType<typeof startScriptedLlm>>;
  /**
   * The file's two workers, one without the LLM agent's key and one with it, both pointed at the
   * scripted server; both tests use them (two workers each before). Started in beforeAll and awaited
   * by the tests, so the first test's in-process run overlaps their CLI loads.
   */
  let workers: Promise<[WorkerProcess, WorkerProcess]>;
  /** Developments the workers have done, per the tests that finished: checked against their own count when they stop. */
  let developments = 0;

  beforeAll(async () => {
    const sample = BUILTIN('random');
    const write = (p: string, file: string) => ({
      name: 'write_file',
      args: { path: p, content: fs.readFileSync(path.join(sample, file), 'utf8') },
    });
    server = await startScriptedLlm(
      perConversation([
        {
          toolCalls: [
            write('develop_ai/start_ai.sh', 'start_ai.sh'),
            write('develop_ai/bot.mjs', 'bot.mjs'),
            write('develop_ai/bot-http.mjs', 'bot-http.mjs'),
          ],
        },
        { toolCalls: [{ name: 'finish', args: { summary: 'done' } }] },
      ]),
      { noStreaming: true, key: SENTINEL },
    );
    const { OPENAI_API_KEY: _, ...base } = process.env;
    const env = { ...base, CATARENA_OPENAI_BASE_URL: server.baseURL };
    workers = Promise.all([
      q.startWorker('noKey', ['--develop', '2'], undefined, false, env),
      q.startWorker('withKey', ['--develop', '2'], undefined, false, { ...env, OPENAI_API_KEY: SENTINEL }),
    ]);
    workers.catch(() => {}); // awaited by the tests
  });
  afterAll(() => server?.close());

  it('agents develop on 2 workers, none in the coordinator; same strategies and W as in-process', async () => {
    // Deterministic bots, as scripts/w-fingerprint.mjs plays them (fixed search, no noise), entered
    // as dir: agents whose folders travel to the workers; one has a bot per round. Two agents: 4
    // developments and 12 games a run (a third agent made it 6 and 30, and checked nothing more).
    const fixed = (params: Record<string, unknown>, name: string) =>
      botWithParams(BUILTIN('heuristic'), { ...params, timeBudgetMs: 60_000, randomness: 0 }, name);
    const perRound = path.join(tempDir(), 'perRound');
    fs.cpSync(fixed({ depth: 1, candidates: 10, attack: 0.8, defense: 1.3 }, 'r1'), path.join(perRound, 'round_1'), {
      recursive: true,
    });
    fs.cpSync(fixed({ depth: 2, candidates: 6, attack: 1.4, defense: 0.8 }, 'r2'), path.join(perRound, 'round_2'), {
      recursive: true,
    });
    const input: TourneyConfigInput = {
      games: ['gomoku'],
      rounds: 2,
      variants: ['standard'],
      agents: [`dir:${fixed({ depth: 2, candidates: 8 }, 'steady')}#steady`, `dir:${perRound}#learner`],
      concurrency: 2,
      bootstrapSamples: 50,
      seed: 7,
    };
    const local = path.join(tempDir(), 'local');
    await Promise.all([runTourney({ config: resolveConfig(input), runDir: local }), workers]);

    const develop = vi.spyOn(DirAgent.prototype, 'develop');
    const queued = path.join(tempDir(), 'queued');
    try {
      await runTourney({ config: resolveConfig(input, { queue: q.redis.url }), runDir: queued });
      expect(develop).not.toHaveBeenCalled(); // the coordinator started no agent
    } finally {
      develop.mockRestore();
    }
    const mine = records(queued);
    expect(mine).toHaveLength(4);
    expect(mine.map((r) => [r.id, r.hash, r.status, r.agentKind])).toEqual(
      records(local).map((r) => [r.id, r.hash, r.status, r.agentKind]),
    );
    expect(wOf(queued)).toEqual(wOf(local));
    // What came back is where a local run puts it: the record's dir, the round 2 workspace with round 1's bots.
    for (const r of mine)
      expect(r.dir).toMatch(new RegExp(`^${queued}/tracks/gomoku-standard/round_\\d/strategies/${r.agent}$`));
    const round2 = path.join(queued, 'tracks', 'gomoku-standard', 'round_2');
    expect(fs.readdirSync(path.join(round2, 'workspaces', 'learner', 'last_round')).sort()).toEqual([
      'learner',
      'steady',
    ]);
    expect(fs.readFileSync(path.join(round2, 'strategies', 'learner.build.log'), 'utf8')).toMatch(
      /copied round_2 into the workspace/,
    );

    // Each development once, on the workers (their own count, printed when they stop, is checked
    // at the end of the file): two per agent, none failed.
    const rows = (await queueStatus(q.redis.url)).development.filter((r) => r.agent.startsWith('dir:'));
    expect(rows.map((r) => [r.agent.replace(/.*#/, ''), r.completed, r.failed]).sort()).toEqual([
      ['learner', 2, 0],
      ['steady', 2, 0],
    ]);
    developments += 4;
  }, 300_000);

  // On the file's workers (its own worker and Redis before: tests/opponent-code-queue.test.ts).
  it("--opponent-code hidden: a worker's workspace and TASK.md follow the setting", async () => {
    await workers;
    const runDir = path.join(tempDir(), 'opponent-code');
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
    developments += 4; // two agents, two rounds

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
  }, 120_000);

  it('an LLM agent develops only on the worker with its key; the key is in no Redis value, run file or log; queue status says who lacks it', async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY; // the coordinator has no key
    try {
      const [keyless, holder] = await workers;
      const runDir = path.join(tempDir(), 'llm');
      const offlineDevelop = vi.spyOn(OfflineAgent.prototype, 'develop');
      const input: TourneyConfigInput = {
        games: ['gomoku'],
        rounds: 1,
        variants: ['standard'],
        agents: ['builtin:openai-compatible/scripted#coder', 'offline:cautious'],
        concurrency: 2,
        bootstrapSamples: 20,
        developTimeoutMs: 120_000,
      };
      await runTourney({ config: resolveConfig(input, { queue: q.redis.url }), runDir }).finally(() =>
        offlineDevelop.mockRestore(),
      );
      expect(offlineDevelop).not.toHaveBeenCalled();

      const coder = records(runDir).find((r) => r.agent === 'coder')!;
      expect(coder.status).toBe('ok');
      expect(coder.cost.tokens).toEqual(server.totalUsage());
      expect(server.requests.length).toBeGreaterThan(0);
      for (const r of server.requests) expect(r.authorization).toBe(`Bearer ${SENTINEL}`);

      // The coordinator's doctor needs no key: it reports what the workers found. A worker's doctor
      // checks this machine (this process, without the key). The three commands run in this process
      // (main(), output captured), one after another: what they print, without three CLI loads.
      const agentsFlag = ['--agents', input.agents!.join(','), '--games', 'gomoku', '--queue', q.redis.url];
      const status = await catarena('queue', 'status', '--queue', q.redis.url, '--json');
      const coordinatorDoctor = await catarena('doctor', ...agentsFlag);
      const workerDoctor = await catarena('doctor', '--worker', ...agentsFlag.slice(2));
      const rows = JSON.parse(status.stdout).development as Array<{
        agent: string;
        takenBy: string[];
        refusedBy: Array<{ worker: string; detail: string }>;
        completed: number;
      }>;
      const coderRow = rows.find((r) => r.agent.startsWith('builtin:'))!;
      expect(coderRow.takenBy).toEqual(['withKey']);
      expect(coderRow.refusedBy).toEqual([
        { worker: 'noKey', detail: expect.stringMatching(/OPENAI_API_KEY is not set/) },
      ]);
      expect(coderRow.completed).toBe(1);
      expect(rows.find((r) => r.agent === 'offline:cautious')!.takenBy.sort()).toEqual(['noKey', 'withKey']);
      expect(keyless.output()).toMatch(
        /not developing for builtin:openai-compatible\/scripted#coder .*OPENAI_API_KEY is not set/,
      );

      expect(coordinatorDoctor.code).toBe(0);
      expect(coordinatorDoctor.stdout).toMatch(
        /builtin:openai-compatible\/scripted#coder\s+workers\s+ready\s+developed on workers: withKey take it/,
      );
      expect(workerDoctor.code).toBe(1);
      expect(workerDoctor.stdout).toMatch(
        /builtin:openai-compatible\/scripted#coder \(queued\)\s+spec and key\s+MISSING\s+OPENAI_API_KEY is not set/,
      );

      expect(await redisContents(q.redis.url)).not.toContain(SENTINEL);
      for (const entry of fs.readdirSync(runDir, { recursive: true, withFileTypes: true })) {
        if (entry.isFile())
          expect(fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'), entry.name).not.toContain(SENTINEL);
      }
      await Promise.all([q.stopWorker(keyless), q.stopWorker(holder)]);
      expect(developedBy(holder.output())).toBeGreaterThanOrEqual(1);
      // This run's two (the coder's and cautious's) and the tests' before, each once.
      expect(developedBy(keyless.output()) + developedBy(holder.output())).toBe(developments + 2);
      for (const w of [keyless, holder]) expect(w.output()).not.toContain(SENTINEL);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  }, 300_000);
});
