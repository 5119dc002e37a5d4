// The game API test (OpenSpiel's api_test): for every registered game and rule set, seeded random
// playouts in which every legal action validates and applies, the seat to move is null exactly
// when the game is over, scores lie in [0, 1], the same seed gives the same game, the turn body a
// bot would get is JSON, every action survives encode → JSON → decode, and replaying the recorded
// (encoded, then decoded) actions reproduces the final state.
// A new game passes this by being registered (docs/adding-a-game.md).
import { describe, expect, it } from 'vitest';
import { initSetup } from '../games/core/game.ts';
import type { FormatTrait } from '../games/core/descriptor.ts';
import { createRng } from '../util/rng.ts';
import { gameDescriptor, gameIds } from '../games/registry.ts';
import { replayState } from '../games/replay.ts';
import type { MatchSpec, MoveRecord, Replay } from '../records/match.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';

const PLAYOUTS = 4;
const MAX_PLIES = 20_000;

/** Seats for a game: the descriptor's table size to validate with, else what its rules take. */
function seatsFor(game: string): string[] {
  const { tables } = gameDescriptor(game);
  const n = tables?.validationSeats ?? (game === 'bridge' ? 4 : 2);
  return Array.from({ length: n }, (_, i) => `s${i}`);
}

/** Small tables so a random tournament round ends quickly (Hold'em). */
const OPTIONS: Record<string, Record<string, number>> = { holdem: { handCap: 40 } };

function playout(game: string, variant: string, seed: number) {
  const { wire } = gameDescriptor(game);
  const rules = wire.game;
  const spec: MatchSpec = {
    game,
    variant,
    seats: seatsFor(game),
    seed,
    limits: DEFAULT_LIMITS,
    policy: 'strict',
    ...(OPTIONS[game] ? { options: OPTIONS[game] } : {}),
  };
  const pick = createRng(seed ^ 0x5eed);
  let state = rules.init(variant, createRng(seed), initSetup(spec));
  const moves: MoveRecord[] = [];
  while (rules.outcome(state) === null) {
    if (moves.length >= MAX_PLIES) throw new Error(`${game}/${variant} seed ${seed}: no end after ${MAX_PLIES} plies`);
    // Checked at every ply; expect runs only on a failure (it costs more than the checks).
    const seat = rules.toMove(state);
    if (seat === null) expect(seat, `${game}/${variant}: a running game has a seat to move`).not.toBeNull();
    const legal = rules.legalActions(state, seat!);
    if (legal.length === 0)
      expect(legal.length, `${game}/${variant} ply ${moves.length}: legal actions`).toBeGreaterThan(0);
    for (const action of legal) {
      const problem = rules.validate(state, seat!, action);
      if (problem !== null) expect(problem, `${JSON.stringify(wire.encode(action))} is listed as legal`).toBeNull();
    }
    const body = wire.turn(state, seat!, {
      gameId: `${game}_00000000`,
      gameServerUrl: 'http://127.0.0.1:9',
      seatIds: spec.seats,
    });
    expect(JSON.parse(JSON.stringify(body.body))).toEqual(body.body);
    rules.view(state, seat!);
    const action = legal[pick.int(0, legal.length - 1)];
    const encoded = wire.encode(action);
    // The round trip a replay makes: JSON on disk, then the adapter's decode.
    const decoded = wire.decode(JSON.parse(JSON.stringify(encoded)));
    if (JSON.stringify(wire.encode(decoded)) !== JSON.stringify(encoded))
      expect(wire.encode(decoded), `${game}/${variant}: decode(encode(a))`).toEqual(encoded);
    state = rules.apply(state, seat!, action);
    moves.push({ ply: moves.length, seat: seat!, action: encoded, latencyMs: 0 });
  }
  const outcome = rules.outcome(state)!;
  expect(rules.toMove(state), `${game}/${variant}: nobody moves once the game is over`).toBeNull();
  return { spec, state, moves, outcome };
}

describe.each(gameIds())('game API: %s', (game) => {
  for (const variant of gameDescriptor(game).wire.game.variants) {
    it(`${variant}: ${PLAYOUTS} random playouts: legal actions validate and apply, scores in [0, 1], same seed → same game, replay → same state`, () => {
      for (let k = 0; k < PLAYOUTS; k++) {
        const seed = 1000 + k;
        const a = playout(game, variant, seed);
        expect(a.outcome.scores).toHaveLength(a.spec.seats.length);
        for (const score of a.outcome.scores) {
          expect(score).toBeGreaterThanOrEqual(0);
          expect(score).toBeLessThanOrEqual(1);
        }
        if (a.outcome.places) expect(a.outcome.places).toHaveLength(a.spec.seats.length);
        const b = playout(game, variant, seed);
        expect(b.moves).toEqual(a.moves);
        expect(b.outcome).toEqual(a.outcome);
        const replay = { result: { spec: a.spec }, setup: null, moves: a.moves } as unknown as Replay;
        expect(replayState(replay)).toEqual(a.state);
      }
      // A value no encode writes is refused, not played.
      expect(() => gameDescriptor(game).wire.decode({ not: 'an action' })).toThrow(/not a recorded/);
    }, 120_000);
  }

  it('has a descriptor that names its parts', () => {
    const d = gameDescriptor(game);
    expect(d.id).toBe(game);
    expect(d.wire.game.id).toBe(game);
    expect(['pairs', 'tables', 'duplicate']).toContain(d.format);
    expect(d.defaults.reps).toBeGreaterThanOrEqual(1);
    expect(d.defaults.moveTimeoutMs).toBeGreaterThan(0);
    if (d.format === 'tables') expect(d.tables.maxSeats).toBeGreaterThan(2);
    if (d.format === 'duplicate') expect(d.duplicate).toBeDefined();
  });
});

describe('the tables trait', () => {
  it('is said once: a tables game gives its table size, no other format may (tsc checks the errors below)', () => {
    // @ts-expect-error a tables game without its table size
    const missing: FormatTrait = { format: 'tables' };
    // @ts-expect-error a pairs game with a table size
    const extra: FormatTrait = { format: 'pairs', tables: { maxSeats: 4, validationSeats: 2 } };
    expect([missing, extra].map((t) => t.format)).toEqual(['tables', 'pairs']);
    const tableGames = gameIds().filter((g) => gameDescriptor(g).tables);
    expect(tableGames).toEqual(gameIds().filter((g) => gameDescriptor(g).format === 'tables'));
  });
});
