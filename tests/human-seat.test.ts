// The human seat as a person uses it: `catarena play builtin:heuristic human` prints a page's URL;
// the test opens it in Debian's Chromium and plays whole games against the heuristic bot by
// clicking (Gomoku cells; chess pieces and squares, one move dragged), has an illegal click
// refused with its reason, and finds the games in the journal and replays like any other. Games
// that hide cards and words are drawn from the person's seats: no other seat's card or word shows,
// and are played from the seat's table (Hold'em cards, pot, stacks and a raise slider; Bridge hand
// by suit, auction, bids and cards as buttons; Undercover word, statements, votes, and a warning
// before a statement that names the word). Chess is seen from black's side when the person plays
// black, with the moves listed in pairs. A game's end stays on screen until "next game". Each
// game's page is checked at 360, 390 and 1,280 px (no sideways scroll; the board fits) and
// screenshot (into docs/ with CATARENA_DOCS_SHOTS=1, or CATARENA_TEST_SHOTS=<folder>). Nothing the
// page loads may come from anywhere but the seat's own server. Over 30 s when the machine is
// loaded: six whole games played by clicks in one Chromium (Gomoku, chess and its variant, a
// Hold'em table round, Bridge's two rooms of one board, an Undercover game of three), each
// against the quick heuristic bot; the time is the games' moves, every one a click and a round
// trip through the runner, and the page redrawn (Chromium's CPU: the file is CPU-bound, which is
// why the games are not played side by side: that only made turns time out on a loaded machine).
// Over 30 s: a person's whole game of each of the five games, clicked in Chromium at 390 px (Bridge
// alone is 61 turns of the person).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, openUrl, SHOTS_DIR, screenshot, sharedChromium } from './helpers/browser.ts';
import { tempDir } from './helpers/bots.ts';
import type { MatchResult } from '../records/match.ts';
import { readReplaySync } from './helpers/replays.ts';

const BIN = path.resolve(import.meta.dirname, '../bin/catarena.mjs');

interface Played {
  child: ChildProcess;
  url: Promise<string>;
  exit: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function play(...args: string[]): Played {
  return spawnCli(['play', ...args, '--json', '--human-port', '0']);
}

function spawnCli(args: string[]): Played {
  const child = spawn('node', [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let found: (url: string) => void;
  const url = new Promise<string>((resolve) => (found = resolve));
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => {
    stderr += d;
    const m = /human seat: open (http:\/\/127\.0\.0\.1:\d+\/play)/.exec(stderr);
    if (m) found(m[1]!);
  });
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, url, exit };
}

/** `catarena arena … --game <game>` with a human seat (table games of three or more). */
function arenaRun(bots: readonly string[], game: string, out: string): Played {
  return spawnCli(['arena', ...bots, '--game', game, '-o', out, '--json', '--human-port', '0']);
}

type Msg = {
  gameId: string;
  yourTurn: { seatName: string; turn: number } | null;
  legal: unknown[];
  ended: unknown;
  data: { moves: unknown[] };
};

/** Waits until it is the person's turn (the message) or the page says every game is over (null). */
async function nextTurn(page: Page, after: number, anyTurn = false): Promise<Msg | null> {
  for (;;) {
    const seen = await waitTurn(page, after, anyTurn);
    if (!seen.over) return seen.done ? null : seen.last;
    // The ended game stays on screen (it is not replaced at once) until the person moves on.
    await page.waitForTimeout(100);
    expect(await page.locator('[data-testid="turn"]').innerText()).toMatch(/^game over: /);
    held++;
    await page.locator('[data-testid="next-game"]').click();
  }
}

/** Games whose end the page held on screen until "next game" was clicked. */
let held = 0;

/**
 * Waits in the page for the person's next turn, an ended game held on screen, or the end of every
 * game; returns which, with the turn's message, in the one round trip.
 */
async function waitTurn(
  page: Page,
  after: number,
  anyTurn: boolean,
): Promise<{ done: boolean; over: boolean; last: Msg | null }> {
  const seen = await page.waitForFunction(
    ([n, any]) => {
      const h = (window as unknown as { catarenaHuman: { last: Msg | null; sent: boolean } }).catarenaHuman;
      const done = Boolean(document.querySelector('[data-testid="done"]')?.textContent);
      const box = document.querySelector('[data-testid="game-over"]') as HTMLElement | null;
      const over = Boolean(box && !box.hidden);
      const turn = Boolean(
        h.last?.yourTurn &&
          !h.sent &&
          (any ? h.last.yourTurn.turn > (n as number) : h.last.data.moves.length > (n as number)),
      );
      return (done || over || turn) && { done, over, last: h.last };
    },
    [after, anyTurn] as const,
    { timeout: 60_000 },
  );
  return (await seen.jsonValue()) as { done: boolean; over: boolean; last: Msg | null };
}

const DOCS = path.resolve(import.meta.dirname, '../docs');

/**
 * The page at phone widths (360, 390) and a desktop's (1,280): nothing scrolls sideways and the
 * board is inside the window; a screenshot of each width (docs/human-<name>-<width>.png with
 * CATARENA_DOCS_SHOTS=1). The page is left at 390 px: the game is played on a phone's width.
 */
async function checkWidths(page: Page, name: string): Promise<void> {
  for (const width of [1280, 360, 390]) {
    await page.setViewportSize({ width, height: width > 400 ? 800 : 844 });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(wide, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    const svg = page.locator('[data-testid="board"] svg').first();
    if ((await svg.count()) && (await svg.isVisible())) {
      const box = (await svg.boundingBox())!;
      expect(box.x + box.width, `${name}: the board fits ${width} px`).toBeLessThanOrEqual(width);
    }
    // Shots for the docs (CATARENA_DOCS_SHOTS=1) or a person looking (CATARENA_TEST_SHOTS): else none.
    const dir = process.env.CATARENA_DOCS_SHOTS ? DOCS : SHOTS_DIR;
    if (width === 360 || !dir) continue;
    fs.mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, `human-${name}-${width}.png`), fullPage: width < 400 });
  }
}

/**
 * What the page shows at the person's turn, read in one round trip: the cards and words of the
 * bot's seats it draws (dummy's Bridge hand aside: none may show while a game is played), how many
 * cards and word lines the board draws, how many requests it shows, and the turn line.
 */
function seatFacts(
  page: Page,
  game: string,
  msg: Msg,
): Promise<{ others: string[]; drawn: number; requests: number; turn: string }> {
  const bots = (msg as unknown as { seats: string[]; human: number[] }).seats
    .map((_, seat) => seat)
    .filter((seat) => !(msg as unknown as { human: number[] }).human.includes(seat));
  return page.evaluate(
    ([g, seats]) => {
      const board = document.querySelector('[data-testid="board"]')!;
      const others = (seats as number[]).flatMap((b) => {
        if (g === 'holdem')
          return [...board.querySelectorAll(`[data-testid="seat-${b}"] [data-card]`)].map((c) => c.textContent!);
        if (g === 'bridge') {
          const hand = board.querySelector(`[data-testid="hand-${'NESW'[b]}"]`);
          if (!hand || hand.getAttribute('data-hidden') === 'true' || hand.classList.contains('bx-dummy')) return [];
          return [...hand.querySelectorAll('[data-card]')].map((c) => c.getAttribute('data-card')!);
        }
        const row = board.querySelector(`[data-testid="seat-${b}"]`);
        if (!row || row.getAttribute('data-role') === 'audience') return [];
        const word = row.querySelectorAll('td')[3]!.textContent!;
        return word === '?' ? [] : [word];
      });
      return {
        others,
        drawn: board.querySelectorAll('[data-card], [data-testid="words"]').length,
        requests: document.querySelectorAll('[data-testid="request"]').length,
        turn: (document.querySelector('[data-testid="turn"]') as HTMLElement).innerText,
      };
    },
    [game, bots] as const,
  );
}

/** A small seeded generator, so a failing game can be played again. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function journalOf(runDir: string): MatchResult[] {
  return fs
    .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as MatchResult);
}

describe.skipIf(!hasChromium)('the human seat in Chromium', () => {
  let browser: Browser;
  const children: ChildProcess[] = [];
  let out: string;

  beforeAll(async () => {
    browser = await sharedChromium();
    out = tempDir();
  }, 60_000);

  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  });

  it('plays a whole Gomoku game against the heuristic bot; an occupied cell is refused with its reason', async ({
    expect,
  }) => {
    const run = play('builtin:heuristic', 'human', '--game', 'gomoku', '--games', '1', '-o', out);
    children.push(run.child);
    const { page, errors, outside } = await openUrl(browser, await run.url);
    const next = rng(7);
    let moves = -1;
    let refused = false;
    let turn = 0;
    for (; ; turn++) {
      const msg = await nextTurn(page, moves);
      if (!msg) break;
      moves = msg.data.moves.length;
      // The page draws the turn line just after it takes the request: poll, the machine may be busy.
      await expect
        .poll(() => page.locator('[data-testid="turn"]').innerText())
        .toMatch(/^your move \(white\) · \d:\d\d left$/);
      if (turn === 0) await checkWidths(page, 'gomoku');
      if (!refused) {
        // The heuristic (black) opened at the centre: that cell is taken.
        await page.locator('[data-cell="7,7"]').click();
        await expect
          .poll(() => page.locator('[data-testid="refusal"]').innerText(), { timeout: 30_000 })
          .toBe('refused: that cell is already taken');
        refused = true;
        expect(
          await page.evaluate(
            () => (window as unknown as { catarenaHuman: { last: Msg } }).catarenaHuman.last.data.moves.length,
          ),
        ).toBe(moves); // nothing was played
      }
      // Near the centre, at random: a legal cell.
      const legal = (msg.legal as Array<[number, number]>).filter(
        ([i, j]) => Math.abs(i - 7) <= 3 && Math.abs(j - 7) <= 3,
      );
      const pool = legal.length ? legal : (msg.legal as Array<[number, number]>);
      const [i, j] = pool[Math.floor(next() * pool.length)]!;
      await page.locator(`[data-cell="${i},${j}"]`).click();
      expect(turn).toBeLessThan(120);
    }
    await screenshot(page, 'human-gomoku.png');
    const result = await run.exit;
    expect(result.code, result.stderr).toBe(0);
    const { runDir } = JSON.parse(result.stdout) as { runDir: string };
    const [game] = journalOf(runDir);
    expect(game!.spec.seats).toEqual(['heuristic', 'human']);
    expect(game!.spec.limits.seatMoveMs).toEqual({ human: 300_000 });
    expect(game!.termination).toBe('normal');
    const replay = readReplaySync(runDir, game!.id);
    expect(replay.moves.filter((m) => m.seat === 1).length).toBe(turn); // every click that was played, and only those
    expect(replay.moves.every((m) => !m.error)).toBe(true);
    await expect.poll(() => page.locator('[data-testid="turn"]').innerText()).toMatch(/^game over: /);
    expect(await page.locator('[data-testid="results"] li').count()).toBe(1);
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  }, 240_000);

  it.for(['standard', 'variant'])(
    'plays a whole chess game (%s) against the heuristic bot by clicks and a drag; an illegal move is refused',
    { timeout: 600_000 },
    async (variant, { expect }) => {
      const run = play(
        'builtin:heuristic',
        'human',
        '--game',
        'chess',
        '--variant',
        variant,
        '--games',
        '1',
        '-o',
        out,
      );
      children.push(run.child);
      const { page, errors, outside } = await openUrl(browser, await run.url);
      // The variant's board shows its obstacles (Chess960 start, obstacles between the armies).
      if (variant === 'variant')
        await expect
          .poll(() => page.locator('[data-testid="board"] g.obstacle').count(), { timeout: 30_000 })
          .toBeGreaterThan(0);
      const next = rng(11);
      let moves = -1;
      const centre = async (square: string) => {
        const box = (await page.locator(`svg rect[data-square="${square}"]`).boundingBox())!;
        return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      };
      const click = async (square: string) => {
        const { x, y } = await centre(square);
        await page.mouse.click(x, y);
      };
      let turn = 0;
      for (; ; turn++) {
        const msg = await nextTurn(page, moves);
        if (!msg) break;
        moves = msg.data.moves.length;
        const legal = msg.legal as string[];
        if (turn === 0) {
          // The person plays black: the board is seen from black's side (rank 1 at the top).
          const y = async (sq: string) => (await page.locator(`svg rect[data-square="${sq}"]`).boundingBox())!.y;
          expect(await y('a1')).toBeLessThan(await y('a8'));
          if (variant === 'standard') await checkWidths(page, 'chess');
        }
        if (turn === 2) {
          // The moves so far, in numbered pairs: white's and black's of each move number.
          const rows = page.locator('[data-testid="move-list"] li');
          expect(await rows.count()).toBe(Math.ceil(msg.data.moves.length / 2));
          expect(await rows.first().getAttribute('value')).toBe('1');
          expect((await rows.first().innerText()).trim().split(/\s+/)).toHaveLength(2);
        }
        if (turn === 0) {
          // Black to move after White's first: a square with no black piece able to move is refused on the page…
          await click('e4');
          await expect
            .poll(() => page.locator('[data-testid="refusal"]').innerText(), { timeout: 30_000 })
            .toMatch(/^refused: no move of yours starts on e4/);
          // …and an illegal move by the rules: the king's pawn three squares ahead.
          await click('e7');
          await click('e4');
          await expect
            .poll(() => page.locator('[data-testid="refusal"]').innerText(), { timeout: 30_000 })
            .toBe('refused: that move is not legal in this position');
        }
        // Captures first (the game ends sooner), else any legal move, seeded.
        const uci = legal[Math.floor(next() * legal.length)]!;
        const [from, to] = [uci.slice(0, 2), uci.slice(2, 4)];
        if (turn === 1) {
          // One move dragged from its square to the target.
          const a = await centre(from);
          const b = await centre(to);
          await page.mouse.move(a.x, a.y);
          await page.mouse.down();
          await page.mouse.move(b.x, b.y, { steps: 5 });
          await page.mouse.up();
        } else {
          await click(from);
          await click(to);
        }
        if (uci.length === 5) await page.locator(`[data-testid="promote-${uci[4]}"]`).click();
        expect(turn).toBeLessThan(400);
      }
      await screenshot(page, `human-chess-${variant}.png`);
      const result = await run.exit;
      expect(result.code, result.stderr).toBe(0);
      const { runDir } = JSON.parse(result.stdout) as { runDir: string };
      const [game] = journalOf(runDir);
      expect(game!.spec.seats).toEqual(['heuristic', 'human']);
      expect(game!.termination).toBe('normal');
      const replay = readReplaySync(runDir, game!.id);
      expect(replay.moves.filter((m) => m.seat === 1).length).toBe(turn);
      expect(replay.moves.every((m) => !m.error)).toBe(true);
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
      await page.close();
    },
  );
  // The games that hide hands and words: the page shows the seat's own request, never the others' cards.
  for (const [game, bots, games] of [
    ['holdem', ['builtin:heuristic', 'human'], '1'],
    ['bridge', ['builtin:heuristic', 'human'], '1'],
    ['undercover', ['builtin:heuristic', 'builtin:random', 'human'], '1'],
  ] as const) {
    it(`plays ${game} through the page's actions`, async ({ expect }) => {
      const run =
        game === 'undercover' ? arenaRun(bots, game, out) : play(...bots, '--game', game, '--games', games, '-o', out);
      children.push(run.child);
      const { page, errors, outside } = await openUrl(browser, await run.url);
      let moves = -1;
      let turn = 0;
      let refused = false;
      let bidOnce = false;
      let warned = false;
      for (; ; turn++) {
        const msg = await nextTurn(page, moves, true);
        if (!msg) break;
        moves = msg.yourTurn!.turn;
        // Another seat's cards and words are never on the page while it is played: the board is
        // drawn from the person's seats (card backs, hidden hands, '?' for words).
        const facts = await seatFacts(page, game, msg);
        expect(facts.others).toEqual([]);
        expect(facts.drawn).toBeGreaterThan(0); // the board is drawn: the person's own cards, the words line
        expect(facts.requests).toBe(1);
        // The person's turn line names their seat (never "undefined").
        expect(facts.turn).toMatch(/^your move \((?!undefined)[^)]+\)/);
        if (turn === 0) await checkWidths(page, game);
        if (game === 'bridge') {
          const bid = page.locator('[data-testid="bids"] button:not([disabled])');
          const cards = page.locator('[data-testid="seat-panel"] button.cardbtn:not([disabled])');
          if (!bidOnce && (await bid.count())) {
            bidOnce = true;
            await bid.first().click();
          } else if (await cards.count()) await cards.first().click();
          else await page.locator('[data-testid="legal"] [data-call="pass"]').click();
        } else if (await page.locator('[data-testid="raise"]').count()) {
          if (!refused) {
            await page.locator('[data-testid="amount"]').fill('1');
            await page.locator('[data-testid="raise"]').click();
            await expect
              .poll(() => page.locator('[data-testid="refusal"]').innerText(), { timeout: 30_000 })
              .toMatch(/^refused: /);
            refused = true;
          }
          const max = await page.locator('[data-testid="amount"]').getAttribute('max');
          await page.locator('[data-testid="amount"]').fill(max!);
          await page.locator('[data-testid="raise"]').click();
        } else if (await page.locator('[data-testid="speak"]').count()) {
          if (!warned) {
            // A statement that names the person's own word is held back with a warning.
            const word = await page.locator('[data-testid="word"] strong').innerText();
            await page.locator('[data-testid="statement"]').fill(`it is like a ${word.toUpperCase()}`);
            await page.locator('[data-testid="speak"]').click();
            await expect
              .poll(() => page.locator('[data-testid="word-warning"]').innerText())
              .toContain('names your own word');
            expect(
              await page.evaluate(() => (window as unknown as { catarenaHuman: { sent: boolean } }).catarenaHuman.sent),
            ).toBe(false);
            warned = true;
          }
          await page.locator('[data-testid="statement"]').fill(`something you can hold, number ${turn}`);
          await page.locator('[data-testid="speak"]').click();
        } else {
          await page.locator('[data-testid="legal"] button').first().click();
        }
        expect(turn).toBeLessThan(600);
      }
      await screenshot(page, `human-${game}.png`);
      const result = await run.exit;
      expect(result.code, result.stderr).toBe(0);
      const { runDir } = JSON.parse(result.stdout) as { runDir: string };
      const journal = journalOf(runDir);
      expect(journal.length).toBeGreaterThan(0);
      expect(journal.every((g) => g.spec.seats.includes('human'))).toBe(true);
      expect(journal.map((g) => g.termination)).toEqual(journal.map(() => 'normal'));
      expect(turn).toBeGreaterThan(0);
      if (game === 'undercover') expect(warned).toBe(true);
      // Bridge's two rooms: the first room's end stayed on screen until "next game".
      if (game === 'bridge') expect(held).toBeGreaterThan(0);
      console.log(`${game}: ${journal.length} games, ${turn} turns of the person`);
      // Every answer the person gave was played: no failure of the human seat in any game.
      for (const g of journal) {
        const replay = readReplaySync(runDir, g.id);
        const humanSeats = g.spec.seats.flatMap((id, seat) => (id === 'human' ? [seat] : []));
        expect(replay.moves.filter((m) => humanSeats.includes(m.seat) && m.error)).toEqual([]);
      }
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
      await page.close();
    }, 600_000);
  }
});
