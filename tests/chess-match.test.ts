// Chess end to end through the process sandbox: a CATArena-shaped Python/Flask bot that hard-codes
// the game-server URL and reads legal moves from it, the reference bots, and chess-specific
// failures (uppercase promotion, empty move, no move).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runArena, type ArenaOptions } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';
import { allocatePort, releasePort } from '../sandbox/ports.ts';
import { adapterFor } from '../games/registry.ts';
import { BUILTIN, botDir, hasFlask, sharedBot, tempDir } from './helpers/bots.ts';

const FIXTURES = path.resolve(import.meta.dirname, 'fixtures', 'bots');
// unsafe: the Flask bot's recorded requests are read from its folder, which only a plain process can write.
const sandbox = createSandbox('unsafe');
afterAll(() => sandbox.close());

async function arena(bots: Array<{ id: string; dir: string }>, variant: string, extra: Partial<ArenaOptions> = {}) {
  const port = await allocatePort();
  releasePort(port);
  const hosts = new GameServerPool({ ports: { [`chess/${variant}`]: port } });
  try {
    return {
      port,
      out: await runArena({
        game: 'chess',
        variant,
        bots,
        reps: 1,
        seed: 3,
        concurrency: 2,
        limits: { ...DEFAULT_LIMITS, moveMs: 3_000 },
        policy: 'strict',
        runDir: tempDir('catarena-chess-'),
        sandbox,
        hosts,
        startTimeoutMs: 10_000,
        ...extra,
      }),
    };
  } finally {
    await hosts.closeAll();
  }
}

/** A Flask bot with the game-server port written into its source, as CATArena bots do. */
function flaskChessBot(port: number): string {
  const source = fs.readFileSync(path.join(FIXTURES, 'catarena_chess.py'), 'utf8').replace('__PORT__', String(port));
  return botDir('flask_chess', '#!/bin/bash\ncd "$(dirname "$0")"\npython3 catarena_chess.py "$1"\n', {
    'catarena_chess.py': source,
  });
}

/** A node bot answering a fixed (bad) move. */
function fixedMoveBot(answer: unknown): string {
  const code = `require('http').createServer((q, s) => {
  s.setHeader('content-type', 'application/json');
  if (q.url === '/health') return s.end('{"status":"healthy"}');
  let b = '';
  q.on('data', (c) => (b += c));
  q.on('end', () => s.end(JSON.stringify(${JSON.stringify(answer)})));
}).listen(+process.argv[2]);
`;
  return botDir('fixed', '#!/bin/bash\ncd "$(dirname "$0")"\nexec node bot.cjs "$1"\n', { 'bot.cjs': code });
}

describe.skipIf(!hasFlask())('a CATArena-shaped Flask chess bot with a hard-coded server', () => {
  for (const variant of ['standard', 'variant']) {
    it(`plays the reference bots to normal ends (${variant})`, async () => {
      const port = await allocatePort();
      releasePort(port);
      const dir = flaskChessBot(port);
      const hosts = new GameServerPool({ ports: { [`chess/${variant}`]: port } });
      try {
        const out = await runArena({
          game: 'chess',
          variant,
          reps: 1,
          seed: 3,
          concurrency: 2,
          policy: 'strict',
          runDir: tempDir('catarena-chess-'),
          sandbox,
          hosts,
          limits: { ...DEFAULT_LIMITS, moveMs: 5_000 },
          bots: [
            { id: 'flask', dir },
            { id: 'random', dir: BUILTIN('random', 'chess') },
          ],
        });
        expect(out.results).toHaveLength(2);
        for (const r of out.results) expect(r.termination, r.reason).toBe('normal');
        const requests = fs
          .readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(requests[0].content_type).toBe('application/json');
        expect(Object.keys(requests[0].body).sort()).toEqual(['algorithm', 'current_player', 'fen', 'game_id']);
        expect(requests[0].body.algorithm).toBe('simple');
        expect(requests[0].body.game_id).toMatch(
          variant === 'variant' ? /^chess_magic_[0-9a-f]{8}$/ : /^chess_[0-9a-f]{8}$/,
        );
      } finally {
        await hosts.closeAll();
      }
    });
  }
});

describe('chess failures', () => {
  // The opponent of the bad bots: under test is what the runner does with the bad bot, so one
  // random bot process serves these arenas (each starts its bad bot fresh).
  const random = sharedBot(sandbox, BUILTIN('random', 'chess'), adapterFor('chess').health);
  const cases: Array<{ answer: unknown; termination: string; reason: RegExp }> = [
    { answer: { move: 'e2e5' }, termination: 'illegal', reason: /illegal/ },
    { answer: { move: 'E2E4' }, termination: 'illegal', reason: /bad_format/ },
    { answer: { move: '' }, termination: 'illegal', reason: /bad_format/ },
    { answer: { move: null }, termination: 'malformed', reason: /no "move"/ },
    { answer: { san: 'e4' }, termination: 'malformed', reason: /no "move"/ },
    { answer: { move: ['e2', 'e4'] }, termination: 'malformed', reason: /"move" is not a UCI string/ },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.answer)} → ${c.termination}`, async () => {
      const { out } = await arena([{ id: 'bad', dir: fixedMoveBot(c.answer) }, await random('random')], 'standard');
      for (const r of out.results) {
        const bad = r.spec.seats.indexOf('bad');
        expect(r.termination).toBe(c.termination);
        expect(r.offender).toBe(bad);
        expect(r.reason).toMatch(c.reason);
        expect(r.scores[bad]).toBe(0);
      }
    });
  }

  it('sends the configured algorithm and lets the catarena policy draw on an illegal move, or a move that is no string (CATArena forwarded it to its server)', async () => {
    const { out } = await arena(
      [{ id: 'bad', dir: fixedMoveBot({ move: 'a1a1' }) }, await random('random')],
      'standard',
      { policy: 'catarena', protocolOptions: { algorithm: 'minimax' } },
    );
    for (const r of out.results) {
      expect(r.spec.options).toEqual({ algorithm: 'minimax' });
      expect(r.scores).toEqual([0.5, 0.5]);
    }
    const { out: garbled } = await arena(
      [{ id: 'bad', dir: fixedMoveBot({ move: 42 }) }, await random('random')],
      'standard',
      { policy: 'catarena' },
    );
    for (const r of garbled.results) {
      expect(r.termination).toBe('malformed');
      expect(r.scores).toEqual([0.5, 0.5]);
    }
  });

  it('the heuristic bot beats the random bot in both rule sets', async () => {
    for (const variant of ['standard', 'variant']) {
      const { out } = await arena(
        [
          { id: 'heuristic', dir: BUILTIN('heuristic', 'chess') },
          { id: 'random', dir: BUILTIN('random', 'chess') },
        ],
        variant,
        { reps: 2 },
      );
      const row = out.table.find((t) => t.id === 'heuristic')!;
      expect(row.score, `${variant}: ${JSON.stringify(out.results.map((r) => r.reason))}`).toBeGreaterThanOrEqual(0.75);
      for (const r of out.results) expect(r.termination).toBe('normal');
    }
  });
});
