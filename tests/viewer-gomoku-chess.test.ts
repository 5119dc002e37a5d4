// The Gomoku and chess replay viewers (games/{gomoku,chess}/viewer/): real games of the reference
// bots (Gomoku standard and variant, chess standard and Chess960 with obstacles) give replays;
// their ViewerData must agree with the rules' final state (games/replay.ts) and, for standard
// chess, with chess.js at every ply; their pages, opened from file:// in Chromium, draw the board
// with no console error and no request outside the run directory, show the final position at the
// last step, and step with the arrow keys. Screenshots are kept with CATARENA_TEST_SHOTS=<folder>.
import path from 'node:path';
import { Chess } from 'chess.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChessState } from '../games/chess/rules.ts';
import type { ChessFrame } from '../games/chess/viewer/data.ts';
import { viewerData as chessViewerData } from '../games/chess/viewer/data.ts';
import type { ViewerData } from '../games/core/viewer.ts';
import type { GomokuState } from '../games/gomoku/rules.ts';
import { cellName, viewerData as gomokuViewerData } from '../games/gomoku/viewer/data.ts';
import { replayState } from '../games/replay.ts';
import { DEFAULT_LIMITS, type Replay } from '../records/match.ts';
import { runArena } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { viewerDataOf, writeReplayPages } from '../reports/html/replay-page.ts';
import { createSandbox } from '../sandbox/index.ts';
import { hasChromium, sharedChromium, screenshot } from './helpers/browser.ts';
import { ReusedPage } from './helpers/reused-page.ts';
import { replaysIn } from './helpers/replays.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';

// catarena's reference bots, as plain processes: the sandbox kind changes nothing drawn here, and a
// bubblewrap start costs more CPU (tests/sandbox-isolated.test.ts runs the reference bots isolated).
const sandbox = createSandbox('unsafe');
const ROOT = tempDir('catarena-viewer-gc-');

interface Played {
  game: 'gomoku' | 'chess';
  variant: string;
  runDir: string;
  replays: Replay[];
}
const played: Played[] = [];
const TRACKS = [
  ['gomoku', 'standard'],
  ['gomoku', 'variant'],
  ['chess', 'standard'],
  ['chess', 'variant'],
] as const;

async function play(game: 'gomoku' | 'chess', variant: string): Promise<Played> {
  const runDir = path.join(ROOT, `${game}-${variant}`);
  const hosts = new GameServerPool({ ports: { [`${game}/${variant}`]: 0 } });
  try {
    await runArena({
      game,
      variant,
      reps: 1,
      seed: 29,
      concurrency: 2,
      policy: 'strict',
      runDir,
      sandbox,
      hosts,
      startTimeoutMs: 20_000,
      limits: { ...DEFAULT_LIMITS, moveMs: 5_000 },
      bots: [
        { id: 'heuristic', dir: BUILTIN('heuristic', game) },
        { id: 'random', dir: BUILTIN('random', game) },
      ],
    });
  } finally {
    await hosts.closeAll();
  }
  const dir = path.join(runDir, 'replays');
  const replays = replaysIn(dir);
  return { game, variant, runDir, replays };
}

beforeAll(async () => {
  played.push(...(await Promise.all(TRACKS.map(([g, v]) => play(g, v)))));
}, 180_000);
afterAll(() => sandbox.close());

const runOf = (game: string, variant: string) => played.find((p) => p.game === game && p.variant === variant)!;
const stonesPlayed = (r: Replay) => r.moves.filter((m) => m.action !== null).length;
/** Pieces in a FEN's placement. */
const pieceCount = (fen: string) => fen.split(' ')[0]!.replace(/[\d/]/g, '').length;

/** The board a Gomoku ViewerData shows at a step (frames 1..step, as render.js rebuilds it). */
function gomokuBoard(data: ViewerData, step: number): number[][] {
  const board = Array.from({ length: 15 }, () => Array<number>(15).fill(0));
  for (let k = 1; k <= step; k++) {
    const cell = data.frames[k] as [number, number] | null;
    if (cell) board[cell[0]]![cell[1]] = data.moves[k - 1]!.seat + 1;
  }
  return board;
}

describe('Gomoku ViewerData', () => {
  it('writes moves as column letter + row from the bottom', () => {
    expect(cellName([7, 7])).toBe('h8');
    expect(cellName([0, 0])).toBe('a15');
    expect(cellName([14, 14])).toBe('o1');
  });

  for (const variant of ['standard', 'variant']) {
    it(`has a step per move and ends on the rules' final board (${variant})`, async () => {
      const { replays } = runOf('gomoku', variant);
      expect(replays).toHaveLength(2);
      for (const replay of replays) {
        const data = (await viewerDataOf(replay))!;
        expect(data).toMatchObject({
          game: 'gomoku',
          variant,
          id: replay.result.id,
          seats: replay.result.spec.seats,
          seatNames: ['black', 'white'],
        });
        expect(data.moves).toHaveLength(replay.moves.length);
        expect(data.frames).toHaveLength(replay.moves.length + 1);
        const state = replayState(replay) as GomokuState;
        expect(gomokuBoard(data, replay.moves.length)).toEqual(state.board);
        expect(data.moves.map((m) => m.text)).toEqual(state.moves.map((m) => cellName(m.move)));
        expect(data.moves.every((m, k) => m.latencyMs === replay.moves[k]!.latencyMs)).toBe(true);
        const extra = data.extra as { forbidden: number[][]; highlight: number[][]; highlightKind: string | null };
        expect(extra.forbidden).toEqual(
          variant === 'variant' ? (replay.setup as { forbidden: number[][] }).forbidden : [],
        );
        if (variant === 'variant') expect(extra.forbidden).toHaveLength(15);
        expect(data.result).toMatch(/^(black|white) wins: |^draw: /);
        if (replay.result.reason === 'five_in_row') {
          // The winner's five in a row (or more), cells adjacent in one direction, the last stone among them.
          expect(extra.highlightKind).toBe('five');
          expect(extra.highlight.length).toBeGreaterThanOrEqual(5);
          const colour = replay.result.winner! + 1;
          for (const [i, j] of extra.highlight) expect(state.board[i!]![j!]).toBe(colour);
          const [di, dj] = [
            extra.highlight[1]![0]! - extra.highlight[0]![0]!,
            extra.highlight[1]![1]! - extra.highlight[0]![1]!,
          ];
          extra.highlight.forEach(([i, j], k) =>
            expect([i, j]).toEqual([extra.highlight[0]![0]! + k * di, extra.highlight[0]![1]! + k * dj]),
          );
          expect(extra.highlight).toContainEqual(state.lastMove);
          expect(data.result).toBe(`${replay.result.winner === 0 ? 'black' : 'white'} wins: five in a row`);
        }
        if (replay.result.reason === 'two_triplets') {
          // The winner's stored triplets (two may share cells: a run of four is two triplets).
          expect(extra.highlightKind).toBe('triplets');
          expect(extra.highlight.length).toBeGreaterThanOrEqual(4);
          for (const [i, j] of extra.highlight) expect(state.board[i!]![j!]).toBe(replay.result.winner! + 1);
        }
      }
    });
  }

  it('a failed request ends the list: no stone, the error kept, the forfeit in the result', () => {
    const replay = structuredClone(runOf('gomoku', 'standard').replays[0]!);
    replay.moves = replay.moves.slice(0, 6);
    replay.moves.push({
      ply: 6,
      seat: 0,
      action: null,
      latencyMs: 5000,
      error: { kind: 'timeout', message: 'no answer in 5000 ms' },
    });
    Object.assign(replay.result, {
      termination: 'timeout',
      reason: 'no answer in 5000 ms',
      winner: 1,
      offender: 0,
      scores: [0, 1],
    });
    const data = gomokuViewerData(replay);
    expect(data.frames).toHaveLength(8);
    expect(data.frames[7]).toBeNull();
    expect(data.moves[6]).toMatchObject({ text: '—', error: 'timeout: no answer in 5000 ms' });
    expect(data.result).toBe('white wins: black timed out');
    expect(gomokuBoard(data, 7).flat().filter(Boolean)).toHaveLength(6);
  });
});

describe('chess ViewerData', () => {
  it('standard: a step per move, SAN and FEN agree with chess.js at every ply, and the PGN is there', async () => {
    const { replays } = runOf('chess', 'standard');
    expect(replays).toHaveLength(2);
    for (const replay of replays) {
      const data = (await viewerDataOf(replay))!;
      expect(data.frames).toHaveLength(replay.moves.length + 1);
      const frames = data.frames as ChessFrame[];
      const board = new Chess();
      expect(frames[0]!.fen).toBe(board.fen());
      data.moves.forEach((m, k) => {
        if (replay.moves[k]!.action === null) return;
        expect(board.move(m.text).san).toBe(m.text);
        expect(frames[k + 1]!.fen).toBe(board.fen());
        expect(Boolean(frames[k + 1]!.check)).toBe(board.inCheck());
      });
      const state = replayState(replay) as ChessState;
      expect(frames.at(-1)!.fen).toBe(state.fen);
      if (replay.result.reason === 'checkmate') expect(data.moves.at(-1)!.text).toMatch(/#$/);
      const extra = data.extra as { pgn: string; pgnRepresentable: boolean };
      expect(extra.pgnRepresentable).toBe(true);
      const fromPgn = new Chess();
      fromPgn.loadPgn(extra.pgn);
      expect(fromPgn.fen()).toBe(state.fen);
    }
  });

  it('variant: the Chess960 start, the obstacles, removals, and the final position of the rules', () => {
    const { replays } = runOf('chess', 'variant');
    for (const replay of replays) {
      const data = chessViewerData(replay);
      const state = replayState(replay) as ChessState;
      const frames = data.frames as ChessFrame[];
      expect(frames).toHaveLength(replay.moves.length + 1);
      expect(frames[0]!.fen).toBe((replayState({ ...replay, moves: [] }) as ChessState).fen);
      expect(frames.at(-1)!.fen).toBe(state.fen);
      const extra = data.extra as {
        obstacles: string[];
        chess960Pos: number;
        pgnRepresentable: boolean;
        pgnNote?: string;
      };
      expect(extra.obstacles).toEqual((replay.setup as { obstacles: string[] }).obstacles);
      expect(extra.obstacles).toHaveLength(12);
      expect(extra.chess960Pos).toBe((replay.setup as { chess960_pos: number }).chess960_pos);
      expect(frames.filter((f) => f.obstacle)).toHaveLength(state.moves.filter((m) => m.obstacle).length);
      expect(data.moves.filter((m) => m.note?.includes('removed by the obstacle'))).toHaveLength(
        state.moves.filter((m) => m.obstacle).length,
      );
      expect(extra.pgnRepresentable).toBe(!state.moves.some((m) => m.obstacle));
      if (!extra.pgnRepresentable) expect(extra.pgnNote).toMatch(/^not valid Chess960 from \d+\.(\.\.)? /);
      data.moves.forEach((m, k) => expect(m.note?.startsWith(String(replay.moves[k]!.action))).toBe(true));
    }
  });
});

describe.skipIf(!hasChromium)('Gomoku and chess replay pages in Chromium', () => {
  // Every page loads in one Chromium page: a page of its own costs about 1 s of CPU more.
  let tab: ReusedPage;
  beforeAll(async () => {
    tab = await ReusedPage.open(await sharedChromium());
  }, 60_000);
  afterAll(() => tab?.close());

  for (const [game, variant] of TRACKS) {
    it(`${game} ${variant}: the board, the last step, the arrow keys`, async ({ expect }) => {
      const { runDir, replays } = runOf(game, variant);
      const replaysDir = path.join(runDir, 'replays');
      const ids = replays.map((r) => r.result.id);
      expect(await writeReplayPages(replaysDir, ids)).toEqual(ids);
      // The longer game of the two shows more.
      const replay = [...replays].sort((a, b) => b.moves.length - a.moves.length)[0]!;
      const n = replay.moves.length;
      const { page, errors, outside } = await tab.replay(replaysDir, replay.result.id, runDir);
      const board = page.locator('[data-testid=board] svg');
      await expect(board.count()).resolves.toBe(1);
      const label = page.locator('[data-testid=step]');
      await expect(label.textContent()).resolves.toBe(`move 0 of ${n}`);

      await page.click('[data-testid=last]');
      await expect(label.textContent()).resolves.toBe(`move ${n} of ${n}`);
      if (game === 'gomoku') {
        const stones = stonesPlayed(replay);
        await expect(page.locator('[data-testid=board] circle.stone').count()).resolves.toBe(stones);
        await expect(page.locator('[data-testid=board] .forbidden').count()).resolves.toBe(
          variant === 'variant' ? 15 : 0,
        );
        await expect(page.locator('[data-testid=board] circle.last').count()).resolves.toBe(1);
        if (replay.result.reason === 'five_in_row')
          await expect(page.locator('[data-testid=board] circle.win').count()).resolves.toBeGreaterThanOrEqual(5);
        await expect(page.locator('[data-testid=board-status]').textContent()).resolves.toContain(`${stones} stones`);
      } else {
        const state = replayState(replay) as ChessState;
        await expect(page.locator('[data-testid=board] g.piece').count()).resolves.toBe(pieceCount(state.fen));
        await expect(page.locator('[data-testid=board] .obstacle').count()).resolves.toBe(
          variant === 'variant' ? 12 : 0,
        );
        await expect(page.locator('[data-testid=board] .lastmove').count()).resolves.toBe(2);
        await expect(page.locator('[data-testid=board-status]').textContent()).resolves.toContain(
          `${pieceCount(state.fen)} pieces`,
        );
      }
      await expect(page.locator('[data-testid=result]').textContent()).resolves.toBe(
        (await viewerDataOf(replay))!.result,
      );

      await page.keyboard.press('ArrowLeft');
      await expect(label.textContent()).resolves.toBe(`move ${n - 1} of ${n}`);
      if (game === 'gomoku')
        await expect(page.locator('[data-testid=board] circle.stone').count()).resolves.toBe(
          stonesPlayed({ ...replay, moves: replay.moves.slice(0, n - 1) }),
        );
      await page.keyboard.press('ArrowRight');
      await expect(label.textContent()).resolves.toBe(`move ${n} of ${n}`);

      if (game === 'chess') {
        const data = (await viewerDataOf(replay))!;
        const pgn = (data.extra as { pgn: string }).pgn;
        await expect(page.locator('[data-testid=pgn]').inputValue()).resolves.toBe(pgn);
        const href = (await page.locator('[data-testid=download-pgn]').getAttribute('href'))!;
        expect(href.startsWith('data:application/x-chess-pgn;charset=utf-8,')).toBe(true);
        expect(decodeURIComponent(href.slice(href.indexOf(',') + 1))).toBe(pgn);
        await expect(page.locator('[data-testid=download-pgn]').getAttribute('download')).resolves.toBe(
          `${replay.result.id}.pgn`,
        );
        await page.click('[data-testid=copy-pgn]');
        await page.waitForFunction(() => document.querySelector('[data-testid=copy-status]')?.textContent !== '');
        if (variant === 'standard') await expect(page.locator('[data-testid=pgn-note]').count()).resolves.toBe(0);
      }

      // Something is painted: a blank window's PNG is a few hundred bytes (the window, not the full page).
      expect((await page.screenshot()).length).toBeGreaterThan(5_000);
      await screenshot(page, `${game}-${variant}.png`);
      expect(errors).toEqual([]);
      expect(outside).toEqual([]);
    });
  }
});
