// The Hold'em and Bridge replay viewers (games/{holdem,bridge}/viewer/): real games of the
// reference bots (Hold'em standard and short deck, Bridge standard and magic, a board each in two
// rooms) give replays; their ViewerData must agree with the rules' final state; their pages, opened
// from file:// in Chromium, draw the table with no console error and no request outside the run
// directory, and show the final state at the last step. A synthetic 720-hand table round checks
// that a long replay stays usable (its timings are in bench/replay-viewer.ts, not asserted here).
// Every page loads in one Chromium page (tests/helpers/reused-page.ts: a page of its own costs about
// 1 s of CPU more), and the long round is stepped three times, not fifteen (each step of it redraws
// 12,706 moves: about 0.6 s of Chromium here).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runArena } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { DEFAULT_LIMITS, type Replay } from '../records/match.ts';
import { replayState } from '../games/replay.ts';
import type { TableState } from '../games/holdem/table.ts';
import type { BridgeState } from '../games/bridge/rules.ts';
import type { HoldemViewerExtra, ViewerHand } from '../games/holdem/viewer/data.ts';
import { viewerData as holdemViewerData } from '../games/holdem/viewer/data.ts';
import type { BridgeFrame, BridgeViewerExtra } from '../games/bridge/viewer/data.ts';
import { viewerData as bridgeViewerData } from '../games/bridge/viewer/data.ts';
import type { ViewerData } from '../games/core/viewer.ts';
import { viewerDataOf, writeReplayPages } from '../reports/html/replay-page.ts';
import { writeReplayFile } from '../records/replay-files.ts';
import { createSandbox } from '../sandbox/index.ts';
import { syntheticHoldemReplay } from '../bench/replay-viewer.ts';
import { hasChromium, sharedChromium, screenshot } from './helpers/browser.ts';
import { ReusedPage } from './helpers/reused-page.ts';
import { replaysIn, viewFileSync } from './helpers/replays.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';

// catarena's reference bots, as plain processes: the sandbox kind changes nothing drawn here, and a
// bubblewrap start costs more CPU (tests/sandbox-isolated.test.ts runs the reference bots isolated).
const sandbox = createSandbox('unsafe');
const ROOT = tempDir('catarena-viewer-hb-');

interface Played {
  game: string;
  variant: string;
  runDir: string;
  replays: Replay[];
}
const played: Played[] = [];
let long: Replay | undefined;
/** The synthetic 720-hand, 9-seat table round (0.8 s of CPU to play): made once, read by the Node and the page tests. */
const longRound = (): Replay => (long ??= syntheticHoldemReplay({ hands: 720, seats: 9 }));
const runOf = (game: string, variant: string) => played.find((p) => p.game === game && p.variant === variant)!;

async function play(game: 'holdem' | 'bridge', variant: string): Promise<Played> {
  const runDir = path.join(ROOT, `${game}-${variant}`);
  const hosts = new GameServerPool({ ports: { [`${game}/${variant}`]: 0 } });
  const bots =
    game === 'holdem'
      ? [
          { id: 'heuristic', dir: BUILTIN('heuristic', 'holdem') },
          { id: 'heuristic2', dir: BUILTIN('heuristic', 'holdem') },
          { id: 'random', dir: BUILTIN('random', 'holdem') },
        ]
      : [
          { id: 'heuristic', dir: BUILTIN('heuristic', 'bridge') },
          { id: 'random', dir: BUILTIN('random', 'bridge') },
        ];
  try {
    await runArena({
      game,
      variant,
      bots,
      reps: 1,
      seed: 23,
      concurrency: 2,
      limits: { ...DEFAULT_LIMITS, moveMs: 3_000 },
      policy: 'strict',
      runDir,
      sandbox,
      hosts,
      startTimeoutMs: 20_000,
      // Hold'em: one short table round (the hand cap is a table option).
      ...(game === 'holdem' ? { protocolOptions: { handCap: 30 } } : {}),
    });
  } finally {
    await hosts.closeAll();
  }
  const dir = path.join(runDir, 'replays');
  const replays = replaysIn(dir);
  return { game, variant, runDir, replays };
}

beforeAll(async () => {
  played.push(
    ...(await Promise.all([
      play('holdem', 'standard'),
      play('holdem', 'variant'),
      play('bridge', 'standard'),
      play('bridge', 'variant'),
    ])),
  );
}, 180_000);
afterAll(() => sandbox.close());

// ---------------------------------------------------------------------------------------------
// Hold'em in Node

const hx = (d: ViewerData) => d.extra as unknown as HoldemViewerExtra;

/** Stacks at the end of a hand, with the renderer's arithmetic: start − chips put in + chips won. */
function endStacks(h: ViewerHand): number[] {
  const out = h.st.slice();
  for (const [seat, , chips] of h.pre) out[seat]! -= chips;
  for (const [seat, , , chips] of h.a) out[seat]! -= chips;
  for (const p of h.pots ?? []) for (const [seat, chips] of p.w) out[seat]! += chips;
  if (h.ret) out[h.ret[0]]! += h.ret[1];
  return out;
}

function checkHoldem(replay: Replay, data: ViewerData): void {
  const x = hx(data);
  const final = replayState(replay) as TableState;
  expect(data.moves).toHaveLength(replay.moves.length); // steps = moves + 1
  expect(x.broken).toBeUndefined();
  expect(x.hands.length).toBe(final.handNumber);
  // The last step's stacks are the engine's final chips and the result's.
  expect(x.chips).toEqual(final.hand.result!.stacks);
  expect(x.chips).toEqual(replay.result.detail!.chips);
  expect(endStacks(x.hands[x.hands.length - 1]!)).toEqual(x.chips);
  // Every hand: its moves follow the previous hand's, and its stacks are where the last one ended.
  x.hands.forEach((h, i) => {
    expect(h.n).toBe(i + 1);
    if (i > 0) {
      const prev = x.hands[i - 1]!;
      expect(h.off).toBe(prev.off + prev.a.length);
      expect(h.st).toEqual(endStacks(prev));
    }
    h.a.forEach(([seat], k) => expect(data.moves[h.off + k]!.seat).toBe(seat));
    if (h.a.length) expect(data.moves[h.off]!.note).toMatch(new RegExp(`^hand ${h.n}\\b`));
    const lowest = x.deck === 'short' ? 6 : 2;
    for (const c of [...h.hole.flat(), ...h.bd])
      if (c) expect('23456789TJQKA'.indexOf(c[0]!) + 2).toBeGreaterThanOrEqual(lowest);
  });
  for (const m of data.moves) expect(m.text).toMatch(/^(fold|check|call \d+|raise to \d+|bet \d+|all-in \d+)$/);
  expect(data.seats).toEqual(replay.result.spec.seats);
}

describe("Hold'em viewer data", () => {
  it.each(['standard', 'variant'])('agrees with the rules on a real table round (%s)', async (variant) => {
    const { replays } = runOf('holdem', variant);
    expect(replays).toHaveLength(1);
    const data = (await viewerDataOf(replays[0]!))!;
    checkHoldem(replays[0]!, data);
    expect(hx(data).deck).toBe(variant === 'variant' ? 'short' : 'standard');
    expect(data.result).toMatch(/wins|share the win/);
  });

  it('a replay whose moves the rules refuse is shown as far as it goes, not thrown', () => {
    const replay = syntheticHoldemReplay({ hands: 20, seats: 4, startingChips: 5000 });
    const k = 12;
    const bad: Replay = {
      ...replay,
      moves: replay.moves.map((m, i) => (i === k ? { ...m, seat: (m.seat + 1) % 4 } : m)),
    };
    const data = holdemViewerData(bad);
    expect(data.moves).toHaveLength(bad.moves.length);
    expect(hx(data).broken).toMatchObject({ ply: k, message: 'Not your turn' });
  });

  it('a 720-hand synthetic table round: small per hand, showdowns with ranks, side pots', () => {
    const replay = longRound();
    const t = performance.now();
    const data = holdemViewerData(replay);
    const ms = performance.now() - t;
    checkHoldem(replay, data);
    const x = hx(data);
    expect(x.hands).toHaveLength(720);
    expect(data.frames).toEqual([]); // nothing is snapshotted per action
    const bytes = JSON.stringify(data).length;
    console.log(
      `720-hand table round: ${data.moves.length} moves, ViewerData ${(bytes / 1024).toFixed(0)} kB, built in ${ms.toFixed(0)} ms`,
    );
    expect(bytes / data.moves.length).toBeLessThan(150); // per move, hands included
    const showdowns = x.hands.filter((h) => h.sd);
    expect(showdowns.length).toBeGreaterThan(50);
    for (const h of showdowns)
      for (const [, category, five] of h.sd!) {
        expect(category).toMatch(
          /^(high card|pair|two pair|three of a kind|straight|flush|full house|four of a kind|straight flush)$/,
        );
        expect(five).toHaveLength(5);
      }
    expect(x.hands.some((h) => (h.pots?.length ?? 0) > 1)).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Bridge in Node

const bx = (d: ViewerData) => d.extra as unknown as BridgeViewerExtra;
const frames = (d: ViewerData) => d.frames as BridgeFrame[];

describe('Bridge viewer data', () => {
  it.each(['standard', 'variant'])('agrees with the rules in both rooms of a board (%s)', async (variant) => {
    const { replays } = runOf('bridge', variant);
    expect(replays).toHaveLength(2);
    const ids = new Set(replays.map((r) => r.result.id));
    for (const replay of replays) {
      const data = (await viewerDataOf(replay))!;
      const x = bx(data);
      const final = replayState(replay) as BridgeState;
      const detail = replay.result.detail as { ns_score: number; tricks_won: [number, number]; contract: unknown };
      expect(data.moves).toHaveLength(replay.moves.length);
      expect(data.frames).toHaveLength(replay.moves.length + 1); // one frame per step
      expect(data.seatNames).toEqual(['N', 'E', 'S', 'W']);
      const setup = replay.setup as { deal: Record<string, string[]> };
      expect(x.deal).toEqual(['N', 'E', 'S', 'W'].map((l) => setup.deal[l]));
      const first = frames(data)[0]!;
      expect(first.h.map((h) => h.length / 2)).toEqual([13, 13, 13, 13]);
      const last = frames(data)[frames(data).length - 1]!;
      expect(last.won).toEqual(final.tricksWon);
      expect(last.won).toEqual(detail.tricks_won);
      expect(x.nsScore).toBe(detail.ns_score);
      expect(
        x.contract === null
          ? null
          : {
              level: x.contract.level,
              strain: x.contract.strain,
              doubled: x.contract.doubled,
              declarer: x.contract.declarer,
            },
      ).toEqual(detail.contract);
      expect(x.calls.map((c) => c.seat)).toEqual(final.calls.map((c) => c.seat));
      if (replay.result.termination === 'normal' && x.contract) {
        expect(last.nt).toBe(13);
        expect(x.tricks).toHaveLength(13);
        expect(last.h.join('')).toBe('');
        expect(last.won[0] + last.won[1]).toBe(13);
        expect(data.result).toMatch(/tricks, (made|down)/);
      }
      if (variant === 'variant' && x.contract) {
        expect(x.exchange!.given.every((c) => c !== null)).toBe(true);
        expect(x.exchange!.received).toEqual([2, 3, 0, 1].map((p) => x.exchange!.given[p]));
        expect(x.afterExchange).toHaveLength(4);
        expect(data.moves.filter((m) => m.text.startsWith('passes '))).toHaveLength(4);
      }
      // The other room of the board is the other replay of this run.
      expect(x.duplicate!.other).not.toBeNull();
      expect(ids.has(x.duplicate!.other!.id)).toBe(true);
      expect(x.duplicate!.other!.id).not.toBe(replay.result.id);
      expect(x.duplicate!.ns).toBe(replay.result.spec.seats[0]);
    }
  });

  it('a passed-out board and a board a seat forfeited', () => {
    const real = runOf('bridge', 'standard').replays[0]!;
    const dealer = (real.setup as { dealer: number }).dealer;
    const pass = (k: number) => ({
      ply: k,
      seat: (dealer + k) % 4,
      action: { type: 'call', call_type: 'pass' },
      latencyMs: 1,
    });
    const passedOut: Replay = {
      ...real,
      result: {
        ...real.result,
        termination: 'normal',
        reason: 'passed_out',
        offender: null,
        detail: { ...real.result.detail, ns_score: 0, contract: null, tricks: null, tricks_won: [0, 0] },
      },
      moves: [0, 1, 2, 3].map(pass),
    };
    const a = bridgeViewerData(passedOut);
    expect(a.frames).toHaveLength(5);
    expect(a.result).toMatch(/passed out — NS 0$/);
    expect(bx(a).contract).toBeNull();
    expect(frames(a)[4]!.ph).toBe('finished');

    // The second call times out: under `strict` the board is lost for that side.
    const failing = (dealer + 1) % 4;
    const forfeited: Replay = {
      ...real,
      result: {
        ...real.result,
        termination: 'timeout',
        reason: 'no answer within 3000 ms',
        offender: failing,
        detail: { ...real.result.detail, ns_score: 0, forfeit: failing % 2 ? 'EW' : 'NS' },
      },
      moves: [
        pass(0),
        {
          ply: 1,
          seat: failing,
          action: null,
          latencyMs: 3000,
          error: { kind: 'timeout', message: 'no answer within 3000 ms' },
        },
      ],
    };
    const b = bridgeViewerData(forfeited);
    expect(b.frames).toHaveLength(3);
    expect(b.moves[1]).toMatchObject({ text: '—', error: 'timeout: no answer within 3000 ms' });
    expect(b.result).toContain(`${failing % 2 ? 'EW' : 'NS'} forfeits: ${['N', 'E', 'S', 'W'][failing]}`);
    expect(bx(b).forfeit).toBe(failing % 2 ? 'EW' : 'NS');
  });

  it('calls and cards read as people write them', async () => {
    const data = bridgeViewerData(runOf('bridge', 'standard').replays[0]!);
    for (const m of data.moves) expect(m.text).toMatch(/^(pass|X|XX|[1-7](♣|♦|♥|♠|NT)|(♣|♦|♥|♠)(10|[2-9JQKA])|—)$/);
    expect(data.moves[0]!.note).toMatch(/^auction, dealer [NESW]/);
  });
});

// ---------------------------------------------------------------------------------------------
// In the browser

const stepLabel = (page: Page) => page.locator('[data-testid="step"]').textContent();

describe.skipIf(!hasChromium)('replay pages in Chromium', () => {
  let tab: ReusedPage;
  beforeAll(async () => {
    tab = await ReusedPage.open(await sharedChromium());
  }, 60_000);
  afterAll(() => tab?.close());

  async function openReplay(run: Played, replay: Replay) {
    const dir = path.join(run.runDir, 'replays');
    const written = await writeReplayPages(
      dir,
      run.replays.map((r) => r.result.id),
    );
    expect(written.sort()).toEqual(run.replays.map((r) => r.result.id).sort());
    return tab.replay(dir, replay.result.id, run.runDir);
  }

  it.for(['standard', 'variant'])(
    "Hold'em (%s): the table, the last step's stacks, stepping",
    { timeout: 60_000 },
    async (variant, { expect }) => {
      const run = runOf('holdem', variant);
      const replay = run.replays[0]!;
      const { page, errors, outside } = await openReplay(run, replay);
      const seats = replay.result.spec.seats.length;
      await page.waitForSelector('[data-testid="holdem-table"]');
      expect(await page.locator('.hx-seat').count()).toBe(seats);
      expect(await page.locator('.hx-seat [data-card]').count()).toBe(2 * seats); // every hole card shown
      expect(await page.locator('[data-testid="board-cards"] .hx-card').count()).toBe(5);

      await page.click('[data-testid="last"]');
      const n = replay.moves.length;
      expect(await stepLabel(page)).toBe(`move ${n} of ${n}`);
      const chips = replay.result.detail!.chips as number[];
      const stacks = await page
        .locator('.hx-seat')
        .evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.stack)));
      expect(stacks).toEqual(chips);
      for (let seat = 0; seat < seats; seat++) {
        const text = await page.locator(`[data-testid="seat-${seat}"] .hx-stack`).textContent();
        if (chips[seat]! > 0) expect(text).toBe(chips[seat]!.toLocaleString('en-US'));
        else expect(['0', 'out']).toContain(text); // busted in the last hand, or earlier
      }
      expect(await page.locator('[data-testid="pots"]').textContent()).toContain('table over');
      expect(await page.locator('[data-testid="standings"] tr').count()).toBe(seats + 1);

      await page.keyboard.press('ArrowLeft');
      expect(await stepLabel(page)).toBe(`move ${n - 1} of ${n}`);
      await page.keyboard.press('ArrowRight');
      expect(await stepLabel(page)).toBe(`move ${n} of ${n}`);
      await page.keyboard.press('Home');
      expect(await page.locator('[data-testid="holdem-table"]').getAttribute('data-hand')).toBe('1');
      await screenshot(page, `holdem-${variant}.png`);
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
    },
  );

  it.for(['standard', 'variant'])(
    'Bridge (%s): hands, auction, the 13 tricks at the last step, the other room',
    { timeout: 60_000 },
    async (variant, { expect }) => {
      const run = runOf('bridge', variant);
      const replay = run.replays.find((r) => r.result.spec.duplicate!.room === 'open')!;
      const { page, errors, outside } = await openReplay(run, replay);
      await page.waitForSelector('[data-testid="bridge-table"]');
      for (const l of ['N', 'E', 'S', 'W'])
        expect(await page.locator(`[data-testid="hand-${l}"]`).getAttribute('data-count')).toBe('13');
      expect(await page.locator('[data-testid="hand-N"] .bx-rank').count()).toBe(13);
      expect(await page.locator('[data-testid="auction"] th').count()).toBe(4);

      await page.click('[data-testid="last"]');
      const detail = replay.result.detail as { tricks_won: [number, number]; ns_score: number };
      const won = page.locator('[data-testid="tricks-won"]');
      expect([Number(await won.getAttribute('data-ns')), Number(await won.getAttribute('data-ew'))]).toEqual(
        detail.tricks_won,
      );
      const played =
        replay.result.termination === 'normal' && (replay.result.detail as { contract: unknown }).contract !== null;
      if (played) {
        expect(await won.getAttribute('data-total')).toBe('13');
        for (const l of ['N', 'E', 'S', 'W'])
          expect(await page.locator(`[data-testid="hand-${l}"]`).getAttribute('data-count')).toBe('0');
        expect(await page.locator('[data-testid="board-result"]').textContent()).toContain(
          `NS ${detail.ns_score > 0 ? '+' : detail.ns_score < 0 ? '−' : ''}${Math.abs(detail.ns_score)}`,
        );
        expect(await page.locator('[data-testid="trick"] .bx-card').count()).toBe(4);
        await page.keyboard.press('ArrowLeft'); // before the last card: 12 tricks, 3 cards on the table
        expect(await won.getAttribute('data-total')).toBe('12');
        expect(await page.locator('[data-testid="trick"] .bx-card').count()).toBe(3);
        await page.keyboard.press('ArrowRight');
        expect(await won.getAttribute('data-total')).toBe('13');
      }
      // The duplicate facts, and the other room's page beside this one.
      const other = page.locator('[data-testid="other-room"]');
      const href = await other.getAttribute('href');
      expect(href).toMatch(/^replay\.html\?id=\w+$/);
      expect(
        viewFileSync(path.join(run.runDir, 'replays'), new URLSearchParams(href!.split('?')[1]).get('id')!),
      ).not.toBeNull();
      expect(await page.locator('[data-testid="duplicate"]').textContent()).toContain(
        `${replay.result.spec.duplicate!.board} of 1`,
      );
      await screenshot(page, `bridge-${variant}.png`);
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
    },
  );

  it("a 720-hand Hold'em table round: the last step, stepping around and jumping to a hand", async ({ expect }) => {
    const runDir = path.join(ROOT, 'holdem-long');
    const dir = path.join(runDir, 'replays');
    fs.mkdirSync(dir, { recursive: true });
    const replay = longRound();
    await writeReplayFile(dir, replay);
    await writeReplayPages(dir, [replay.result.id]);
    const t0 = performance.now();
    const { page, errors, outside } = await tab.replay(dir, replay.result.id, runDir);
    await page.waitForSelector('[data-testid="holdem-table"]');
    const openMs = performance.now() - t0;
    const t1 = performance.now();
    await page.click('[data-testid="last"]');
    const stacks = await page
      .locator('.hx-seat')
      .evaluateAll((els) => els.map((e) => Number((e as HTMLElement).dataset.stack)));
    const lastMs = performance.now() - t1;
    expect(stacks).toEqual(replay.result.detail!.chips);
    expect(await page.locator('[data-testid="holdem-table"]').getAttribute('data-hand')).toBe('720');
    const t2 = performance.now();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    const n = replay.moves.length;
    expect(await stepLabel(page)).toBe(`move ${n - 2} of ${n}`);
    await page.keyboard.press('ArrowRight');
    expect(await stepLabel(page)).toBe(`move ${n - 1} of ${n}`);
    const stepMs = (performance.now() - t2) / 3;
    // Jump to hand 400 through the standings' form: the table shows it.
    await page.fill('[data-testid="hand-input"]', '400');
    await page.press('[data-testid="hand-input"]', 'Enter');
    expect(await page.locator('[data-testid="holdem-table"]').getAttribute('data-hand')).toBe('400');
    console.log(
      `720-hand viewer data: ${(fs.statSync(viewFileSync(dir, replay.result.id)!).size / 1024).toFixed(0)} kB, open ${openMs.toFixed(0)} ms, last step ${lastMs.toFixed(0)} ms, a step ${stepMs.toFixed(0)} ms (timings: bench/replay-viewer.ts)`,
    );
    await screenshot(page, 'holdem-720-hands.png');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  }, 120_000);
});
