// The game-server API bots call back into, with CATArena's shapes (compat §2.2, §2.4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gomokuWire } from '../games/gomoku/wire.ts';
import { GameServer } from '../orchestrator/game-server/game-server.ts';
import { unvouchedSeats } from '../orchestrator/game-server/seat-ledger.ts';
import { createRng } from '../util/rng.ts';
import { gomoku } from '../games/gomoku/rules.ts';

const servers: GameServer[] = [];
let std: GameServer;
let variant: GameServer;

beforeAll(async () => {
  std = await new GameServer({ adapter: gomokuWire, variant: 'standard', preferCatarenaPort: false }).start();
  variant = await new GameServer({ adapter: gomokuWire, variant: 'variant', preferCatarenaPort: false }).start();
  servers.push(std, variant);
});
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function call(server: GameServer, method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Record<string, any> };
}

describe('standard game server', () => {
  it('answers health', async () => {
    const r = await call(std, 'GET', '/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'healthy', board_size: 15 });
    expect(r.type).toBe('application/json');
  });

  it('creates a self-play game and plays it move by move', async () => {
    const created = await call(std, 'POST', '/games', { player_black: 'a', player_white: 'b' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      game_id: expect.stringMatching(/^gomoku_[0-9a-f]{8}$/),
      first_player: 'black',
      board_size: 15,
    });
    const id = created.body.game_id;
    const state0 = await call(std, 'GET', `/games/${id}/state`);
    expect(state0.body).toEqual({
      current_player: 'black',
      board: expect.any(Array),
      last_move: null,
      game_status: 'ongoing',
    });

    expect((await call(std, 'POST', `/games/${id}/move`, { player: 'white', position: [7, 7] })).body).toEqual({
      status: 'invalid_move',
      error: 'Not your turn',
    });
    expect((await call(std, 'POST', `/games/${id}/move`, { player: 'black', position: [7, 7] })).body).toEqual({
      status: 'valid_move',
      game_status: 'ongoing',
    });
    const occupied = await call(std, 'POST', `/games/${id}/move`, { player: 'white', position: [7, 7] });
    expect(occupied).toMatchObject({
      status: 400,
      body: { status: 'invalid_move', error: 'Position already occupied' },
    });
    expect((await call(std, 'POST', `/games/${id}/move`, { player: 'white', position: [15, 0] })).body.error).toBe(
      'Position out of board',
    );
    expect((await call(std, 'POST', `/games/${id}/move`, { player: 'white' })).body).toEqual({
      error: 'Player and position must be specified',
    });
    expect((await call(std, 'POST', `/games/${id}/move`, { player: 'red', position: [0, 0] })).body).toEqual({
      error: "Player must be 'black' or 'white'",
    });

    // Black builds five on row 7 while white plays row 0.
    for (let k = 1; k <= 4; k++) {
      await call(std, 'POST', `/games/${id}/move`, { player: 'white', position: [0, k] });
      const r = await call(std, 'POST', `/games/${id}/move`, { player: 'black', position: [7, 7 + k] });
      expect(r.body.game_status).toBe(k === 4 ? 'black_win' : 'ongoing');
    }
    const final = await call(std, 'GET', `/games/${id}/state`);
    expect(final.body).toMatchObject({ game_status: 'black_win', current_player: 'black', last_move: [7, 11] });
    expect((await call(std, 'POST', `/games/${id}/move`, { player: 'white', position: [1, 1] })).body.error).toBe(
      'Game is already over',
    );
    const history = await call(std, 'GET', `/games/${id}/history`);
    expect(history.body.moves).toHaveLength(9);
    expect(history.body.moves[0]).toEqual({
      player: 'black',
      position: [7, 7],
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('has no forbidden_points route and answers 404s in CATArena words', async () => {
    const id = (await call(std, 'POST', '/games', {})).body.game_id;
    expect(await call(std, 'GET', `/games/${id}/forbidden_points`)).toMatchObject({
      status: 404,
      body: { error: 'Endpoint not found' },
    });
    expect(await call(std, 'GET', '/games/gomoku_00000000/state')).toMatchObject({
      status: 404,
      body: { error: 'Game not found' },
    });
    expect(await call(std, 'GET', '/nowhere')).toMatchObject({ status: 404, body: { error: 'Endpoint not found' } });
  });

  it('serves arena games read-only', async () => {
    const id = std.newGameId();
    std.register(
      {
        id,
        variant: 'standard',
        state: gomoku.init('standard', createRng(1)),
        history: [],
        managedByArena: true,
        createdAt: new Date().toISOString(),
      },
      unvouchedSeats(2),
    );
    expect((await call(std, 'GET', `/games/${id}/state`)).body.game_status).toBe('ongoing');
    expect((await call(std, 'POST', `/games/${id}/move`, { player: 'black', position: [7, 7] })).status).toBe(403);
  });

  it('keeps the newest 16 finished arena games, so its memory does not grow with the games played', async () => {
    const server = await new GameServer({
      adapter: gomokuWire,
      variant: 'standard',
      preferCatarenaPort: false,
    }).start();
    servers.push(server);
    const selfPlay = (await call(server, 'POST', '/games', { player_black: 'a', player_white: 'b' })).body.game_id;
    const ids = Array.from({ length: 100 }, () => server.newGameId());
    for (const id of ids) {
      server.register(
        {
          id,
          variant: 'standard',
          state: gomoku.init('standard', createRng(1)),
          history: [],
          managedByArena: true,
          createdAt: new Date().toISOString(),
        },
        unvouchedSeats(2),
      );
      server.finish(id);
    }
    expect((await call(server, 'GET', `/games/${ids[83]}/state`)).status).toBe(404);
    expect((await call(server, 'GET', `/games/${ids[84]}/state`)).status).toBe(200);
    expect((await call(server, 'GET', `/games/${ids[99]}/state`)).body.game_status).toBe('ongoing');
    // Self-play games have their own window: arena games do not push them out.
    expect((await call(server, 'GET', `/games/${selfPlay}/state`)).status).toBe(200);
    expect((await call(server, 'GET', '/games')).body.total_games).toBe(17);
    expect((await call(server, 'GET', '/health')).body.active_games).toBe(0);
  });
});

describe('variant game server', () => {
  it('adds forbidden points and triplet counts', async () => {
    const created = await call(variant, 'POST', '/games', {});
    expect(created.body).toMatchObject({ first_player: 'black', board_size: 15, forbidden_points_count: 15 });
    const id = created.body.game_id;
    const fp = await call(variant, 'GET', `/games/${id}/forbidden_points`);
    expect(fp.body.forbidden_points).toHaveLength(15);
    expect(fp.body.forbidden_points_count).toBe(15);
    const state = await call(variant, 'GET', `/games/${id}/state`);
    expect(state.body).toMatchObject({
      black_triplets_count: 0,
      white_triplets_count: 0,
      forbidden_points: fp.body.forbidden_points,
    });
    const [fi, fj] = fp.body.forbidden_points[0];
    expect((await call(variant, 'POST', `/games/${id}/move`, { player: 'black', position: [fi, fj] })).body).toEqual({
      status: 'invalid_move',
      error: 'Position is forbidden',
    });
    expect((await call(variant, 'GET', '/health')).body).toMatchObject({ status: 'healthy', version: 'gomoku_v1.0' });
  });
});
