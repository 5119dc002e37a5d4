// Two tracks' games through one local executor: the second track's games are handed over when
// the first track's last game has started (run()'s onStarted, as the tourney does), fill the slot
// its last games leave idle, and share its slots: never more games in flight than the concurrency.
import { afterAll, describe, expect, it } from 'vitest';
import { gameDescriptor } from '../games/registry.ts';
import { DEFAULT_LIMITS, type MatchSpec, type Replay } from '../records/match.ts';
import { LocalExecutor } from '../orchestrator/executor/executor.ts';
import { fieldSpecs } from '../orchestrator/formats/field.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { UnsafeSandbox } from '../sandbox/process.ts';
import { BUILTIN, misbehavingBot, tempDir } from './helpers/bots.ts';

const sandbox = new UnsafeSandbox({ handleSignals: false });
const hosts = new GameServerPool();
afterAll(async () => {
  await hosts.closeAll();
  await sandbox.close();
});

const ids = ['a', 'b', 'c'];
const specsOf = (variant: string): MatchSpec[] =>
  fieldSpecs(
    gameDescriptor('gomoku'),
    { kind: 'arena', ids },
    { game: 'gomoku', variant, seed: 3, limits: DEFAULT_LIMITS, policy: 'strict', reps: 2 },
  );

describe('local executor: overlapping run() calls', () => {
  it('plays the next track in the slots the last games of one leave idle, within one concurrency', async () => {
    const logs = tempDir();
    const executor = new LocalExecutor({
      sandbox,
      hosts,
      concurrency: 2,
      logDir: (t) => `${logs}/${t.variant}`,
      startTimeoutMs: 20_000,
    });
    // The standard track's bots answer each move after 50 ms (a game: 61 moves, about 3 s), so its
    // last game outlasts the start of the variant track's bots even on a loaded machine.
    const slow = misbehavingBot('slow');
    executor.add(
      { game: 'gomoku', variant: 'standard' },
      ids.map((id) => ({ id, dir: slow })),
    );
    executor.add(
      { game: 'gomoku', variant: 'variant' },
      ids.map((id) => ({ id, dir: BUILTIN('random') })),
    );
    const played: Array<{ variant: string; start: number; end: number }> = [];
    const onReplay = (r: Replay) =>
      void played.push({
        variant: r.result.spec.variant,
        start: Date.parse(r.result.startedAt),
        end: Date.parse(r.result.startedAt) + r.result.durationMs,
      });
    let second: Promise<void> | undefined;
    try {
      // 3 games on 2 slots: the last one plays alone unless the next track fills the other slot.
      await executor.run(specsOf('standard').slice(0, 3), {
        onReplay,
        onStarted: () => (second = executor.run(specsOf('variant'), { onReplay })),
      });
      expect(second).toBeDefined();
      await second;
    } finally {
      await executor.close();
    }
    const standard = played.filter((g) => g.variant === 'standard');
    const variant = played.filter((g) => g.variant === 'variant');
    expect(standard).toHaveLength(3);
    expect(variant).toHaveLength(12);
    // The variant track started before the standard track's last game ended …
    expect(Math.min(...variant.map((g) => g.start))).toBeLessThan(Math.max(...standard.map((g) => g.end)));
    // … and both tracks together never had more than 2 games in flight.
    const inFlight = (t: number) => played.filter((g) => g.start <= t && t < g.end - 1).length; // (startedAt is whole ms)
    expect(Math.max(...played.map((g) => inFlight(g.start)))).toBeLessThanOrEqual(2);
  }, 120_000);
});
