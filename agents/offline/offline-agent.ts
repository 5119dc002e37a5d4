// OfflineAgent: develops a real heuristic Gomoku or chess bot without an LLM. Round 1 draws
// parameters from its character's prior; later rounds learn from the workspace only
// (round_report.json and the previous round's params.json files), then copy the reference bot
// (games/<game>/bots/heuristic) and write params + notes. Each game brings its knob set (a Kit).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng, deriveSeed, type Rng } from '../../games/core/rng.ts';
import type { Agent, DevelopBudget, DevelopResult, Workspace } from '../types.ts';
import type { RoundReport } from '../../orchestrator/tourney/types.ts';
import { strategyId } from '../../orchestrator/tourney/types.ts';
import {
  CHARACTERS, KNOB_NAMES, LIMITS, clampKnobs, drawFromPrior, mutate, settle,
  type Character, type FieldEntry, type Knobs, type Prior,
} from './characters.ts';
import {
  CHESS_BOT_DEFAULTS, CHESS_CHARACTERS, CHESS_KNOB_NAMES, CHESS_LIMITS, clampChess, drawChess, mutateChess, settleChess,
  type ChessKnobs,
} from './chess-characters.ts';

/** Games with a parameterised heuristic reference bot the offline agents can tune. */
export const OFFLINE_GAMES = ['gomoku', 'chess'] as const;
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

/** Chess knobs from any params.json object; null if unusable. */
export function chessKnobsFromParams(raw: unknown): ChessKnobs | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const obj = raw as Record<string, unknown>;
  const k = { ...CHESS_BOT_DEFAULTS };
  for (const name of CHESS_KNOB_NAMES) {
    const v = Number(obj[name]);
    if (obj[name] !== undefined && obj[name] !== null && Number.isFinite(v)) k[name] = v;
  }
  return clampChess(k);
}

/** What the agent needs to know about one game's reference bot and its knobs. */
interface Kit<K extends { timeBudgetMs: number }> {
  /** Files copied from games/<game>/bots/heuristic (params.json is written, not copied). */
  botFiles: string[];
  names: readonly (keyof K & string)[];
  limits: Record<keyof K, readonly [number, number]>;
  characters: Record<string, Character<K>>;
  clamp(k: K): K;
  draw(prior: Prior<K>, rng: Rng): K;
  mutate(k: K, rng: Rng, scale: number): K;
  settle(k: K, notes: string[]): K;
  fromParams(raw: unknown): K | null;
  /** params.json fields after name, round and character. */
  params(k: K, seed: number): Record<string, unknown>;
  /** The last paragraph of NOTES.md. */
  about: string;
}

const GOMOKU_KIT: Kit<Knobs> = {
  botFiles: ['start_ai.sh', 'bot.mjs', 'engine.mjs'],
  names: KNOB_NAMES,
  limits: LIMITS,
  characters: CHARACTERS,
  clamp: clampKnobs,
  draw: drawFromPrior,
  mutate,
  settle,
  fromParams: knobsFromParams,
  params: (k, seed) => ({
    attack: +fmt(k.attack), defense: +fmt(k.defense), depth: k.depth, candidates: k.candidates,
    timeBudgetMs: k.timeBudgetMs, centerBias: +fmt(k.centerBias), randomness: +fmt(k.randomness),
    seed, weights: weightsFor(k.ratio),
  }),
  about: `The bot is the reference heuristic bot (threat windows + alpha-beta); only params.json differs. ratio = weight growth per stone in a window (10 = the engine's default weights).`,
};

const CHESS_KIT: Kit<ChessKnobs> = {
  botFiles: ['start_ai.sh', 'bot.mjs', 'engine.mjs', 'chess-core.mjs'],
  names: CHESS_KNOB_NAMES,
  limits: CHESS_LIMITS,
  characters: CHESS_CHARACTERS,
  clamp: clampChess,
  draw: drawChess,
  mutate: mutateChess,
  settle: settleChess,
  fromParams: chessKnobsFromParams,
  params: (k, seed) => ({
    depth: k.depth, timeBudgetMs: k.timeBudgetMs, materialScale: +fmt(k.materialScale), mobility: +fmt(k.mobility),
    pst: +fmt(k.pst), kingSafety: +fmt(k.kingSafety), randomness: +fmt(k.randomness), seed,
  }),
  about: 'The bot is the reference heuristic chess bot (material + piece-square tables + mobility, alpha-beta with iterative deepening); only params.json differs. materialScale multiplies the piece values; mobility, pst and kingSafety weigh their terms (1 = the bot\'s defaults); randomness × 100 cp of noise on the root moves.',
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const KITS: Record<string, Kit<any>> = { gomoku: GOMOKU_KIT, chess: CHESS_KIT };

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
  private readonly characterName: string;
  private readonly seed: number;

  constructor({ id, character, seed }: { id: string; character: string; seed: number }) {
    const c = CHARACTERS[character];
    if (!c) throw new Error(`unknown offline character "${character}"; available: ${Object.keys(CHARACTERS).join(', ')}`);
    this.id = id;
    this.kind = `offline:${character}`;
    this.characterName = character;
    this.seed = seed;
  }

  async develop(ws: Workspace, _budget: DevelopBudget): Promise<DevelopResult> {
    const t0 = Date.now();
    const ref = referenceBotDir(ws.game);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const kit: Kit<any> = KITS[ws.game]!;
    const character: Character<Record<string, number>> = kit.characters[this.characterName]!;
    const io = new CountingFs();
    const self = ws.agentId || this.id;
    const rng = createRng(deriveSeed(this.seed, self, ws.game, ws.variant, ws.round));
    const log: string[] = [`${self} (${this.kind}), ${ws.game}/${ws.variant}, round ${ws.round}`, `character: ${character.summary}`];

    let before: Record<string, number> | null = null;
    let knobs: Record<string, number>;
    const notes: string[] = [];
    if (ws.round <= 1) {
      knobs = kit.draw(character.prior, rng);
      notes.push('round 1: drew every knob from my character\'s prior (shallow, noisy: a first guess with room to learn)');
    } else {
      ({ before, knobs } = this.learn(kit, character, ws, self, rng, io, notes));
    }
    // The budget must stay far below the move deadline (HTTP, JSON and a loaded machine).
    const [minBudget, maxBudget] = kit.limits.timeBudgetMs as readonly [number, number];
    const cap = Math.min(maxBudget, Math.floor(0.4 * ws.moveTimeoutMs));
    knobs = kit.clamp(character.shape(knobs));
    if (knobs.timeBudgetMs! > cap) {
      notes.push(`time budget capped at ${cap} ms (40% of the ${ws.moveTimeoutMs} ms move limit)`);
      knobs.timeBudgetMs = cap;
      if (cap < minBudget) notes.push(`warning: the bot never budgets under ${minBudget} ms, so this move limit is too tight for it`);
    }
    log.push(...notes.map((n) => `- ${n}`));

    const params = { name: self, round: ws.round, character: character.name, ...kit.params(knobs, rng.int(1, 2 ** 31 - 1)) };
    fs.mkdirSync(ws.outputDir, { recursive: true });
    for (const f of kit.botFiles) io.copy(path.join(ref, f), path.join(ws.outputDir, f));
    fs.chmodSync(path.join(ws.outputDir, 'start_ai.sh'), 0o755);
    io.write(path.join(ws.outputDir, 'params.json'), `${JSON.stringify(params, null, 2)}\n`);
    const table = kit.names.map((n) => `| ${n} | ${before ? fmt(before[n]!) : '–'} | ${fmt(knobs[n]!)} |`);
    log.push(`params: ${kit.names.map((n) => `${n}=${fmt(knobs[n]!)}`).join(', ')}`);
    io.write(path.join(ws.outputDir, 'NOTES.md'), [
      `# ${self}, round ${ws.round} (${this.kind})`, '', `Character: ${character.summary}.`,
      `Learning rule: ${character.learnRule}.`, '', '## What I did and why', '', ...notes.map((n) => `- ${n}`), '',
      '## Parameters', '', '| knob | previous | now |', '| --- | --- | --- |', ...table, '',
      kit.about, '',
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
  private learn<K extends { timeBudgetMs: number }>(
    kit: Kit<K>, character: Character<K>, ws: Workspace, self: string, rng: Rng, io: CountingFs, notes: string[],
  ): { before: K | null; knobs: K } {
    const readJson = (file: string): { ok: true; value: unknown } | { ok: false; why: string } => {
      try {
        return { ok: true, value: JSON.parse(io.read(file)) };
      } catch (e) {
        return { ok: false, why: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `unreadable (${errText(e)})` };
      }
    };
    // Every agent's previous params ("their code"), mine included.
    const params = new Map<string, K>();
    if (ws.lastRoundDir && fs.existsSync(ws.lastRoundDir)) {
      for (const agent of io.list(ws.lastRoundDir)) {
        const r = readJson(path.join(ws.lastRoundDir, agent, 'params.json'));
        const k = r.ok ? kit.fromParams(r.value) : null;
        if (k) params.set(agent, k);
        else notes.push(`last_round/${agent}/params.json ${r.ok ? 'is not a params object' : r.why}: cannot use its parameters`);
      }
    } else {
      notes.push('no last_round folder in the workspace');
    }
    let own = params.get(self) ?? null;
    if (!own) {
      own = kit.draw(character.prior, rng);
      notes.push('my own previous params.json is not available: starting again from my prior');
    }
    const before = own;
    const fallback = (why: string) => {
      notes.push(`${why}: falling back to a mutation of my own previous params`);
      return { before, knobs: kit.settle(kit.mutate(own, rng, 0.1), notes) };
    };

    if (!ws.logsDir) return fallback('no logs folder, so no round_report.json');
    const r = readJson(path.join(ws.logsDir, 'round_report.json'));
    if (!r.ok) return fallback(`round_report.json is ${r.why}`);
    if (!validReport(r.value)) return fallback('round_report.json does not have the round report shape (standings, pairwise)');
    const report = r.value;
    const prevRound = Number.isFinite(report.round) ? report.round : ws.round - 1;
    const mine = report.standings.find((s) => s.agent === self && (s.round ?? prevRound) === prevRound);
    const myId = mine?.id ?? strategyId(self, prevRound);

    const field: FieldEntry<K>[] = report.standings
      .filter((s) => (s.round ?? prevRound) === prevRound && params.has(s.agent))
      .map((s) => ({ agent: s.agent, id: s.id, score: s.score, knobs: params.get(s.agent)!, vsMe: report.pairwise[s.id]?.[myId] }))
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    notes.push(`read round_report.json (round ${prevRound}, ${report.games ?? '?'} games): ${
      [...report.standings].sort((a, b) => b.score - a.score).map((s) => `${s.id} ${fmt(s.score)} (${s.wins ?? '?'}-${s.draws ?? '?'}-${s.losses ?? '?'})`).join(', ')}`);
    if (mine) notes.push(`my previous strategy ${myId} scored ${fmt(mine.score)}`);
    if (!field.some((e) => e.agent !== self)) return fallback('no rival with both a standing and readable params');
    notes.push(`used the params of: ${field.map((e) => e.agent).join(', ')}`);
    const learned = character.learn({ self, own, field, rng });
    notes.push(...learned.notes);
    return { before, knobs: learned.knobs };
  }
}
