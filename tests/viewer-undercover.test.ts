// The Undercover replay viewer (games/undercover/viewer/): real tables of the reference bots (the
// standard rules and the variant with its audience) give replays; their ViewerData must agree
// with the rules' final state and the recorded result; their pages, written as a run writes them
// and opened from file:// in Chromium, show at the last step the outcome, the eliminations and the
// scores of the result, and stepping back shows fewer statements and no outcome yet.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runArena } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { DEFAULT_LIMITS, type Replay } from '../records/match.ts';
import { replayState } from '../games/replay.ts';
import type { UndercoverState } from '../games/undercover/rules.ts';
import type { UndercoverViewerExtra } from '../games/undercover/viewer/data.ts';
import type { ViewerData } from '../games/core/viewer.ts';
import { viewerDataOf, writeReplayPages } from '../reports/html/replay-page.ts';
import { createSandbox } from '../sandbox/index.ts';
import { hasChromium, sharedChromium, screenshot } from './helpers/browser.ts';
import { ReusedPage } from './helpers/reused-page.ts';
import { replaysIn } from './helpers/replays.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';

// catarena's reference bots, as plain processes: the sandbox kind changes nothing drawn here, and a
// bubblewrap start costs more CPU (tests/sandbox-isolated.test.ts runs the reference bots isolated).
const sandbox = createSandbox('unsafe');
const ROOT = tempDir('catarena-viewer-uc-');

interface Played {
  variant: string;
  runDir: string;
  replays: Replay[];
}
const played: Played[] = [];
const runOf = (variant: string) => played.find((p) => p.variant === variant)!;

async function play(variant: string): Promise<Played> {
  const runDir = path.join(ROOT, `undercover-${variant}`);
  const hosts = new GameServerPool({ ports: { [`undercover/${variant}`]: 0 } });
  const bots = [
    { id: 'heuristic', dir: BUILTIN('heuristic', 'undercover') },
    { id: 'random', dir: BUILTIN('random', 'undercover') },
    { id: 'heuristic2', dir: BUILTIN('heuristic', 'undercover') },
    { id: 'random2', dir: BUILTIN('random', 'undercover') },
  ];
  try {
    await runArena({
      game: 'undercover',
      variant,
      bots,
      reps: 2,
      seed: 23,
      concurrency: 2,
      limits: { ...DEFAULT_LIMITS, moveMs: 5_000 },
      policy: 'strict',
      runDir,
      sandbox,
      hosts,
      startTimeoutMs: 20_000,
    });
  } finally {
    await hosts.closeAll();
  }
  const dir = path.join(runDir, 'replays');
  const replays = replaysIn(dir);
  return { variant, runDir, replays };
}

beforeAll(async () => {
  played.push(...(await Promise.all([play('standard'), play('variant')])));
}, 180_000);
afterAll(() => sandbox.close());

const ux = (d: ViewerData) => d.extra as unknown as UndercoverViewerExtra;

describe('Undercover viewer data', () => {
  it.each(['standard', 'variant'])('agrees with the rules and the recorded result (%s)', async (variant) => {
    const { replays } = runOf(variant);
    expect(replays.length).toBeGreaterThan(0);
    for (const replay of replays) {
      const data = (await viewerDataOf(replay))!;
      expect(data).not.toBeNull();
      const x = ux(data);
      const final = replayState(replay) as UndercoverState;
      expect(replay.result.termination).toBe('normal');
      expect(data.moves).toHaveLength(replay.moves.length);
      expect(data.frames).toHaveLength(replay.moves.length + 1);
      expect(x.broken).toBeUndefined();
      expect(x.roles).toEqual(final.roles);
      expect(x.audience).toBe(variant === 'variant' ? replay.result.spec.seats.length - 1 : null);
      expect(x.statements.map((s) => [s.seat, s.text, s.fault])).toEqual(
        final.statements.map((s) => [s.seat, s.text, s.fault]),
      );
      expect(x.ballots.map((b) => [b.voter, b.target])).toEqual(final.ballots.map((b) => [b.voter, b.target]));
      expect(x.eliminated.map((e) => [e.seat, e.by])).toEqual(final.eliminated.map((e) => [e.seat, e.by]));
      // Every event's step is the move that made it, in order.
      for (const s of x.statements) expect(data.moves[s.k - 1]!.seat).toBe(s.seat);
      for (const b of x.ballots) expect(data.moves[b.k - 1]!.seat).toBe(b.voter);
      // Every closed ballot has a count; a vote elimination is an "out" count.
      for (const e of x.eliminated.filter((e) => e.by === 'vote'))
        expect(x.closes.some((c) => c.result === 'out' && c.seat === e.seat && c.k === e.k)).toBe(true);
      expect(x.overAt).toBe(replay.moves.length);
      expect(x.final!.winner).toBe(final.finished!.winner);
      expect(x.final!.scores).toEqual(replay.result.scores);
      expect(x.final!.reason).toBe(replay.result.reason);
      expect(data.result).toMatch(/^(civilians( \(and the audience\))? win|undercover wins): /);
      for (const m of data.moves) expect(m.text).toMatch(/^(says “.*”|votes seat \d+|says nothing|ballot lost)$/);
    }
  });
});

const stepLabel = (page: Page) => page.locator('[data-testid="step"]').textContent();

describe.skipIf(!hasChromium)('Undercover replay pages in Chromium', () => {
  // Every page loads in one Chromium page: a page of its own costs about 1 s of CPU more.
  let tab: ReusedPage;
  beforeAll(async () => {
    tab = await ReusedPage.open(await sharedChromium());
  }, 60_000);
  afterAll(() => tab?.close());

  it.for(['standard', 'variant'])(
    '(%s) the last step shows the outcome and the eliminations; stepping back shows fewer statements',
    { timeout: 60_000 },
    async (variant, { expect }) => {
      const run = runOf(variant);
      const dir = path.join(run.runDir, 'replays');
      const ids = run.replays.map((r) => r.result.id);
      const written = await writeReplayPages(dir, ids);
      expect(written.sort()).toEqual([...ids].sort());
      // The replay with the most statements (stepping back then has something to take away).
      const replay = run.replays
        .slice()
        .sort(
          (a, b) =>
            (replayState(b) as UndercoverState).statements.length -
            (replayState(a) as UndercoverState).statements.length,
        )[0]!;
      const final = replayState(replay) as UndercoverState;
      const seats = replay.result.spec.seats;
      const { page, errors, outside } = await tab.replay(dir, replay.result.id, run.runDir);
      await page.waitForSelector('[data-testid="undercover"]');
      const statements = page.locator('[data-testid="statements"]');
      expect(await statements.getAttribute('data-count')).toBe('0');
      expect(await page.locator('[data-testid="outcome"]').count()).toBe(0);

      await page.click('[data-testid="last"]');
      const n = replay.moves.length;
      expect(await stepLabel(page)).toBe(`move ${n} of ${n}`);
      const outcome = page.locator('[data-testid="outcome"]');
      expect(await outcome.getAttribute('data-winner')).toBe(final.finished!.winner);
      expect(await outcome.getAttribute('data-reason')).toBe(replay.result.reason);
      expect(await outcome.textContent()).toContain(
        final.finished!.winner === 'civilian' ? 'Civilians win' : 'Undercover wins',
      );
      // Who is out, and why, as the rules have it.
      const out = new Map(final.eliminated.map((e) => [e.seat, e]));
      for (let seat = 0; seat < seats.length; seat++) {
        const row = page.locator(`[data-testid="seat-${seat}"]`);
        expect(await row.getAttribute('data-role')).toBe(final.roles[seat]);
        const want = final.roles[seat] === 'audience' ? 'audience' : out.has(seat) ? 'out' : 'alive';
        expect(await row.getAttribute('data-status')).toBe(want);
        if (out.has(seat))
          expect(await row.textContent()).toContain(
            `out in round ${out.get(seat)!.round}: ${out.get(seat)!.by === 'vote' ? 'voted out' : ''}`,
          );
        expect(await row.textContent()).toContain(seats[seat]!);
        expect(await page.locator(`[data-testid="score-${seat}"]`).textContent()).toBe(
          replay.result.scores[seat]!.toFixed(3),
        );
      }
      expect(await statements.getAttribute('data-count')).toBe(String(final.statements.length));
      expect(await page.locator('[data-testid="statements"] li').count()).toBe(Math.max(1, final.statements.length));
      const rounds = new Set(final.ballots.map((b) => `${b.round}-${b.ballot}`));
      expect(await page.locator('[data-testid="votes"] > div[data-testid^="vote-"]').count()).toBe(rounds.size);
      const words = await page.locator('[data-testid="words"]').textContent();
      expect(words).toContain(final.pair.civilian);
      expect(words).toContain(final.pair.undercover);

      // One step back: the outcome is gone (the last move ended the game).
      await page.keyboard.press('ArrowLeft');
      expect(await stepLabel(page)).toBe(`move ${n - 1} of ${n}`);
      expect(await page.locator('[data-testid="outcome"]').count()).toBe(0);
      // Back to before the last statement: one statement fewer.
      const data = (await viewerDataOf(replay))!;
      const lastK = ux(data).statements[ux(data).statements.length - 1]!.k;
      for (let k = n - 1; k > lastK - 1; k--) await page.keyboard.press('ArrowLeft');
      expect(await stepLabel(page)).toBe(`move ${lastK - 1} of ${n}`);
      expect(Number(await statements.getAttribute('data-count'))).toBe(final.statements.length - 1);
      await page.keyboard.press('End');
      expect(await outcome.count()).toBe(1);
      await screenshot(page, `undercover-${variant}.png`);
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
    },
  );
});
