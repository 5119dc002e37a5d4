// `catarena probe`'s numbers (docs/probe.md): the records it writes per track and the pure
// reduction from answers to the consistency matrix — the share of probe states on which two
// subjects (strategies, LLM-players) gave the same action, and a subject asked twice agreed with
// itself (the diagonal). A failed answer is counted in the failures table; a pair's share is over
// the states on which neither failed.
import type { FailureKind } from '../records/match.ts';
import { AGENT_KINDS } from '../agents/kinds.ts';

/** One sampled endgame decision point: where it comes from and who decided there in the game. */
export interface ProbeState {
  id: string;
  /** The replay (match id) and ply before which the decision was due. */
  replay: string;
  ply: number;
  seat: number;
  seatName: string;
  /** The strategy that decided here in the game, and what it played (encoded; null if it failed). */
  playedBy: string;
  played: unknown;
  /** Where in the game this is (e.g. "ply 41 of 45", "river, hand 12", "trick 9"). */
  where: string;
}

/** Whom the probe asked: a strategy of the run (agent@round) or an LLM-player. */
export interface ProbeSubject {
  id: string;
  kind: 'strategy' | typeof AGENT_KINDS.llmPlayer.name;
  agent: string;
  /** The development round (strategies only). */
  round: number | null;
}

/** One answer to one state: the action's comparison key (docs/probe.md "Equal actions"), or why there is none. */
export type ProbeAnswer =
  | { ok: true; key: string; action: unknown; latencyMs: number }
  | { ok: false; kind: FailureKind | 'join_failed' | 'not_started'; message: string; latencyMs: number };

/** Every state asked of every subject, twice (passes[0] and passes[1], same order as `states`). */
export interface ProbeActions {
  track: string;
  states: ProbeState[];
  subjects: ProbeSubject[];
  answers: Record<string, [ProbeAnswer[], ProbeAnswer[]]>;
}

export interface ConsistencyMatrix {
  /** Subject ids, rows and columns in this order. */
  labels: string[];
  /** values[i][j]: share of identical actions (i ≠ j: first answers; i = j: first vs second answer); null = no state both answered. */
  values: (number | null)[][];
  /** The states each share is over (both answered). */
  compared: number[][];
}

export interface SubjectFailures {
  subject: string;
  /** Answers asked (states × 2). */
  asked: number;
  failed: number;
  byKind: Record<string, number>;
  /** The first failure's message, to say what went wrong. */
  example?: string;
}

export interface PairConsistency {
  a: string;
  b: string;
  value: number | null;
  compared: number;
}

/** What `catarena probe` found on one track (probe/<track>/consistency.json). */
export interface ProbeTrackResult {
  track: string;
  game: string;
  variant: string;
  seed: number;
  /** States asked for (--states), endgame decision points found, states sampled. */
  requested: number;
  candidates: number;
  sampled: number;
  /** The game's endgame definition and action key, in words. */
  endgame: string;
  actionKey: string;
  subjects: ProbeSubject[];
  matrix: ConsistencyMatrix;
  failures: SubjectFailures[];
  /** Figure 3: each agent's round-n strategy against its round-(n+1) strategy. */
  rounds: PairConsistency[];
  /** Figure 7: each strategy against each LLM-player. */
  codeVsLlm: PairConsistency[];
  /** Subjects not asked at all (a failed build), with why. */
  skipped: Array<{ subject: string; reason: string }>;
  /** Wall time of the track's probe (sampling, bots started, every state asked twice), of its sampling alone, and the answers asked. */
  wallMs: number;
  sampleMs: number;
  asks: number;
  createdAt: string;
}

/** Share of states on which both answered and gave the same key, and how many that is over. */
export function agreement(
  a: readonly ProbeAnswer[],
  b: readonly ProbeAnswer[],
): { value: number | null; compared: number } {
  let compared = 0;
  let same = 0;
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    const x = a[k]!;
    const y = b[k]!;
    if (!x.ok || !y.ok) continue;
    compared++;
    if (x.key === y.key) same++;
  }
  return { value: compared ? same / compared : null, compared };
}

/** The matrix over the subjects in order: first answers against first answers, the diagonal first against second. */
export function consistencyMatrix(subjects: readonly string[], answers: ProbeActions['answers']): ConsistencyMatrix {
  const values: (number | null)[][] = [];
  const compared: number[][] = [];
  for (const a of subjects) {
    const row: (number | null)[] = [];
    const counts: number[] = [];
    for (const b of subjects) {
      const r = a === b ? agreement(answers[a]![0], answers[a]![1]) : agreement(answers[a]![0], answers[b]![0]);
      row.push(r.value);
      counts.push(r.compared);
    }
    values.push(row);
    compared.push(counts);
  }
  return { labels: [...subjects], values, compared };
}

export function failuresOf(subject: string, passes: readonly ProbeAnswer[][]): SubjectFailures {
  const all = passes.flat();
  const failed = all.filter((x): x is Extract<ProbeAnswer, { ok: false }> => !x.ok);
  const byKind: Record<string, number> = {};
  for (const f of failed) byKind[f.kind] = (byKind[f.kind] ?? 0) + 1;
  return {
    subject,
    asked: all.length,
    failed: failed.length,
    byKind,
    ...(failed[0] ? { example: failed[0].message.slice(0, 300) } : {}),
  };
}

const pair = (m: ConsistencyMatrix, a: string, b: string): PairConsistency => {
  const i = m.labels.indexOf(a);
  const j = m.labels.indexOf(b);
  return { a, b, value: m.values[i]![j]!, compared: m.compared[i]![j]! };
};

/** Each agent's round n against round n + 1 (strategies of both rounds probed). */
export function roundPairs(subjects: readonly ProbeSubject[], m: ConsistencyMatrix): PairConsistency[] {
  const strategies = subjects.filter((s) => s.kind === 'strategy');
  return strategies.flatMap((s) => {
    const next = strategies.find((t) => t.agent === s.agent && t.round === s.round! + 1);
    return next ? [pair(m, s.id, next.id)] : [];
  });
}

/** Every strategy against every LLM-player. */
export function codeVsLlmPairs(subjects: readonly ProbeSubject[], m: ConsistencyMatrix): PairConsistency[] {
  const llms = subjects.filter((s) => s.kind === AGENT_KINDS.llmPlayer.name);
  return subjects.filter((s) => s.kind === 'strategy').flatMap((s) => llms.map((l) => pair(m, s.id, l.id)));
}

/** consistency.csv: a header of subject ids, then one row per subject; an empty cell = nothing compared. */
export function consistencyCsv(m: ConsistencyMatrix): string {
  const quote = (t: string) => (/[",\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t);
  const rows = [['', ...m.labels].map(quote).join(',')];
  m.labels.forEach((label, i) =>
    rows.push(
      [quote(label), ...m.values[i]!.map((v) => (v === null ? '' : String(Math.round(v * 10000) / 10000)))].join(','),
    ),
  );
  return `${rows.join('\n')}\n`;
}
