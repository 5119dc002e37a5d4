// Who the game server serves what, over real HTTP, with callers made as a sandbox relay makes them
// (sandbox/relayed-callers.ts connectAsCaller) and plain local connections as a bot nobody vouches
// for: private state only to the seat's holder, the public view and a recorded event for anyone else
// naming the seat, name-based serving only for unvouched seats and unvouched callers, Bridge
// legal_actions refused (403), GET /games and self-play games scoped to their owner.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initBridge } from '../games/bridge/rules.ts';
import { initUndercover } from '../games/undercover/rules.ts';
import { adapterFor } from '../games/registry.ts';
import type { LiveGame } from '../games/core/wire.ts';
import { GameServer } from '../orchestrator/game-server/game-server.ts';
import type { SeatHolder } from '../orchestrator/game-server/seat-ledger.ts';
import { connectAsCaller } from '../sandbox/relayed-callers.ts';
import { createRng } from '../util/rng.ts';

type Reply = { status: number; body: any };

/** One HTTP/1.1 request on a fresh connection: as `caller` through a relay's note, or as nobody vouched for. */
async function call(server: GameServer, method: string, path: string, caller?: string, body?: unknown): Promise<Reply> {
  const socket = caller ? await connectAsCaller(server.port, caller) : net.connect(server.port, '127.0.0.1');
  const text = body === undefined ? '' : JSON.stringify(body);
  socket.write(
    `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
  const raw = await new Promise<string>((resolve, reject) => {
    let data = '';
    socket.on('data', (c) => (data += c));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  const [head, ...rest] = raw.split('\r\n\r\n');
  return { status: Number(head!.split(' ')[1]), body: JSON.parse(rest.join('\r\n\r\n')) };
}

const A = 'caller-a-0123456789abcdef';
const B = 'caller-b-0123456789abcdef';
const live = (server: GameServer, state: unknown): LiveGame => ({
  id: server.newGameId(),
  variant: 'standard',
  state,
  history: [],
  managedByArena: true,
  createdAt: new Date().toISOString(),
});

describe('undercover game server: seats and callers', () => {
  let server: GameServer;
  beforeAll(async () => {
    server = await new GameServer({
      adapter: adapterFor('undercover'),
      variant: 'standard',
      preferCatarenaPort: false,
    }).start();
  });
  afterAll(() => server.close());

  it('serves a word to its seat only, records the others, and serves unvouched seats by name', async () => {
    const game = live(server, initUndercover('standard', createRng(2), { seats: 4 }));
    const holders: SeatHolder[] = [{ callerId: A }, { callerId: B }, 'unvouched', null];
    server.register(game, holders);
    const state = (seat: number, caller?: string) =>
      call(server, 'GET', `/games/${game.id}/state?seat=${seat}`, caller);

    expect((await state(0, A)).body.word).toEqual(expect.any(String));
    const peek = await state(1, A);
    expect(peek.status).toBe(200);
    expect(peek.body.word).toBeUndefined();
    expect(peek.body.statements).toEqual([]); // the public view
    await state(2, A); // an unvouched seat is not A's either
    expect((await state(1, B)).body.word).toEqual(expect.any(String));
    // A caller nobody vouched for: served by name for the unvouched seat only; not attributable.
    expect((await state(2)).body.word).toEqual(expect.any(String));
    expect((await state(0)).body.word).toBeUndefined();
    expect((await state(3)).body.word).toBeUndefined(); // a seat no bot plays

    expect(server.finish(game.id)).toEqual([
      { seat: 0, kind: 'hidden_info_request', count: 2, detail: `GET /games/${game.id}/state?seat=1` },
      {
        seat: 2,
        kind: 'hidden_info_not_enforced',
        count: 1,
        detail: expect.stringContaining('cannot vouch'),
      },
    ]);
    // Finished: its holder still reads its own seat; nothing more is recorded.
    expect((await state(0, A)).body.word).toEqual(expect.any(String));
    expect(server.finish(game.id)).toEqual([]);
  });

  it('charges a bot reading a game it does not play to its seat in the game it plays', async () => {
    const mine = live(server, initUndercover('standard', createRng(3), { seats: 3 }));
    const theirs = live(server, initUndercover('standard', createRng(4), { seats: 3 }));
    server.register(mine, [{ callerId: 'x' }, { callerId: A }, { callerId: 'y' }]);
    server.register(theirs, [{ callerId: 'p' }, { callerId: 'q' }, { callerId: 'r' }]);
    expect((await call(server, 'GET', `/games/${theirs.id}/state?seat=0`, A)).body.word).toBeUndefined();
    expect(server.finish(theirs.id)).toEqual([]);
    expect(server.finish(mine.id)).toEqual([
      { seat: 1, kind: 'hidden_info_request', count: 1, detail: `GET /games/${theirs.id}/state?seat=0` },
    ]);
  });
});

describe('bridge game server: seats and callers', () => {
  let server: GameServer;
  beforeAll(async () => {
    server = await new GameServer({
      adapter: adapterFor('bridge'),
      variant: 'standard',
      preferCatarenaPort: false,
    }).start();
  });
  afterAll(() => server.close());

  it("answers legal_actions to the seat's bot only (403 to others) and lists each caller's own games", async () => {
    const state = initBridge('standard', createRng(5), { seats: 4 });
    const toAct = state.toMove!;
    const game = live(server, state);
    const holders: SeatHolder[] = [0, 1, 2, 3].map((seat) => ({ callerId: seat === toAct ? A : `${B}-${seat}` }));
    server.register(game, holders);
    const other = (toAct + 1) % 4;
    const mineLegal = await call(server, 'GET', `/games/${game.id}/legal_actions?player_id=${toAct}`, A);
    expect(mineLegal.body.legal_actions.length).toBeGreaterThan(0);
    const hand = await call(server, 'GET', `/games/${game.id}/state?player_id=${toAct}`, A);
    expect(hand.body.players[toAct].hand).toHaveLength(13);
    // Seat `other`'s bot asks for the seat to act: no hand, and legal_actions is refused.
    const asOther = `${B}-${other}`;
    expect(
      (await call(server, 'GET', `/games/${game.id}/state?player_id=${toAct}`, asOther)).body.players[toAct].hand,
    ).toBeUndefined();
    const refused = await call(server, 'GET', `/games/${game.id}/legal_actions?player_id=${toAct}`, asOther);
    expect(refused).toEqual({
      status: 403,
      body: { error: `legal_actions?player_id=${toAct} is served only to the bot playing seat ${toAct}` },
    });

    // Self-play: the creator's alone, every seat of it.
    const created = await call(server, 'POST', '/games', A, { seed: 1 });
    const own = created.body.game_id;
    expect((await call(server, 'GET', `/games/${own}/legal_actions?player_id=2`, A)).status).toBe(200);
    expect((await call(server, 'GET', `/games/${own}/state?player_id=2`, B)).status).toBe(404);
    const listed = (caller?: string) =>
      call(server, 'GET', '/games', caller).then((r) => r.body.games.map((g: { game_id: string }) => g.game_id));
    expect(await listed(A)).toEqual([game.id, own]);
    expect(await listed(asOther)).toEqual([game.id]);
    expect(await listed(B)).toEqual([]);
    expect(await listed()).toEqual([]); // nobody vouched for holds no seat here

    expect(server.finish(game.id)).toEqual([
      {
        seat: other,
        kind: 'hidden_info_request',
        count: 2,
        detail: `GET /games/${game.id}/state?player_id=${toAct}`,
      },
    ]);
  });
});
