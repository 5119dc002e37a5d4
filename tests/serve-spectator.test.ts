// `catarena serve` while a person plays through the human seat, in Debian's Chromium: a Hold'em
// table round (3 hands) and a Bridge board against the heuristic bot, the person's answers sent
// through the seat's own HTTP API (/play/events, /play/answer), the run's live page open all the
// while. At every turn of the person (every fourth waits until the page has drawn that move) neither
// its DOM nor any message of its event stream (nor of the seat's own page stream) holds a card of
// another seat that seat's view may not see: no hole card the bot did not show at a showdown, no
// Bridge hand of the bot's but dummy's once the opening lead is made, no seed that deals them;
// the runs list shows no seed and the run's files are withheld until it ends. A run of bots only
// is still drawn in full (every hole card) by default, and public with --spectator public.
// About 30 s at a load of 5 on 2 cores (three real games, each watched until the page catches up
// with the person's move; the bots-only table plays on to its end after the checks); ~50 s at 20.
// Over 30 s: three real games watched in Chromium until the page catches up with each move.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, openUrl, screenshot, sharedChromium } from './helpers/browser.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { readReplaySync } from './helpers/replays.ts';
import { refsFromDirs, runArena } from '../orchestrator/arena.ts';
import { HumanSeat, SEAT_HEADER } from '../orchestrator/human/human-seat.ts';
import { ServeServer } from '../orchestrator/serve/server.ts';
import { DEFAULT_LIMITS, type Replay } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';
import { initSetup } from '../games/core/game.ts';
import { createRng } from '../util/rng.ts';
import { bridge, dummyOf, openingLeadMade, type BridgeAction, type BridgeState } from '../games/bridge/rules.ts';
import { viewerData as holdemViewerData, type HoldemViewerExtra } from '../games/holdem/viewer/data.ts';

type Message = { raw: string; msg: Record<string, any> };

/** A server-sent event stream, message by message, until `signal` aborts it. */
async function follow(url: string, into: Message[], signal: AbortSignal): Promise<void> {
  const res = await fetch(url, { signal });
  const reader = res.body!.getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
    if (done) return;
    buf += Buffer.from(value!).toString('utf8');
    let k: number;
    while ((k = buf.indexOf('\n\n')) >= 0) {
      const chunk = buf.slice(0, k);
      buf = buf.slice(k + 2);
      const data = chunk.split('\n').find((l) => l.startsWith('data: '));
      if (data) into.push({ raw: data, msg: JSON.parse(data.slice('data: '.length)) });
    }
  }
}

/** The seat page's per-session secret (answers carry it, as the page's do). */
const secretOf = async (url: string) =>
  /data-secret="([0-9a-f]+)"/.exec(await (await fetch(`${url}/play`)).text())?.[1] ?? '';

const answer = async (url: string, gameId: string, action: unknown) =>
  (await (
    await fetch(`${url}/play/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SEAT_HEADER]: await secretOf(url) },
      body: JSON.stringify({ gameId, action }),
    })
  ).json()) as { ok: boolean; error?: string };

/** The person's choice: Hold'em call or check; Bridge one bid, then passes, then the first legal card. */
function choose(game: string, legal: any[], state: { bid: boolean }): unknown {
  if (game === 'holdem')
    return legal.find((a) => a.action === 'call') ?? legal.find((a) => a.action === 'check') ?? legal[0];
  const bid = legal.find((a) => a.type === 'call' && a.call_type === 'bid');
  if (bid && !state.bid) {
    state.bid = true;
    return bid;
  }
  return legal.find((a) => a.type === 'call' && a.call_type === 'pass') ?? legal[0];
}

/** What the live page shows of the game's board now: the cards drawn in each seat's box, and the move count. */
async function drawnCards(page: Page, game: string): Promise<{ moves: number; seats: string[][] }> {
  return page.evaluate((g) => {
    const box = document.querySelector('[data-testid="boards"] .game');
    const seats: string[][] = [];
    for (let s = 0; s < 4; s++) {
      const id = g === 'holdem' ? `seat-${s}` : `hand-${'NESW'[s]}`;
      const el = box?.querySelector(`[data-testid="${id}"]`);
      if (el) seats[s] = [...el.querySelectorAll('[data-card]')].map((c) => c.getAttribute('data-card')!);
    }
    return { moves: Number(box?.getAttribute('data-moves') ?? -1), seats };
  }, game);
}

/** The Bridge state after the first `n` moves of a replay (the rules, not the viewer). */
function bridgeAfter(replay: Replay, n: number): BridgeState {
  const { spec } = replay.result;
  let s = bridge.init(spec.variant, createRng(spec.seed), initSetup(spec));
  for (const m of replay.moves.slice(0, n))
    if (m.action !== null) s = bridge.apply(s, m.seat, m.action as BridgeAction);
  return s;
}

describe.skipIf(!hasChromium)('catarena serve while a person plays', () => {
  let browser: Browser;
  let out: string;
  let server: ServeServer;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    browser = await sharedChromium();
    out = tempDir();
    server = new ServeServer({ out, port: 0 });
    await server.start();
  }, 60_000);

  afterAll(async () => {
    for (const stop of stops.splice(0)) await stop().catch(() => {});
    await server?.close();
  });

  it.for(['holdem', 'bridge'])(
    "%s: the live page and its event stream never hold the bot's hidden cards while the game is played",
    { timeout: 120_000 },
    async (game, { expect }) => {
      const seat = new HumanSeat({ game, variant: 'standard' });
      await seat.start();
      const sandbox = createSandbox('process');
      const abort = new AbortController();
      stops.push(async () => {
        abort.abort();
        await seat.close();
        await sandbox.close();
      });
      const name = `${game}-human`;
      const runDir = path.join(out, name);
      fs.mkdirSync(runDir, { recursive: true });
      // The live page and a follower of its event stream, open before the game starts.
      const base = `${server.url.replace(/\/$/, '')}/run/${name}/`;
      const { page, errors, outside } = await openUrl(browser, base);
      const live: Message[] = [];
      const human: Message[] = [];
      void follow(`${base}events`, live, abort.signal);
      void follow(`${seat.url}/play/events`, human, abort.signal);

      const done = runArena({
        game,
        variant: 'standard',
        bots: [
          ...refsFromDirs([BUILTIN('heuristic', game)]),
          { id: seat.id, dir: path.join(runDir, 'human'), warm: seat.handle(), sharedInstances: true },
        ],
        humans: [seat.id],
        reps: 1,
        maxGames: 1,
        seed: 3,
        concurrency: 1,
        limits: { ...DEFAULT_LIMITS, seatMoveMs: { [seat.id]: 60_000 } },
        policy: 'strict',
        runDir,
        sandbox,
        ...(game === 'holdem' ? { protocolOptions: { handCap: 3 } } : {}),
        onLive: seat.onLive,
        onGame: (r) => seat.recorded(r),
      });

      // The person's turns, one at a time: the live page must have drawn this very move first.
      const snapshots: Array<{ moves: number; seats: string[][] }> = [];
      const choice = { bid: false };
      let turn = 0;
      let seen = 0;
      let running = true;
      void done.finally(() => (running = false));
      while (running) {
        const next = human.slice(seen).find((m) => m.msg.type === 'game' && m.msg.yourTurn?.turn > turn);
        if (!next) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        seen = human.indexOf(next) + 1;
        const msg = next.msg;
        turn = msg.yourTurn.turn;
        const moves = msg.data.moves.length as number;
        // Every few turns the page must catch up with this move (boards are sent at most every 250 ms).
        if (turn % 4 === 1)
          await expect.poll(async () => (await drawnCards(page, game)).moves, { timeout: 10_000 }).toBe(moves);
        snapshots.push(await drawnCards(page, game));
        if (turn === 1) {
          // While the person plays: no seed on the runs list, no file of the run.
          const runs = (await (await fetch(`${server.url}api/runs`)).json()) as Array<{ name: string }>;
          expect(JSON.stringify(runs.find((r) => r.name === name))).not.toContain('"seed"');
          for (const file of ['live.jsonl', 'arena.json', 'journal.jsonl'])
            expect((await fetch(`${base}files/${file}`)).status).toBe(403);
          await expect.poll(() => page.locator('[data-testid="spectator"]').getAttribute('data-mode')).toBe('public');
          await screenshot(page, `serve-human-${game}.png`);
        }
        const r = await answer(seat.url, msg.gameId, choose(game, msg.legal, choice));
        expect(r, JSON.stringify(r)).toMatchObject({ ok: true });
      }
      const outcome = await done;
      expect(outcome.results).toHaveLength(1);
      const result = outcome.results[0]!;
      expect(result.termination).toBe('normal');
      expect(turn).toBeGreaterThan(1);
      const replay = readReplaySync(runDir, result.id);
      const humanSeats = result.spec.seats.flatMap((id, s) => (id === seat.id ? [s] : []));
      const botSeats = result.spec.seats.flatMap((id, s) => (id === seat.id ? [] : [s]));

      // The event streams up to the game's end (the live page's 'ended', the seat page's `ended`).
      await expect.poll(() => live.some((m) => m.msg.type === 'ended' && m.msg.id === result.id)).toBe(true);
      const liveEnd = live.findIndex((m) => m.msg.type === 'ended' && m.msg.id === result.id);
      const humanEnd = human.findIndex((m) => m.msg.ended);
      const boards = live.slice(0, liveEnd).flatMap((m) => (m.msg.type === 'board' ? [m] : []));
      const snapshotBoards = live.slice(0, liveEnd).flatMap((m) => (m.msg.type === 'snapshot' ? m.msg.boards : []));
      expect(boards.length).toBeGreaterThan(0);
      const streamed = [
        ...boards,
        ...snapshotBoards.map((b: unknown) => ({ raw: JSON.stringify(b), msg: b as Record<string, any> })),
        ...human.slice(0, humanEnd < 0 ? human.length : humanEnd).filter((m) => m.msg.data),
      ];
      for (const m of boards) expect(m.raw).not.toContain('"seed"');

      if (game === 'holdem') {
        const full = holdemViewerData(replay).extra as unknown as HoldemViewerExtra;
        // Each message: a bot's hole cards only in a hand it showed down in.
        for (const m of streamed) {
          for (const h of (m.msg.data.extra as HoldemViewerExtra).hands) {
            const shown = new Set((h.sd ?? []).map(([s]) => s));
            for (const b of botSeats) {
              if (shown.has(b)) continue;
              const hole = full.hands.find((x) => x.n === h.n)!.hole[b]!;
              expect(m.raw).not.toContain(JSON.stringify(hole));
              expect(h.hole[b]).toEqual(['?', '?']);
            }
          }
        }
        // The page at the person's turns: a hand in play, the bot's cards never drawn.
        for (const s of snapshots) for (const b of botSeats) expect(s.seats[b]).toEqual([]);
        for (const s of snapshots) if (s.moves >= 0) for (const h of humanSeats) expect(s.seats[h]).toHaveLength(2);
      } else {
        // A bot's hand is seen only when it is dummy and the opening lead is made.
        const exposedAt = (n: number, s: number) => {
          const st = bridgeAfter(replay, n);
          return dummyOf(st) === s && openingLeadMade(st);
        };
        const deal = bridgeAfter(replay, 0).hands;
        // The board was played (a contract, cards on the table) while the page watched.
        expect(streamed.some((m) => m.msg.data.frames.at(-1).ph === 'playing')).toBe(true);
        for (const m of streamed) {
          const n = m.msg.data.moves.length as number;
          for (const b of botSeats) {
            if (!exposedAt(n, b)) {
              expect(m.raw).not.toContain(deal[b]!.join(''));
              expect(m.raw).not.toContain(JSON.stringify(deal[b]));
            }
            (m.msg.data.frames as Array<{ h: string[] }>).forEach((f, k) => {
              if (!exposedAt(k, b)) expect(f.h[b]).toBe('?');
            });
          }
        }
        for (const s of snapshots) {
          for (const b of botSeats) if (!exposedAt(s.moves, b)) expect(s.seats[b]).toEqual([]);
          if (s.moves >= 0) expect(humanSeats.some((h) => s.seats[h]!.length > 0)).toBe(true);
        }
      }
      // Once the run is over its files open again.
      await expect.poll(async () => (await fetch(`${base}files/journal.jsonl`)).status).toBe(200);
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
      await page.close();
    },
  );

  it('a run of bots only is still drawn in full, and public with --spectator public', async ({ expect }) => {
    const name = 'holdem-bots';
    const runDir = path.join(out, name);
    fs.mkdirSync(runDir, { recursive: true });
    const publicServer = new ServeServer({ out, port: 0, spectator: 'public' });
    await publicServer.start();
    const sandbox = createSandbox('process');
    const abort = new AbortController();
    stops.push(async () => {
      abort.abort();
      await publicServer.close();
      await sandbox.close();
    });
    const pages = await Promise.all(
      [server, publicServer].map((s) => openUrl(browser, `${s.url.replace(/\/$/, '')}/run/${name}/`)),
    );
    const done = runArena({
      game: 'holdem',
      variant: 'standard',
      bots: refsFromDirs([BUILTIN('heuristic', 'holdem'), BUILTIN('heuristic', 'holdem')]),
      reps: 1,
      maxGames: 1,
      seed: 5,
      concurrency: 1,
      limits: DEFAULT_LIMITS,
      policy: 'strict',
      runDir,
      sandbox,
      protocolOptions: { handCap: 60 },
      signal: abort.signal,
    });
    const [full, open] = pages.map((p) => p.page) as [Page, Page];
    const seatCards = (page: Page) =>
      page.evaluate(() =>
        [0, 1].map(
          (s) =>
            document.querySelectorAll(`[data-testid="boards"] [data-testid="seat-${s}"] .hx-card[data-card]`).length,
        ),
      );
    const backs = (page: Page) => page.locator('[data-testid="boards"] .hx-back').count();
    await Promise.all([
      // Bots only, by default: every seat's hole cards, as before.
      expect.poll(() => seatCards(full), { timeout: 30_000 }).toEqual([2, 2]),
      // --spectator public: the same game, card backs only (a showdown's cards aside).
      expect.poll(() => backs(open), { timeout: 30_000 }).toBe(4),
    ]);
    expect(await full.locator('[data-testid="spectator"]').getAttribute('data-mode')).toBe('full');
    expect(await open.locator('[data-testid="spectator"]').getAttribute('data-mode')).toBe('public');
    expect((await fetch(`${server.url}run/${name}/files/arena.json`)).status).toBe(200);
    await screenshot(open, 'serve-public.png');
    abort.abort();
    await done.catch(() => {});
    for (const p of pages) {
      expect(p.errors).toEqual([]);
      await p.page.close();
    }
  }, 90_000);
});
