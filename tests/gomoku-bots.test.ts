// The reference Gomoku bots as real processes speaking CATArena's bot protocol over HTTP.
import http from 'node:http';
import type net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.ts';
import { gomoku, type GomokuMove, type GomokuState } from '../games/gomoku/rules.ts';
import { BotProcesses, postJson as post } from './helpers/bot-process.ts';

const BOTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'games', 'gomoku', 'bots');

const bots = new BotProcesses();
const startBot = (name: string, env: Record<string, string> = {}) => bots.start(join(BOTS, name), env);

/** A 15×15 board with the given black and white stones. */
function boardWith(black: GomokuMove[], white: GomokuMove[]): number[][] {
  const b = Array.from({ length: 15 }, () => Array<number>(15).fill(0));
  for (const [i, j] of black) b[i]![j] = 1;
  for (const [i, j] of white) b[i]![j] = 2;
  return b;
}

// A stand-in game server: only /games/{id}/forbidden_points, as CATArena's variant server has.
const forbiddenByGame = new Map<string, GomokuMove[]>();
let gameServer: http.Server;
let gameServerUrl = '';
let heuristic = '';
let random = '';

beforeAll(async () => {
  gameServer = http.createServer((req, res) => {
    const m = /^\/games\/([^/]+)\/forbidden_points$/.exec(req.url ?? '');
    const points = m ? forbiddenByGame.get(decodeURIComponent(m[1]!)) : undefined;
    res.writeHead(points ? 200 : 404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        points
          ? { game_id: m![1], forbidden_points: points, forbidden_points_count: points.length }
          : { error: 'Game not found' },
      ),
    );
  });
  await new Promise<void>((r) => gameServer.listen(0, '127.0.0.1', r));
  gameServerUrl = `http://127.0.0.1:${(gameServer.address() as net.AddressInfo).port}`;
  [heuristic, random] = await Promise.all([startBot('heuristic'), startBot('random', { BOT_SEED: '7' })]);
});

afterAll(async () => {
  bots.stopAll();
  await new Promise((r) => gameServer?.close(r));
});

describe('protocol', () => {
  it('health, info, join, leave on both bots', async () => {
    for (const url of [heuristic, random]) {
      expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'healthy' });
      const port = new URL(url).port;
      expect((await fetch(`http://localhost:${port}/health`)).status).toBe(200);
      const info = await (await fetch(`${url}/info`)).json();
      expect(typeof info.name).toBe('string');
      const join = await post(url, '/join_game', {
        game_id: 'gomoku_00000001',
        my_color: 'black',
        game_server_url: gameServerUrl,
      });
      expect(join.status).toBe(200);
      expect(join.json).toMatchObject({
        status: 'joined',
        game_id: 'gomoku_00000001',
        my_color: 'black',
        rules: 'standard',
      });
      expect((await post(url, '/leave_game', { game_id: 'gomoku_00000001' })).status).toBe(200);
    }
  });

  it('both bots answer 400 on malformed bodies and stay up', async () => {
    const bad: unknown[] = [
      'not json',
      '[1,2]',
      'null',
      { board: 'x', current_player: 'black' },
      {
        board: [
          [0, 0],
          [0, 0],
        ],
        current_player: 'black',
      },
      { board: boardWith([], []), current_player: 'green' },
      { board: boardWith([], []).map((r, i) => (i === 3 ? [...r, 0] : r)), current_player: 'black' },
      { board: boardWith([], []).map((r, i) => (i === 3 ? r.map(() => 3) : r)), current_player: 'white' },
      { board: boardWith([], []).map((r, i) => (i === 3 ? r.map(() => '0') : r)), current_player: 'white' },
    ];
    for (const url of [heuristic, random]) {
      for (const body of bad) expect((await post(url, '/get_move', body)).status).toBe(400);
      expect((await post(url, '/join_game', { game_id: 'g', my_color: 'red' })).status).toBe(400);
      expect((await post(url, '/join_game', '{')).status).toBe(400);
      expect((await fetch(`${url}/nope`)).status).toBe(404);
      expect((await fetch(`${url}/health`)).status).toBe(200);
    }
  });
});

describe('heuristic bot', () => {
  const move = async (board: number[][], player: 'black' | 'white', gameId = 'unjoined') => {
    const r = await post(heuristic, '/get_move', { game_id: gameId, board, current_player: player });
    expect(r.status).toBe(200);
    return r.json.move as GomokuMove;
  };

  it('opens legally (at the centre) on an empty board without join_game', async () => {
    expect(await move(boardWith([], []), 'black')).toEqual([7, 7]);
  });

  it('takes an immediate win: a four with one open end', async () => {
    // Black (7,3)-(7,6), blocked at (7,2) by white: only (7,7) wins.
    const board = boardWith(
      [
        [7, 3],
        [7, 4],
        [7, 5],
        [7, 6],
      ],
      [
        [7, 2],
        [3, 3],
        [10, 10],
        [0, 14],
      ],
    );
    expect(await move(board, 'black')).toEqual([7, 7]);
    // The same shape for white, vertically, blocked at the bottom.
    const board2 = boardWith(
      [
        [9, 4],
        [2, 2],
        [12, 12],
        [0, 14],
        [14, 0],
      ],
      [
        [5, 4],
        [6, 4],
        [7, 4],
        [8, 4],
      ],
    );
    expect(await move(board2, 'white')).toEqual([4, 4]);
  });

  it('blocks the opponent’s four', async () => {
    // White four on the diagonal (3,3)-(6,6), blocked at (2,2): black must play (7,7).
    const board = boardWith(
      [
        [2, 2],
        [10, 1],
        [12, 3],
        [9, 9],
      ],
      [
        [3, 3],
        [4, 4],
        [5, 5],
        [6, 6],
      ],
    );
    expect(await move(board, 'black')).toEqual([7, 7]);
  });

  it('prefers its own win to blocking', async () => {
    const board = boardWith(
      [
        [10, 3],
        [10, 4],
        [10, 5],
        [10, 6],
        [0, 0],
      ],
      [
        [7, 3],
        [7, 4],
        [7, 5],
        [7, 6],
        [10, 2],
      ],
    );
    expect(await move(board, 'black')).toEqual([10, 7]);
  });

  it('blocks an open three in standard', async () => {
    // White _XXX_ on row 7 with room on both sides; black has nothing: block at an end.
    const board = boardWith(
      [
        [2, 2],
        [12, 12],
        [0, 8],
      ],
      [
        [7, 5],
        [7, 6],
        [7, 7],
      ],
    );
    expect([
      [7, 4],
      [7, 8],
    ]).toContainEqual(await move(board, 'black'));
  });

  it('variant: completes a second triplet, avoiding forbidden cells (learned from the game server)', async () => {
    // Black already has the triplet (7,3)-(7,5); its extensions (7,2), (7,6) are forbidden,
    // and so is (10,5). The only win left is (10,2), completing (10,2),(10,3),(10,4).
    forbiddenByGame.set('gomoku_variant1', [
      [7, 2],
      [7, 6],
      [10, 5],
    ]);
    const join = await post(heuristic, '/join_game', {
      game_id: 'gomoku_variant1',
      my_color: 'black',
      game_server_url: gameServerUrl,
    });
    expect(join.json.rules).toBe('variant');
    const board = boardWith(
      [
        [7, 3],
        [7, 4],
        [7, 5],
        [10, 3],
        [10, 4],
      ],
      [
        [0, 0],
        [0, 7],
        [0, 14],
        [14, 0],
        [14, 14],
      ],
    );
    expect(await move(board, 'black', 'gomoku_variant1')).toEqual([10, 2]);
    // In standard rules the same board is no win at all, and the bot plays elsewhere.
    expect(await move(board, 'black', 'unjoined')).not.toEqual([10, 2]);
  });

  it('variant: blocks the opponent’s second triplet; rules may also come in join_game', async () => {
    // White has triplet (3,3)-(3,5) blocked at (3,2) and (3,6) by black; white's (6,8),(6,9)
    // threatens (6,7) and (6,10), but (6,10) is forbidden, so black must take (6,7).
    const points: GomokuMove[] = [
      [6, 10],
      [0, 5],
    ];
    await post(heuristic, '/join_game', {
      game_id: 'gomoku_variant2',
      my_color: 'black',
      rules: 'variant',
      forbidden_points: points,
    });
    const board = boardWith(
      [
        [3, 2],
        [3, 6],
        [12, 0],
        [12, 14],
        [12, 7],
      ],
      [
        [3, 3],
        [3, 4],
        [3, 5],
        [6, 8],
        [6, 9],
      ],
    );
    const m = await move(board, 'black', 'gomoku_variant2');
    expect(m).toEqual([6, 7]);
  });
});

describe('random bot', () => {
  it('plays only empty, non-forbidden cells', async () => {
    // Everything occupied except row 0; (0,0)-(0,9) forbidden → only (0,10)-(0,14) are legal.
    const board = Array.from({ length: 15 }, (_, i) =>
      Array.from({ length: 15 }, (_, j) => (i === 0 ? 0 : ((i + j) % 2) + 1)),
    );
    const points: GomokuMove[] = Array.from({ length: 10 }, (_, j) => [0, j]);
    await post(random, '/join_game', {
      game_id: 'gomoku_r1',
      my_color: 'white',
      rules: 'variant',
      forbidden_points: points,
    });
    const seen = new Set<number>();
    for (let k = 0; k < 30; k++) {
      const r = await post(random, '/get_move', { game_id: 'gomoku_r1', board, current_player: 'white' });
      expect(r.status).toBe(200);
      const [i, j] = r.json.move;
      expect(i).toBe(0);
      expect(j).toBeGreaterThanOrEqual(10);
      seen.add(j);
    }
    expect(seen.size).toBeGreaterThan(2); // actually random
  });
});

/** Plays one game in-process, asking the bots over HTTP; returns the final state. */
async function playMatch(
  variant: 'standard' | 'variant',
  black: string,
  white: string,
  seed: number,
): Promise<GomokuState> {
  let state = gomoku.init(variant, createRng(seed));
  const gameId = `gomoku_${variant}_${seed}`;
  forbiddenByGame.set(gameId, state.forbidden);
  for (const [url, color] of [
    [black, 'black'],
    [white, 'white'],
  ] as const) {
    const body =
      variant === 'standard'
        ? { game_id: gameId, my_color: color, game_server_url: gameServerUrl, rules: 'standard' }
        : { game_id: gameId, my_color: color, game_server_url: gameServerUrl }; // variant learned by fetch
    const join = await post(url, '/join_game', body);
    expect(join.json.rules).toBe(variant);
  }
  while (!state.result) {
    const seat = state.toMove!;
    const r = await post(seat === 0 ? black : white, '/get_move', {
      game_id: gameId,
      board: state.board,
      current_player: seat === 0 ? 'black' : 'white',
    });
    expect(r.status).toBe(200);
    expect(gomoku.validate(state, seat, r.json.move)).toBeNull();
    state = gomoku.apply(state, seat, r.json.move);
  }
  return state;
}

describe('heuristic vs random over HTTP', () => {
  for (const variant of ['standard', 'variant'] as const) {
    it(`heuristic wins ${variant} games with both colours`, async () => {
      const games = variant === 'standard' ? 10 : 6;
      let score = 0;
      for (let g = 0; g < games; g++) {
        const heuristicBlack = g % 2 === 0;
        const end = await playMatch(
          variant,
          heuristicBlack ? heuristic : random,
          heuristicBlack ? random : heuristic,
          1000 + g,
        );
        score += end.result!.scores[heuristicBlack ? 0 : 1]!;
        expect(end.result!.reason).toBe(variant === 'standard' ? 'five_in_row' : 'two_triplets');
      }
      console.log(`heuristic vs random (${variant}): ${score}/${games}`);
      expect(score).toBeGreaterThanOrEqual(games - 1);
    });
  }
});
