// What changed in a run's setup from the run before it in a series (a schedule's nights): its
// agents, tracks, rounds, the rules a game was played under, what agents saw of rivals. Scores on
// the two sides of such a change do not compare, so `history` and its page mark the change instead
// of joining the lines across it, and a night's band (reports/night-regression.ts) starts after it.
import { opponentCodeOf } from './opponent-code.ts';
import { rulesChanges, type RunIndexEntry } from './tourney.ts';

type Setup = Pick<RunIndexEntry, 'games' | 'rules' | 'rounds' | 'leaderboard' | 'tracks' | 'opponentCode'>;

const setDiff = (label: string, before: string[], after: string[]): string[] => {
  const added = after.filter((x) => !before.includes(x)).sort();
  const gone = before.filter((x) => !after.includes(x)).sort();
  if (!added.length && !gone.length) return [];
  return [`${label} ${[...added.map((x) => `+${x}`), ...gone.map((x) => `−${x}`)].join(' ')}`];
};

/** Each change from `before` to `after`, as one short phrase ("agents +v2 −v1", "rounds 2 → 3"); none: same setup. */
export function configChanges(before: Setup, after: Setup): string[] {
  const agents = (e: Setup) => e.leaderboard.map((r) => r.agent);
  const tracks = (e: Setup) => e.tracks?.map((t) => t.track) ?? [];
  const changes = [
    ...setDiff('agents', agents(before), agents(after)),
    ...setDiff('games', before.games, after.games),
    // Runs indexed before tracks were recorded have none: only two that both have them compare.
    ...(before.tracks && after.tracks ? setDiff('tracks', tracks(before), tracks(after)) : []),
    ...(before.rounds !== after.rounds ? [`rounds ${before.rounds} → ${after.rounds}`] : []),
    ...rulesChanges(before, after),
  ];
  const [was, now] = [opponentCodeOf(before), opponentCodeOf(after)];
  if (was !== now) changes.push(`opponents' code ${was} → ${now}`);
  return changes;
}
