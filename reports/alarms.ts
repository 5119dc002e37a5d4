// The run's alarms: what makes its scores mean less than they seem (failed builds, LLM-players that
// fell back to random moves, a budget reached, a broken journal, bots caught outside their sandbox).
// report.md prints them at the top and `catarena tourney` on stderr.
import type { TourneySummary } from '../records/tourney.ts';
import { budgetAlarmLines } from './cost-by-round.ts';
import { integrityAlarmLines } from './integrity.ts';
import { fallbackAlarmLines } from './llm-player-use.ts';
import { sandboxAlarmLines } from './sandbox-alarm.ts';
import { agentsWithoutBot, everyBuildFailed } from './summary.ts';

/** Loud lines for agents that never had a bot that played (all builds failed), and the other alarms. */
export function buildAlarmLines(s: Pick<TourneySummary, 'tracks'>): string[] {
  if (everyBuildFailed(s.tracks))
    return [
      'Every build of every agent failed: no strategy of this run played, so its scores mean nothing (see "Failed strategies").',
    ];
  return [
    ...agentsWithoutBot(s.tracks).map(
      (a) =>
        `Every build of agent ${a.agent} failed (${a.strategies} of ${a.strategies} strategies): its scores are those of a forfeiting stand-in. First reason: ${a.reason.replace(/\s+/g, ' ').slice(0, 200)}`,
    ),
    ...fallbackAlarmLines(s.tracks),
    ...budgetAlarmLines(s.tracks),
    ...integrityAlarmLines(s.tracks),
    ...sandboxAlarmLines(s.tracks),
  ];
}
