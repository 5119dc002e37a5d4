// OfflineAgent: develops a real heuristic Gomoku bot without an LLM. Round 1 draws parameters
// from its character's prior; later rounds learn from the workspace only (round_report.json and
// the previous round's params.json files), then copy the reference bot and write params + notes.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng, deriveSeed, type Rng } from '../../games/core/rng.ts';
import type { Agent, DevelopBudget, DevelopResult, Workspace } from '../types.ts';
import type { RoundReport } from '../../orchestrator/tourney/types.ts';
import { strategyId } from '../../orchestrator/tourney/types.ts';
import {
  CHARACTERS, KNOB_NAMES, LIMITS, clampKnobs, drawFromPrior, mutate, settle,
  type Character, type FieldEntry, type Knobs,
} from './characters.ts';

/** Games with a parameterised heuristic reference bot the offline agents can tune. */
export const OFFLINE_GAMES = ['gomoku'] as const;
const BOT_FILES = ['start_ai.sh', 'bot.mjs', 'engine.mjs'];
const CODE_EXT = /\.(sh|mjs|js|cjs|ts|py)$/;
/** The bot's own defaults (bot.mjs DEFAULTS), for params.json files that leave knobs out. */
const BOT_DEFAULTS: Knobs = { attack: 1, defense: 1, depth: 4, candidates: 12, timeBudgetMs: 1500, centerBias: 0.1, randomness: 0, ratio: 10 };

function referenceBotDir(game: string): string {
  const dir = fileURLToPath(new URL(`../../games/${game}/bots/heuristic/`, import.meta.url));
  if (!(OFFLINE_GAMES as readonly string[]).includes(game) || !fs.existsSync(dir)) {
    throw new Error(`game "${game}" has no heuristic reference bot; offline agents support: ${OFFLINE_GAMES.join(', ')}`);
  }
  return dir;
}

/** Window weights from one growth ratio; ratio 10 gives the engine's defaults. */
export function weightsFor(r: number): { standard: number[]; variant: number[] } {
  const round = (v: number) => Math.round(v * 100) / 100;
  return { standard: [0, 1, r, r * r, r ** 3, 100000].map(round), variant: [0, 3, 4 * r, 20 * r * r].map(round) };
}

/** Knobs from any params.json object (another agent's may be partial or odd); null if unusable. */
export function knobsFromParams(raw: unknown): Knobs | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const obj = raw as Record<string, unknown>;
  const k = { ...BOT_DEFAULTS };
  for (const name of KNOB_NAMES) {
    const v = Number(obj[name]);
    if (name !== 'ratio' && obj[name] !== undefined && Number.isFinite(v)) k[name] = v;
  }
  const w = (obj.weights as { standard?: unknown } | undefined)?.standard;
  if (Array.isArray(w) && w.length === 6 && w.every(Number.isFinite) && w[1] > 0 && w[4] > 0) k.ratio = Math.cbrt(w[4] / w[1]);
  return clampKnobs(k);
}

/** File operations, counted: an offline agent's "tool calls". */
class CountingFs {
  ops = 0;
  read(file: string): string {
    this.ops++;
    return fs.readFileSync(file, 'utf8');
  }
  list(dir: string): string[] {
    this.ops++;
    return fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  }
  write(file: string, text: string): void {
    this.ops++;
    fs.writeFileSync(file, text);
  }
  copy(from: string, to: string): void {
    this.ops += 2; // one read, one write
    fs.copyFileSync(from, to);
  }
}

const fmt = (v: number) => String(Math.round(v * 100) / 100);
const errText = (e: unknown) => (e instanceof Error ? e.message.split('\n')[0]! : String(e));

function validReport(raw: unknown): raw is RoundReport {
  const r = raw as RoundReport | null;
  return !!r && typeof r === 'object' && Array.isArray(r.standings) && !!r.pairwise && typeof r.pairwise === 'object'
    && r.standings.every((s) => s && typeof s.agent === 'string' && typeof s.id === 'string' && Number.isFinite(s.score));
}

export class OfflineAgent implements Agent {
  readonly id: string;
  readonly kind: string;
  private readonly character: Character;
  private readonly seed: number;

  constructor({ id, character, seed }: { id: string; character: string; seed: number }) {
    const c = CHARACTERS[character];
    if (!c) throw new Error(`unknown offline character "${character}"; available: ${Object.keys(CHARACTERS).join(', ')}`);
    this.id = id;
    this.kind = `offline:${character}`;
    this.character = c;
    this.seed = seed;
  }

  async develop(ws: Workspace, _budget: DevelopBudget): Promise<DevelopResult> {
    const t0 = Date.now();
    const ref = referenceBotDir(ws.game);
    const io = new CountingFs();
    const self = ws.agentId || this.id;
    const rng = createRng(deriveSeed(this.seed, self, ws.game, ws.variant, ws.round));
    const log: string[] = [`${self} (${this.kind}), ${ws.game}/${ws.variant}, round ${ws.round}`, `character: ${this.character.summary}`];

    let before: Knobs | null = null;
    let knobs: Knobs;
    const notes: string[] = [];
    if (ws.round <= 1) {
      knobs = drawFromPrior(this.character.prior, rng);
      notes.push('round 1: drew every knob from my character\'s prior (shallow, noisy: a first guess with room to learn)');
    } else {
      ({ before, knobs } = this.learn(ws, self, rng, io, notes));
    }
    // The budget must stay far below the move deadline (HTTP, JSON and a loaded machine).
    const cap = Math.min(LIMITS.timeBudgetMs[1], Math.floor(0.4 * ws.moveTimeoutMs));
    knobs = clampKnobs(this.character.shape(knobs));
    if (knobs.timeBudgetMs > cap) {
      notes.push(`time budget capped at ${cap} ms (40% of the ${ws.moveTimeoutMs} ms move limit)`);
      knobs.timeBudgetMs = cap;
      if (cap < LIMITS.timeBudgetMs[0]) notes.push(`warning: the bot never budgets under ${LIMITS.timeBudgetMs[0]} ms, so this move limit is too tight for it`);
    }
    log.push(...notes.map((n) => `- ${n}`));

    const params = {
      name: self, round: ws.round, character: this.character.name,
      attack: +fmt(knobs.attack), defense: +fmt(knobs.defense), depth: knobs.depth, candidates: knobs.candidates,
      timeBudgetMs: knobs.timeBudgetMs, centerBias: +fmt(knobs.centerBias), randomness: +fmt(knobs.randomness),
      seed: rng.int(1, 2 ** 31 - 1), weights: weightsFor(knobs.ratio),
    };
    fs.mkdirSync(ws.outputDir, { recursive: true });
    for (const f of BOT_FILES) io.copy(path.join(ref, f), path.join(ws.outputDir, f));
    fs.chmodSync(path.join(ws.outputDir, 'start_ai.sh'), 0o755);
    io.write(path.join(ws.outputDir, 'params.json'), `${JSON.stringify(params, null, 2)}\n`);
    const table = KNOB_NAMES.map((n) => `| ${n} | ${before ? fmt(before[n]) : '–'} | ${fmt(knobs[n])} |`);
    log.push(`params: ${KNOB_NAMES.map((n) => `${n}=${fmt(knobs[n])}`).join(', ')}`);
    io.write(path.join(ws.outputDir, 'NOTES.md'), [
      `# ${self}, round ${ws.round} (${this.kind})`, '', `Character: ${this.character.summary}.`,
      `Learning rule: ${this.character.learnRule}.`, '', '## What I did and why', '', ...notes.map((n) => `- ${n}`), '',
      '## Parameters', '', '| knob | previous | now |', '| --- | --- | --- |', ...table, '',
      `The bot is the reference heuristic bot (threat windows + alpha-beta); only params.json differs. ratio = weight growth per stone in a window (10 = the engine's default weights).`, '',
    ].join('\n'));

    let linesOfCode = 0;
    for (const f of fs.readdirSync(ws.outputDir)) {
      if (CODE_EXT.test(f)) linesOfCode += fs.readFileSync(path.join(ws.outputDir, f), 'utf8').split('\n').filter((l) => l.trim()).length;
    }
    return {
      botDir: ws.outputDir,
      cost: { wallMs: Date.now() - t0, toolCalls: io.ops, tokens: null, linesOfCode },
      log: log.join('\n'),
    };
  }

  /** Round ≥ 2: previous params + report + rivals' params → new knobs; never throws on bad files. */
  private learn(ws: Workspace, self: string, rng: Rng, io: CountingFs, notes: string[]): { before: Knobs | null; knobs: Knobs } {
    const readJson = (file: string): { ok: true; value: unknown } | { ok: false; why: string } => {
      try {
        return { ok: true, value: JSON.parse(io.read(file)) };
      } catch (e) {
        return { ok: false, why: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `unreadable (${errText(e)})` };
      }
    };
    // Every agent's previous params ("their code"), mine included.
    const params = new Map<string, Knobs>();
    if (ws.lastRoundDir && fs.existsSync(ws.lastRoundDir)) {
      for (const agent of io.list(ws.lastRoundDir)) {
        const r = readJson(path.join(ws.lastRoundDir, agent, 'params.json'));
        const k = r.ok ? knobsFromParams(r.value) : null;
        if (k) params.set(agent, k);
        else notes.push(`last_round/${agent}/params.json ${r.ok ? 'is not a params object' : r.why}: cannot use its parameters`);
      }
    } else {
      notes.push('no last_round folder in the workspace');
    }
    let own = params.get(self) ?? null;
    if (!own) {
      own = drawFromPrior(this.character.prior, rng);
      notes.push('my own previous params.json is not available: starting again from my prior');
    }
    const before = own;
    const fallback = (why: string) => {
      notes.push(`${why}: falling back to a mutation of my own previous params`);
      return { before, knobs: settle(mutate(own, rng, 0.1), notes) };
    };

    if (!ws.logsDir) return fallback('no logs folder, so no round_report.json');
    const r = readJson(path.join(ws.logsDir, 'round_report.json'));
    if (!r.ok) return fallback(`round_report.json is ${r.why}`);
    if (!validReport(r.value)) return fallback('round_report.json does not have the round report shape (standings, pairwise)');
    const report = r.value;
    const prevRound = Number.isFinite(report.round) ? report.round : ws.round - 1;
    const mine = report.standings.find((s) => s.agent === self && (s.round ?? prevRound) === prevRound);
    const myId = mine?.id ?? strategyId(self, prevRound);

    const field: FieldEntry[] = report.standings
      .filter((s) => (s.round ?? prevRound) === prevRound && params.has(s.agent))
      .map((s) => ({ agent: s.agent, id: s.id, score: s.score, knobs: params.get(s.agent)!, vsMe: report.pairwise[s.id]?.[myId] }))
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    notes.push(`read round_report.json (round ${prevRound}, ${report.games ?? '?'} games): ${
      [...report.standings].sort((a, b) => b.score - a.score).map((s) => `${s.id} ${fmt(s.score)} (${s.wins ?? '?'}-${s.draws ?? '?'}-${s.losses ?? '?'})`).join(', ')}`);
    if (mine) notes.push(`my previous strategy ${myId} scored ${fmt(mine.score)}`);
    if (!field.some((e) => e.agent !== self)) return fallback('no rival with both a standing and readable params');
    notes.push(`used the params of: ${field.map((e) => e.agent).join(', ')}`);
    const learned = this.character.learn({ self, own, field, rng });
    notes.push(...learned.notes);
    return { before, knobs: learned.knobs };
  }
}
