// A local tourney plays with the very bot process that passed validation: each strategy's bot
// starts once per run, not once for validation and again for the games. A bot that fails
// validation is stopped, and no bot outlives the run.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../agents/core/types.ts';
import { createAgent } from '../agents/registry.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { copyTree } from '../util/fs.ts';
import { BUILTIN, misbehavingBot, tempDir } from './helpers/bots.ts';

/** A copy of a bot whose start script first appends its pid to `starts` (outside the bot folder). */
async function countingBot(name: string, source: string, starts: string): Promise<string> {
  const dir = path.join(tempDir(), name);
  await copyTree(source, dir);
  const script = fs.readFileSync(path.join(dir, 'start_ai.sh'), 'utf8');
  fs.writeFileSync(
    path.join(dir, 'start_ai.sh'),
    script.replace(/^(#!.*\n)/, (shebang) => `${shebang}echo $$ >> '${starts}'\n`),
  );
  return dir;
}

const lines = (file: string) =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : [];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Resolves once `count` strategy records (their build logs, saved after validation) are in the run. */
async function untilBuildLogs(runDir: string, count: number): Promise<void> {
  const saved = () =>
    fs.existsSync(runDir)
      ? fs.readdirSync(runDir, { recursive: true }).filter((f) => String(f).endsWith('.build.log')).length
      : 0;
  for (const until = Date.now() + 60_000; saved() < count && Date.now() < until; )
    await new Promise((r) => setTimeout(r, 25));
}

describe('tourney: the validated bot plays', () => {
  it('starts each valid strategy once (validation and all its games), stops a bot that failed validation, and leaves nothing running', async () => {
    const logs = tempDir();
    const startsOf = (name: string) => path.join(logs, `${name}.starts`);
    const good = await countingBot('good', BUILTIN('random'), startsOf('good'));
    const other = await countingBot('other', BUILTIN('random'), startsOf('other'));
    // Answers every move with an illegal one: it starts, fails its entry check, and forfeits.
    const bad = await countingBot('bad', misbehavingBot('off_board'), startsOf('bad'));
    const agents = [good, other, bad].map((dir) => createAgent(`dir:${dir}`, 1));
    const runDir = path.join(tempDir(), 'run');

    const summary = await runTourney({
      config: resolveConfig({
        rounds: 2,
        games: ['gomoku'],
        variants: ['standard'],
        concurrency: 2,
        bootstrapSamples: 20,
        seed: 3,
        // The bots count their starts in a file outside their folder and by host pid, which the
        // isolated sandbox forbids (tests/sandbox-cheats.test.ts): this test is about the fleet.
        sandbox: 'unsafe',
      }),
      runDir,
      agents,
    });

    // Two rounds: one start per strategy and round, each used for validation and then every game.
    expect(lines(startsOf('good'))).toHaveLength(2);
    expect(lines(startsOf('other'))).toHaveLength(2);
    expect(lines(startsOf('bad'))).toHaveLength(2); // validated (and refused) each round, never started for games
    const track = summary.tracks[0]!;
    expect(track.strategies.filter((s) => s.status === 'ok')).toHaveLength(4);
    expect(track.strategies.filter((s) => s.status === 'failed').map((s) => s.failure)).toEqual([
      expect.stringMatching(/validation/),
      expect.stringMatching(/validation/),
    ]);
    // The games were played, and by the validated bots: their log (validation first) is the fleet's.
    const journal = lines(path.join(runDir, 'journal.jsonl'));
    expect(journal.length).toBeGreaterThan(0);
    const goodLog = fs.readFileSync(
      path.join(runDir, 'bot-logs', 'gomoku-standard', `${agents[0]!.id}@r1.log`),
      'utf8',
    );
    expect(goodLog.length).toBeGreaterThan(0);
    // Nothing outlives the run.
    const pids = ['good', 'other', 'bad'].flatMap((n) => lines(startsOf(n))).map(Number);
    expect(pids.every((pid) => Number.isInteger(pid) && pid > 1)).toBe(true);
    for (const pid of pids) expect(alive(pid)).toBe(false);
  }, 180_000);

  it("keeps each track's validated bots apart: strategy ids repeat across games, yet every game plays its own game's bot", async () => {
    // Developed one after the other, each after the previous one's validation: cautious's Gomoku
    // bot, then its Hold'em bot (the same id, cautious@r1) pass validation before Gomoku enters.
    const order = ['cautious/gomoku', 'cautious/holdem', 'aggressive/gomoku', 'aggressive/holdem'];
    const released = order.map(() => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      return { gate, release };
    });
    released[0]!.release();
    const runDir = path.join(tempDir(), 'run');
    const agents: Agent[] = ['offline:cautious', 'offline:aggressive'].map((spec) => {
      const inner = createAgent(spec, 1);
      return {
        id: inner.id,
        kind: inner.kind,
        async develop(ws, budget) {
          const step = order.indexOf(`${inner.id}/${ws.game}`);
          await released[step]!.gate;
          const result = await inner.develop(ws, budget);
          // The orchestrator validates right after develop returns: the next step starts once this
          // strategy's record is saved, which is after its validation (its bot then kept running).
          void untilBuildLogs(runDir, step + 1).then(() => released[step + 1]?.release());
          return result;
        },
      };
    });
    await runTourney({
      config: resolveConfig({
        rounds: 1,
        games: ['gomoku', 'holdem'],
        variants: ['standard'],
        concurrency: 2,
        developConcurrency: 4,
        bootstrapSamples: 20,
        seed: 5,
      }),
      runDir,
      agents,
    });
    const results = lines(path.join(runDir, 'journal.jsonl')).map(
      (l) => JSON.parse(l) as { spec: { game: string }; seatStats: Array<{ errors: Record<string, number> }> },
    );
    expect(new Set(results.map((r) => r.spec.game))).toEqual(new Set(['gomoku', 'holdem']));
    const errors = results.flatMap((r) =>
      r.seatStats.flatMap((s) =>
        Object.entries(s.errors)
          .filter(([, n]) => n > 0)
          .map(([kind]) => `${r.spec.game}: ${kind}`),
      ),
    );
    expect(errors).toEqual([]);
  }, 180_000);
});
