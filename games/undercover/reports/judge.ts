// The optional LLM judge of Undercover statements (off by default: nothing runs it unless asked).
// For every statement of a run's Undercover games it asks an OpenAI-compatible chat model for two
// scores on the grid 0, 0.2, …, 1 (the rubric below): novelty (how much it adds to what was
// already said) and reasonableness (how well it fits the speaker's word). The judge reaches the
// model only through catarena's egress proxy, which allows that one origin and adds the API key:
// the key is never in a request the judge builds.
//
//   npx tsx games/undercover/reports/judge.ts <run dir> --model <model>
//     env CATARENA_LLM_BASE_URL (e.g. https://api.openai.com/v1), OPENAI_API_KEY
//     writes <run dir>/undercover-judge.json: every statement's scores, and means per strategy.
// A statement whose answer is not two grid values gets null scores (and counts in `unjudged`).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Replay } from '../../../records/match.ts';
import { startEgressProxy } from '../../../sandbox/egress-proxy.ts';
import { replayStateWith } from '../../core/replay.ts';
import { wordOf, type UndercoverState } from '../rules.ts';
import { undercoverWire } from '../wire.ts';
import { RUN_DIRS } from '../../../records/run-layout.ts';

export const JUDGE_GRID = [0, 0.2, 0.4, 0.6, 0.8, 1] as const;

export interface JudgeInput {
  word: string;
  category: string;
  statement: string;
  /** The game's statements before this one. */
  earlier: string[];
}

export interface Judgement {
  novelty: number;
  reasonableness: number;
}

export const RUBRIC = [
  'You judge statements in the word game Undercover: a player describes their secret word without saying it.',
  'Score the statement on two scales, each one of 0, 0.2, 0.4, 0.6, 0.8, 1:',
  '- novelty: 0 = repeats what was already said, 0.4 = mostly known information, 1 = a new, distinct angle.',
  '- reasonableness: 0 = false or unrelated to the word, 0.4 = loosely related, 1 = clearly true of the word.',
  'Answer with JSON only: {"novelty": <score>, "reasonableness": <score>}.',
].join('\n');

export function judgeMessages(input: JudgeInput): Array<{ role: 'system' | 'user'; content: string }> {
  const earlier = input.earlier.length ? input.earlier.map((s) => `- ${s}`).join('\n') : '(none)';
  return [
    { role: 'system', content: RUBRIC },
    {
      role: 'user',
      content: `Word: ${input.word} (category ${input.category})\nEarlier statements:\n${earlier}\nStatement to judge: ${input.statement}`,
    },
  ];
}

const mean4 = (sum: number, n: number) => Math.round((sum / n) * 1e4) / 1e4;
const onGrid = (v: unknown): v is number => typeof v === 'number' && JUDGE_GRID.some((g) => Math.abs(g - v) < 1e-9);

/** The two scores of an answer, or null unless it holds a JSON object with two grid values. */
export function parseJudgement(text: string): Judgement | null {
  const m = /\{[\s\S]*\}/.exec(text);
  if (!m) return null;
  try {
    const o = JSON.parse(m[0]) as Record<string, unknown>;
    return onGrid(o.novelty) && onGrid(o.reasonableness)
      ? { novelty: o.novelty, reasonableness: o.reasonableness }
      : null;
  } catch {
    return null;
  }
}

/** Asks the model at `baseUrl` (an OpenAI-compatible …/v1) about each statement, one at a time. */
export async function judgeStatements(
  inputs: readonly JudgeInput[],
  o: { baseUrl: string; model: string; timeoutMs?: number },
): Promise<Array<Judgement | null>> {
  const out: Array<Judgement | null> = [];
  for (const input of inputs) {
    const res = await fetch(`${o.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: o.model, messages: judgeMessages(input), temperature: 0 }),
      signal: AbortSignal.timeout(o.timeoutMs ?? 30_000),
    });
    if (!res.ok) throw new Error(`judge: the model answered HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
    const body = (await res.json()) as { choices?: Array<{ message?: { content?: string } }> };
    out.push(parseJudgement(body.choices?.[0]?.message?.content ?? ''));
  }
  return out;
}

/** The judge's inputs of one game: every statement that was made, with the seat's strategy id. */
export function gameInputs(replay: Replay): Array<JudgeInput & { strategy: string; seat: number; round: number }> {
  const s: UndercoverState = replayStateWith(undercoverWire, replay);
  const said: string[] = [];
  return s.statements.flatMap((x) => {
    if (x.text === null) return [];
    const input = {
      word: wordOf(s, x.seat)!,
      category: s.pair.category,
      statement: x.text,
      earlier: said.slice(),
      strategy: replay.result.spec.seats[x.seat]!,
      seat: x.seat,
      round: x.round,
    };
    said.push(x.text);
    return [input];
  });
}

/** Judges every Undercover statement of a run through an egress proxy to `upstream`; writes undercover-judge.json. */
export async function judgeRun(
  runDir: string,
  o: { upstream: string; apiKey?: string; model: string },
): Promise<{ file: string; judged: number; unjudged: number }> {
  const dir = path.join(runDir, RUN_DIRS.replays);
  const replays = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Replay)
    .filter((r) => r.result.spec.game === 'undercover');
  const proxy = await startEgressProxy({
    allow: [],
    upstream: { url: o.upstream, headers: o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {} },
    listen: { port: 0 },
  });
  try {
    const baseUrl = `${proxy.address}${new URL(o.upstream).pathname.replace(/\/+$/, '')}`;
    const statements: Array<Record<string, unknown>> = [];
    const sums = new Map<string, { n: number; novelty: number; reasonableness: number }>();
    let unjudged = 0;
    for (const replay of replays) {
      const inputs = gameInputs(replay);
      const scores = await judgeStatements(inputs, { baseUrl, model: o.model });
      inputs.forEach((input, k) => {
        const j = scores[k] ?? null;
        statements.push({
          game_id: replay.result.serverGameId,
          strategy: input.strategy,
          seat: input.seat,
          round: input.round,
          statement: input.statement,
          novelty: j?.novelty ?? null,
          reasonableness: j?.reasonableness ?? null,
        });
        if (!j) return void unjudged++;
        const acc = sums.get(input.strategy) ?? { n: 0, novelty: 0, reasonableness: 0 };
        sums.set(input.strategy, {
          n: acc.n + 1,
          novelty: acc.novelty + j.novelty,
          reasonableness: acc.reasonableness + j.reasonableness,
        });
      });
    }
    const strategies = Object.fromEntries(
      [...sums].map(([id, a]) => [
        id,
        { statements: a.n, novelty: mean4(a.novelty, a.n), reasonableness: mean4(a.reasonableness, a.n) },
      ]),
    );
    const file = path.join(runDir, 'undercover-judge.json');
    fs.writeFileSync(
      file,
      `${JSON.stringify({ model: o.model, rubric: RUBRIC, unjudged, strategies, statements }, null, 2)}\n`,
    );
    return { file, judged: statements.length - unjudged, unjudged };
  } finally {
    await proxy.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [runDir] = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--model');
  const model = process.argv[process.argv.indexOf('--model') + 1];
  const upstream = process.env.CATARENA_LLM_BASE_URL;
  if (!runDir || !process.argv.includes('--model') || !model || !upstream) {
    console.error(
      'usage: CATARENA_LLM_BASE_URL=<…/v1> OPENAI_API_KEY=<key> npx tsx games/undercover/reports/judge.ts <run dir> --model <model>',
    );
    process.exit(2);
  }
  const r = await judgeRun(runDir, { upstream, apiKey: process.env.OPENAI_API_KEY, model });
  console.log(`judged ${r.judged} statements (${r.unjudged} unjudged): ${r.file}`);
}
