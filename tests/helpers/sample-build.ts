// The turns of a scripted LLM that builds the random reference bot through the built-in agent's
// tools: write its three files, test it, finish. `extra` goes on every turn (e.g. usage).
import fs from 'node:fs';
import path from 'node:path';
import { BUILTIN } from './bots.ts';

const sample = BUILTIN('random');

/** A write_file call that copies one file of the random Gomoku bot into the agent's bot folder. */
export const writeSampleFile = (file: string) => ({
  name: 'write_file',
  args: { path: `develop_ai/${file}`, content: fs.readFileSync(path.join(sample, file), 'utf8') },
});

export function sampleBuildTurns<T extends object>(extra: T = {} as T) {
  return [
    {
      toolCalls: [writeSampleFile('start_ai.sh'), writeSampleFile('bot.mjs'), writeSampleFile('bot-http.mjs')],
      ...extra,
    },
    { toolCalls: [{ name: 'test_bot', args: {} as Record<string, unknown> }], ...extra },
    { toolCalls: [{ name: 'finish', args: { summary: 'done' } as Record<string, unknown> }], ...extra },
  ];
}
