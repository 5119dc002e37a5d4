// Bridge end to end through the process sandbox: CATArena's /join_game and /get_action bodies and
// what they show of the other hands, a CATArena-shaped Flask bot that joins the game server and
// reads its legal actions there (hard-coded URL), forfeits under both policies and their IMPs,
// duplicate fairness (a deterministic bot against itself scores exactly 10 VP), and a failed join
// that does not forfeit. Both partners of a team run as two processes of the same bot.
// Over 30 s: a dozen duplicate matches of four bot processes each, Flask bots among them (about 30 s at load).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runArena, type ArenaOptions } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { DEFAULT_LIMITS, type MatchResult } from '../records/match.ts';
import { RUN_FILES } from '../records/run-layout.ts';
import { duplicateGames, duplicateMatchesOf } from '../reports/metrics/duplicate.ts';
import { createSandbox } from '../sandbox/index.ts';
import { allocatePort } from '../sandbox/ports.ts';
import { adapterFor } from '../games/registry.ts';
import { BUILTIN, botDir, hasFlask, SANDBOX_KINDS, sharedBot, tempDir } from './helpers/bots.ts';
import { readReplaySync } from './helpers/replays.ts';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures', 'bots');
const SEAT_NAMES = ['north', 'east', 'south', 'west'];
// The recorders write their requests in their own folder, which only the unsafe sandbox lets them
// do (the Flask bot under the isolated default: tests/hidden-info-bridge.test.ts).
const sandbox = createSandbox('unsafe');
afterAll(() => sandbox.close());

/**
 * runArena for bridge (`reps` = boards per duplicate match) on a game server at `port` (for a bot
 * that hard-codes it), else on a port the kernel picks as the server binds: no gap between choosing
 * a port and binding it in which another process could take it.
 */
async function arena(
  bots: Array<{ id: string; dir: string }>,
  variant: string,
  extra: Partial<ArenaOptions> & { port?: number } = {},
) {
  const { port, ...rest } = extra;
  const hosts = new GameServerPool(port ? { ports: { [`bridge/${variant}`]: port } } : { preferCatarenaPorts: false });
  try {
    return await runArena({
      game: 'bridge',
      variant,
      bots,
      reps: 1,
      seed: 7,
      concurrency: 2,
      limits: { ...DEFAULT_LIMITS, moveMs: 3_000 },
      policy: 'strict',
      runDir: tempDir('catarena-bridge-'),
      sandbox,
      hosts,
      startTimeoutMs: 15_000,
      ...rest,
    });
  } finally {
    await hosts.closeAll();
  }
}

/**
 * A node bot: `answer(body, h)` (JS source; h hashes a string to a uint32) answers /get_action
 * (an answer {status_code: N} is an HTTP N), `join(body, url, raw)` → [status, body] answers
 * /join_game (with or without a query). Each process logs its requests to requests-<port>.jsonl
 * (both partners' processes share the folder).
 */
function scriptedBot(name: string, answer: string, join = '() => [200, { status: "joined" }]'): string {
  const code = `const fs = require('fs');
const crypto = require('crypto');
const port = +process.argv[2];
const h = (s) => crypto.createHash('sha256').update(String(s)).digest().readUInt32BE(0);
const answer = ${answer};
const join = ${join};
require('http').createServer((q, s) => {
  let b = '';
  q.on('data', (c) => (b += c));
  q.on('end', async () => {
    s.setHeader('content-type', 'application/json');
    if (q.url === '/health') return s.end('{"status":"ok"}');
    let body = null;
    try { body = JSON.parse(b); } catch {}
    fs.appendFileSync('requests-' + port + '.jsonl', JSON.stringify({ path: q.url, content_type: q.headers['content-type'], body }) + '\\n');
    if (q.url.split('?')[0] === '/join_game') { const [status, out] = join(body, q.url, b); s.statusCode = status; return s.end(JSON.stringify(out)); }
    if (q.url === '/leave_game') return s.end('{"status":"left"}');
    if (q.url !== '/get_action') { s.statusCode = 404; return s.end('{}'); }
    const out = await answer(body, h);
    if (out && out.status_code) { s.statusCode = out.status_code; return s.end(JSON.stringify({ error: 'refused' })); }
    s.end(typeof out === 'string' ? out : JSON.stringify(out));
  });
}).listen(port);
`;
  return botDir(name, '#!/bin/bash\ncd "$(dirname "$0")"\nexec node bot.cjs "$1"\n', { 'bot.cjs': code });
}

/**
 * A legal action picked by a hash of `key` (JS expression over b = the request body): the lowest
 * bid when nobody has bid (so boards are played), then pass 3 times in 4 or a random call; a
 * random card or exchange. Wrapped as {"action": …}.
 */
const chooser = (key: string) => `(b, h) => {
  const L = b.legal_actions, gs = b.game_state, key = ${key};
  if (L[0].type === 'call') {
    if (!gs.bidding.calls.some((c) => c.call_type === 'bid')) return { action: L[1] };
    return { action: h(key) % 4 ? L[0] : L[h(key + '!') % L.length] };
  }
  return { action: L[h(key) % L.length] };
}`;
/** Seeded by game id and seat (and the progress of the board): differs between rooms. */
const RANDOM = chooser(
  "[b.game_id, b.player_id, gs.phase, gs.bidding.calls.length, gs.players[b.player_id].hand_size, gs.current_trick.length].join(':')",
);
/** A pure function of the request minus the game id and the names: the same in both rooms. */
const PURE = chooser(
  'JSON.stringify({ ...gs, game_id: null, players: gs.players.map((p) => ({ ...p, name: null })), legal: b.legal_actions, seat: b.player_id })',
);

type Logged = { path: string; content_type?: string; body: any; server_join?: any; server_legal?: any[] };
function requestsOf(dir: string): Logged[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^requests-\d+\.jsonl$/.test(f))
    .flatMap((f) =>
      fs
        .readFileSync(path.join(dir, f), 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Logged),
    );
}

/**
 * The opponents (RANDOM, a pure function of the request) of the Flask, retry and failure tests
 * below: one process serves all their arenas as the team's first seat (each arena starts the
 * partner's process). The request-body test starts its own, as it reads that bot's requests.
 */
const opponent = sharedBot(sandbox, scriptedBot('rnd', RANDOM), adapterFor('bridge').health);

/** Flask bot with the game-server port written into its source, as CATArena bots hard-code 9030. */
function flaskBridgeBot(port: number): string {
  const source = fs.readFileSync(path.join(FIXTURES, 'catarena_bridge.py'), 'utf8').replace('__PORT__', String(port));
  return botDir('flask_bridge', '#!/bin/bash\ncd "$(dirname "$0")"\nexec python3 catarena_bridge.py --port "$1"\n', {
    'catarena_bridge.py': source,
  });
}

describe("CATArena's request bodies", () => {
  it('join_game and get_action shapes; only legitimately visible hands', async () => {
    const dir = scriptedBot('rec', RANDOM);
    const other = scriptedBot('rnd', RANDOM);
    const out = await arena(
      [
        { id: 'rec', dir },
        { id: 'rnd', dir: other },
      ],
      'standard',
      { reps: 2 },
    );
    expect(out.results).toHaveLength(4);
    for (const r of out.results) expect(r.termination, r.reason).toBe('normal');
    const requests = requestsOf(dir);

    const joins = requests.filter((q) => q.path === '/join_game');
    expect(joins).toHaveLength(8); // 2 seats × 4 rooms
    for (const j of joins) {
      expect(j.content_type).toBe('application/json');
      // Exactly CATArena's join body: no player_name (the magic example depends on it, below).
      expect(Object.keys(j.body).sort()).toEqual(['game_id', 'player_id']);
      expect(j.body.game_id).toMatch(/^bridge_[0-9a-f]{8}$/);
      expect([0, 1, 2, 3]).toContain(j.body.player_id);
    }

    // Both teams' requests: the deals are random (seeded by the random game ids), so one team may
    // never declare in 4 rooms (about 1 run in 16), but some team declares in every room not passed out.
    const asks = [...requests, ...requestsOf(other)].filter((q) => q.path === '/get_action').map((q) => q.body);
    let dummyTurns = 0;
    let afterLead = 0;
    for (const b of asks) {
      expect(Object.keys(b).sort()).toEqual(['game_id', 'game_state', 'legal_actions', 'player_id', 'position']);
      expect(b.position).toBe(SEAT_NAMES[b.player_id]);
      const gs = b.game_state;
      expect(gs.game_id).toBe(b.game_id);
      expect(gs.current_player_id).toBe(b.player_id);
      expect(b.legal_actions.length).toBeGreaterThan(0);
      // CATArena's servers list hands and legal cards clubs to spades, 2 to A (card_id order).
      const ids = (cards: string[]) => cards.map((c) => 13 * 'CDHS'.indexOf(c[1]!) + '23456789TJQKA'.indexOf(c[0]!));
      const ascending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1]! < x);
      expect(
        ascending(ids(b.legal_actions.filter((a: { card?: string }) => a.card).map((a: { card: string }) => a.card))),
      ).toBe(true);
      for (const p of gs.players)
        if (p.hand) expect(ascending(p.hand.map((c: { card_id: number }) => c.card_id))).toBe(true);
      expect(
        b.legal_actions.every((a: { type: string }) => a.type === (gs.phase === 'bidding' ? 'call' : 'play')),
      ).toBe(true);
      const played = 52 - gs.players.reduce((s: number, p: { hand_size: number }) => s + p.hand_size, 0);
      const lead = gs.phase === 'playing' && played > 0;
      const visible = new Set<number>([b.player_id]);
      if (lead) {
        visible.add(gs.dummy_id);
        afterLead++;
      }
      if (lead && b.player_id === gs.dummy_id) {
        visible.add(gs.declarer_id);
        dummyTurns++;
      }
      for (const p of gs.players) {
        if (visible.has(p.player_id)) {
          expect(p.hand, `seat ${p.player_id} to ${b.player_id}`).toHaveLength(p.hand_size);
          expect(p.hand_summary).toBeDefined();
        } else {
          expect(p.hand, `seat ${p.player_id} hidden from ${b.player_id}`).toBeUndefined();
          expect(p.hand_summary).toBeUndefined();
          expect(p.high_card_points).toBeUndefined();
        }
      }
    }
    expect(dummyTurns).toBeGreaterThan(0);
    expect(afterLead).toBeGreaterThan(dummyTurns);
    // Before the lead only the own hand: checked above for the auction and the opening lead.
    expect(asks.some((b) => b.game_state.phase === 'bidding')).toBe(true);
  });
});

/**
 * One Flask bridge bot for the three Flask arenas below (a Flask start costs about a second of
 * CPU): the first seat of its team is this process in all of them (the partner's process is each
 * arena's own), and the game-server port it hard-codes is the same for all three, kept handed out
 * (allocatePort) so that no bot of this file gets it. Its request logs are cleared for each arena.
 */
let flaskShared:
  | Promise<{ port: number; dir: string; ref: (id: string) => Promise<{ id: string; dir: string }> }>
  | undefined;
async function sharedFlaskBridge() {
  flaskShared ??= allocatePort().then((port) => {
    const dir = flaskBridgeBot(port);
    return { port, dir, ref: sharedBot(sandbox, dir, adapterFor('bridge').health) };
  });
  const flask = await flaskShared;
  for (const f of fs.readdirSync(flask.dir)) if (/^requests-\d+\.jsonl$/.test(f)) fs.rmSync(path.join(flask.dir, f));
  return flask;
}

describe.skipIf(!hasFlask())('a CATArena-shaped Flask bridge bot with a hard-coded server', () => {
  for (const variant of ['standard', 'variant']) {
    it(`joins the server, reads legal actions there and plays full boards (${variant})`, async () => {
      const { port, dir, ref } = await sharedFlaskBridge();
      const out = await arena([await ref('flask'), await opponent('rnd')], variant, {
        port,
        limits: { ...DEFAULT_LIMITS, moveMs: 5_000 },
      });
      expect(out.results.map((r) => r.spec.duplicate!.room).sort()).toEqual(['closed', 'open']);
      for (const r of out.results) {
        expect(r.termination, r.reason).toBe('normal');
        expect(r.plies).toBeGreaterThan(52);
        expect(r.detail!.contract).not.toBeNull();
      }
      const requests = requestsOf(dir);
      const joins = requests.filter((q) => q.path === '/join_game');
      expect(joins).toHaveLength(4);
      for (const j of joins)
        expect(j.server_join).toEqual({
          status: 200,
          body: { game_id: j.body.game_id, player_id: j.body.player_id, player_name: 'flask_bridge', status: 'joined' },
        });
      const asks = requests.filter((q) => q.path === '/get_action');
      for (const q of asks) expect(q.server_legal).toEqual(q.body.legal_actions);
      const kinds = new Set(asks.flatMap((q) => q.server_legal!.map((a: { type: string }) => a.type)));
      expect([...kinds].sort()).toEqual(variant === 'variant' ? ['call', 'exchange', 'play'] : ['call', 'play']);
      if (variant === 'variant') {
        const exchanging = asks.find((q) => q.body.game_state.phase === 'exchanging')!.body.game_state;
        expect(exchanging).toMatchObject({
          suit_order: { suit_order: ['C', 'D', 'H', 'S'] },
          card_exchange: expect.any(Object),
          my_exchange_request: null,
        });
        const playing = asks.filter((q) => q.body.game_state.phase === 'playing').map((q) => q.body.game_state);
        for (const gs of playing) {
          const own = [gs.current_player_id, (gs.current_player_id + 2) % 4].map(String).sort();
          expect(Object.keys(gs.exchange_history.exchange_requests).sort()).toEqual(own);
          expect(typeof gs.my_exchanged_card).toBe('string');
        }
      }
    });
  }
});

/** The magic-bridge example's behaviour (tests/fixtures/bots/catarena_bridge_magic.py), started as it is: nohup, health check, exit. */
function magicExampleBot(): string {
  return botDir(
    'magic_example',
    '#!/bin/bash\nPORT=${1:-50006}\nSCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\ncd "$SCRIPT_DIR"\nnohup python3 catarena_bridge_magic.py --port $PORT &\nsleep 2\nif curl -s http://localhost:$PORT/health > /dev/null 2>&1; then echo "started on $PORT"; else echo "failed to start"; exit 1; fi\n',
    {
      'catarena_bridge_magic.py': fs.readFileSync(path.join(FIXTURES, 'catarena_bridge_magic.py'), 'utf8'),
    },
  );
}

// The two rule sets at once: each is its own arena and bot folder, and its start script sleeps 2 s.
describe.skipIf(!hasFlask())(
  "CATArena's magic-bridge AI example (its exact request/response behaviour)",
  { concurrent: true },
  () => {
    for (const variant of ['standard', 'variant']) {
      it(`plays every board of a duplicate match: its join fails harmlessly as under CATArena, every turn is answered (${variant})`, async ({
        expect,
      }) => {
        const dir = magicExampleBot();
        const boards = 3;
        const out = await arena(
          [
            { id: 'magic', dir },
            { id: 'heuristic', dir: BUILTIN('heuristic', 'bridge') },
          ],
          variant,
          { reps: boards, limits: { ...DEFAULT_LIMITS, moveMs: 5_000 } },
        );
        expect(out.results).toHaveLength(2 * boards);
        for (const r of out.results) {
          expect(r.termination, r.reason).toBe('normal');
          const seats = r.spec.seats.flatMap((id, seat) => (id.startsWith('magic') ? [seat] : []));
          for (const seat of seats) expect(r.seatStats[seat]!.errors).toEqual({ join_failed: 1 });
        }
        const requests = requestsOf(dir) as Array<Logged & { status: number }>;
        const joins = requests.filter((q) => q.path === '/join_game');
        expect(joins).toHaveLength(2 * 2 * boards);
        for (const j of joins) expect(j.status).toBe(400);
        const turns = requests.filter((q) => q.path === '/get_action');
        expect(turns.length).toBeGreaterThan(2 * boards * 13);
        for (const t of turns) expect(t.status).toBe(200);
        if (variant === 'variant') expect(turns.some((t) => t.body.game_state.phase === 'exchanging')).toBe(true);
      });
    }
  },
);

describe("CATArena's retries", () => {
  it('a join refused with 400 "Missing …" is retried once with the fields in the query and a form body', async () => {
    const join = `(body, url) => url.includes('player_name=') ? [200, { status: 'joined' }] : [400, { error: 'Missing player_name' }]`;
    const dir = scriptedBot('form', RANDOM, join);
    const out = await arena([{ id: 'form', dir }, await opponent('rnd')], 'standard');
    for (const r of out.results) {
      expect(r.termination, r.reason).toBe('normal');
      for (const stats of r.seatStats) expect(stats.errors.join_failed).toBeUndefined();
      // The runner records each seat's join requests, the retry included; the journal carries them.
      expect(r.seatStats.map((s) => s.joins)).toEqual(r.spec.seats.map((id) => (id === 'form' ? 2 : 1)));
    }
    const journal = fs
      .readFileSync(path.join(out.runDir, RUN_FILES.journal), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as MatchResult);
    expect(journal.map((r) => r.seatStats.map((s) => s.joins))).toEqual(
      out.results.map((r) => r.seatStats.map((s) => s.joins)),
    );
    const joins = requestsOf(dir).filter((q) => q.path.startsWith('/join_game'));
    expect(joins).toHaveLength(8); // 4 seats × 2 rooms, twice each
    const retries = joins.filter((q) => q.path !== '/join_game');
    expect(retries).toHaveLength(4);
    for (const q of retries) {
      expect(q.content_type).toBe('application/x-www-form-urlencoded');
      const query = new URLSearchParams(q.path.split('?')[1]);
      expect(query.get('game_id')).toMatch(/^bridge_[0-9a-f]{8}$/);
      expect(query.get('player_name')).toBe('form');
      expect(['0', '1', '2', '3']).toContain(query.get('player_id'));
    }
  });

  it('a turn answered with an HTTP error is asked once more with {game_id, game_state}; the answer to that plays', async () => {
    // Refuses the full body; answers the minimal one from the state alone (an older bot's habit).
    const minimal = `(b) => {
      if (b.legal_actions) return { status_code: 500 };
      const gs = b.game_state;
      if (gs.phase === 'bidding') return gs.bidding.calls.some((c) => c.call_type === 'bid') ? { call_type: 'pass' } : { action: { call_type: 'bid', level: 1, suit: 'C' } };
      const hand = gs.players[gs.current_player_id].hand;
      const led = gs.current_trick.length ? gs.current_trick[0][1][1] : null;
      const card = hand.find((c) => c.suit === led) ?? hand[0];
      return { card: card.rank + card.suit };
    }`;
    const dir = scriptedBot('old', minimal);
    const out = await arena([{ id: 'old', dir }, await opponent('rnd')], 'standard');
    for (const r of out.results) expect(r.termination, r.reason).toBe('normal');
    const replays = out.results.map((r) => readReplaySync(out.runDir, r.id));
    const oldMoves = replays.flatMap((rp, k) =>
      rp.moves.filter((m: { seat: number }) => out.results[k]!.spec.seats[m.seat]!.startsWith('old')),
    );
    expect(oldMoves.length).toBeGreaterThan(13);
    for (const m of oldMoves) expect(m.retriedAfter).toMatch(/^HTTP 500/);
    const asks = requestsOf(dir).filter((q) => q.path === '/get_action');
    expect(
      asks
        .filter((q) => !q.body.legal_actions)
        .every((q) => Object.keys(q.body).sort().join() === 'game_id,game_state'),
    ).toBe(true);
    expect(asks.filter((q) => !q.body.legal_actions)).toHaveLength(oldMoves.length);
  });
});

describe.skipIf(!SANDBOX_KINDS.includes('docker' as never))('the Docker sandbox', () => {
  it('runs each partnership as two containers and plays both rooms to normal ends', async () => {
    const docker = createSandbox('docker');
    try {
      const out = await arena(
        [
          { id: 'heuristic', dir: BUILTIN('heuristic', 'bridge') },
          { id: 'random', dir: BUILTIN('random', 'bridge') },
        ],
        'variant',
        { sandbox: docker, reps: 2 },
      );
      expect(out.results).toHaveLength(4);
      for (const r of out.results) expect(r.termination, r.reason).toBe('normal');
      expect(out.bots.map((b) => b.id).sort()).toEqual(['heuristic', 'heuristic#2', 'random', 'random#2']);
      for (const b of out.bots) expect(b.starts).toBe(1);
    } finally {
      await docker.close();
    }
  }, 120_000);
});

const RANDOM_REF = BUILTIN('random', 'bridge');
describe.skipIf(!hasFlask() || !fs.existsSync(path.join(RANDOM_REF, 'bot.mjs')))('the reference random bot', () => {
  it('plays the Flask bot to normal ends', async () => {
    const { port, ref } = await sharedFlaskBridge();
    const out = await arena([await ref('flask'), { id: 'random', dir: RANDOM_REF }], 'standard', {
      port,
      limits: { ...DEFAULT_LIMITS, moveMs: 5_000 },
    });
    expect(out.results).toHaveLength(2);
    for (const r of out.results) expect(r.termination, r.reason).toBe('normal');
  });
});

/** Fails (in the bidding, when seated NS / EW) as `ns` / `ew` say: 'timeout', 'malformed', 'illegal', or null = plays. */
function failingBot(name: string, ns: string, ew = 'null'): string {
  return scriptedBot(
    name,
    `(b, h) => {
  const mode = (b.player_id % 2 === 0 ? ${ns} : ${ew});
  if (mode && b.game_state.phase === 'bidding') {
    if (mode === 'timeout') return new Promise((r) => setTimeout(() => r({ action: b.legal_actions[0] }), 4000));
    if (mode === 'malformed') return { pass: true };
    if (mode === 'illegal') return { action: { type: 'call', call_type: 'bid', level: 8, suit: 'NT' } };
  }
  return (${RANDOM})(b, h);
}`,
  );
}

describe('failures', () => {
  // The timeout sleeps 4 s against a 2 s deadline; the bad team's honest calls answer in
  // milliseconds, with room on a loaded machine; the good team is not the one under test.
  const FAILURE_LIMITS = { ...DEFAULT_LIMITS, moveMs: 2_000, seatMoveMs: { good: 30_000 } };
  it('strict: the failing side forfeits the room, worth +3 IMPs to the other team', async () => {
    // Board 1: timeout, board 2: malformed, board 3: illegal, each only when the bad team sits NS.
    const bad = failingBot('bad', "({ 1: 'timeout', 2: 'malformed', 3: 'illegal' })[b.game_state.board_id]");
    const out = await arena([{ id: 'bad', dir: bad }, await opponent('good')], 'standard', {
      reps: 3,
      limits: FAILURE_LIMITS,
    });
    expect(out.results).toHaveLength(6);
    const expected: Record<number, string> = { 1: 'timeout', 2: 'malformed', 3: 'illegal' };
    for (const r of out.results) {
      const d = r.spec.duplicate!;
      if (d.room === 'closed') {
        expect(r.termination, r.reason).toBe('normal');
        continue;
      }
      expect(r.termination).toBe(expected[d.board]);
      expect(r.spec.seats[r.offender!]).toBe('bad');
      expect(r.scores).toEqual([0, 1, 0, 1]); // bad sits NS in the open room
      expect(r.detail).toMatchObject({ ns_score: 0, forfeit: 'NS', board: d.board });
    }
    const [match] = duplicateMatchesOf(out.results);
    expect(match!.teams).toEqual(['bad', 'good']);
    expect(match!.boards.map((b) => b.imps)).toEqual([-3, -3, -3]);
    expect(match!.boards.map((b) => b.forfeits)).toEqual([1, 2, 3].map(() => ({ open: 'bad', closed: undefined })));
    expect(match!.imps).toBe(-9);
    expect(match!.vp[1]).toBeGreaterThan(10);
  });

  it('catarena: an illegal call is a 0–0 board, a timeout gives the opponents 100', async () => {
    // Illegal when NS (open room), timeout when EW (closed room).
    const bad = failingBot('bad', "'illegal'", "'timeout'");
    const out = await arena([{ id: 'bad', dir: bad }, await opponent('good')], 'standard', {
      policy: 'catarena',
      limits: FAILURE_LIMITS,
    });
    const open = out.results.find((r) => r.spec.duplicate!.room === 'open')!;
    const closed = out.results.find((r) => r.spec.duplicate!.room === 'closed')!;
    expect(open.termination).toBe('illegal');
    expect(open.reason).toMatch(/Invalid level or suit/);
    expect(open.scores).toEqual([0.5, 0.5, 0.5, 0.5]);
    expect(open.detail).toMatchObject({ ns_score: 0 });
    expect(closed.termination).toBe('timeout');
    expect(closed.spec.seats[closed.offender!]).toBe('bad');
    expect(closed.detail).toMatchObject({ ns_score: 100, forfeit: 'EW' }); // good sits NS in the closed room
    const [match] = duplicateMatchesOf(out.results);
    expect(match!.boards[0]).toMatchObject({ open: 0, closed: 100, imps: -3 }); // the recorded scores stand
  });

  it('a bot whose join_game fails still plays: no forfeit', async () => {
    const sulky = scriptedBot('sulky', RANDOM, '() => [500, { error: "failed to join the game server" }]');
    const out = await arena([{ id: 'sulky', dir: sulky }, await opponent('good')], 'standard');
    expect(out.results).toHaveLength(2);
    for (const r of out.results) {
      expect(r.termination, r.reason).toBe('normal');
      r.spec.seats.forEach((id, seat) =>
        expect(r.seatStats[seat]!.errors.join_failed ?? 0).toBe(id === 'sulky' ? 1 : 0),
      );
    }
  });
});

// The two rule sets at once: each is its own arena with its own bots.
describe('duplicate fairness', { concurrent: true }, () => {
  for (const variant of ['standard', 'variant']) {
    it(`a deterministic bot against itself scores exactly 10 VP (${variant})`, async ({ expect }) => {
      const out = await arena(
        [
          { id: 'A', dir: scriptedBot('A', PURE) },
          { id: 'A2', dir: scriptedBot('A2', PURE) },
        ],
        variant,
        { reps: 4, seed: 99 },
      );
      expect(out.results).toHaveLength(8);
      for (const r of out.results) expect(r.termination, r.reason).toBe('normal');
      const [match] = duplicateMatchesOf(out.results);
      expect(match!.boards).toHaveLength(4);
      for (const b of match!.boards) {
        expect(b.open).toBe(b.closed);
        expect(b.imps).toBe(0);
      }
      // Not trivially equal: boards were played to non-zero results.
      expect(match!.boards.some((b) => b.open !== 0)).toBe(true);
      expect(match!.vp).toEqual([10, 10]);
      expect(duplicateGames(out.results, (id) => ({ agent: id, round: 1 })).map((g) => g.scoreA)).toEqual([0.5]);
    });
  }
});
