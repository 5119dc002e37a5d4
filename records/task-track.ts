// Task tracks: which task an agent is given and which language its bot must be written in (the
// paper's standard, ML and multi-language settings). Not to be confused with a "track" elsewhere
// in the code (TrackId: one game × rule set): a task track is chosen per run (config `track:`,
// CLI --track) or per agent (config `agentTracks:`), and applies to every game of the run.

export type TaskTrack = 'standard' | 'ml' | 'js' | 'go';
export const TASK_TRACKS: readonly TaskTrack[] = ['standard', 'ml', 'js', 'go'];

export type BotLanguage = 'python' | 'javascript' | 'go';

/** The language a task track's bot must be written in; null: any language (the standard track). */
export const TASK_TRACK_LANGUAGE: Record<TaskTrack, BotLanguage | null> = {
  standard: null,
  ml: 'python',
  js: 'javascript',
  go: 'go',
};

export const LANGUAGE_NAMES: Record<BotLanguage, string> = {
  python: 'Python',
  javascript: 'JavaScript (Node.js)',
  go: 'Go',
};

export const isTaskTrack = (value: unknown): value is TaskTrack => (TASK_TRACKS as readonly unknown[]).includes(value);

/** An agent's task track: its own entry in agentTracks, else the run's track. */
export function taskTrackOf(
  config: { track?: TaskTrack; agentTracks?: Record<string, TaskTrack> },
  agentId: string,
): TaskTrack {
  return config.agentTracks?.[agentId] ?? config.track ?? 'standard';
}
