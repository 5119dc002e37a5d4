// A track's strategy evolution, from its bot folders and workspaces: per agent and round, the bot's
// make-up (./bot-profile.ts), the diff from its previous round's bot (./bot-diff.ts) beside the
// change in its score against the field (ΔG) and its build notes, what it looked at before writing
// (./agent-reads.ts), and per round the code similarity of every bot to every bot of that round and
// the previous one (./similarity.ts), with a flag where a bot came close to a rival's previous bot.
// Each bot folder is read once; docs/evolution.md defines every number.
import { readBot, type BotFiles } from './bot-files.ts';
import { profileBot, type BotProfile } from './bot-profile.ts';
import { diffBots, type BotDiff } from './bot-diff.ts';
import { agentReads, type AgentReads } from './agent-reads.ts';
import { fingerprintFiles, similarity, WINNOW_DEFAULTS, withoutBase } from './similarity.ts';

export interface EvolutionStrategy {
  id: string;
  agent: string;
  round: number;
  agentKind: string;
  status: 'ok' | 'failed';
  failure?: string;
  warnings?: string[];
  /** The bot folder as played. */
  dir: string;
  /** The workspace it was developed in (transcripts, tool log). */
  workspace: string;
  buildLog: string;
}

export interface EvolutionInput {
  track: string;
  game: string;
  variant: string;
  /** In report order. */
  agents: string[];
  rounds: number;
  strategies: EvolutionStrategy[];
  /** G_i^n per agent, index n − 1 (the track's metrics). */
  G: Record<string, ReadonlyArray<number | null>>;
  /** Code every agent was given (the sample bot): its fingerprints count for nobody. */
  base?: string[];
  /** A bot this similar to a rival's previous bot is flagged (default 0.7) … */
  threshold?: number;
  /** … as borrowed when it rose at least this much since the agent's previous bot (default 0.2). */
  rise?: number;
}

/** sim(B@n → A@n−1) ≥ threshold: B's round-n bot against rival A's previous bot. */
export interface SimilarityFlag {
  id: string;
  agent: string;
  round: number;
  rival: string;
  rivalId: string;
  value: number;
  /** sim(B@n−1 → A@n−1): how close B's previous bot already was. */
  before: number | null;
  rise: number | null;
  /** sim(B@n → B@n−1). */
  own: number | null;
  deltaG: number | null;
  /** The similarity rose by at least `rise` (or B had no previous code): closer than it was, not shared ancestry. */
  borrowed: boolean;
}

export interface SimilarityRound {
  round: number;
  /** Round-n strategies. */
  rows: string[];
  /** Round n−1 strategies, then round n's. */
  cols: string[];
  /** values[r][c] = sim(rows[r] → cols[c]); null on the diagonal and where a bot has no code beyond the base. */
  values: (number | null)[][];
}

export interface EvolutionStep {
  id: string;
  agent: string;
  round: number;
  status: 'ok' | 'failed';
  failure?: string;
  warnings?: string[];
  /** What the build log says of the agent's work and its validation, a few lines. */
  notes: string[];
  G: number | null;
  /** G^n − G^(n−1); null in round 1 or where either is missing. */
  deltaG: number | null;
  profile: BotProfile;
  /** From the agent's previous bot (null in round 1). */
  diff: (BotDiff & { from: string }) | null;
  /** sim(this → own previous bot). */
  own: number | null;
  /** The rival's previous bot this one is most similar to. */
  nearest: { id: string; agent: string; value: number } | null;
  reads: AgentReads | null;
}

export interface EvolutionTrack {
  track: string;
  game: string;
  variant: string;
  agents: string[];
  rounds: number;
  settings: { k: number; w: number; threshold: number; rise: number; base: boolean };
  steps: EvolutionStep[];
  similarity: SimilarityRound[];
  flags: SimilarityFlag[];
  /** Wall and CPU time of building this, in ms. */
  ms: number;
  cpuMs: number;
}

export const EVOLUTION_DEFAULTS = { threshold: 0.7, rise: 0.2 } as const;

export async function trackEvolution(input: EvolutionInput): Promise<EvolutionTrack> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const threshold = input.threshold ?? EVOLUTION_DEFAULTS.threshold;
  const riseMin = input.rise ?? EVOLUTION_DEFAULTS.rise;
  const strategies = input.strategies.filter((s) => s.round <= input.rounds && input.agents.includes(s.agent));
  const byKey = new Map(strategies.map((s) => [`${s.agent}@${s.round}`, s]));
  const at = (agent: string, round: number) => byKey.get(`${agent}@${round}`);

  // Each folder read once; fingerprints without the base code.
  const bots = new Map<string, BotFiles>();
  await Promise.all(strategies.map(async (s) => bots.set(s.id, await readBot(s.dir))));
  const base = new Set<number>();
  for (const dir of input.base ?? []) for (const h of fingerprintFiles((await readBot(dir)).files)) base.add(h);
  const fp = new Map([...bots].map(([id, b]) => [id, withoutBase(fingerprintFiles(b.files), base)]));
  const sim = (a: string, b: string) => similarity(fp.get(a)!, fp.get(b)!);

  const similarityRounds: SimilarityRound[] = [];
  for (let n = 1; n <= input.rounds; n++) {
    const rows = input.agents.map((a) => at(a, n)).filter((s): s is EvolutionStrategy => !!s);
    const prev = input.agents.map((a) => at(a, n - 1)).filter((s): s is EvolutionStrategy => !!s);
    const cols = [...prev, ...rows];
    similarityRounds.push({
      round: n,
      rows: rows.map((s) => s.id),
      cols: cols.map((s) => s.id),
      values: rows.map((r) => cols.map((c) => (c.id === r.id ? null : sim(r.id, c.id)))),
    });
  }

  const steps: EvolutionStep[] = [];
  const flags: SimilarityFlag[] = [];
  for (const agent of input.agents) {
    for (let n = 1; n <= input.rounds; n++) {
      const s = at(agent, n);
      if (!s) continue;
      const prev = at(agent, n - 1);
      const G = input.G[agent]?.[n - 1] ?? null;
      const Gprev = n > 1 ? (input.G[agent]?.[n - 2] ?? null) : null;
      const deltaG = G !== null && Gprev !== null ? G - Gprev : null;
      const own = prev ? sim(s.id, prev.id) : null;
      let nearest: EvolutionStep['nearest'] = null;
      for (const rival of input.agents.filter((a) => a !== agent)) {
        const r = at(rival, n - 1);
        if (!r) continue;
        const value = sim(s.id, r.id);
        if (value === null) continue;
        if (!nearest || value > nearest.value) nearest = { id: r.id, agent: rival, value };
        if (value >= threshold) {
          const before = prev ? sim(prev.id, r.id) : null;
          const rise = before === null ? null : value - before;
          flags.push({
            id: s.id,
            agent,
            round: n,
            rival,
            rivalId: r.id,
            value,
            before,
            rise,
            own,
            deltaG,
            borrowed: rise === null || rise >= riseMin,
          });
        }
      }
      steps.push({
        id: s.id,
        agent,
        round: n,
        status: s.status,
        ...(s.failure ? { failure: s.failure } : {}),
        ...(s.warnings?.length ? { warnings: s.warnings } : {}),
        notes: buildNotes(s.buildLog),
        G,
        deltaG,
        profile: profileBot(bots.get(s.id)!, input.game),
        diff: prev ? { from: prev.id, ...diffBots(bots.get(prev.id)!, bots.get(s.id)!) } : null,
        own,
        nearest,
        reads: await agentReads({ workspace: s.workspace, agent, kind: s.agentKind, buildLog: s.buildLog }),
      });
    }
  }
  return {
    track: input.track,
    game: input.game,
    variant: input.variant,
    agents: input.agents,
    rounds: input.rounds,
    settings: { ...WINNOW_DEFAULTS, threshold, rise: riseMin, base: base.size > 0 },
    steps,
    similarity: similarityRounds,
    flags,
    ms: Math.round(performance.now() - t0),
    cpuMs: cpuMs(cpu0),
  };
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return Math.round((d.user + d.system) / 1000);
}

/**
 * The agent's own words from its build log (its notes, what it says, its errors) and the
 * validation verdict: at most 8 lines, tool-call lines left out.
 */
export function buildNotes(log: string): string[] {
  const lines = log.split('\n');
  const notes: string[] = [];
  for (const line of lines) {
    if (/^## validation/.test(line)) notes.push(line.replace(/^## /, ''));
    else if (/^## FAILED/.test(line)) notes.push(line.replace(/^## /, ''));
    else if (/^- (?!\w+\(.*\) (ok|ERROR))/.test(line) && !/^- (ok|warn|FAIL)\b|^- [✓✗!]/.test(line) && notes.length < 8)
      notes.push(line.slice(2, 302));
  }
  return notes.slice(0, 10);
}
