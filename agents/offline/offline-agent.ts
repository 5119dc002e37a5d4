// OfflineAgent: develops a real heuristic bot without an LLM, for every registered game whose
// descriptor names an offline kit (games/registry.ts; `offlineAgentGames` lists them)
// (on the go and ml task tracks: the game's Go or ML reference bot, ./track-reference.ts).
// Round 1 draws parameters from its character's prior; later rounds learn from the workspace only
// (round_report.json and the previous round's params.json files), then copy the reference bot
// (games/<game>/bots/heuristic) and write params + notes. Each game brings its knobs,
// characters and bot as a GameKit, in its own folder (games/<game>/agents/offline-kit.ts, named
// by the game's descriptor).
import fs from 'node:fs';
import path from 'node:path';
import { createRng, deriveSeed, type Rng } from '../../util/rng.ts';
import type { PreflightCheck } from '../core/preflight.ts';
import type { Agent, DevelopBudget, DevelopResult, PreflightContext, Workspace } from '../core/types.ts';
import { type RoundReport, strategyId } from '../../records/tourney.ts';
import { type Character, CHARACTER_NAMES, type CharacterName, type FieldEntry } from './core/learning.ts';
import type { GameKit } from './core/game-kit.ts';
import { developTrackReference, needsTrackReference } from './track-reference.ts';
import { gameDescriptor, gameIds } from '../../games/registry.ts';
import { referenceBotDir } from '../../util/paths.ts';
import { loadGameModule } from '../../games/modules.ts';
import { linesOfCode } from '../core/lines-of-code.ts';
import { clampKnobs, drawFromPrior, fmt, mutate, settle } from './core/knob-ops.ts';
import type { Knobs, Range } from './core/param-space.ts';
import { TOOL_LOG_FILE, type ToolLogLine } from '../../records/agent-activity.ts';
import { RUN_FILES } from '../../records/run-layout.ts';

const isCharacterName = (name: string): name is CharacterName => (CHARACTER_NAMES as readonly string[]).includes(name);

/** The games an offline agent can develop for: those whose descriptor names an offline kit. */
export function offlineAgentGames(): string[] {
  return gameIds().filter((g) => gameDescriptor(g).modules.offlineKit);
}

/**
 * The kit of a game whose descriptor names one (a parameterised heuristic reference bot the
 * offline agents tune), loaded from the game's folder.
 */
// biome-ignore lint/suspicious/noExplicitAny: any game's types
async function kitFor(game: string): Promise<GameKit<any>> {
  const supported = offlineAgentGames();
  const kit =
    gameIds().includes(game) && fs.existsSync(referenceBotDir(game, 'heuristic'))
      ? // biome-ignore lint/suspicious/noExplicitAny: any game's types
        await loadGameModule<GameKit<any>>(game, 'offlineKit')
      : null;
  if (!kit)
    throw new Error(`game "${game}" has no heuristic reference bot; offline agents support: ${supported.join(', ')}`);
  return kit;
}

/**
 * File operations, counted (an offline agent's "tool calls") and recorded under the built-in
 * agent's tool names in the workspace's tool log, so the evolution report shows what it read.
 */
class CountingFs {
  ops = 0;
  private readonly lines: ToolLogLine[] = [];
  constructor(private readonly root: string) {}
  private note(tool: string, file: string, ok = true, extra: Record<string, unknown> = {}): void {
    const rel = path.relative(this.root, file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return; // outside the workspace (the reference bot it copies)
    this.lines.push({
      attempt: 1,
      step: this.lines.length + 1,
      tool,
      input: { path: rel.split(path.sep).join('/') || '.', ...extra },
      ok,
    });
  }
  read(file: string): string {
    this.ops++;
    try {
      const text = fs.readFileSync(file, 'utf8');
      this.note('read_file', file);
      return text;
    } catch (e) {
      this.note('read_file', file, false);
      throw e;
    }
  }
  list(dir: string): string[] {
    this.ops++;
    this.note('list_files', dir);
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  }
  write(file: string, text: string): void {
    this.ops++;
    fs.writeFileSync(file, text);
    this.note('write_file', file, true, { chars: text.length });
  }
  copy(from: string, to: string): void {
    this.ops += 2; // one read, one write
    fs.copyFileSync(from, to);
    this.note('read_file', from);
    this.note('write_file', to, true, { chars: fs.statSync(to).size });
  }
  /** The tool log (records/agent-activity.ts), in the workspace root. */
  save(): void {
    fs.writeFileSync(path.join(this.root, TOOL_LOG_FILE), this.lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  }
}

const errText = (e: unknown) => (e instanceof Error ? e.message.split('\n')[0]! : String(e));

function validReport(raw: unknown): raw is RoundReport {
  const r = raw as RoundReport | null;
  return (
    !!r &&
    typeof r === 'object' &&
    Array.isArray(r.standings) &&
    !!r.pairwise &&
    typeof r.pairwise === 'object' &&
    r.standings.every((s) => s && typeof s.agent === 'string' && typeof s.id === 'string' && Number.isFinite(s.score))
  );
}

export class OfflineAgent implements Agent {
  readonly id: string;
  readonly kind: string;
  private readonly characterName: CharacterName;
  private readonly seed: number;

  constructor({ id, character, seed }: { id: string; character: string; seed: number }) {
    if (!isCharacterName(character))
      throw new Error(`unknown offline character "${character}"; available: ${CHARACTER_NAMES.join(', ')}`);
    this.id = id;
    this.kind = `offline:${character}`;
    this.characterName = character;
    this.seed = seed;
  }

  /** Every game of the run has a heuristic reference bot and a kit for it. */
  async preflight(context: PreflightContext): Promise<PreflightCheck[]> {
    return Promise.all(
      context.games.map(async (game) => {
        try {
          await kitFor(game);
          return { check: `${game} reference bot`, ok: true, detail: `games/${game}/bots/heuristic` };
        } catch (err) {
          return { check: `${game} reference bot`, ok: false, detail: (err as Error).message };
        }
      }),
    );
  }

  async develop(ws: Workspace, budget: DevelopBudget): Promise<DevelopResult> {
    if (needsTrackReference(ws.taskTrack)) {
      const self = ws.agentId || this.id;
      return developTrackReference(ws, ws.taskTrack, {
        self,
        kind: this.kind,
        seed: deriveSeed(this.seed, self, ws.game, ws.variant, ws.round),
        wallMs: budget.wallMs,
      });
    }
    const t0 = Date.now();
    const kit = await kitFor(ws.game);
    const ref = referenceBotDir(ws.game, 'heuristic');
    const { space } = kit;
    const character: Character<Record<string, number>> = kit.characters[this.characterName];
    const io = new CountingFs(ws.dir);
    const self = ws.agentId || this.id;
    const rng = createRng(deriveSeed(this.seed, self, ws.game, ws.variant, ws.round));
    const log: string[] = [
      `${self} (${this.kind}), ${ws.game}/${ws.variant}, round ${ws.round}`,
      `character: ${character.summary}`,
    ];

    let before: Record<string, number> | null = null;
    let knobs: Record<string, number>;
    const notes: string[] = [];
    if (ws.round <= 1) {
      knobs = drawFromPrior(space, character.prior, rng);
      notes.push(
        "round 1: drew every knob from my character's prior (shallow, noisy: a first guess with room to learn)",
      );
    } else {
      ({ before, knobs } = this.learn(kit, character, ws, self, rng, io, notes));
    }
    // The budget must stay far below the move deadline (HTTP, JSON and a loaded machine).
    const [minBudget, maxBudget] = space.limits.timeBudgetMs as Range;
    const cap = Math.min(maxBudget, Math.floor(0.4 * ws.moveTimeoutMs));
    knobs = clampKnobs(space, character.shape(knobs));
    if (knobs.timeBudgetMs! > cap) {
      notes.push(`time budget capped at ${cap} ms (40% of the ${ws.moveTimeoutMs} ms move limit)`);
      knobs.timeBudgetMs = cap;
      if (cap < minBudget)
        notes.push(`warning: the bot never budgets under ${minBudget} ms, so this move limit is too tight for it`);
    }
    log.push(...notes.map((n) => `- ${n}`));

    const params = {
      name: self,
      round: ws.round,
      character: character.name,
      ...kit.params(knobs, rng.int(1, 2 ** 31 - 1)),
    };
    fs.mkdirSync(ws.outputDir, { recursive: true });
    for (const f of kit.botFiles) io.copy(path.join(ref, f), path.join(ws.outputDir, f));
    fs.chmodSync(path.join(ws.outputDir, 'start_ai.sh'), 0o755);
    io.write(path.join(ws.outputDir, 'params.json'), `${JSON.stringify(params, null, 2)}\n`);
    const table = space.names.map((n) => `| ${n} | ${before ? fmt(before[n]!) : '–'} | ${fmt(knobs[n]!)} |`);
    log.push(`params: ${space.names.map((n) => `${n}=${fmt(knobs[n]!)}`).join(', ')}`);
    io.write(
      path.join(ws.outputDir, 'NOTES.md'),
      [
        `# ${self}, round ${ws.round} (${this.kind})`,
        '',
        `Character: ${character.summary}.`,
        `Learning rule: ${character.learnRule}.`,
        '',
        '## What I did and why',
        '',
        ...notes.map((n) => `- ${n}`),
        '',
        '## Parameters',
        '',
        '| knob | previous | now |',
        '| --- | --- | --- |',
        ...table,
        '',
        kit.about,
        '',
      ].join('\n'),
    );
    io.save();

    return {
      botDir: ws.outputDir,
      cost: { wallMs: Date.now() - t0, toolCalls: io.ops, tokens: null, linesOfCode: await linesOfCode(ws.outputDir) },
      log: log.join('\n'),
    };
  }

  /** Round ≥ 2: previous params + report + rivals' params → new knobs; never throws on bad files. */
  private learn<K extends Knobs<K>>(
    kit: GameKit<K>,
    character: Character<K>,
    ws: Workspace,
    self: string,
    rng: Rng,
    io: CountingFs,
    notes: string[],
  ): { before: K | null; knobs: K } {
    const readJson = (file: string): { ok: true; value: unknown } | { ok: false; why: string } => {
      try {
        return { ok: true, value: JSON.parse(io.read(file)) };
      } catch (e) {
        return {
          ok: false,
          why: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : `unreadable (${errText(e)})`,
        };
      }
    };
    // Every agent's previous params ("their code"), mine included.
    const params = new Map<string, K>();
    if (ws.lastRoundDir && fs.existsSync(ws.lastRoundDir)) {
      for (const agent of io.list(ws.lastRoundDir)) {
        const r = readJson(path.join(ws.lastRoundDir, agent, 'params.json'));
        const k = r.ok ? kit.fromParams(r.value) : null;
        if (k) params.set(agent, k);
        else
          notes.push(
            `last_round/${agent}/params.json ${r.ok ? 'is not a params object' : r.why}: cannot use its parameters`,
          );
      }
    } else {
      notes.push('no last_round folder in the workspace');
    }
    let own = params.get(self) ?? null;
    if (!own) {
      own = drawFromPrior(kit.space, character.prior, rng);
      notes.push('my own previous params.json is not available: starting again from my prior');
    }
    const before = own;
    const fallback = (why: string) => {
      notes.push(`${why}: falling back to a mutation of my own previous params`);
      return { before, knobs: settle(kit.space, mutate(kit.space, own, rng, 0.1), notes) };
    };

    if (!ws.logsDir) return fallback('no logs folder, so no round_report.json');
    const r = readJson(path.join(ws.logsDir, RUN_FILES.roundReport));
    if (!r.ok) return fallback(`round_report.json is ${r.why}`);
    if (!validReport(r.value))
      return fallback('round_report.json does not have the round report shape (standings, pairwise)');
    const report = r.value;
    const prevRound = Number.isFinite(report.round) ? report.round : ws.round - 1;
    const mine = report.standings.find((s) => s.agent === self && (s.round ?? prevRound) === prevRound);
    const myId = mine?.id ?? strategyId(self, prevRound);

    const field: FieldEntry<K>[] = report.standings
      .filter((s) => (s.round ?? prevRound) === prevRound && params.has(s.agent))
      .map((s) => ({
        agent: s.agent,
        id: s.id,
        score: s.score,
        knobs: params.get(s.agent)!,
        vsMe: report.pairwise[s.id]?.[myId],
      }))
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    notes.push(
      `read round_report.json (round ${prevRound}, ${report.games ?? '?'} games): ${[...report.standings]
        .sort((a, b) => b.score - a.score)
        .map((s) => `${s.id} ${fmt(s.score)} (${s.wins ?? '?'}-${s.draws ?? '?'}-${s.losses ?? '?'})`)
        .join(', ')}`,
    );
    if (mine) notes.push(`my previous strategy ${myId} scored ${fmt(mine.score)}`);
    if (!field.some((e) => e.agent !== self)) return fallback('no rival with both a standing and readable params');
    notes.push(`used the params of: ${field.map((e) => e.agent).join(', ')}`);
    const learned = character.learn({ self, own, field, rng });
    notes.push(...learned.notes);
    return { before, knobs: learned.knobs };
  }
}
