// The iterative tournament end to end: 3 offline agents × 2 rounds × both Gomoku rule sets,
// through real bot processes; plus a failed build, an interrupted-and-resumed run, and configs.
// Over 30 s: the shared two-round Gomoku tourney (60 games), an interrupted one resumed, and a Hold'em
// batch, each played through real bot processes.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Agent, Workspace } from '../agents/core/types.ts';
import {
  ConfigError,
  gameSettings,
  parseVariantsFlag,
  PRESETS,
  resolveConfig,
  variantsOf,
} from '../orchestrator/config/tourney-config.ts';
import { summarizeRun } from '../orchestrator/tourney/summarize.ts';
import { InterruptedError, runTourney, tracksOf } from '../orchestrator/tourney/tourney.ts';
import type { TourneySummary } from '../records/tourney.ts';
import type { MatchResult } from '../records/match.ts';
import { createAgent } from '../agents/registry.ts';
import { misbehavingBot, tempDir } from './helpers/bots.ts';
import { GOMOKU_TWO_ROUNDS, sharedRun } from './helpers/shared-runs.ts';
import { viewDataSync } from './helpers/replays.ts';
import { logNames, readLogSync } from './helpers/run-logs.ts';

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const journalOf = (runDir: string): MatchResult[] =>
  fs
    .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('tourney: 3 offline agents × 2 rounds × standard and variant Gomoku', () => {
  let runDir: string;
  let summary: TourneySummary;
  beforeAll(async () => {
    // report-html.test reads the same run: it is played once per test run, this file reads a copy.
    runDir = path.join(tempDir(), 'run');
    summary = await sharedRun('gomoku-two-rounds', GOMOKU_TWO_ROUNDS, runDir);
  }, 300_000);

  it('writes the run directory', () => {
    for (const f of ['config.json', 'journal.jsonl', 'metrics.json', 'report.md'])
      expect(fs.existsSync(path.join(runDir, f)), f).toBe(true);
    for (const track of ['gomoku-standard', 'gomoku-variant']) {
      const t = path.join(runDir, 'tracks', track);
      for (const f of ['W.json', 'W.csv', 'metrics.json'])
        expect(fs.existsSync(path.join(t, f)), `${track}/${f}`).toBe(true);
      for (const round of [1, 2]) {
        for (const agent of ['cautious', 'aggressive', 'imitator']) {
          const s = path.join(t, `round_${round}`, 'strategies', agent);
          expect(fs.existsSync(path.join(s, 'start_ai.sh'))).toBe(true);
          const record = readJson(`${s}.strategy.json`);
          expect(record).toMatchObject({
            id: `${agent}@r${round}`,
            status: 'ok',
            hash: expect.stringMatching(/^[0-9a-f]{64}$/),
          });
          expect(record.cost.linesOfCode).toBeGreaterThan(100);
          expect(record.validation.ok).toBe(true);
        }
        const logs = logNames(path.join(t, `round_${round}`, 'logs'));
        expect(logs).toContain('round_report.json');
        expect(logs.some((f) => /^gomoku_arena_report_\d+\.csv$/.test(f))).toBe(true);
        expect(logs.some((f) => /^tournament_report_history_tournament_\d+\.json$/.test(f))).toBe(true);
      }
    }
    const report = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
    for (const heading of ['Leaderboard', 'Table 4', 'Table 9', 'Table 16', 'Table 17'])
      expect(report).toContain(heading);
  });

  it('fills W completely: every strategy met every other, colours swapped', () => {
    for (const track of summary.tracks) {
      expect(track.rounds).toBe(2);
      expect(track.games).toBe((2 * (6 * 5)) / 2); // 15 pairs of 6 strategies, 2 games each
      const W = track.W.W;
      W.forEach((row, i) => row.forEach((v, j) => (i === j ? expect(v).toBeNull() : expect(v).not.toBeNull())));
      for (let i = 0; i < W.length; i++)
        for (let j = 0; j < W.length; j++) if (i !== j) expect(W[i]![j]! + W[j]![i]!).toBeCloseTo(1, 12);
    }
  });

  it('gives round-2 agents the round-1 material and nothing else', () => {
    const ws = path.join(runDir, 'tracks', 'gomoku-standard', 'round_2', 'workspaces', 'imitator');
    expect(fs.readdirSync(path.join(ws, 'last_round')).sort()).toEqual(['aggressive', 'cautious', 'imitator']);
    const round1 = path.join(runDir, 'tracks', 'gomoku-standard', 'round_1');
    for (const agent of ['aggressive', 'cautious', 'imitator']) {
      expect(fs.readFileSync(path.join(ws, 'last_round', agent, 'params.json'), 'utf8')).toBe(
        fs.readFileSync(path.join(round1, 'strategies', agent, 'params.json'), 'utf8'),
      );
    }
    expect(fs.readdirSync(path.join(ws, 'logs')).sort()).toEqual(fs.readdirSync(path.join(round1, 'logs')).sort());
    expect(fs.readFileSync(path.join(ws, 'TASK.md'), 'utf8')).toMatch(
      /previous round's code of every agent is in `\.\/last_round`/,
    );
    // Round 1 saw no previous material; round 2 nothing of round 2 or of the other rule set.
    const ws1 = path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'workspaces', 'imitator');
    // (.agent-tools.jsonl is the agent's own record of its file operations, written as it works.)
    expect(fs.readdirSync(ws1).sort()).toEqual(['.agent-tools.jsonl', 'TASK.md', 'develop_ai', 'gomoku']);
    const roundReport = JSON.parse(readLogSync(path.join(ws, 'logs', 'round_report.json')));
    expect(roundReport).toMatchObject({ round: 1, variant: 'standard' });
    expect(fs.readdirSync(ws).sort()).toEqual([
      '.agent-tools.jsonl',
      'TASK.md',
      'develop_ai',
      'gomoku',
      'last_round',
      'logs',
    ]);
  });

  it('reports metrics that recompute from the journal alone', async () => {
    const journal = journalOf(runDir);
    expect(journal).toHaveLength(60);
    // W by hand from the journal: mean score of a against b.
    const track = summary.tracks.find((t) => t.variant === 'standard')!;
    const labels = track.W.strategies;
    const sums = new Map<string, [number, number]>();
    for (const r of journal.filter((g) => g.spec.variant === 'standard')) {
      r.spec.seats.forEach((id, seat) => {
        const key = `${id.replace('@r', '@')}|${r.spec.seats[1 - seat]!.replace('@r', '@')}`;
        const [s, n] = sums.get(key) ?? [0, 0];
        sums.set(key, [s + r.scores[seat]!, n + 1]);
      });
    }
    labels.forEach((a, i) =>
      labels.forEach((b, j) => {
        if (i === j) return;
        const [s, n] = sums.get(`${a}|${b}`)!;
        expect(track.W.W[i]![j]).toBeCloseTo(s / n, 12);
      }),
    );
    const again = await summarizeRun(runDir);
    expect(again.tracks.map((t) => t.metrics)).toEqual(summary.tracks.map((t) => t.metrics));
    expect(readJson(path.join(runDir, 'metrics.json')).tracks[0].metrics).toEqual(summary.tracks[0]!.metrics);
    expect(Object.keys(summary.generalizability.gomoku!)).toEqual(['cautious', 'aggressive', 'imitator']);
  });

  it("reports each track as it finishes: its W and metrics are written before the run's cross-track reports", () => {
    const journal = journalOf(runDir);
    const live = fs
      .readFileSync(path.join(runDir, 'live.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const at = (pattern: RegExp) => Date.parse(live.find((e) => e.type === 'phase' && pattern.test(e.text))?.at);
    const crossTrack = at(/^reports: leaderboard/);
    for (const variant of ['standard', 'variant']) {
      const lastGame = Math.max(
        ...journal.filter((g) => g.spec.variant === variant).map((g) => Date.parse(g.startedAt) + g.durationMs),
      );
      const reported = at(new RegExp(`^gomoku-${variant} finished: W, metrics`));
      expect(reported).toBeGreaterThan(lastGame - 1);
      expect(reported).toBeLessThanOrEqual(crossTrack);
    }
  });

  it('shows learning: the agents change their bots and L is not all zero', () => {
    const params = (round: number, agent: string) =>
      readJson(path.join(runDir, 'tracks', 'gomoku-standard', `round_${round}`, 'strategies', agent, 'params.json'));
    for (const agent of ['cautious', 'aggressive', 'imitator']) expect(params(2, agent)).not.toEqual(params(1, agent));
    const L = summary.tracks.flatMap((t) => Object.values(t.metrics.perAgent).map((m) => m.L));
    expect(L.some((l) => l !== 0 && l !== null)).toBe(true);
  });
});

/** An agent that writes a bot which never becomes healthy. */
class BrokenAgent implements Agent {
  readonly id = 'broken';
  readonly kind = 'test:broken';
  async develop(ws: Workspace) {
    fs.writeFileSync(
      path.join(ws.outputDir, 'start_ai.sh'),
      '#!/bin/bash\necho "SyntaxError: pretend the agent wrote bad code" >&2\nexit 1\n',
    );
    return {
      botDir: ws.outputDir,
      cost: { wallMs: 1, toolCalls: 1, tokens: null, linesOfCode: 3 },
      log: 'wrote a broken bot',
    };
  }
}

describe('tourney robustness', () => {
  // One round with four agents, played once for the three tests below: an agent whose bot never
  // starts (a failed build), one with an illegal move on some validation positions (a warning),
  // one that answers no validation position legally (refused), and an honest one.
  let lenientDir: string;
  let lenient: TourneySummary;
  const strategyFile = (runDir: string, agent: string, ext: string) =>
    path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'strategies', `${agent}${ext}`);
  const broken = ['broken@r1', 'http500@r1'];
  beforeAll(async () => {
    const { createOfflineAgent } = await import('../agents/offline/index.ts');
    lenientDir = path.join(tempDir(), 'run');
    lenient = await runTourney({
      config: resolveConfig({
        games: ['gomoku'],
        rounds: 1,
        variants: ['standard'],
        concurrency: 2,
        bootstrapSamples: 50,
      }),
      runDir: lenientDir,
      agents: [
        createOfflineAgent('offline:cautious', 1),
        new BrokenAgent(),
        // "occupied" answers the first occupied cell: legal on the empty board, illegal after it.
        createAgent(`dir:${misbehavingBot('occupied')}#occupied`, 1),
        createAgent(`dir:${misbehavingBot('http_500')}#http500`, 1),
      ],
    });
  }, 120_000);

  it('records a failed build with its logs and plays it as a forfeiting stand-in', () => {
    const record = readJson(strategyFile(lenientDir, 'broken', '.strategy.json'));
    expect(record.status).toBe('failed');
    expect(record.failure).toMatch(/validation failed/);
    expect(fs.readFileSync(strategyFile(lenientDir, 'broken', '.build.log'), 'utf8')).toMatch(/SyntaxError: pretend/);
    const all = journalOf(lenientDir);
    expect(all).toHaveLength(12); // 4 strategies: 6 pairings × 2 colours
    const games = all.filter((g) => g.spec.seats.includes('broken@r1'));
    expect(games).toHaveLength(6);
    for (const g of games) {
      expect(g.termination).toBe('crash');
      expect(g.reason).toMatch(/failed build/);
      expect(g.scores[g.spec.seats.indexOf('broken@r1')]).toBe(0);
    }
    expect(lenient.tracks[0]!.strategies.find((s) => s.agent === 'broken')!.status).toBe('failed');
    expect(fs.readFileSync(path.join(lenientDir, 'report.md'), 'utf8')).toMatch(/broken@r1/);
  });

  it('a bot with an illegal move on some validation position plays its round, with the warning in the build log and report; strictValidation refuses it', async () => {
    const record = readJson(strategyFile(lenientDir, 'occupied', '.strategy.json'));
    expect(record.status).toBe('ok');
    expect(record.warnings).toHaveLength(3);
    for (const w of record.warnings) expect(w).toMatch(/answered an illegal move \[\d+,\d+\]: occupied/);
    expect(fs.readFileSync(strategyFile(lenientDir, 'occupied', '.build.log'), 'utf8')).toMatch(
      /## validation: passed with 3 warnings/,
    );
    // Against the honest bot (the other two forfeit): played, not stood in for.
    const played = journalOf(lenientDir).filter(
      (g) => g.spec.seats.includes('occupied@r1') && !g.spec.seats.some((id) => broken.includes(id)),
    );
    expect(played).toHaveLength(2);
    for (const g of played) expect(g.reason).not.toMatch(/failed build/);
    expect(played.some((g) => g.termination === 'illegal' && g.spec.seats[g.offender!] === 'occupied@r1')).toBe(true);
    expect(lenient.tracks[0]!.strategies.find((x) => x.agent === 'occupied')!.warnings).toHaveLength(3);
    const report = fs.readFileSync(path.join(lenientDir, 'report.md'), 'utf8');
    expect(report).toMatch(/## Validation warnings[\s\S]*gomoku-standard · `occupied@r1`: 3 warnings/);
    expect(
      JSON.parse(
        readLogSync(path.join(lenientDir, 'tracks', 'gomoku-standard', 'round_1', 'logs', 'round_report.json')),
      ).strategies.find((x: { agent: string }) => x.agent === 'occupied').warnings,
    ).toHaveLength(3);

    const strictDir = path.join(tempDir(), 'run');
    await runTourney({
      config: resolveConfig({
        games: ['gomoku'],
        rounds: 1,
        variants: ['standard'],
        concurrency: 2,
        bootstrapSamples: 50,
        strictValidation: true,
      }),
      runDir: strictDir,
      agents: [createAgent('offline:cautious', 1), createAgent(`dir:${misbehavingBot('occupied')}#occupied`, 1)],
    });
    const refused = readJson(strategyFile(strictDir, 'occupied', '.strategy.json'));
    expect(refused.status).toBe('failed');
    expect(refused.failure).toMatch(/validation failed: .*illegal move/);
    for (const g of journalOf(strictDir)) expect(g.reason).toMatch(/failed build/);
  }, 120_000);

  it('a bot that answers no validation position with a legal move is still refused', () => {
    const record = readJson(strategyFile(lenientDir, 'http500', '.strategy.json'));
    expect(record.status).toBe('failed');
    expect(record.failure).toMatch(/validation failed: the bot answered no validation position with a legal move/);
  });

  it('an interrupted run resumes without replaying finished games; reps auto plays more repetitions after the last round, stops by the criterion or the budget and says why; interrupted again in its added batches, it resumes to the same end', async () => {
    // 2 agents × 2 rounds: 4 strategies, a fixed schedule of 12 games (round 1's first 2), then
    // batches of ⌈6/4⌉ = 2 pairings (4 games) up to 20 games: the second batch, the one interrupted,
    // is the last the budget allows (28 played a third batch that showed nothing more). Interrupted
    // twice: in round 2, and in the middle of the second added batch; resumed each time.
    const config = resolveConfig({
      games: ['gomoku'],
      rounds: 2,
      variants: ['variant'],
      agents: ['offline:cautious', 'offline:aggressive'],
      concurrency: 1,
      bootstrapSamples: 50,
      reps: 'auto',
      autoReps: { maxGames: 20 },
    });
    const runDir = path.join(tempDir(), 'run');
    /** Runs the tourney until the journal holds `games` games, then interrupts it. */
    const interruptAt = async (games: number) => {
      const controller = new AbortController();
      const progress = {
        phase() {},
        done() {},
        tick() {
          if (journalOf(runDir).length >= games) controller.abort();
        },
      };
      await expect(runTourney({ config, runDir, progress, signal: controller.signal })).rejects.toBeInstanceOf(
        InterruptedError,
      );
      return journalOf(runDir);
    };

    // In round 2 of the fixed schedule.
    const first = await interruptAt(5);
    expect(first.length).toBeGreaterThanOrEqual(5);
    expect(first.length).toBeLessThan(12);
    // The finished games' replays (the viewer bundles, written per round, may be written again).
    const mtimes = new Map(
      fs
        .readdirSync(path.join(runDir, 'replays'))
        .filter((f) => /\.json(\.gz)?$/.test(f))
        .map((f) => [f, fs.statSync(path.join(runDir, 'replays', f)).mtimeMs]),
    );
    // In the middle of the second added batch (games 17-20).
    const second = await interruptAt(12 + 4 + 2);
    expect(second.slice(0, first.length)).toEqual(first);
    for (const [f, t] of mtimes) expect(fs.statSync(path.join(runDir, 'replays', f)).mtimeMs).toBe(t);
    const autoFile = path.join(runDir, 'tracks', 'gomoku-variant', 'auto-reps.json');
    const atCut = JSON.parse(fs.readFileSync(autoFile, 'utf8'));
    expect(atCut.stopped).toBeNull();
    expect(atCut.batches).toHaveLength(2);
    expect(second.length).toBeGreaterThan(16);
    expect(second.length).toBeLessThan(20);

    const summary = await runTourney({ config, runDir });
    const after = journalOf(runDir);
    const log = JSON.parse(fs.readFileSync(autoFile, 'utf8'));
    // Nothing replayed, the batches decided before the cut decided the same way again, and the run finished.
    expect(after.slice(0, second.length)).toEqual(second);
    expect(new Set(after.map((r) => r.id)).size).toBe(after.length);
    for (const [f, t] of mtimes) expect(fs.statSync(path.join(runDir, 'replays', f)).mtimeMs).toBe(t);
    expect(log.batches.slice(0, 2).map((b: { units: string[] }) => b.units)).toEqual(
      atCut.batches.map((b: { units: string[] }) => b.units),
    );
    expect(log.batches[0].fluctuation).toBe(atCut.batches[0].fluctuation);
    // The first pass is the fixed schedule (6 pairings × 2 games); batches of 2 pairings follow.
    expect(log.firstPass).toBe(12);
    expect(log.batches.length).toBeGreaterThan(0);
    for (const b of log.batches) expect(b).toMatchObject({ units: expect.any(Array), games: 4 });
    expect(['stable', 'budget']).toContain(log.stopped.reason);
    expect(log.games).toBe(after.length);
    expect(log.games).toBeLessThanOrEqual(20);
    expect(summary.tracks[0]!.games).toBe(log.games);
    expect(summary.tracks[0]!.autoReps).toEqual(log);
    const md = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
    expect(md).toContain(
      `- gomoku-variant: 12 games, then ${log.batches.length} batch(es) to ${log.games}; stopped: ${log.stopped.detail}`,
    );
    // Added games are repetitions of pairings of the schedule: colour-swapped pairs sharing a seed.
    const extra = after.filter((r) => (r.spec.rep ?? 0) > 0);
    expect(extra.length).toBe(log.games - 12);
    const byPairing = new Map<string, MatchResult[]>();
    for (const r of extra) byPairing.set(r.spec.pairing!, [...(byPairing.get(r.spec.pairing!) ?? []), r]);
    for (const pair of byPairing.values()) {
      expect(pair).toHaveLength(2);
      expect(pair[0]!.spec.seats).toEqual([...pair[1]!.spec.seats].reverse());
      expect(pair[0]!.spec.seed).toBe(pair[1]!.spec.seed);
    }
  }, 180_000);

  it('runs rule sets per game when asked', () => {
    expect(parseVariantsFlag('gomoku:variant,chess:standard')).toEqual({
      variants: undefined,
      perGame: { gomoku: ['variant'], chess: ['standard'] },
    });
    expect(parseVariantsFlag('standard')).toEqual({ variants: ['standard'], perGame: {} });
    const config = resolveConfig({ games: ['gomoku', 'chess'], perGame: { chess: { variants: ['variant'] } } });
    expect(tracksOf(config)).toEqual([
      { game: 'gomoku', variant: 'standard' },
      { game: 'gomoku', variant: 'variant' },
      { game: 'chess', variant: 'variant' },
    ]);
    expect(variantsOf(config, 'chess')).toEqual(['variant']);
  });

  it('merges layers deeply: --preset paper with per-game options keeps every per-game setting of the preset', () => {
    const paper = PRESETS.paper!;
    const withOptions = resolveConfig(paper, { perGame: { chess: { options: { algorithm: 'minimax' } } } });
    expect(gameSettings(withOptions, 'holdem')).toEqual({ reps: 100, moveTimeoutMs: 3_000, options: undefined });
    expect(gameSettings(withOptions, 'chess')).toEqual({
      reps: 8,
      moveTimeoutMs: 10_000,
      options: { algorithm: 'minimax' },
    });
    expect(gameSettings(withOptions, 'bridge').reps).toBe(12);
    expect(gameSettings(withOptions, 'gomoku').reps).toBe(4);
    expect(withOptions.rounds).toBe(4);
    // A file layer over the preset, flags over both: key by key; arrays are replaced, not joined.
    const file = {
      rounds: 2,
      games: ['holdem', 'chess'],
      perGame: { holdem: { options: { handCap: 50 } }, chess: { variants: ['variant' as const] } },
    };
    const flags = { agents: ['offline:cautious'], perGame: { chess: { variants: ['standard' as const] } } };
    const layered = resolveConfig(paper, file, flags);
    expect(layered.rounds).toBe(2);
    expect(layered.games).toEqual(['holdem', 'chess']);
    expect(layered.agents).toEqual(['offline:cautious']);
    expect(gameSettings(layered, 'holdem')).toEqual({ reps: 100, moveTimeoutMs: 3_000, options: { handCap: 50 } });
    expect(variantsOf(layered, 'chess')).toEqual(['standard']);
    // A value for all games in a higher layer overrides the per-game values below it, and only those.
    const quick = resolveConfig(paper, file, { reps: 2 });
    expect(gameSettings(quick, 'holdem')).toEqual({ reps: 2, moveTimeoutMs: 3_000, options: { handCap: 50 } });
    expect(gameSettings(quick, 'chess').reps).toBe(2);
    const fast = resolveConfig(paper, { moveTimeoutMs: 500 });
    expect(gameSettings(fast, 'holdem')).toMatchObject({ reps: 100, moveTimeoutMs: 500 });
    // Nothing leaks between calls: the preset object itself is untouched.
    expect(PRESETS.paper!.perGame!.holdem).toEqual({ reps: 100, moveTimeoutMs: 3_000 });
  });

  it('rejects a bad config naming the field', () => {
    expect(() => resolveConfig({ rounds: 0 } as never)).toThrow(/rounds: Too small/i);
    expect(() => resolveConfig({ games: ['go'] })).toThrow(/games: unknown game "go"; available: gomoku/);
    expect(() => resolveConfig({ roundz: 3 } as never)).toThrow(ConfigError);
    expect(() => resolveConfig({ roundz: 3 } as never)).toThrow(/roundz/);
    expect(() => resolveConfig({ variants: ['renju'] } as never)).toThrow(/variants\.0/);
    // A game's own options are checked by its descriptor (chess: adjudication).
    expect(() => resolveConfig({ perGame: { chess: { options: { adjudication: 'fide' } } } })).toThrow(
      /perGame\.chess\.options\.adjudication: expected "catarena" or "engine"/,
    );
    expect(
      resolveConfig({ perGame: { chess: { options: { adjudication: 'engine' } } } }).perGame.chess!.options,
    ).toEqual({ adjudication: 'engine' });
  });
});

describe("tourney: Hold'em batch tables", () => {
  it('plays round tables, then own and field tables; W complete from the projection; a failed build sits in as a stand-in', async () => {
    const { createOfflineAgent } = await import('../agents/offline/index.ts');
    const runDir = path.join(tempDir(), 'run');
    const config = resolveConfig({
      rounds: 2,
      games: ['holdem'],
      variants: ['variant'],
      reps: 2,
      concurrency: 2,
      bootstrapSamples: 50,
      // 10 hands a table (60, then 20 before): every kind of table is still played and the chips still add up.
      perGame: { holdem: { options: { handCap: 10 } } },
    });
    const agents = [
      createOfflineAgent('offline:cautious', 1),
      createOfflineAgent('offline:aggressive', 2),
      new BrokenAgent(),
    ];
    const summary = await runTourney({ config, runDir, agents });
    const games = journalOf(runDir);
    // Round 1: a round table × 2 table rounds; round 2: round table, 3 own tables, the field (6 ≤ 12: one table).
    const kinds = games.map((g) => g.spec.batch!.label).sort();
    expect(kinds).toEqual(
      [
        'field',
        'field',
        'own:aggressive',
        'own:aggressive',
        'own:broken',
        'own:broken',
        'own:cautious',
        'own:cautious',
        'round:1',
        'round:1',
        'round:2',
        'round:2',
      ].sort(),
    );
    for (const g of games) {
      expect(g.termination).toBe('normal');
      const broken = g.spec.seats.findIndex((id) => id.startsWith('broken@'));
      if (broken >= 0) expect(g.standIns?.map((s) => s.seat)).toContain(broken);
      expect((g.detail!.chips as number[]).reduce((a, b) => a + b, 0)).toBe(2000 * g.spec.seats.length);
    }
    const track = summary.tracks[0]!;
    const W = track.W.W;
    W.forEach((row, i) => row.forEach((v, j) => (i === j ? expect(v).toBeNull() : expect(v).not.toBeNull())));
    expect(Object.keys(track.tableWinRates!).sort()).toEqual(['field', 'own', 'round']);
    expect(track.tableWinRates!.round!['cautious@r1']!.tables).toBe(2);
    expect(track.errors.broken!.crash).toBeGreaterThan(0);
    const logs = logNames(path.join(runDir, 'tracks', 'holdem-variant', 'round_1', 'logs'));
    expect(logs.filter((f) => /^history_tourney_[0-9a-f]{6}_round_\d+\.json$/.test(f))).toHaveLength(2);
    expect(logs.some((f) => /^tournament_report_tourney_[0-9a-f]{6}\.json$/.test(f))).toBe(true);
    expect(fs.readFileSync(path.join(runDir, 'report.md'), 'utf8')).toMatch(/table win rates/i);
  }, 240_000);
});

describe('tourney: Bridge duplicate matches', () => {
  it('plays both rooms of every board, fills W with VP / 20, and writes the duplicate report', async () => {
    const runDir = path.join(tempDir(), 'run');
    const config = resolveConfig({
      rounds: 2,
      games: ['bridge'],
      variants: ['variant'],
      agents: ['offline:cautious', 'offline:aggressive'],
      reps: 1,
      concurrency: 2,
      bootstrapSamples: 50,
    });
    const summary = await runTourney({ config, runDir });
    const games = journalOf(runDir);
    // Round 1: 1 pairing; round 2: 1 new pairing + 2 × 2 against round 1 → 6 matches × 1 board × 2 rooms.
    expect(games).toHaveLength(12);
    for (const g of games) {
      expect(g.termination, g.reason).toBe('normal');
      expect(g.spec.seats[0]).toBe(g.spec.seats[2]);
      expect(g.spec.seats[1]).toBe(g.spec.seats[3]);
    }
    const W = summary.tracks[0]!.W.W;
    W.forEach((row, i) => row.forEach((v, j) => (i === j ? expect(v).toBeNull() : expect(v).not.toBeNull())));
    for (let i = 0; i < W.length; i++)
      for (let j = 0; j < W.length; j++) if (i !== j) expect(W[i]![j]! + W[j]![i]!).toBeCloseTo(1, 9);
    const logs = logNames(path.join(runDir, 'tracks', 'bridge-variant', 'round_1', 'logs'));
    expect(logs.some((f) => /^tournament_tournament_\d+\.json$/.test(f))).toBe(true);
    const task = fs.readFileSync(
      path.join(runDir, 'tracks', 'bridge-variant', 'round_2', 'workspaces', 'cautious', 'TASK.md'),
      'utf8',
    );
    expect(task).toMatch(/tournament_tournament_\*\.json/);
    // Each room's replay page carries the other room's score and the board's IMPs (only the run knows both rooms).
    const open = games.find((g) => g.spec.duplicate!.room === 'open')!;
    const closed = games.find(
      (g) =>
        g.spec.duplicate!.match === open.spec.duplicate!.match &&
        g.spec.duplicate!.board === open.spec.duplicate!.board &&
        g.spec.duplicate!.room === 'closed',
    )!;
    const page = viewDataSync(runDir, open.id);
    const ns = (g: typeof open) => (g.detail as { ns_score: number }).ns_score;
    expect(page).toContain(`"comparison":{"otherNs":${ns(closed)},"imps":`);
  }, 240_000);
});
