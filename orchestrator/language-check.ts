// The language check of a task track (records/task-track.ts): a bot built for the go, js or ml
// track must be written in that track's language. Judged from the bot folder alone, before the
// bot is started: which interpreters or compilers start_ai.sh runs, and which languages' source
// files the folder holds. The standard track accepts any language.
import fs from 'node:fs';
import path from 'node:path';
import { LANGUAGE_NAMES, TASK_TRACK_LANGUAGE, type BotLanguage, type TaskTrack } from '../records/task-track.ts';

const SOURCE_EXTENSIONS: Record<string, BotLanguage> = {
  '.py': 'python',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.go': 'go',
};
/** Folders a build or a run leaves behind, not the bot's own code. */
const SKIPPED_DIRS = new Set(['node_modules', '__pycache__', '.cache', 'vendor']);
const MAX_FILES = 5_000;

/** A command position: line start or after ;, &, |, ( — optionally behind variable assignments and wrappers such as exec, nohup, env, time, nice -n 10, timeout 60. */
const AT_COMMAND = String.raw`(?:^|[;&|(])\s*(?:(?:[A-Za-z_]\w*=\S*|exec|nohup|env|time|nice(?:\s+-n\s*-?\d+|\s+-\d+)?|timeout\s+\S+)\s+)*(?:\S*\/)?`;
const at = (command: string) => new RegExp(`${AT_COMMAND}${command}`, 'm');

/** Commands in start_ai.sh that start each language. */
const LAUNCHERS: Array<{ language: BotLanguage; pattern: RegExp; what: string }> = [
  { language: 'python', pattern: at(String.raw`python(?:3(?:\.\d+)?)?\b`), what: 'python' },
  { language: 'python', pattern: at(String.raw`(?:gunicorn|flask|uvicorn)\b`), what: 'a Python server' },
  { language: 'javascript', pattern: at(String.raw`(?:node|nodejs|npm|npx)\b`), what: 'node' },
  { language: 'go', pattern: at(String.raw`go\s+(?:run|build)\b`), what: 'go' },
];

export interface BotLanguages {
  /** Languages start_ai.sh starts, with what it runs. */
  launched: Array<{ language: BotLanguage; what: string }>;
  /** Source files per language (paths relative to the bot folder, at most a few each). */
  sources: Partial<Record<BotLanguage, string[]>>;
}

/** start_ai.sh without comments (a `#` that starts a word), so a comment naming python does not count. */
function scriptCommands(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '$1'))
    .join('\n');
}

export function detectBotLanguages(dir: string): BotLanguages {
  let script = '';
  try {
    script = scriptCommands(fs.readFileSync(path.join(dir, 'start_ai.sh'), 'utf8'));
  } catch {
    // no start script: nothing launched (the entry check says so on its own)
  }
  const launched = LAUNCHERS.filter((l) => l.pattern.test(script)).map(({ language, what }) => ({ language, what }));
  const sources: BotLanguages['sources'] = {};
  let seen = 0;
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      if (seen++ > MAX_FILES || entry.name.startsWith('.')) continue;
      const file = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(file);
        continue;
      }
      const language = SOURCE_EXTENSIONS[path.extname(entry.name)];
      if (language) (sources[language] ??= []).push(file);
    }
  };
  walk('');
  return { launched: launched.filter((l, i) => launched.findIndex((m) => m.language === l.language) === i), sources };
}

const list = (files: string[]) =>
  `${files.slice(0, 3).join(', ')}${files.length > 3 ? ` and ${files.length - 3} more` : ''}`;

/**
 * Why the bot in dir is not written in its task track's language, or null when it is (or the
 * track accepts any language). The reason names what start_ai.sh runs and the offending files.
 */
export function languageProblem(dir: string, track: TaskTrack | undefined): string | null {
  const expected = TASK_TRACK_LANGUAGE[track ?? 'standard'];
  if (!expected) return null;
  const found = detectBotLanguages(dir);
  const name = LANGUAGE_NAMES[expected];
  const head = `wrong language for the ${track} task track (the bot must be written in ${name})`;
  const others = found.launched.filter((l) => l.language !== expected);
  if (others.length) {
    const files = others.flatMap((l) => found.sources[l.language] ?? []);
    return `${head}: start_ai.sh runs ${others.map((l) => l.what).join(' and ')}${files.length ? ` (${list(files)})` : ''}`;
  }
  if (!found.launched.some((l) => l.language === expected)) {
    const how = expected === 'go' ? '`go build` or `go run`' : expected === 'python' ? '`python3`' : '`node`';
    return `${head}: start_ai.sh does not start it with ${how}`;
  }
  const foreign = (Object.keys(found.sources) as BotLanguage[]).filter((l) => l !== expected);
  if (foreign.length)
    return `${head}: the bot folder holds ${foreign.map((l) => `${LANGUAGE_NAMES[l]} files (${list(found.sources[l]!)})`).join(' and ')}`;
  if (!found.sources[expected]?.length) return `${head}: the bot folder has no ${name} source file`;
  return null;
}
