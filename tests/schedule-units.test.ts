// The units adaptive repetitions add to (formats/field.ts): one more colour-swapped pair, one more
// duplicate match, one more seat-rotation group of table rounds — with the schedule's own seeds
// and seat rules, and never a match id the schedule already has.
import { describe, expect, it } from 'vitest';
import { gameDescriptor } from '../games/registry.ts';
import { DEFAULT_LIMITS, matchId } from '../records/match.ts';
import { fieldSpecs, moreSpecs, scheduleUnits, type FieldSettings } from '../orchestrator/formats/field.ts';

const rounds = [
  [
    { id: 'a@1', agent: 'a' },
    { id: 'b@1', agent: 'b' },
    { id: 'c@1', agent: 'c' },
  ],
  [
    { id: 'a@2', agent: 'a' },
    { id: 'b@2', agent: 'b' },
    { id: 'c@2', agent: 'c' },
  ],
];

function schedule(game: string, reps: number) {
  const settings: FieldSettings = {
    game,
    variant: 'standard',
    seed: 7,
    limits: DEFAULT_LIMITS,
    policy: 'strict',
    reps,
  };
  const d = gameDescriptor(game);
  const specs = [1, 2].flatMap((round) =>
    fieldSpecs(d, { kind: 'round', rounds: rounds.slice(0, round), round, last: round === 2 }, settings),
  );
  return { d, settings, specs, units: scheduleUnits(d, specs, settings) };
}

describe('schedule units and one more repetition', () => {
  it('pairs: every pairing is a unit; one more is a colour-swapped pair sharing a seed, numbered after the schedule', () => {
    const { d, settings, specs, units } = schedule('gomoku', 1);
    expect(units).toHaveLength(15);
    const unit = units.find((u) => u.key === 'a@2~b@1')!;
    expect(unit).toMatchObject({ members: ['a@2', 'b@1'], cost: 2, nextRep: 1 });
    const more = moreSpecs(d, unit, 2, settings);
    expect(more.map((s) => s.seats)).toEqual([
      ['a@2', 'b@1'],
      ['b@1', 'a@2'],
    ]);
    expect(more.map((s) => s.rep)).toEqual([3, 3]);
    expect(more[0]!.seed).toBe(more[1]!.seed);
    expect(more[0]!.pairing).toBe('a@2~b@1#3');
    const ids = new Set(specs.map(matchId));
    for (const s of more) expect(ids.has(matchId(s))).toBe(false);
    // Batch 0's pair is exactly the schedule's next repetition: what reps 2 would have played.
    const reps2 = schedule('gomoku', 2)
      .specs.filter((s) => s.pairing === 'a@2~b@1#1')
      .map(matchId);
    expect(moreSpecs(d, unit, 0, settings).map(matchId)).toEqual(reps2);
  });

  it('bridge: one more duplicate match of the same boards count, both rooms', () => {
    const { d, settings, units } = schedule('bridge', 3);
    const unit = units.find((u) => u.key === 'b@1~c@1')!;
    expect(unit).toMatchObject({ members: ['b@1', 'c@1'], cost: 6, nextRep: 1 });
    const more = moreSpecs(d, unit, 0, settings);
    expect(more).toHaveLength(6);
    expect(more.every((s) => s.duplicate!.match === 'b@1~c@1#1' && s.duplicate!.boards === 3)).toBe(true);
    expect(more.map((s) => s.duplicate!.room)).toEqual(['open', 'closed', 'open', 'closed', 'open', 'closed']);
  });

  it("hold'em: a table series is a unit; one more is a whole seat-rotation group on shared deals", () => {
    const { d, settings, specs, units } = schedule('holdem', 8);
    expect(units.map((u) => u.key).sort()).toEqual(['field', 'own:a', 'own:b', 'own:c', 'round:1', 'round:2']);
    const round1 = units.find((u) => u.key === 'round:1')!;
    // 8 table rounds of 3 players: the next whole group starts at round 9.
    expect([...round1.members].sort()).toEqual(['a@1', 'b@1', 'c@1']);
    expect(round1).toMatchObject({ cost: 3, table: { kind: 'round', nextRound: 9, roundsPerRep: 3 } });
    const more = moreSpecs(d, round1, 1, settings);
    expect(more.map((s) => s.batch!.round)).toEqual([12, 13, 14]);
    expect(new Set(more.map((s) => s.seed)).size).toBe(1);
    // Every member sits in every seat once over the group.
    for (let seat = 0; seat < 3; seat++) expect(new Set(more.map((s) => s.seats[seat])).size).toBe(3);
    const ids = new Set(specs.map(matchId));
    for (const s of more) expect(ids.has(matchId(s))).toBe(false);
  });
});
