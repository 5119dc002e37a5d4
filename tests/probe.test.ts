// catarena probe (docs/probe.md): the consistency arithmetic on a hand-computed fixture, Hold'em's
// action buckets, and a probe over a small real Gomoku run whose strategies are a deterministic
// bot (the first empty cell), the random reference bot and a bot that dies after three moves,
// plus an LLM-player asked through a scripted OpenAI-compatible server on 127.0.0.1.
// Over 30 s: a small real Gomoku tourney is played and probed, and an LLM-player is
// asked through a scripted server.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from '../agents/registry.ts';
import { createRng } from '../util/rng.ts';
import { gomoku } from '../games/gomoku/index.ts';
import type { TableState } from '../games/holdem/table.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runProbe } from '../orchestrator/probe/probe.ts';
import { holdemKey } from '../games/holdem/probe.ts';
import { RunDir } from '../orchestrator/run/run-dir.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { summarizeRun } from '../orchestrator/tourney/summarize.ts';
import {
  agreement,
  codeVsLlmPairs,
  consistencyCsv,
  consistencyMatrix,
  failuresOf,
  roundPairs,
  type ProbeActions,
  type ProbeAnswer,
  type ProbeSubject,
  type ProbeTrackResult,
} from '../reports/probe-consistency.ts';
import { BUILTIN, misbehavingBot, tempDir } from './helpers/bots.ts';
import { startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.ts';
import { catarena } from './helpers/cli.ts';

const ok = (key: string): ProbeAnswer => ({ ok: true, key, action: key, latencyMs: 1 });
const fail: ProbeAnswer = { ok: false, kind: 'timeout', message: 'deadline passed', latencyMs: 100 };

describe('consistency arithmetic (hand-computed fixture)', () => {
  // Five states; A asked twice changes its mind once; B fails on state 3 (first pass); C is an LLM-player.
  const answers: ProbeActions['answers'] = {
    'a@r1': [
      [ok('x'), ok('y'), ok('z'), ok('x'), ok('y')],
      [ok('x'), ok('y'), ok('z'), ok('x'), ok('x')],
    ],
    'a@r2': [
      [ok('x'), ok('x'), ok('z'), ok('x'), ok('y')],
      [ok('x'), ok('x'), ok('z'), ok('x'), ok('y')],
    ],
    llm: [
      [ok('y'), fail, ok('z'), ok('x'), ok('y')],
      [ok('y'), ok('y'), fail, ok('x'), ok('x')],
    ],
  };
  const subjects: ProbeSubject[] = [
    { id: 'a@r1', kind: 'strategy', agent: 'a', round: 1 },
    { id: 'a@r2', kind: 'strategy', agent: 'a', round: 2 },
    { id: 'llm', kind: 'llm-player', agent: 'llm', round: null },
  ];
  const m = consistencyMatrix(
    subjects.map((s) => s.id),
    answers,
  );

  it('diagonal: first against second answer, over the states both answered', () => {
    expect(m.values[0]![0]).toBeCloseTo(4 / 5); // state 5: y then x
    expect(m.values[1]![1]).toBe(1);
    expect(m.values[2]![2]).toBeCloseTo(2 / 3); // states 2 and 3 failed once: 1, 4, 5 → y=y, x=x, y≠x
    expect(m.compared[2]![2]).toBe(3);
  });

  it('off the diagonal: first answers, symmetric, a failure drops the state from the pair', () => {
    expect(m.values[0]![1]).toBeCloseTo(4 / 5); // state 2: y vs x
    expect(m.values[0]![2]).toBeCloseTo(3 / 4); // state 2 failed; states 1 (x≠y), 3, 4, 5 agree
    expect(m.compared[0]![2]).toBe(4);
    expect(m.values[1]![2]).toBeCloseTo(3 / 4);
    expect(m.values[2]![0]).toBe(m.values[0]![2]);
  });

  it('round n vs n+1, code vs LLM-player, failures and CSV', () => {
    expect(roundPairs(subjects, m)).toEqual([{ a: 'a@r1', b: 'a@r2', value: 0.8, compared: 5 }]);
    expect(codeVsLlmPairs(subjects, m).map((p) => [p.a, p.b, p.value])).toEqual([
      ['a@r1', 'llm', 0.75],
      ['a@r2', 'llm', 0.75],
    ]);
    expect(failuresOf('llm', answers.llm!)).toEqual({
      subject: 'llm',
      asked: 10,
      failed: 2,
      byKind: { timeout: 2 },
      example: 'deadline passed',
    });
    expect(consistencyCsv(m).split('\n')[1]).toBe('a@r1,0.8,0.8,0.75');
    expect(agreement([fail], [fail])).toEqual({ value: null, compared: 0 });
  });
});

describe("Hold'em action key", () => {
  // Two seats; seat 0 to act facing a bet of 40 with 20 in, pot 120 before the action, stack 500.
  const state = {
    hand: {
      currentBet: 40,
      seats: [
        { stack: 500, streetBet: 20, committed: 50 },
        { stack: 300, streetBet: 40, committed: 70 },
      ],
    },
  } as unknown as TableState;
  it('classes, raise buckets by the raise above the current bet as a share of the pot, whole stack = all_in', () => {
    expect(holdemKey(state, 0, { action: 'fold' })).toBe('fold');
    expect(holdemKey(state, 0, { action: 'call' })).toBe('call');
    expect(holdemKey(state, 0, { action: 'raise', amount: 100 })).toBe('raise:<=0.5pot'); // 60 / 120
    expect(holdemKey(state, 0, { action: 'raise', amount: 101 })).toBe('raise:0.5-1pot'); // 61 / 120
    expect(holdemKey(state, 0, { action: 'raise', amount: 160 })).toBe('raise:0.5-1pot'); // 120 / 120
    expect(holdemKey(state, 0, { action: 'raise', amount: 280 })).toBe('raise:1-2pot'); // 240 / 120
    expect(holdemKey(state, 0, { action: 'raise', amount: 300 })).toBe('raise:>2pot');
    expect(holdemKey(state, 0, { action: 'raise', amount: 520 })).toBe('all_in');
    expect(holdemKey(state, 0, { action: 'all_in' })).toBe('all_in');
  });
});

describe('chess action key', () => {
  it('is the position after the move: both UCI spellings of a castling are one action', async () => {
    const { probeRulesFor } = await import('../orchestrator/probe/probe-rules.ts');
    const { adapterFor } = await import('../games/registry.ts');
    const adapter = adapterFor('chess');
    let state = adapter.game.init('standard', createRng(1));
    for (const [k, move] of ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1c4', 'g8f6'].entries())
      state = adapter.game.apply(state, k % 2, move);
    const key = (move: string) => probeRulesFor('chess').key(adapter, state, 0, move);
    expect(adapter.game.validate(state, 0, 'e1h1')).toBeNull();
    expect(key('e1g1')).toBe(key('e1h1'));
    expect(key('e1g1')).not.toBe(key('d2d3'));
  });
});

describe('catarena probe over a small real Gomoku run', () => {
  /**
   * States asked of each of the 7 subjects, twice. Six, not twelve: every claim below holds on any
   * count (the random bot's diagonal under 1 needs two of its six pairs of ~150-way random picks to
   * differ), and each state asked is about 0.2 s of CPU over the subjects, the dying bot's
   * restarts included.
   */
  const STATES = 6;
  const runDir = path.join(tempDir('catarena-probe-'), 'run');
  let llm: ScriptedLlm;
  let result: ProbeTrackResult;
  let actions: ProbeActions;
  const saved = { key: process.env.OPENAI_API_KEY, url: process.env.CATARENA_LLM_BASE_URL };

  beforeAll(async () => {
    const config = resolveConfig({
      games: ['gomoku'],
      variants: ['standard'],
      rounds: 2,
      concurrency: 2,
      bootstrapSamples: 50,
    });
    const agents = [
      createAgent(`dir:${misbehavingBot('ok')}#first`, 1),
      createAgent(`dir:${BUILTIN('random')}#random`, 1),
      createAgent(`dir:${misbehavingBot('die_after_3')}#dies`, 1),
    ];
    await runTourney({ config, runDir, agents });
    // The LLM-player always answers option 1.
    llm = await startScriptedLlm(() => ({ text: '1' }), { key: 'sk-probe' });
    process.env.OPENAI_API_KEY = 'sk-probe';
    process.env.CATARENA_LLM_BASE_URL = llm.baseURL;
    const lines: string[] = [];
    const outcome = await runProbe({
      runDir,
      states: STATES,
      llmPlayers: ['llm-player:openai-compatible/scripted'],
      timeoutMs: 3_000,
      concurrency: 2,
      onProgress: (l) => lines.push(l),
    });
    expect(lines.join('\n')).toMatch(new RegExp(`gomoku-standard: ${STATES} of \\d+ endgame states sampled`));
    result = outcome.results[0]!;
    actions = JSON.parse(
      fs.readFileSync(path.join(runDir, 'probe', 'gomoku-standard', 'actions.json'), 'utf8'),
    ) as ProbeActions;
  }, 240_000);

  afterAll(async () => {
    for (const [name, value] of [
      ['OPENAI_API_KEY', saved.key],
      ['CATARENA_LLM_BASE_URL', saved.url],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await llm?.close();
  });

  const value = (a: string, b: string) =>
    result.matrix.values[result.matrix.labels.indexOf(a)]![result.matrix.labels.indexOf(b)];

  it('asks every strategy and the LLM-player about the sampled endgame states', () => {
    expect(result.sampled).toBe(STATES);
    expect(result.candidates).toBeGreaterThanOrEqual(STATES);
    expect(result.matrix.labels).toEqual([
      'dies@r1',
      'first@r1',
      'random@r1',
      'dies@r2',
      'first@r2',
      'random@r2',
      'llm-player-scripted',
    ]);
    for (const s of actions.states) expect(s.where).toMatch(/^ply \d+ of \d+$/);
  });

  it('a deterministic bot asked twice agrees with itself: the diagonal is 1; the random bot does not', () => {
    expect(value('first@r1', 'first@r1')).toBe(1);
    expect(value('first@r2', 'first@r2')).toBe(1);
    expect(value('first@r1', 'first@r2')).toBe(1); // the same code in both rounds
    expect(result.rounds).toContainEqual({ a: 'first@r1', b: 'first@r2', value: 1, compared: STATES });
    expect(value('random@r1', 'random@r1')).toBeLessThan(1);
    expect(value('llm-player-scripted', 'llm-player-scripted')).toBe(1);
    expect(result.codeVsLlm.map((p) => p.a)).toEqual([
      'dies@r1',
      'first@r1',
      'random@r1',
      'dies@r2',
      'first@r2',
      'random@r2',
    ]);
  });

  it('the first-cell bot answered the first empty cell of each state, rebuilt here from the replay', async () => {
    const run = new RunDir(runDir);
    for (const [k, s] of actions.states.entries()) {
      const replay = await run.readReplay(s.replay);
      let state = gomoku.wire.game.init('standard', createRng(replay.result.spec.seed));
      for (const move of replay.moves.slice(0, s.ply)) state = gomoku.wire.game.apply(state, move.seat, move.action);
      const board = (state as { board: number[][] }).board;
      const first = board
        .flatMap((row, i) => row.map((cell, j) => (cell === 0 ? [i, j] : null)))
        .find((c) => c !== null);
      const answer = actions.answers['first@r1']![0][k]!;
      expect(answer.ok && answer.action).toEqual(first);
    }
  });

  it('every share is the share of identical answers recounted from actions.json', () => {
    const ids = result.matrix.labels;
    ids.forEach((a, i) =>
      ids.forEach((b, j) => {
        const x = actions.answers[a]![0];
        const y = a === b ? actions.answers[a]![1] : actions.answers[b]![0];
        const both = x.map((ans, k) => [ans, y[k]!] as const).filter(([p, q]) => p.ok && q.ok);
        const same = both.filter(([p, q]) => p.ok && q.ok && p.key === q.key).length;
        expect(result.matrix.compared[i]![j]).toBe(both.length);
        expect(result.matrix.values[i]![j]).toBe(both.length ? same / both.length : null);
      }),
    );
  });

  it('a bot that dies is counted in the failures table, not fatal', () => {
    const dies = result.failures.find((f) => f.subject === 'dies@r1')!;
    expect(dies.asked).toBe(2 * STATES);
    expect(dies.failed).toBeGreaterThan(0);
    expect(Object.keys(dies.byKind).every((k) => ['crash', 'not_started'].includes(k))).toBe(true);
    expect(result.failures.find((f) => f.subject === 'first@r1')!.failed).toBe(0);
  });

  it('a bot that times out is asked every state under the deadline and counted, not fatal', async () => {
    const [
      { sampleEndgameStates },
      { askSubject },
      { probeRulesFor },
      { BotFleet },
      { GameServerPool },
      { createSandbox },
      { adapterFor },
    ] = await Promise.all([
      import('../orchestrator/probe/sample-states.ts'),
      import('../orchestrator/probe/ask-states.ts'),
      import('../orchestrator/probe/probe-rules.ts'),
      import('../orchestrator/executor/bot-fleet.ts'),
      import('../orchestrator/game-server/game-servers.ts'),
      import('../sandbox/index.ts'),
      import('../games/registry.ts'),
    ]);
    const run = new RunDir(runDir);
    const { states } = await sampleEndgameStates(run, (await run.openJournal()).results(), 2, 5);
    const sandbox = createSandbox('process');
    const hosts = new GameServerPool({ ports: { 'gomoku/standard': 0 } });
    try {
      const host = await hosts.get('gomoku', 'standard');
      const fleet = new BotFleet({
        sandbox,
        health: adapterFor('gomoku').health,
        logDir: tempDir('catarena-probe-logs-'),
        ...host.botAccess(),
      });
      fleet.add([{ id: 'sleepy', dir: misbehavingBot('sleep') }]);
      const t0 = Date.now();
      const passes = await askSubject(fleet, 'sleepy', states, {
        adapter: adapterFor('gomoku'),
        host,
        rules: probeRulesFor('gomoku'),
        timeoutMs: 300,
      });
      expect(Date.now() - t0).toBeLessThan(15_000);
      expect(passes.flat().map((a) => (a.ok ? 'ok' : a.kind))).toEqual(['timeout', 'timeout', 'timeout', 'timeout']);
      expect(failuresOf('sleepy', passes)).toMatchObject({ asked: 4, failed: 4, byKind: { timeout: 4 } });
      await fleet.stopAll();
    } finally {
      await hosts.closeAll();
      await sandbox.close();
    }
  }, 60_000);

  it('writes JSON, CSV and a heatmap, and the rebuilt reports carry the probe section', async () => {
    const dir = path.join(runDir, 'probe', 'gomoku-standard');
    expect(fs.readFileSync(path.join(dir, 'consistency.csv'), 'utf8').split('\n')[0]).toBe(
      `,${result.matrix.labels.join(',')}`,
    );
    const svg = fs.readFileSync(path.join(dir, 'consistency.svg'), 'utf8');
    expect(svg.match(/<rect class="cell"/g)).toHaveLength(49);
    expect(svg).toContain('data-row="1" data-col="1" data-value="1"');
    await summarizeRun(runDir);
    const md = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
    expect(md).toContain('## Action consistency on endgame states (catarena probe)');
    expect(md).toContain(`| first@r1 | first@r2 | 1.00 (${STATES}) |`);
    const html = fs.readFileSync(path.join(runDir, 'report.html'), 'utf8');
    expect(html).toContain('id="probe"');
    expect(html).toContain('data-chart="consistency"');
  });

  it('the CLI explains itself and refuses what is not a probe-able run', async () => {
    // The CLI's main() in this process (catarena, tests/helpers/cli.ts), one command after the
    // other (each captures this process's output while it runs): what it prints and its exit code,
    // no Node start each.
    const stray = (files: string[]) => {
      const dir = tempDir('catarena-probe-stray-');
      for (const f of files) fs.copyFileSync(path.join(runDir, f), path.join(dir, f));
      return dir;
    };
    const help = await catarena('probe', '--help');
    const notRun = await catarena('probe', stray([]));
    const noGames = await catarena('probe', stray(['config.json']));
    // journal.key: its chain's key
    const noReplays = await catarena('probe', stray(['config.json', 'journal.jsonl', 'journal.key']));
    const wrongGame = await catarena('probe', runDir, '--games', 'chess');
    expect(help.stdout).toMatch(/--states <n>/);
    expect(help.stdout).toMatch(/--llm-player <spec>/);
    expect(notRun.code).toBe(1);
    expect(notRun.stderr).toMatch(/is not a tournament run directory \(no config\.json\)/);
    expect(noGames.stderr).toMatch(/no journal\.jsonl: no game of this run was played/);
    expect(noReplays.code).toBe(1);
    expect(noReplays.stderr).toMatch(
      /nothing to probe in .*: gomoku-standard: none of its \d+ games has its replay in .*replays/,
    );
    expect(wrongGame.stderr).toMatch(/--games: chess not played in this run; it played gomoku/);
  }, 60_000);
});

describe("catarena probe: Hold'em and Bridge decision points, with what the seat saw", () => {
  const runDir = path.join(tempDir('catarena-probe-cards-'), 'run');
  let outcome: Awaited<ReturnType<typeof runProbe>>;

  beforeAll(async () => {
    const config = resolveConfig({
      rounds: 1,
      games: ['holdem', 'bridge'],
      variants: ['standard'],
      agents: ['offline:cautious', 'offline:aggressive'],
      // One repetition: a Hold'em game's 60 hands and a Bridge board's last six tricks give more
      // than the 15 states sampled per game (two repetitions before).
      reps: 1,
      concurrency: 2,
      bootstrapSamples: 50,
      perGame: { holdem: { options: { handCap: 60 } } },
    });
    await runTourney({ config, runDir });
    outcome = await runProbe({ runDir, states: 15, concurrency: 2 });
  }, 240_000);

  it("samples turn and river decisions (Hold'em) and card plays from trick 8 (Bridge), never forced ones, each asked of the seat that decided there", async () => {
    expect(
      outcome.results.map((r) => [r.track, r.sampled]),
      JSON.stringify(outcome.notProbed),
    ).toEqual([
      ['holdem-standard', 15],
      ['bridge-standard', 15],
    ]);
    const run = new RunDir(runDir);
    for (const r of outcome.results) {
      const { states } = JSON.parse(
        fs.readFileSync(path.join(runDir, 'probe', r.track, 'actions.json'), 'utf8'),
      ) as ProbeActions;
      for (const s of states) {
        expect(s.where).toMatch(
          r.game === 'holdem' ? /^(turn|river), hand \d+$/ : /^trick (8|9|10|11|12|13), card [1-4]$/,
        );
        const replay = await run.readReplay(s.replay);
        expect(replay.moves[s.ply]!.seat).toBe(s.seat);
        expect(replay.moves[s.ply]!.action).toEqual(s.played);
        expect(s.playedBy).toBe(replay.result.spec.seats[s.seat]);
      }
      expect(r.failures.every((f) => f.failed === 0)).toBe(true);
    }
  });

  it("the request shows the asked seat its own cards only, and Hold'em answers reduce to a class and bucket", async () => {
    const { sampleEndgameStates } = await import('../orchestrator/probe/sample-states.ts');
    const { adapterFor } = await import('../games/registry.ts');
    const run = new RunDir(runDir);
    const journal = await run.openJournal();
    const holdem = await sampleEndgameStates(
      run,
      journal.results().filter((r) => r.spec.game === 'holdem'),
      15,
      1,
    );
    for (const s of holdem.states) {
      const body = adapterFor('holdem').turn(s.state, s.seat, { gameId: 'g', gameServerUrl: '', seatIds: s.seatIds })
        .body as { players: Record<string, { hole_cards: string[] }>; current_player: string };
      expect(body.current_player).toBe(s.seatIds[s.seat]);
      for (const [id, p] of Object.entries(body.players))
        expect(p.hole_cards.length > 0).toBe(id === s.seatIds[s.seat]);
    }
    const bridge = await sampleEndgameStates(
      run,
      journal.results().filter((r) => r.spec.game === 'bridge'),
      15,
      1,
    );
    for (const s of bridge.states) {
      const body = adapterFor('bridge').turn(s.state, s.seat, { gameId: 'g', gameServerUrl: '', seatIds: s.seatIds })
        .body as { game_state: { players: Array<{ player_id: number; hand?: unknown[]; is_dummy: boolean }> } };
      // Its own hand and dummy's (shown since the opening lead); dummy's own turn shows the declarer's, who decides it.
      const shown = body.game_state.players
        .filter((p) => p.hand)
        .map((p) => p.player_id)
        .sort();
      const dummy = body.game_state.players.find((p) => p.is_dummy)!.player_id;
      expect(shown).toEqual([s.seat, s.seat === dummy ? (dummy + 2) % 4 : dummy].sort());
    }
    const { answers } = JSON.parse(
      fs.readFileSync(path.join(runDir, 'probe', 'holdem-standard', 'actions.json'), 'utf8'),
    ) as ProbeActions;
    const keys = new Set(Object.values(answers).flatMap((passes) => passes.flat().map((a) => (a.ok ? a.key : a.kind))));
    for (const k of keys)
      expect([
        'fold',
        'check',
        'call',
        'all_in',
        'raise:<=0.5pot',
        'raise:0.5-1pot',
        'raise:1-2pot',
        'raise:>2pot',
      ]).toContain(k);
    // Sampling is seeded: the same seed picks the same states again.
    const again = await sampleEndgameStates(
      run,
      journal.results().filter((r) => r.spec.game === 'holdem'),
      15,
      1,
    );
    expect(again.states.map((s) => `${s.replay}#${s.ply}`)).toEqual(holdem.states.map((s) => `${s.replay}#${s.ply}`));
  });
});
