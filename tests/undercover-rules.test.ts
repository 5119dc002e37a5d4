// Undercover's rules (games/undercover/rules.ts) against facts written down by hand: the statement
// check, eliminations by statement and by vote, the tie and its revote, the end conditions and the
// round cap, the composite scores, the audience variant, and the wire adapter's failure policy.
import { describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.ts';
import { namesWord, statementFault } from '../games/undercover/engine/statement-check.mjs';
import { initUndercover, undercover, type UndercoverAction, type UndercoverState } from '../games/undercover/rules.ts';
import type { Role } from '../games/undercover/roles.ts';
import { undercoverWire } from '../games/undercover/wire.ts';
import { categories, wordPairs } from '../games/undercover/words.ts';

const C: Role = 'civilian';
const U: Role = 'undercover';

/** A table with the roles, speaking order and words chosen here (apple for civilians, pear for undercover). */
function table(roles: Role[], opts: { variant?: 'standard' | 'variant'; maxRounds?: number } = {}): UndercoverState {
  const variant = opts.variant ?? 'standard';
  const s = initUndercover(variant, createRng(1), {
    seats: roles.length,
    ...(opts.maxRounds ? { options: { maxRounds: opts.maxRounds } } : {}),
  });
  const speakers = roles.flatMap((r, seat) => (r === 'audience' ? [] : [seat]));
  return {
    ...s,
    roles,
    order: speakers,
    pending: speakers.slice(),
    pair: { index: 0, category: 'food', civilian: 'apple', undercover: 'pear' },
  };
}

const speak = (statement: string): UndercoverAction => ({ kind: 'speak', statement });
const vote = (target: number): UndercoverAction => ({ kind: 'vote', target });

/** Plays actions for whoever is to move, in order. */
function play(s: UndercoverState, actions: UndercoverAction[]): UndercoverState {
  for (const a of actions) s = undercover.apply(s, undercover.toMove(s)!, a);
  return s;
}

/** One clean speaking turn: a distinct passing statement per alive speaker. */
function speakAll(s: UndercoverState): UndercoverState {
  const clues = [
    'It is crunchy',
    'Grows on trees in orchards',
    'Often found in a lunchbox',
    'Sweet when ripe',
    'Has a stem on top',
    'Comes in many colours',
    'Bakers love it',
    'Autumn harvest favourite',
  ];
  let k = s.statements.length;
  while (s.phase === 'speak')
    s = undercover.apply(s, undercover.toMove(s)!, speak(`${clues[k % clues.length]} number ${k++}`));
  return s;
}

describe('the statement check', () => {
  // tests/undercover-statement-check.test.ts has the full list; here the rules the game relies on.
  it('finds the word and its inflections as whole words, not words that contain its letters', () => {
    expect(namesWord('I love Apples!', 'apple')).toBe(true);
    expect(namesWord('like a pineapple', 'apple')).toBe(false); // another word
    expect(namesWord('a PEAR, maybe', 'apple')).toBe(false);
    expect(namesWord('it beats like a heart', 'ear')).toBe(false);
    expect(namesWord('my ears hurt', 'ear')).toBe(true);
    expect(namesWord('berries in summer', 'berry')).toBe(true); // y → ies
    expect(namesWord('she was running', 'run')).toBe(true); // a doubled final consonant
    expect(namesWord('a runner-up', 'rune')).toBe(false);
    expect(namesWord('the office of the post', 'post office')).toBe(true);
    expect(namesWord('a postoffice nearby', 'post office')).toBe(true);
    expect(namesWord('my office is nearby', 'post office')).toBe(false);
  });

  it("finds repeats of other players' statements from earlier rounds, word for word", () => {
    const earlier = { seat: 2, round: 2, statements: [{ round: 1, seat: 0, statement: 'It is red and round' }] };
    expect(statementFault('round and red, it is!', 'apple', earlier)).toBe('repeat');
    expect(statementFault('It is red and round too', 'apple', earlier)).toBeNull();
    expect(statementFault('It is red and round', 'apple', { ...earlier, seat: 0 })).toBeNull(); // its own
    expect(statementFault('It is red and round', 'apple', { ...earlier, round: 1 })).toBeNull(); // the same round
    expect(statementFault('   ', 'apple')).toBe('empty');
    expect(statementFault('x'.repeat(301), 'apple')).toBe('too_long');
    expect(statementFault('an apple a day', 'apple')).toBe('names_word');
  });
});

describe('the word pairs', () => {
  it('hold several hundred distinct pairs over at least 10 categories', () => {
    const pairs = wordPairs();
    expect(pairs.length).toBeGreaterThanOrEqual(300);
    expect(categories().length).toBeGreaterThanOrEqual(10);
    const words = pairs.flatMap((p) => p.words);
    expect(new Set(words).size).toBe(words.length);
    for (const p of pairs) expect(p.words[0]).not.toBe(p.words[1]);
  });
});

describe('the game', () => {
  it('deals 4 civilians and 2 undercover at 6 seats, seeded: words, roles and speaking order', () => {
    const a = initUndercover('standard', createRng(42), { seats: 6 });
    expect(a.roles.filter((r) => r === U)).toHaveLength(2);
    expect(a.roles.filter((r) => r === C)).toHaveLength(4);
    expect([...a.order].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(a.pair.civilian).not.toBe(a.pair.undercover);
    expect(initUndercover('standard', createRng(42), { seats: 6 })).toEqual(a);
    expect(() => initUndercover('standard', createRng(1), { seats: 11 })).toThrow(/2–10/);
  });

  it('eliminates a speaker whose statement names their word, at once, and skips them afterwards', () => {
    let s = table([C, C, C, U, C, U]);
    s = play(s, [speak('It is crunchy'), speak('I ate an apple today')]);
    expect(s.alive[1]).toBe(false);
    expect(s.eliminated).toEqual([{ seat: 1, round: 1, by: 'names_word' }]);
    expect(s.statements[1]!.fault).toBe('names_word');
    expect(undercover.toMove(s)).toBe(2);
    // An undercover player may say the civilians' word: it is not theirs.
    s = play(s, [speak('Orchards'), speak('Not quite an apple')]);
    expect(s.alive[3]).toBe(true);
    // Repeating a statement of the same round is allowed; one of an earlier round eliminates.
    s = play(s, [speak('It is crunchy!'), speak('Round and red')]);
    expect(s.eliminated).toHaveLength(1);
    s = play(s, [vote(3), vote(3), vote(0), vote(3), vote(0)]); // seat 3 (undercover) out
    expect(s.round).toBe(2);
    s = play(s, [speak('Orchards')]); // seat 2's statement of round 1
    expect(s.eliminated.at(-1)).toEqual({ seat: 0, round: 2, by: 'repeat' });
    // Its own statement of round 1 a player may say again (and a failed one does not count).
    s = play(s, [speak('Orchards!')]);
    expect(s.alive[2]).toBe(true);
  });

  it('votes out the most-voted player; the voters and targets follow the rules', () => {
    let s = speakAll(table([C, C, C, U, C, U]));
    expect(s.phase).toBe('vote');
    expect(undercover.validate(s, 0, vote(0))).toMatch(/yourself/);
    // seats 0..5 vote: 3, 3, 3, 0, 3, 0 → seat 3 (undercover) has 4 votes.
    s = play(s, [vote(3), vote(3), vote(3), vote(0), vote(3), vote(0)]);
    expect(s.alive[3]).toBe(false);
    expect(s.eliminated).toEqual([{ seat: 3, round: 1, by: 'vote' }]);
    expect(s.round).toBe(2);
    expect(s.phase).toBe('speak');
    expect(undercover.validate(s, undercover.toMove(s)!, vote(1))).toMatch(/speak/);
  });

  it('revotes a tie among the tied only, once; a second tie sends nobody out', () => {
    let s = speakAll(table([C, C, C, U, C, U]));
    // Seats 0, 1, 5 vote for seat 3; seats 2, 3, 4 for seat 5: 3 against 3, a tie.
    s = play(s, [vote(3), vote(3), vote(5), vote(5), vote(5), vote(3)]);
    expect(s.phase).toBe('vote');
    expect(s.ballot).toBe(1);
    expect(s.candidates).toEqual([3, 5]);
    expect(undercover.validate(s, 0, vote(1))).toMatch(/revote/);
    expect(undercover.legalActions(s, 0)).toEqual([vote(3), vote(5)]);
    expect(undercover.legalActions(s, 3)).toEqual([]); // not its turn yet
    // Seat 3 and seat 5 may only vote for each other; tie again.
    s = play(s, [vote(3), vote(3), vote(5), vote(5), vote(5), vote(3)]);
    expect(s.eliminated).toEqual([]);
    expect(s.round).toBe(2);
    expect(s.phase).toBe('speak');
  });

  it('ends when every undercover player is out: civilians win; composite scores by hand', () => {
    let s = speakAll(table([C, C, C, U, C, U]));
    s = play(s, [vote(3), vote(3), vote(3), vote(0), vote(3), vote(0)]); // seat 3 out
    s = speakAll(s);
    s = play(s, [vote(5), vote(5), vote(5), vote(5), vote(0)]); // seat 5 out
    expect(s.phase).toBe('over');
    const o = undercover.outcome(s)!;
    expect(o.reason).toBe('undercover_out');
    expect(o.detail!.winningTeam).toBe('civilian');
    // Seat 0 (civilian, alive, ballots 3 and 5 both correct): 0.75 + 0.15 + 0.10 = 1.
    // Seat 3 (undercover, out, one ballot for seat 0, a civilian: correct): 0 + 0 + 0.10·1 = 0.1.
    // Seat 5 (undercover, out, ballots for 0 and 0, both correct): 0.1.
    expect(o.scores).toEqual([1, 1, 1, 0.1, 1, 0.1]);
    expect(o.places).toEqual([1, 1, 1, 5, 1, 5]);
    expect(undercover.toMove(s)).toBeNull();
  });

  it('ends when the undercover players are as many as the civilians: undercover win', () => {
    // 3 players: 2 civilians, 1 undercover. The civilians vote each other out… by mistake.
    let s = speakAll(table([C, C, U]));
    s = play(s, [vote(1), vote(2), vote(1)]); // seat 1 out: 1 civilian vs 1 undercover
    expect(s.phase).toBe('over');
    const o = undercover.outcome(s)!;
    expect(o.reason).toBe('undercover_majority');
    // Seat 0: civilian, alive, voted 1 (a civilian: wrong): 0 + 0.15 + 0 = 0.15.
    // Seat 1: civilian, out, voted 2 (undercover: right): 0 + 0 + 0.1 = 0.1.
    // Seat 2: undercover, alive, voted 1 (a civilian: right): 0.75 + 0.15 + 0.1 = 1.
    expect(o.scores).toEqual([0.15, 0.1, 1]);
    expect(o.places).toEqual([2, 3, 1]);
  });

  it('ends after the round cap with undercover players in: undercover win', () => {
    let s = table([C, C, C, U, C, U], { maxRounds: 1 });
    s = speakAll(s);
    s = play(s, [
      { kind: 'abstain' },
      { kind: 'abstain' },
      { kind: 'abstain' },
      { kind: 'abstain' },
      { kind: 'abstain' },
      { kind: 'abstain' },
    ]);
    expect(s.phase).toBe('over');
    expect(undercover.outcome(s)!.reason).toBe('round_cap');
    expect(undercover.outcome(s)!.detail!.winningTeam).toBe('undercover');
    // Lost ballots count as wrong: civilians 0 + 0.15 + 0 = 0.15; undercover 0.75 + 0.15 + 0 = 0.9.
    expect(undercover.outcome(s)!.scores).toEqual([0.15, 0.15, 0.15, 0.9, 0.15, 0.9]);
  });

  it('a statement elimination can end the game in the middle of the speaking turn', () => {
    let s = table([C, U, C]);
    s = play(s, [speak('Round and red'), speak('Shaped like a pear')]);
    expect(s.phase).toBe('over');
    expect(undercover.outcome(s)!.reason).toBe('undercover_out');
  });

  it('variant: the last seat is the audience, the only voter; it is told no word, the players both words and their role', () => {
    let s = table([C, U, C, C, 'audience'], { variant: 'variant' });
    expect(s.audience).toBe(4);
    s = speakAll(s);
    expect(s.pending).toEqual([4]);
    expect(undercover.validate(s, 4, vote(4))).toMatch(/yourself/);
    const ctx = { gameId: 'undercover_00000000', gameServerUrl: 'http://127.0.0.1:9' };
    expect(undercoverWire.join!(s, 4, ctx).body).toMatchObject({ word: null, role: 'audience', audience: 4 });
    expect(undercoverWire.join!(s, 1, ctx).body).toMatchObject({
      word: 'pear',
      role: 'undercover',
      words: { civilian: 'apple', undercover: 'pear' },
    });
    s = play(s, [vote(1)]);
    expect(s.phase).toBe('over');
    const o = undercover.outcome(s)!;
    // Civilians: won, in, no ballot (accuracy 0): 0.75 + 0.15 = 0.9. Seat 1: lost, out, no ballot: 0.
    // Audience: with the civilians (won), never out, 1 of 1 correct: 1.
    expect(o.scores).toEqual([0.9, 0, 0.9, 0.9, 1]);
  });

  it('hides the votes of an open ballot and every role until the end', () => {
    let s = speakAll(table([C, C, C, U, C, U]));
    s = play(s, [vote(3), vote(3)]);
    const v = undercover.view(s, 2) as Record<string, unknown>;
    expect(v.votes).toEqual([]);
    expect(v.word).toBe('apple');
    expect(v.role).toBeUndefined();
    expect(JSON.stringify(v)).not.toContain('pear');
  });
});

describe('the wire adapter', () => {
  const s = table([C, C, C, U, C, U]);
  const ctx = {
    gameId: 'undercover_00000000',
    gameServerUrl: 'http://127.0.0.1:9',
    seatIds: ['a', 'b', 'c', 'd', 'e', 'f'],
  };

  it('asks /speak with the word and the public state, /vote with the candidates', () => {
    expect(undercoverWire.turn(s, 0, ctx)).toMatchObject({
      path: '/speak',
      body: { player_id: 'a', word: 'apple', round: 1, phase: 'speak' },
    });
    const voting = speakAll(s);
    expect(undercoverWire.turn(voting, 0, ctx)).toMatchObject({ path: '/vote', body: { candidates: [1, 2, 3, 4, 5] } });
  });

  it('parses answers: garbage is malformed, an impossible vote illegal', () => {
    expect(undercoverWire.parse({ statement: 'Tasty' }, s, 0)).toEqual({ ok: true, action: speak('Tasty') });
    expect(undercoverWire.parse({ statement: 7 }, s, 0)).toMatchObject({ ok: false, kind: 'malformed' });
    expect(undercoverWire.parse('hello', s, 0)).toMatchObject({ ok: false, kind: 'malformed' });
    const voting = speakAll(s);
    expect(undercoverWire.parse({ vote: 3 }, voting, 0)).toEqual({ ok: true, action: vote(3) });
    expect(undercoverWire.parse({ vote: '3' }, voting, 0)).toEqual({ ok: true, action: vote(3) });
    expect(undercoverWire.parse({ vote: 0 }, voting, 0)).toMatchObject({ ok: false, kind: 'illegal' });
    expect(undercoverWire.parse({ vote: 9 }, voting, 0)).toMatchObject({ ok: false, kind: 'illegal' });
    expect(undercoverWire.parse({}, voting, 0)).toMatchObject({ ok: false, kind: 'malformed' });
  });

  it('a failed speech eliminates, a failed vote is lost, under both policies', () => {
    for (const policy of ['strict', 'catarena'] as const) {
      const r = undercoverWire.onFailure(s, 0, 'timeout', policy);
      expect(r).toEqual({ action: { kind: 'silent' } });
      const after = undercover.apply(s, 0, (r as { action: UndercoverAction }).action);
      expect(after.eliminated).toEqual([{ seat: 0, round: 1, by: 'silent' }]);
      expect(undercoverWire.onFailure(speakAll(s), 0, 'illegal', policy)).toEqual({ action: { kind: 'abstain' } });
    }
  });

  it('serves the public history on the game server', () => {
    const voting = play(speakAll(s), [vote(3), vote(3), vote(3), vote(0), vote(3), vote(0)]);
    const live = {
      id: 'undercover_x',
      variant: 'standard',
      state: voting,
      history: [],
      seatIds: ctx.seatIds,
      managedByArena: true,
      createdAt: '',
    };
    const state = undercoverWire.server.route(live, 'GET', 'state', null, new URLSearchParams())!;
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ round: 2, alive: [0, 1, 2, 4, 5], eliminated: [{ seat: 3, by: 'vote' }] });
    expect(JSON.stringify(state.body)).not.toContain('apple');
    const history = undercoverWire.server.route(live, 'GET', 'history', null, new URLSearchParams())!;
    expect((history.body as { statements: unknown[]; votes: unknown[] }).statements).toHaveLength(6);
    expect((history.body as { votes: unknown[] }).votes).toHaveLength(6);
    expect(undercoverWire.server.route(live, 'POST', 'state', null, new URLSearchParams())).toBeNull();
  });
});
