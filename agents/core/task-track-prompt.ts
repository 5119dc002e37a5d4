// The task-track part of the development task (TASK.md and every agent's prompt): our own words
// for the paper's track prompts (Tables 21–23: machine learning, JavaScript, Go). The standard
// track adds nothing. The language a track demands is checked when the bot is built
// (orchestrator/language-check.ts), so the prompt says exactly what that check accepts.
import type { TaskTrack } from '../../records/task-track.ts';

export const TASK_TRACK_PROMPTS: Record<TaskTrack, string[]> = {
  standard: [],
  ml: [
    '## Task track: machine learning',
    'Build the bot around a model you train yourself. Write it in Python 3; numpy and scikit-learn (1.2) are installed, nothing else may be installed.',
    "Generate your training data here (self-play, simulated positions, the previous round's logs), train within your time budget and save the trained model",
    'in your bot folder; the bot loads it when it starts and uses it to choose its moves. No downloaded or pretrained models, no external AI service.',
    '`start_ai.sh` must start the bot with `python3` (or `python`); the build check refuses a bot in another language.',
  ],
  js: [
    '## Task track: JavaScript',
    'Write the bot in JavaScript for Node.js (version 18), using built-in modules only (`node:http` and friends; no npm packages).',
    '`start_ai.sh` must start it with `node`; the build check refuses a bot in another language (no Python or Go files in the bot folder).',
  ],
  go: [
    '## Task track: Go',
    'Write the bot in Go (version 1.19), standard library only (`net/http`, `encoding/json` …): there is no network, so no module can be downloaded.',
    '`start_ai.sh` must build and run it with the `go` command, e.g. `go build -o "${TMPDIR:-/tmp}/bot-$1" . && exec "${TMPDIR:-/tmp}/bot-$1" "$1"`,',
    'and must finish building well within the start timeout. The build check refuses a bot in another language (no Python or JavaScript files in the bot folder).',
  ],
};

/** The lines to append to the task, empty for the standard track. */
export function taskTrackSection(track: TaskTrack): string {
  const lines = TASK_TRACK_PROMPTS[track];
  return lines.length ? `\n${lines.join('\n')}\n` : '';
}
