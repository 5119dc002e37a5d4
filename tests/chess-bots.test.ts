// The reference chess bots (games/chess/bots/{random,heuristic}) as real processes speaking
// CATArena's chess protocol over HTTP, a stand-in game server for the variant's obstacles, and
// heuristic-vs-random games played in-process through the rules engine.
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as core from '../games/chess/engine/chess-core.mjs';
import { createRng } from '../util/rng.ts';
import { chess, type ChessState } from '../games/chess/rules.ts';
import { allocatePort } from '../sandbox/ports.ts';
import { BotProcesses, postJson as post } from './helpers/bot-process.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const BOTS = path.join(ROOT, 'games', 'chess', 'bots');
const HEURISTIC_BUDGET: number = JSON.parse(
  fs.readFileSync(path.join(BOTS, 'heuristic', 'params.json'), 'utf8'),
).timeBudgetMs;
/**
 * What an answer may take beyond the bot's own budget: the request's round trip and, on a machine
 * at full load (the whole suite with Docker on 2 cores), a wait for a core; a 300 ms answer once
 * arrived after 636 ms there. Still a tenth of the game's 10 s limit.
 */
const SLACK_MS = 1_000;

const bots = new BotProcesses();
let gameServer: http.Server | undefined;
let gameServerUrl = '';
/** Stand-in for CATArena's variant server: only GET /games/{id}/state, with the obstacles. */
const obstaclesByGame = new Map<string, string[]>();
const stateRequests: string[] = [];
let heuristic = '';
let random = '';

const startBot = (name: string, env: Record<string, string> = {}) => bots.start(path.join(BOTS, name), env);

/** Asks a bot for a move; asserts 200, a legal move (per chess-core) and the time limit. */
async function ask(
  url: string,
  fen: string,
  gameId = 'chess_test0001',
  obstacles: string[] = [],
  limitMs = HEURISTIC_BUDGET + SLACK_MS,
): Promise<string> {
  const player = fen.split(' ')[1] === 'b' ? 'black' : 'white';
  const r = await post(url, '/move', { fen, algorithm: 'simple', game_id: gameId, current_player: player });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  const variant = gameId.startsWith('chess_magic_') || /[A-Ha-h]/.test(fen.split(' ')[2] ?? '');
  const pos = core.parseFen(fen, { chess960: variant });
  expect(
    core.findMove(pos, r.json.move, { obstacles: obstacles.map(core.parseSquare) }),
    `${r.json.move} in ${fen}`,
  ).not.toBeNull();
  expect(r.ms).toBeLessThanOrEqual(limitMs);
  return r.json.move as string;
}

beforeAll(async () => {
  const port = await allocatePort();
  gameServer = http.createServer((req, res) => {
    const m = /^\/games\/([^/]+)\/state$/.exec(req.url ?? '');
    const obstacles = m ? obstaclesByGame.get(decodeURIComponent(m[1]!)) : undefined;
    if (m) stateRequests.push(decodeURIComponent(m[1]!));
    res.writeHead(obstacles ? 200 : 404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(obstacles ? { game_status: 'ongoing', chess960: true, obstacles } : { error: 'Game not found' }),
    );
  });
  await new Promise<void>((r) => gameServer!.listen(port, '127.0.0.1', r));
  gameServerUrl = `http://127.0.0.1:${(gameServer.address() as net.AddressInfo).port}`;
  [heuristic, random] = await Promise.all([
    startBot('heuristic', { BOT_GAME_SERVER: gameServerUrl }),
    startBot('random', { BOT_GAME_SERVER: gameServerUrl, BOT_SEED: '7' }),
  ]);
});

afterAll(async () => {
  bots.stopAll();
  await new Promise((r) => (gameServer ? gameServer.close(r) : r(null)));
});

describe('bot folders', () => {
  it('carry an identical copy of games/chess/engine/chess-core.mjs', () => {
    const source = fs.readFileSync(path.join(ROOT, 'games', 'chess', 'engine', 'chess-core.mjs'));
    for (const bot of fs.readdirSync(BOTS).filter((b) => fs.existsSync(path.join(BOTS, b, 'bot.mjs')))) {
      const copy = path.join(BOTS, bot, 'chess-core.mjs');
      const same = fs.existsSync(copy) && fs.readFileSync(copy).equals(source);
      expect(
        same,
        `games/chess/bots/${bot}/chess-core.mjs differs from games/chess/engine/chess-core.mjs: run node scripts/sync-bot-libs.mjs`,
      ).toBe(true);
    }
  });

  it('of every game carry an identical copy of games/core/bot-http.mjs', () => {
    const source = fs.readFileSync(path.join(ROOT, 'games', 'core', 'bot-http.mjs'));
    let copies = 0;
    for (const game of fs.readdirSync(path.join(ROOT, 'games'))) {
      const botsDir = path.join(ROOT, 'games', game, 'bots');
      if (!fs.existsSync(botsDir)) continue;
      // Node bots only: the Go and Python task-track bots (bots/go, bots/ml) hold no JavaScript.
      for (const bot of fs.readdirSync(botsDir).filter((b) => fs.existsSync(path.join(botsDir, b, 'bot.mjs')))) {
        const copy = path.join(botsDir, bot, 'bot-http.mjs');
        const same = fs.existsSync(copy) && fs.readFileSync(copy).equals(source);
        expect(
          same,
          `games/${game}/bots/${bot}/bot-http.mjs differs from games/core/bot-http.mjs: run node scripts/sync-bot-libs.mjs`,
        ).toBe(true);
        copies++;
      }
    }
    expect(copies).toBeGreaterThanOrEqual(8); // gomoku, chess, holdem, bridge × random, heuristic
  });

  it('are self-contained: no import from outside the folder', () => {
    for (const bot of fs.readdirSync(BOTS)) {
      for (const f of fs.readdirSync(path.join(BOTS, bot)).filter((x) => x.endsWith('.mjs'))) {
        const text = fs.readFileSync(path.join(BOTS, bot, f), 'utf8');
        for (const [, spec] of text.matchAll(/^import .* from '([^']+)'/gm))
          expect(spec, `${bot}/${f}`).toMatch(/^(node:|\.\/[\w-]+\.mjs$)/);
      }
      expect(fs.statSync(path.join(BOTS, bot, 'start_ai.sh')).mode & 0o111).not.toBe(0);
    }
  });
});

describe('protocol', () => {
  it('health, info, join_game, leave_game on both bots', async () => {
    for (const url of [heuristic, random]) {
      expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'healthy' });
      expect(typeof (await (await fetch(`${url}/info`)).json()).name).toBe('string');
      expect((await post(url, '/join_game', { game_id: 'chess_j1', my_color: 'white' })).status).toBe(200);
      expect((await post(url, '/join_game', '')).status).toBe(200);
      expect((await post(url, '/leave_game', { game_id: 'chess_j1' })).status).toBe(200);
    }
  });

  it('both bots answer 400 on malformed requests and stay up', async () => {
    const bad: unknown[] = [
      'not json',
      '[1,2]',
      'null',
      '{}',
      { fen: 42, current_player: 'white' },
      { fen: 'garbage', current_player: 'white' },
      { fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1', current_player: 'white' },
      { fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1', current_player: 'white' },
      { fen: core.STANDARD_FEN, current_player: 'green' },
      { fen: core.STANDARD_FEN, current_player: 'white', game_id: 7 },
      // No legal move: White is checkmated (fool’s mate).
      { fen: 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3', current_player: 'white' },
    ];
    for (const url of [heuristic, random]) {
      for (const body of bad) expect((await post(url, '/move', body)).status, JSON.stringify(body)).toBe(400);
      expect((await fetch(`${url}/nope`)).status).toBe(404);
      expect((await fetch(`${url}/health`)).status).toBe(200);
      await ask(url, core.STANDARD_FEN);
    }
  });
});

const POSITIONS = [
  core.STANDARD_FEN,
  'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1',
  'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4', // castling available
  'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3', // en passant available
  '8/P5k1/8/8/8/8/6K1/8 w - - 0 1', // promotion
  '4k3/8/8/8/8/8/4q3/4K3 w - - 0 1', // in check: the only move is Kxe2
];

describe('legal answers (standard)', () => {
  it('both bots answer legal moves on a few positions', async () => {
    for (const url of [heuristic, random]) for (const fen of POSITIONS) await ask(url, fen);
    expect(await ask(heuristic, POSITIONS.at(-1)!)).toBe('e1e2');
    expect(await ask(heuristic, '8/P1k5/8/8/8/8/6K1/8 w - - 0 1')).toBe('a7a8q'); // now or never
  });

  it('random really varies its moves', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) seen.add(await ask(random, core.STANDARD_FEN, 'chess_r1', [], SLACK_MS));
    expect(seen.size).toBeGreaterThan(5);
  });
});

describe('heuristic bot', () => {
  it('finds mate in one', async () => {
    expect(await ask(heuristic, '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1')).toBe('a1a8'); // back rank
    expect(await ask(heuristic, 'r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3')).toBe('f3f7'); // scholar's mate
    expect(await ask(heuristic, 'r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1')).toBe('a8a1'); // black too
  });

  it('captures a hanging queen', async () => {
    expect(await ask(heuristic, 'rnb1kbnr/pppp1ppp/8/4p3/3qP3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1')).toBe('f3d4');
    expect(await ask(heuristic, 'rnbqkb1r/pppp1ppp/5n2/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 3')).toBe('f6h5');
  });

  it('Chess960: castles king-takes-rook when castling mates (X-FEN "Q" and Shredder "A")', async () => {
    // White K b1, R a1: b1a1 puts the king on c1 and the rook on d1, mating the boxed-in king d8.
    const fen = (c: string) => `2rkr3/2p1p3/8/8/8/8/8/RK6 w ${c} - 0 1`;
    obstaclesByGame.set('chess_magic_castle1', []);
    expect(await ask(heuristic, fen('Q'), 'chess_magic_castle1')).toBe('b1a1');
    // A letter in the castling field means Chess960 even without a chess_magic_ id.
    expect(await ask(heuristic, fen('A'), 'chess_castle2')).toBe('b1a1');
    // Standard chess castles as e1g1 (here the only mate: the rook on f1 and the king on g1).
    expect(await ask(heuristic, '8/8/8/8/2N5/8/2r2P2/b1k1K2R w K - 0 1')).toBe('e1g1');
  });

  it('Chess960: castling as the only legal move is answered king-takes-rook by both bots', async () => {
    // White K c1, R b1: a-side castling leaves the king on c1 and puts the rook on d1. Every other
    // king square is covered (Rd8, Be4, b3), and the rook, bishop and pawn are boxed in.
    const fen = (c: string) => `3r2k1/8/8/8/4b3/1p6/1P6/BRK5 w ${c} - 0 1`;
    const pos = core.parseFen(fen('Q'), { chess960: true });
    expect(core.legalMoves(pos).map((m) => core.moveToUci(pos, m))).toEqual(['c1b1']);
    obstaclesByGame.set('chess_magic_castle3', ['d3', 'e3']);
    for (const url of [heuristic, random]) {
      expect(await ask(url, fen('Q'), 'chess_magic_castle3')).toBe('c1b1');
      expect(await ask(url, fen('B'), 'chess_castle4')).toBe('c1b1');
    }
  });
});

describe('variant: obstacles', () => {
  it('learns them from the game server once per game and keeps its queen off them', async () => {
    // Qxd5 wins a knight in standard chess; with d5 an obstacle the queen would vanish.
    const fen = 'r5k1/5ppp/8/3n4/8/7P/5PP1/3Q2K1 w - - 0 1';
    expect(await ask(heuristic, fen, 'chess_std_obst')).toBe('d1d5');
    obstaclesByGame.set('chess_magic_obst1', ['d5', 'e5']);
    const before = stateRequests.filter((id) => id === 'chess_magic_obst1').length;
    for (let i = 0; i < 2; i++) {
      const move = await ask(heuristic, fen, 'chess_magic_obst1', ['d5', 'e5']);
      expect(['d5', 'e5']).not.toContain(move.slice(2, 4));
    }
    expect(stateRequests.filter((id) => id === 'chess_magic_obst1').length - before).toBe(1);
  });

  it('does not fork from an obstacle square', async () => {
    // Ne5+ forks king and queen in standard chess; on an obstacle the knight just vanishes.
    const fen = '8/5ppp/2q3k1/8/8/3N3P/5PP1/6K1 w - - 0 1';
    expect(await ask(heuristic, fen, 'chess_std_fork')).toBe('d3e5');
    obstaclesByGame.set('chess_magic_fork', ['d5', 'e5']);
    expect(await ask(heuristic, fen, 'chess_magic_fork', ['d5', 'e5'])).not.toBe('d3e5');
  });

  it('takes a queen even when its knight lands on an obstacle (it wins material)', async () => {
    // Nxd5 loses the knight to the obstacle but wins the queen.
    const fen = 'r5k1/5ppp/8/3q4/8/2N4P/5PP1/6K1 w - - 0 1';
    obstaclesByGame.set('chess_magic_obst2', ['d5', 'e5']);
    expect(await ask(heuristic, fen, 'chess_magic_obst2', ['d5', 'e5'])).toBe('c3d5');
  });

  it('without the game server it still answers legal moves', async () => {
    // Unknown game: the stand-in server answers 404, so the bot plays without obstacle knowledge.
    const start = core.toFen(core.chess960Position(100));
    for (const url of [heuristic, random]) await ask(url, start, 'chess_magic_unknown');
  });
});

// ---- games through the rules engine -----------------------------------------------------------

interface Tally {
  games: number;
  score: number;
  ms: Record<string, number[]>;
  obstacleLosses: string[];
}

const VALUE: Record<string, number> = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };
/** Material of `seat` minus the opponent's, from a FEN. */
function balance(fen: string, seat: number): number {
  let b = 0;
  for (const ch of fen.split(' ')[0]!) {
    const v = VALUE[ch.toLowerCase()];
    if (v !== undefined) b += (ch === ch.toUpperCase()) === (seat === 0) ? v : -v;
  }
  return b;
}

/** One game in-process, both bots asked over HTTP; returns White's score. */
async function playGame(
  variant: 'standard' | 'variant',
  white: string,
  black: string,
  seed: number,
  tally: Tally,
): Promise<ChessState> {
  let state = chess.init(variant, createRng(seed));
  const gameId = variant === 'variant' ? `chess_magic_g${seed}` : `chess_g${seed}`;
  obstaclesByGame.set(gameId, state.obstacles);
  const urls = [white, black];
  const pending: Array<{ ply: number; seat: number; move: string; fen: string }> = [];
  const fens: string[] = [state.fen];
  while (!state.result) {
    const seat = chess.toMove(state)!;
    const url = urls[seat]!;
    const r = await post(url, '/move', {
      fen: state.fen,
      algorithm: 'simple',
      game_id: gameId,
      current_player: seat ? 'black' : 'white',
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const move = r.json.move as string;
    expect(chess.validate(state, seat, move), `${move} in ${state.fen}`).toBeNull();
    const name = url === heuristic ? 'heuristic' : 'random';
    (tally.ms[name] ??= []).push(r.ms);
    expect(r.ms, `${name} answered in ${r.ms} ms`).toBeLessThanOrEqual(
      (name === 'heuristic' ? HEURISTIC_BUDGET : 0) + SLACK_MS,
    );
    if (name === 'heuristic' && state.obstacles.includes(move.slice(2, 4))) {
      const pos = core.parseFen(state.fen, { chess960: true });
      const m = core.findMove(pos, move, { obstacles: state.obstacles.map(core.parseSquare) })!;
      // Kings may go (a kingless side cannot be mated); other pieces only as part of a gain.
      if (pos.board[m.from]!.toLowerCase() !== 'k')
        pending.push({ ply: state.moves.length, seat, move, fen: state.fen });
    }
    state = chess.apply(state, seat, move);
    fens.push(state.fen);
  }
  // A throwaway: the heuristic's own material balance is lower after its next move than before.
  for (const p of pending) {
    const later = fens[Math.min(fens.length - 1, p.ply + 3)]!;
    if (balance(later, p.seat) < balance(p.fen, p.seat)) tally.obstacleLosses.push(`${p.move} in ${p.fen}`);
  }
  return state;
}

async function series(variant: 'standard' | 'variant', games: number, seed0: number): Promise<Tally> {
  const tally: Tally = { games, score: 0, ms: {}, obstacleLosses: [] };
  const reasons: string[] = [];
  for (let g = 0; g < games; g++) {
    const heuristicWhite = g % 2 === 0;
    const end = await playGame(
      variant,
      heuristicWhite ? heuristic : random,
      heuristicWhite ? random : heuristic,
      seed0 + g,
      tally,
    );
    tally.score += end.result!.scores[heuristicWhite ? 0 : 1]!;
    reasons.push(`${heuristicWhite ? 'W' : 'B'}:${end.status}/${end.moves.length}`);
  }
  const avg = (xs: number[] = []) => (xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)).toFixed(1);
  console.log(
    `heuristic vs random (${variant}): ${tally.score}/${games} [${reasons.join(' ')}]; ms/move heuristic ${avg(tally.ms.heuristic)} (max ${Math.max(...(tally.ms.heuristic ?? [0]))}), random ${avg(tally.ms.random)}`,
  );
  return tally;
}

describe('heuristic vs random through the rules engine', () => {
  it('standard: the heuristic scores ≥ 0.75 over 6 games with both colours, every answer in time', async () => {
    const t = await series('standard', 6, 500);
    expect(t.score / t.games).toBeGreaterThanOrEqual(0.75);
  }, 300_000);

  it('variant: legal, in time, and no piece thrown onto an obstacle', async () => {
    const t = await series('variant', 4, 900);
    expect(t.obstacleLosses).toEqual([]);
  }, 300_000);
});
