// Task-track reports (issue 21 part 3): the ML ability table (Table 14 layout: each agent's
// strategy-coding S and learning L per game on the ml task track) and the language table
// (Table 15 layout: each agent's S per bot language, with the mean and the variance over the
// languages). From one run (report.md, where agents may have their own task tracks) or from
// several indexed runs (`catarena history --task-tracks`), one row per agent.
import { LANGUAGE_NAMES, TASK_TRACK_LANGUAGE, type TaskTrack, isTaskTrack } from '../records/task-track.ts';
import type { RunIndexEntry, TourneySummary } from '../records/tourney.ts';
import { mdTable, num } from './markdown-format.ts';

/** One agent's scores on one game × rule set of one run, with the task track it was on. */
export interface TaskTrackScore {
  run: string;
  agent: string;
  taskTrack: TaskTrack;
  /** The game × rule set, e.g. "gomoku-standard". */
  track: string;
  S: number | null;
  L: number | null;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
/** Population variance (the spread of the languages measured, not an estimate beyond them). */
const variance = (xs: number[]) => {
  const m = mean(xs);
  return m === null || xs.length < 2 ? null : xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length;
};
const unique = <T>(xs: T[]) => [...new Set(xs)];

/** The task track per agent a run's config gives (track, agentTracks); standard where it says nothing. */
export function taskTracksOfConfig(config: unknown, agents: string[]): Record<string, TaskTrack> {
  const c = (config ?? {}) as { track?: unknown; agentTracks?: Record<string, unknown> };
  const base = isTaskTrack(c.track) ? c.track : 'standard';
  return Object.fromEntries(
    agents.map((a) => {
      const own = c.agentTracks?.[a];
      return [a, isTaskTrack(own) ? own : base];
    }),
  );
}

export function scoresFromSummary(s: Pick<TourneySummary, 'runId' | 'config' | 'tracks'>): TaskTrackScore[] {
  const tracks = taskTracksOfConfig(s.config, unique(s.tracks.flatMap((t) => t.agents)));
  return s.tracks.flatMap((t) =>
    t.agents.map((agent) => {
      const m = t.metrics.perAgent[agent];
      return {
        run: s.runId,
        agent,
        taskTrack: tracks[agent]!,
        track: `${t.game}-${t.variant}`,
        S: m?.S ?? null,
        L: m?.L ?? null,
      };
    }),
  );
}

/** Index entries carry their agents' task tracks from this version on; older entries count as standard. */
export function scoresFromIndex(entries: RunIndexEntry[]): TaskTrackScore[] {
  return entries.flatMap((e) =>
    (e.tracks ?? []).flatMap((t) =>
      Object.entries(t.perAgent).map(([agent, iv]) => ({
        run: e.runId,
        agent,
        taskTrack: e.taskTracks?.[agent] ?? 'standard',
        track: t.track,
        S: iv.S.point,
        L: iv.L.point,
      })),
    ),
  );
}

/** Table 14 layout: agents on the ml task track, S and L per game × rule set (mean over runs), and their means. */
export function mlAbilityTable(scores: TaskTrackScore[]): string | null {
  const ml = scores.filter((s) => s.taskTrack === 'ml');
  if (!ml.length) return null;
  const tracks = unique(ml.map((s) => s.track)).sort();
  const agents = unique(ml.map((s) => s.agent)).sort();
  const cell = (agent: string, track: string, key: 'S' | 'L') =>
    mean(ml.filter((s) => s.agent === agent && s.track === track && s[key] !== null).map((s) => s[key]!));
  const rows = agents.map((agent) => {
    const S = tracks.map((t) => cell(agent, t, 'S'));
    const L = tracks.map((t) => cell(agent, t, 'L'));
    const known = (xs: (number | null)[]) => xs.filter((x): x is number => x !== null);
    return [agent, ...tracks.flatMap((_, k) => [num(S[k]), num(L[k])]), num(mean(known(S))), num(mean(known(L)))];
  });
  return mdTable(['agent', ...tracks.flatMap((t) => [`${t} S`, `${t} L`]), 'mean S', 'mean L'], rows);
}

/** The language an agent's bot was written in on a task track; the standard track's is not fixed ("any"). */
const languageOf = (track: TaskTrack) => {
  const l = TASK_TRACK_LANGUAGE[track];
  return l ? LANGUAGE_NAMES[l] : 'standard (any)';
};

/**
 * Table 15 layout: per agent, S on each language (mean over the game × rule sets and runs of that
 * task track), the mean over its languages and the variance between them. Null unless some
 * agent was measured in two languages or more.
 */
export function languageTable(scores: TaskTrackScore[]): string | null {
  const languages = unique(scores.map((s) => languageOf(s.taskTrack))).sort();
  const agents = unique(scores.map((s) => s.agent)).sort();
  const perAgent = agents.map((agent) =>
    languages.map((lang) =>
      mean(
        scores.filter((s) => s.agent === agent && languageOf(s.taskTrack) === lang && s.S !== null).map((s) => s.S!),
      ),
    ),
  );
  if (!perAgent.some((row) => row.filter((x) => x !== null).length >= 2)) return null;
  const rows = agents.map((agent, k) => {
    const known = perAgent[k]!.filter((x): x is number => x !== null);
    return [agent, ...perAgent[k]!.map((x) => num(x)), num(mean(known)), num(variance(known), 4)];
  });
  return mdTable(['agent', ...languages.map((l) => `S ${l}`), 'mean S', 'variance'], rows);
}

/** The report sections, empty when the scores cover only the standard task track. */
export function taskTrackSections(scores: TaskTrackScore[]): string[] {
  if (scores.every((s) => s.taskTrack === 'standard')) return [];
  const ml = mlAbilityTable(scores);
  const lang = languageTable(scores);
  const taskTracks = unique(scores.map((s) => s.taskTrack)).sort();
  return [
    [
      '## Task tracks',
      `Task tracks in these results: ${taskTracks.join(', ')} (docs/tracks.md). A task track sets the task's prompt and the language the bots must be written in; ` +
        'it is not a game × rule set (the "tracks" of the other sections).',
      ...(ml
        ? [
            '### ML ability (Table 14 layout)',
            'Agents on the ml task track: S (strategy coding) and L (global learning) per game × rule set, then their means.',
            ml,
          ]
        : []),
      ...(lang
        ? [
            '### Languages (Table 15 layout)',
            'S per bot language (mean over the game × rule sets and runs of that task track), the mean over the languages and the population variance between them: a small variance = the agent codes equally well in every language.',
            lang,
          ]
        : [
            'No agent was measured in two languages: the language table needs the same agent on two task tracks (agentTracks in one run, or several indexed runs: `catarena history --task-tracks`).',
          ]),
    ].join('\n\n'),
  ];
}
