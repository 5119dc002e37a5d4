// Offline reference agents: real workspaces in temp dirs, real bots started over HTTP, and a
// measurement that learning over two rounds makes a character's bot stronger.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createOfflineAgent, OFFLINE_CHARACTERS, OfflineAgent } from '../agents/offline/index.ts';
import type { DevelopResult, Workspace } from '../agents/core/types.ts';
import type { HeadToHead, RoundReport } from '../records/tourney.ts';
import { createRng } from '../util/rng.ts';
import { gomoku, type GomokuMove } from '../games/gomoku/rules.ts';
import { bridge, type BridgeAction } from '../games/bridge/rules.ts';
import { adapterFor } from '../games/registry.ts';
import { BotProcesses } from './helpers/bot-process.ts';

/**
 * What a bot's answer may take beyond its own time budget: the round trip and, on a machine at full
 * load (the whole suite with Docker on 2 cores), the wait for a core (a reference chess bot's
 * 300 ms answer once took 636 ms there). Far below every game's move limit.
 */
const ANSWER_SLACK_MS = 1_000;

const ROOT = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-offline-'));
const HEURISTIC = path.resolve(import.meta.dirname, '../games/gomoku/bots/heuristic');
const BUDGET = { wallMs: 60_000 };
type Params = Record<string, any>;

let wsCount = 0;
/** A workspace laid out as the orchestrator would; lastRoundDir/logsDir only when given. */
function workspace(agentId: string, round: number, over: Partial<Workspace> = {}): Workspace {
  const dir = path.join(ROOT, `ws${++wsCount}-${agentId}-r${round}`);
  fs.mkdirSync(path.join(dir, 'env'), { recursive: true });
  return {
    dir,
    game: 'gomoku',
    variant: 'standard',
    round,
    agentId,
    envDir: path.join(dir, 'env'),
    outputDir: path.join(dir, 'output'),
    task: 'write a gomoku bot',
    moveTimeoutMs: 2000,
    seed: 0,
    ...over,
  };
}

async function develop(spec: string, seed: number, ws: Workspace): Promise<{ res: DevelopResult; params: Params }> {
  const res = await createOfflineAgent(spec, seed).develop(ws, BUDGET);
  return { res, params: JSON.parse(fs.readFileSync(path.join(res.botDir, 'params.json'), 'utf8')) };
}

const h2h = (score: number, games = 4): HeadToHead => {
  const wins = Math.round(score * games);
  return { games, wins, draws: 0, losses: games - wins, score: wins / games };
};

/** A RoundReport from (agent, score) rows and (a, b, a's score vs b) pairs, as the arena writes it. */
function report(round: number, rows: Array<[string, number]>, pairs: Array<[string, string, number]>): RoundReport {
  const id = (a: string) => `${a}@r${round}`;
  const pairwise: RoundReport['pairwise'] = {};
  for (const [a, b, s] of pairs) {
    (pairwise[id(a)] ??= {})[id(b)] = h2h(s);
    (pairwise[id(b)] ??= {})[id(a)] = h2h(1 - s);
  }
  return {
    game: 'gomoku',
    variant: 'standard',
    round,
    policy: 'strict',
    games: pairs.length * 4,
    strategies: rows.map(([a]) => ({ id: id(a), agent: a, round, status: 'ok' })),
    standings: rows.map(([a, s]) => ({ id: id(a), agent: a, round, ...h2h(s, 8), failures: {}, avgMoveMs: 20 })),
    pairwise,
  };
}

/** lastRoundDir with hand-written params.json per agent, and logsDir with the report. */
function previousRound(bots: Record<string, Params>, rep: RoundReport | string | null) {
  const dir = path.join(ROOT, `prev${++wsCount}`);
  for (const [agent, p] of Object.entries(bots)) {
    fs.mkdirSync(path.join(dir, 'last_round', agent), { recursive: true });
    fs.writeFileSync(path.join(dir, 'last_round', agent, 'params.json'), JSON.stringify({ name: agent, ...p }));
  }
  fs.mkdirSync(path.join(dir, 'logs'), { recursive: true });
  if (rep !== null)
    fs.writeFileSync(path.join(dir, 'logs', 'round_report.json'), typeof rep === 'string' ? rep : JSON.stringify(rep));
  return { lastRoundDir: path.join(dir, 'last_round'), logsDir: path.join(dir, 'logs') };
}

const CAUTIOUS = {
  attack: 0.7,
  defense: 1.4,
  depth: 2,
  candidates: 5,
  timeBudgetMs: 100,
  centerBias: 0.4,
  randomness: 0.3,
  weights: { standard: [0, 1, 5, 25, 125, 100000] },
};
const AGGRESSIVE = {
  attack: 1.6,
  defense: 0.6,
  depth: 1,
  candidates: 10,
  timeBudgetMs: 60,
  centerBias: 0.1,
  randomness: 0.4,
  weights: { standard: [0, 1, 15, 225, 3375, 100000] },
};
// The round's winner: distinctive values, so adopting them is visible.
const CHAMPION = {
  attack: 1.25,
  defense: 1.0,
  depth: 3,
  candidates: 11,
  timeBudgetMs: 90,
  centerBias: 0.25,
  randomness: 0.1,
  weights: { standard: [0, 1, 9, 81, 729, 100000] },
};

describe('round 1', () => {
  it('differs by character and by seed, and is identical for the same seed', async () => {
    const p = async (spec: string, seed: number) =>
      (await develop(spec, seed, workspace(createOfflineAgent(spec, seed).id, 1))).params;
    const [c1, c1again, c2, a1, i1] = await Promise.all([
      p('offline:cautious', 1),
      p('offline:cautious', 1),
      p('offline:cautious', 2),
      p('offline:aggressive', 1),
      p('offline:imitator', 1),
    ]);
    expect(c1again).toEqual(c1);
    expect(c2).not.toEqual(c1);
    expect(a1).not.toEqual(c1);
    expect(i1).not.toEqual(a1);
    expect(c1.defense).toBeGreaterThanOrEqual(c1.attack);
    expect(a1.attack).toBeGreaterThan(a1.defense);
    for (const q of [c1, c2, a1, i1]) {
      expect(q.round).toBe(1);
      expect(q.depth).toBeLessThanOrEqual(2); // deliberately imperfect: room to learn
      expect(q.randomness).toBeGreaterThan(0);
      expect(q.timeBudgetMs).toBeGreaterThanOrEqual(20);
      expect(q.timeBudgetMs).toBeLessThanOrEqual(120);
    }
    // Two agents of one character (#n) get their own seeds.
    const [x, y] = await Promise.all([p('offline:imitator#1', 5), p('offline:imitator#2', 5)]);
    expect(x.name).toBe('imitator-1');
    expect(y).not.toEqual({ ...x, name: 'imitator-2' });
  });

  it('keeps the time budget under 40% of the move timeout', async () => {
    const { params } = await develop('offline:cautious', 3, workspace('cautious', 1, { moveTimeoutMs: 200 }));
    expect(params.timeBudgetMs).toBeLessThanOrEqual(80);
  });

  it('writes a real bot that starts and plays a legal move; sane cost record', async () => {
    const { res, params } = await develop('offline:aggressive', 7, workspace('aggressive', 1));
    for (const f of ['start_ai.sh', 'bot.mjs', 'engine.mjs', 'params.json', 'NOTES.md'])
      expect(fs.existsSync(path.join(res.botDir, f))).toBe(true);
    expect(fs.statSync(path.join(res.botDir, 'start_ai.sh')).mode & 0o111).not.toBe(0);
    expect(params.name).toBe('aggressive');
    expect(res.cost.linesOfCode).toBeGreaterThan(100);
    expect(res.cost.toolCalls).toBeGreaterThan(0);
    expect(res.cost.tokens).toBeNull();
    expect(res.cost.wallMs).toBeGreaterThanOrEqual(0);
    expect(res.log).toMatch(/round 1/);

    const child = await startBot(res.botDir);
    try {
      const url = `http://127.0.0.1:${child.port}`;
      expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'healthy' });
      expect((await (await fetch(`${url}/info`)).json()).name).toBe('aggressive');
      const board = Array.from({ length: 15 }, () => Array<number>(15).fill(0));
      board[7]![7] = 1;
      board[7]![8] = 2;
      board[8]![8] = 1;
      const r = await fetch(`${url}/get_move`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ game_id: 'g1', board, current_player: 'white' }),
      });
      expect(r.status).toBe(200);
      const [i, j] = (await r.json()).move as GomokuMove;
      expect(board[i]?.[j]).toBe(0);
    } finally {
      child.stop();
    }
  });
});

describe('round 2 learning', () => {
  // Round 1: imitator topped, aggressive second, cautious last and beaten by both.
  const rep = report(
    1,
    [
      ['imitator', 0.75],
      ['aggressive', 0.5],
      ['cautious', 0.25],
    ],
    [
      ['imitator', 'aggressive', 0.75],
      ['imitator', 'cautious', 0.75],
      ['aggressive', 'cautious', 0.75],
    ],
  );
  const bots = { imitator: CHAMPION, aggressive: AGGRESSIVE, cautious: CAUTIOUS };

  it('imitator adopts (a mutation of) the top strategy’s params', async () => {
    const rep2 = report(
      1,
      [
        ['cautious', 0.75],
        ['aggressive', 0.5],
        ['imitator', 0.25],
      ],
      [
        ['cautious', 'aggressive', 0.75],
        ['cautious', 'imitator', 0.75],
        ['aggressive', 'imitator', 0.75],
      ],
    );
    const { res, params } = await develop(
      'offline:imitator',
      1,
      workspace('imitator', 2, previousRound({ cautious: CHAMPION, aggressive: AGGRESSIVE, imitator: CAUTIOUS }, rep2)),
    );
    expect(params.depth).toBe(CHAMPION.depth);
    expect(Math.abs(params.candidates - CHAMPION.candidates)).toBeLessThanOrEqual(1);
    expect(params.attack).toBeCloseTo(CHAMPION.attack, 0);
    expect(Math.abs(params.attack / CHAMPION.attack - 1)).toBeLessThan(0.07);
    expect(Math.abs(params.defense / CHAMPION.defense - 1)).toBeLessThan(0.07);
    expect(Math.abs(params.weights.standard[2] / 9 - 1)).toBeLessThan(0.07);
    expect(params.randomness).toBeLessThan(CHAMPION.randomness);
    expect(res.log).toMatch(/copying the top of the standings: cautious@r1/);
    expect(fs.readFileSync(path.join(res.botDir, 'NOTES.md'), 'utf8')).toMatch(/cautious@r1/);
  });

  it('cautious moves toward the winner and keeps defense ≥ attack', async () => {
    const { res, params } = await develop('offline:cautious', 1, workspace('cautious', 2, previousRound(bots, rep)));
    const closer = (k: string, before: number, target: number) =>
      expect(Math.abs(params[k] - target), k).toBeLessThan(Math.abs(before - target));
    closer('depth', CAUTIOUS.depth, CHAMPION.depth);
    closer('candidates', CAUTIOUS.candidates, CHAMPION.candidates);
    closer('timeBudgetMs', CAUTIOUS.timeBudgetMs, CHAMPION.timeBudgetMs);
    closer('randomness', CAUTIOUS.randomness, CHAMPION.randomness);
    expect(params.defense).toBeGreaterThanOrEqual(params.attack);
    expect(res.log).toMatch(/beaten by/);
    expect(res.log).toMatch(/imitator@r1/);
  });

  it('aggressive counters what beat it and keeps attack > defense', async () => {
    const { res, params } = await develop(
      'offline:aggressive',
      1,
      workspace('aggressive', 2, previousRound(bots, rep)),
    );
    expect(params.attack).toBeGreaterThan(params.defense);
    expect(params.depth).toBeGreaterThanOrEqual(CHAMPION.depth);
    expect(params.candidates).toBeGreaterThanOrEqual(CHAMPION.candidates);
    expect(params.randomness).toBeLessThan(AGGRESSIVE.randomness);
    expect(res.log).toMatch(/imitator@r1 beat me/);
  });

  it('falls back to a mutation of its own params on a missing, garbled or odd report', async () => {
    for (const bad of [null, '{"standings": [', '{"hello": 1}']) {
      const { res, params } = await develop('offline:cautious', 1, workspace('cautious', 2, previousRound(bots, bad)));
      expect(res.log).toMatch(/round_report\.json .*falling back to a mutation of my own previous params/);
      expect(params.depth).toBe(CAUTIOUS.depth);
      expect(params.defense).toBeGreaterThanOrEqual(params.attack);
    }
    // Garbled rival params and no last_round at all: still a bot, and the log says why.
    const prev = previousRound(bots, rep);
    fs.writeFileSync(path.join(prev.lastRoundDir, 'imitator', 'params.json'), 'not json');
    const a = await develop('offline:imitator', 1, workspace('imitator', 2, prev));
    expect(a.res.log).toMatch(/last_round\/imitator\/params.json unreadable/);
    const b = await develop('offline:aggressive', 1, workspace('aggressive', 3, {}));
    expect(b.res.log).toMatch(/no last_round folder/);
    expect(b.res.log).toMatch(/falling back/);
  });
});

describe('errors', () => {
  it('names the characters for an unknown one and the supported games for another game', async () => {
    expect(() => createOfflineAgent('offline:reckless', 1)).toThrow(
      /unknown offline character "reckless".*cautious, aggressive, imitator/,
    );
    expect(() => createOfflineAgent('llm:foo', 1)).toThrow(/expected offline:<character>/);
    expect(OFFLINE_CHARACTERS).toEqual(['cautious', 'aggressive', 'imitator']);
    const agent = createOfflineAgent('offline:cautious#2', 1);
    expect([agent.id, agent.kind]).toEqual(['cautious-2', 'offline:cautious']);
    expect(() => new OfflineAgent({ id: 'x', character: 'nope', seed: 1 })).toThrow(/available: cautious/);
    await expect(agent.develop(workspace('cautious-2', 1, { game: 'tiddlywinks' }), BUDGET)).rejects.toThrow(
      /"tiddlywinks".*offline agents support: gomoku, chess, holdem, bridge/,
    );
  });
});

// ---- chess ------------------------------------------------------------------------------------

const chessWs = (agentId: string, round: number, over: Partial<Workspace> = {}) =>
  workspace(agentId, round, { game: 'chess', task: 'write a chess bot', ...over });
const CHESS_CAUTIOUS = {
  depth: 1,
  timeBudgetMs: 25,
  materialScale: 1.4,
  mobility: 0.4,
  pst: 0.8,
  kingSafety: 1.5,
  randomness: 0.2,
};
const CHESS_AGGRESSIVE = {
  depth: 1,
  timeBudgetMs: 12,
  materialScale: 0.8,
  mobility: 2,
  pst: 1.2,
  kingSafety: 0.4,
  randomness: 0.5,
};
const CHESS_CHAMPION = {
  depth: 2,
  timeBudgetMs: 22,
  materialScale: 1.1,
  mobility: 1.3,
  pst: 0.9,
  kingSafety: 1.1,
  randomness: 0.1,
};

describe('chess', () => {
  it('round 1: imperfect, fast bots shaped by character', async () => {
    const p = async (spec: string, seed: number) =>
      (await develop(spec, seed, chessWs(createOfflineAgent(spec, seed).id, 1))).params;
    const [c, cAgain, a, i] = await Promise.all([
      p('offline:cautious', 1),
      p('offline:cautious', 1),
      p('offline:aggressive', 1),
      p('offline:imitator', 1),
    ]);
    expect(cAgain).toEqual(c);
    expect(a).not.toEqual(c);
    expect(c.materialScale).toBeGreaterThanOrEqual(c.mobility);
    expect(a.mobility).toBeGreaterThan(a.materialScale);
    expect(c.depth).toBeGreaterThan(a.depth);
    for (const q of [c, a, i]) {
      expect(Object.keys(q).sort()).toEqual([
        'character',
        'depth',
        'kingSafety',
        'materialScale',
        'mobility',
        'name',
        'pst',
        'randomness',
        'round',
        'seed',
        'timeBudgetMs',
      ]);
      expect(q.depth).toBeGreaterThanOrEqual(1);
      expect(q.depth).toBeLessThanOrEqual(2);
      expect(q.randomness).toBeGreaterThan(0);
      expect(q.timeBudgetMs).toBeGreaterThanOrEqual(10);
      expect(q.timeBudgetMs).toBeLessThanOrEqual(30);
    }
  });

  it('a round-1 chess bot starts and answers a legal /move', async () => {
    const { res, params } = await develop('offline:aggressive', 3, chessWs('aggressive', 1));
    for (const f of [
      'start_ai.sh',
      'bot.mjs',
      'engine.mjs',
      'chess-core.mjs',
      'chess-requests.mjs',
      'params.json',
      'NOTES.md',
    ])
      expect(fs.existsSync(path.join(res.botDir, f)), f).toBe(true);
    expect(fs.readFileSync(path.join(res.botDir, 'NOTES.md'), 'utf8')).toMatch(/heuristic chess bot/);
    const child = await startBot(res.botDir);
    try {
      const url = `http://127.0.0.1:${child.port}`;
      const info = await (await fetch(`${url}/info`)).json();
      expect(info.name).toBe('aggressive');
      expect(info.params.timeBudgetMs).toBe(params.timeBudgetMs);
      const { chess } = await import('../games/chess/rules.ts');
      const state = chess.init('standard', createRng(1));
      const t0 = Date.now();
      const r = await fetch(`${url}/move`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          fen: state.fen,
          algorithm: 'simple',
          game_id: 'chess_offline1',
          current_player: 'white',
        }),
      });
      expect(r.status).toBe(200);
      expect(chess.validate(state, 0, (await r.json()).move)).toBeNull();
      expect(Date.now() - t0).toBeLessThan(params.timeBudgetMs + ANSWER_SLACK_MS);
    } finally {
      child.stop();
    }
  });

  describe('round 2 learning', () => {
    const rep = report(
      1,
      [
        ['imitator', 0.75],
        ['aggressive', 0.5],
        ['cautious', 0.25],
      ],
      [
        ['imitator', 'aggressive', 0.75],
        ['imitator', 'cautious', 0.75],
        ['aggressive', 'cautious', 0.75],
      ],
    );
    const bots = { imitator: CHESS_CHAMPION, aggressive: CHESS_AGGRESSIVE, cautious: CHESS_CAUTIOUS };

    it('imitator copies the top strategy’s params', async () => {
      const rep2 = report(
        1,
        [
          ['cautious', 0.75],
          ['aggressive', 0.5],
          ['imitator', 0.25],
        ],
        [
          ['cautious', 'aggressive', 0.75],
          ['cautious', 'imitator', 0.75],
          ['aggressive', 'imitator', 0.75],
        ],
      );
      const { res, params } = await develop(
        'offline:imitator',
        1,
        chessWs(
          'imitator',
          2,
          previousRound({ cautious: CHESS_CHAMPION, aggressive: CHESS_AGGRESSIVE, imitator: CHESS_CAUTIOUS }, rep2),
        ),
      );
      expect(params.depth).toBe(CHESS_CHAMPION.depth);
      for (const k of ['materialScale', 'mobility', 'pst', 'kingSafety', 'timeBudgetMs'] as const) {
        expect(Math.abs(params[k] / CHESS_CHAMPION[k] - 1), k).toBeLessThan(0.07);
      }
      expect(params.randomness).toBeLessThan(CHESS_CHAMPION.randomness);
      expect(res.log).toMatch(/copying the top of the standings: cautious@r1/);
    });

    it('cautious moves toward the winner, keeps materialScale ≥ mobility', async () => {
      const { res, params } = await develop('offline:cautious', 1, chessWs('cautious', 2, previousRound(bots, rep)));
      expect(params).not.toMatchObject(CHESS_CAUTIOUS);
      const closer = (k: keyof typeof CHESS_CAUTIOUS) =>
        expect(Math.abs(params[k] - CHESS_CHAMPION[k]), k).toBeLessThan(
          Math.abs(CHESS_CAUTIOUS[k] - CHESS_CHAMPION[k]),
        );
      closer('depth');
      closer('mobility');
      closer('randomness');
      expect(params.materialScale).toBeGreaterThanOrEqual(params.mobility);
      expect(params.timeBudgetMs).toBeLessThanOrEqual(30);
      expect(res.log).toMatch(/beaten by imitator@r1/);
    });

    it('aggressive counters what beat it, keeps mobility > materialScale', async () => {
      const { res, params } = await develop(
        'offline:aggressive',
        1,
        chessWs('aggressive', 2, previousRound(bots, rep)),
      );
      expect(params.depth).toBeGreaterThanOrEqual(CHESS_CHAMPION.depth);
      expect(params.timeBudgetMs).toBeGreaterThanOrEqual(CHESS_CHAMPION.timeBudgetMs);
      expect(params.mobility).toBeGreaterThan(params.materialScale);
      expect(params.randomness).toBeLessThan(CHESS_AGGRESSIVE.randomness);
      expect(res.log).toMatch(/imitator@r1 beat me/);
    });

    it('reads a reference-bot params.json with out-of-range knobs, and caps depth and time', async () => {
      const ref = JSON.parse(
        fs.readFileSync(path.resolve(import.meta.dirname, '../games/chess/bots/heuristic/params.json'), 'utf8'),
      );
      const { params } = await develop(
        'offline:imitator',
        1,
        chessWs(
          'imitator',
          2,
          previousRound(
            {
              cautious: { ...ref, depth: 5, timeBudgetMs: 3000 },
              aggressive: CHESS_AGGRESSIVE,
              imitator: CHESS_CAUTIOUS,
            },
            report(
              1,
              [
                ['cautious', 0.75],
                ['aggressive', 0.5],
                ['imitator', 0.25],
              ],
              [
                ['cautious', 'aggressive', 0.75],
                ['cautious', 'imitator', 0.75],
                ['aggressive', 'imitator', 0.75],
              ],
            ),
          ),
        ),
      );
      expect(params.depth).toBe(2);
      expect(params.timeBudgetMs).toBeLessThanOrEqual(30);
    });
  });
});

// ---- hold'em ----------------------------------------------------------------------------------

const holdemWs = (agentId: string, round: number, over: Partial<Workspace> = {}) =>
  workspace(agentId, round, { game: 'holdem', task: "write a hold'em bot", moveTimeoutMs: 3000, ...over });
const HOLDEM_CAUTIOUS = {
  tightness: 0.8,
  aggression: 0.3,
  bluff: 0.01,
  simulations: 200,
  depth: 1,
  timeBudgetMs: 50,
  randomness: 0.2,
};
const HOLDEM_AGGRESSIVE = {
  tightness: 0.25,
  aggression: 0.85,
  bluff: 0.18,
  simulations: 80,
  depth: 1,
  timeBudgetMs: 25,
  randomness: 0.4,
};
const HOLDEM_CHAMPION = {
  tightness: 0.55,
  aggression: 0.65,
  bluff: 0.08,
  simulations: 300,
  depth: 2,
  timeBudgetMs: 45,
  randomness: 0.1,
};
const HOLDEM_KEYS = [
  'aggression',
  'bluff',
  'character',
  'depth',
  'name',
  'randomness',
  'round',
  'seed',
  'simulations',
  'tightness',
  'timeBudgetMs',
];

/** A heads-up pre-flop view: the player acts first facing the big blind, every action offered. */
function holdemView(hole: string[], deck: 'standard' | 'short' = 'standard') {
  return {
    game_id: 'holdem_offline1',
    phase: 'preflop',
    hand_number: 1,
    pot: 30,
    community_cards: [],
    current_bet: 20,
    min_raise: 20,
    current_player: 'me',
    deck,
    players: {
      me: {
        player_id: 'me',
        name: 'me',
        chips: 1990,
        hole_cards: hole,
        state: 'active',
        current_bet: 10,
        hand_bet: 10,
        is_dealer: false,
        is_small_blind: true,
        is_big_blind: false,
      },
      bb: {
        player_id: 'bb',
        name: 'bb',
        chips: 1980,
        hole_cards: [],
        state: 'active',
        current_bet: 20,
        hand_bet: 20,
        is_dealer: true,
        is_small_blind: false,
        is_big_blind: true,
      },
    },
    action_history: [
      { player_id: 'me', action: 'small_blind', amount: 10, phase: 'preflop' },
      { player_id: 'bb', action: 'big_blind', amount: 20, phase: 'preflop' },
    ],
    dealer_index: 1,
    small_blind: 10,
    big_blind: 20,
    valid_actions: [
      { action: 'fold', amount: 0 },
      { action: 'call', amount: 10 },
      { action: 'raise', amount: { min: 40, max: 2000 } },
      { action: 'all_in', amount: 1990 },
    ],
  };
}

describe('holdem', () => {
  it('round 1: imperfect, fast bots shaped by character', async () => {
    const p = async (spec: string, seed: number) =>
      (await develop(spec, seed, holdemWs(createOfflineAgent(spec, seed).id, 1))).params;
    const [c, cAgain, c2, a, i] = await Promise.all([
      p('offline:cautious', 1),
      p('offline:cautious', 1),
      p('offline:cautious', 2),
      p('offline:aggressive', 1),
      p('offline:imitator', 1),
    ]);
    expect(cAgain).toEqual(c);
    expect(c2).not.toEqual(c);
    expect(a).not.toEqual(c);
    expect(i).not.toEqual(a);
    // Clearly different bots: the cautious one is tight and passive, the aggressive one loose, raising and bluffing.
    expect(c.tightness).toBeGreaterThanOrEqual(c.aggression);
    expect(a.aggression).toBeGreaterThan(a.tightness);
    expect(c.tightness - a.tightness).toBeGreaterThan(0.25);
    expect(a.aggression - c.aggression).toBeGreaterThan(0.25);
    expect(a.bluff).toBeGreaterThan(c.bluff);
    expect(c.simulations * c.depth).toBeGreaterThan(a.simulations * a.depth);
    for (const q of [c, c2, a, i]) {
      expect(Object.keys(q).sort()).toEqual(HOLDEM_KEYS);
      expect(q.round).toBe(1);
      expect(q.depth).toBeGreaterThanOrEqual(1);
      expect(q.depth).toBeLessThanOrEqual(2); // deliberately imperfect: room to learn
      expect(q.randomness).toBeGreaterThan(0);
      expect(q.timeBudgetMs).toBeGreaterThanOrEqual(20);
      expect(q.timeBudgetMs).toBeLessThanOrEqual(60);
      expect(q.simulations * q.depth).toBeLessThanOrEqual(1200);
      expect(Number.isInteger(q.simulations) && Number.isInteger(q.depth)).toBe(true);
    }
  });

  it("a round-1 hold'em bot starts and answers a valid /action fast; characters play differently", async () => {
    const [{ res, params }, cautiousBot] = await Promise.all([
      develop('offline:aggressive', 3, holdemWs('aggressive', 1)),
      develop('offline:cautious', 3, holdemWs('cautious', 1)),
    ]);
    for (const f of ['start_ai.sh', 'bot.mjs', 'equity.mjs', 'params.json', 'NOTES.md'])
      expect(fs.existsSync(path.join(res.botDir, f)), f).toBe(true);
    expect(fs.readFileSync(path.join(res.botDir, 'NOTES.md'), 'utf8')).toMatch(/heuristic Hold'em bot/);
    expect(res.cost.linesOfCode).toBeGreaterThan(100);
    const [aggressiveChild, cautiousChild] = await Promise.all([
      startBot(res.botDir),
      startBot(cautiousBot.res.botDir),
    ]);
    try {
      const url = `http://127.0.0.1:${aggressiveChild.port}`;
      const info = await (await fetch(`${url}/info`)).json();
      expect(info.name).toBe('aggressive');
      expect(info.params).toMatchObject({
        tightness: params.tightness,
        aggression: params.aggression,
        simulations: params.simulations,
        timeBudgetMs: params.timeBudgetMs,
      });
      const ask = async (port: number, hole: string[], deck: 'standard' | 'short' = 'standard') => {
        const body = holdemView(hole, deck);
        const t0 = Date.now();
        const r = await fetch(`http://127.0.0.1:${port}/action`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(r.status).toBe(200);
        const reply = await r.json();
        expect(Date.now() - t0).toBeLessThan(params.timeBudgetMs + ANSWER_SLACK_MS);
        expect(Number.isInteger(reply.amount)).toBe(true);
        const offer = body.valid_actions.find((v) => v.action === reply.action);
        expect(offer, JSON.stringify(reply)).toBeDefined();
        if (reply.action === 'raise') expect(reply.amount).toBeGreaterThanOrEqual(40);
        return reply.action as string;
      };
      await ask(aggressiveChild.port, ['Ac', 'Kd']);
      await ask(aggressiveChild.port, ['Ac', 'Kd'], 'short');
      // A middling hand: the tight, passive bot folds or calls it and never raises; the loose,
      // aggressive one plays more of them.
      const hands = [
        ['Qc', '8d'],
        ['Jh', '7s'],
        ['Kd', '6c'],
        ['Th', '8c'],
        ['9s', '7h'],
        ['Qd', '9c'],
      ];
      const a: string[] = [],
        c: string[] = [];
      for (const hole of hands) {
        a.push(await ask(aggressiveChild.port, hole));
        c.push(await ask(cautiousChild.port, hole));
      }
      expect(c.filter((x) => x === 'raise')).toHaveLength(0);
      expect(a.filter((x) => x === 'fold').length).toBeLessThan(c.filter((x) => x === 'fold').length);
    } finally {
      aggressiveChild.stop();
      cautiousChild.stop();
    }
  });

  describe('round 2 learning', () => {
    const rep = report(
      1,
      [
        ['imitator', 0.75],
        ['aggressive', 0.5],
        ['cautious', 0.25],
      ],
      [
        ['imitator', 'aggressive', 0.75],
        ['imitator', 'cautious', 0.75],
        ['aggressive', 'cautious', 0.75],
      ],
    );
    const bots = { imitator: HOLDEM_CHAMPION, aggressive: HOLDEM_AGGRESSIVE, cautious: HOLDEM_CAUTIOUS };

    it('imitator copies the top strategy’s params', async () => {
      const rep2 = report(
        1,
        [
          ['cautious', 0.75],
          ['aggressive', 0.5],
          ['imitator', 0.25],
        ],
        [
          ['cautious', 'aggressive', 0.75],
          ['cautious', 'imitator', 0.75],
          ['aggressive', 'imitator', 0.75],
        ],
      );
      const { res, params } = await develop(
        'offline:imitator',
        1,
        holdemWs(
          'imitator',
          2,
          previousRound({ cautious: HOLDEM_CHAMPION, aggressive: HOLDEM_AGGRESSIVE, imitator: HOLDEM_CAUTIOUS }, rep2),
        ),
      );
      expect(params.depth).toBe(HOLDEM_CHAMPION.depth);
      for (const k of ['tightness', 'aggression', 'bluff', 'simulations', 'timeBudgetMs'] as const) {
        expect(Math.abs(params[k] / HOLDEM_CHAMPION[k] - 1), k).toBeLessThan(0.07);
      }
      expect(params.randomness).toBeLessThan(HOLDEM_CHAMPION.randomness);
      expect(res.log).toMatch(/copying the top of the standings: cautious@r1/);
      expect(fs.readFileSync(path.join(res.botDir, 'NOTES.md'), 'utf8')).toMatch(/cautious@r1/);
    });

    it('cautious moves toward the winner, keeps tightness ≥ aggression and never samples less', async () => {
      const { res, params } = await develop('offline:cautious', 1, holdemWs('cautious', 2, previousRound(bots, rep)));
      const closer = (k: keyof typeof HOLDEM_CAUTIOUS) =>
        expect(Math.abs(params[k] - HOLDEM_CHAMPION[k]), k).toBeLessThan(
          Math.abs(HOLDEM_CAUTIOUS[k] - HOLDEM_CHAMPION[k]),
        );
      closer('depth');
      closer('simulations');
      closer('bluff');
      closer('randomness');
      expect(params.tightness).toBeGreaterThanOrEqual(params.aggression);
      expect(params.timeBudgetMs).toBeLessThanOrEqual(60);
      expect(res.log).toMatch(/beaten by imitator@r1/);
    });

    it('aggressive counters what beat it, keeps aggression > tightness', async () => {
      const { res, params } = await develop(
        'offline:aggressive',
        1,
        holdemWs('aggressive', 2, previousRound(bots, rep)),
      );
      expect(params.depth).toBeGreaterThanOrEqual(HOLDEM_CHAMPION.depth);
      expect(params.timeBudgetMs).toBeGreaterThanOrEqual(HOLDEM_CHAMPION.timeBudgetMs);
      // The champion raises more than it folds (aggression > tightness): out-sample it.
      expect(params.simulations).toBeGreaterThanOrEqual(HOLDEM_CHAMPION.simulations + 50);
      expect(params.aggression).toBeGreaterThan(params.tightness);
      expect(params.randomness).toBeLessThan(HOLDEM_AGGRESSIVE.randomness);
      expect(res.log).toMatch(/imitator@r1 beat me/);
      expect(res.log).toMatch(/a raiser too/);
    });

    it('reads the reference bot’s params.json (out-of-range knobs) and caps samples and time', async () => {
      const ref = JSON.parse(
        fs.readFileSync(path.resolve(import.meta.dirname, '../games/holdem/bots/heuristic/params.json'), 'utf8'),
      );
      const rep3 = report(
        1,
        [
          ['cautious', 0.75],
          ['aggressive', 0.5],
          ['imitator', 0.25],
        ],
        [
          ['cautious', 'aggressive', 0.75],
          ['cautious', 'imitator', 0.75],
          ['aggressive', 'imitator', 0.75],
        ],
      );
      const { params } = await develop(
        'offline:imitator',
        1,
        holdemWs(
          'imitator',
          2,
          previousRound(
            {
              cautious: { ...ref, depth: 4, simulations: 5000, timeBudgetMs: 2000 },
              aggressive: HOLDEM_AGGRESSIVE,
              imitator: HOLDEM_CAUTIOUS,
            },
            rep3,
          ),
        ),
      );
      expect(params.depth).toBe(3);
      expect(params.simulations).toBeLessThanOrEqual(400);
      expect(params.timeBudgetMs).toBeLessThanOrEqual(60);
    });
  });
});

// ---- bridge -----------------------------------------------------------------------------------

const bridgeWs = (agentId: string, round: number, over: Partial<Workspace> = {}) =>
  workspace(agentId, round, { game: 'bridge', task: 'write a bridge bot', moveTimeoutMs: 10_000, ...over });
const BRIDGE_CAUTIOUS = {
  aggression: 0.2,
  openMin: 13,
  overcallMin: 10,
  gameBonus: 26,
  doubleMargin: 4,
  slamMin: 34,
  leadStyle: 0,
  depth: 1,
  timeBudgetMs: 50,
  randomness: 0.2,
};
const BRIDGE_AGGRESSIVE = {
  aggression: 0.85,
  openMin: 10.8,
  overcallMin: 7.5,
  gameBonus: 23.5,
  doubleMargin: 2.2,
  slamMin: 31.5,
  leadStyle: 1,
  depth: 1,
  timeBudgetMs: 25,
  randomness: 0.4,
};
// The round's winner: distinctive values, so adopting them is visible.
const BRIDGE_CHAMPION = {
  aggression: 0.45,
  openMin: 12.4,
  overcallMin: 9,
  gameBonus: 25.8,
  doubleMargin: 3.2,
  slamMin: 33.6,
  leadStyle: 1,
  depth: 2,
  timeBudgetMs: 45,
  randomness: 0.2,
};
const BRIDGE_KEYS = [
  'aggression',
  'character',
  'depth',
  'doubleMargin',
  'gameBonus',
  'leadStyle',
  'name',
  'openMin',
  'overcallMin',
  'randomness',
  'round',
  'seed',
  'slamMin',
  'timeBudgetMs',
];
/** The bot's discipline knob: openMin rescaled to 0..1. */
const discipline = (p: Params) => (p.openMin - 10) / 4;

/** The real /get_action body for the seat to act after `moves` random legal actions of a seeded board. */
function bridgeTurn(
  seed: number,
  variant: 'standard' | 'variant',
  stopAt: (s: ReturnType<typeof bridge.init>) => boolean,
) {
  const rng = createRng(seed);
  let state = bridge.init(variant, createRng(seed), { options: { board: 1 } });
  while (!stopAt(state)) {
    const legal = bridge.legalActions(state, state.toMove!);
    const pick = state.phase === 'bidding' && rng.float() < 0.6 ? legal[0]! : legal[rng.int(0, legal.length - 1)]!;
    state = bridge.apply(state, state.toMove!, pick);
  }
  const seat = state.toMove!;
  const call = adapterFor('bridge').turn(state, seat, {
    gameId: 'bridge_offline1',
    gameServerUrl: 'http://localhost:9030',
    seatIds: ['a', 'b', 'a', 'b'],
  });
  return { state, seat, body: call.body as { legal_actions: BridgeAction[] } };
}

describe('bridge', () => {
  it('round 1: imperfect, fast bots shaped by character', async () => {
    const p = async (spec: string, seed: number) =>
      (await develop(spec, seed, bridgeWs(createOfflineAgent(spec, seed).id, 1))).params;
    const [c, cAgain, c2, a, i] = await Promise.all([
      p('offline:cautious', 1),
      p('offline:cautious', 1),
      p('offline:cautious', 2),
      p('offline:aggressive', 1),
      p('offline:imitator', 1),
    ]);
    expect(cAgain).toEqual(c);
    expect(c2).not.toEqual(c);
    expect(a).not.toEqual(c);
    expect(i).not.toEqual(a);
    // Clearly different bots: the cautious one opens and overcalls sound and bids game late; the
    // aggressive one opens light, competes, bids games light, doubles freely, leads long suits.
    expect(discipline(c)).toBeGreaterThanOrEqual(c.aggression);
    expect(a.aggression).toBeGreaterThan(discipline(a));
    expect(c.openMin - a.openMin).toBeGreaterThan(1);
    expect(a.aggression - c.aggression).toBeGreaterThan(0.25);
    expect(c.overcallMin).toBeGreaterThan(a.overcallMin);
    expect(c.gameBonus).toBeGreaterThan(a.gameBonus);
    expect(c.doubleMargin).toBeGreaterThan(a.doubleMargin);
    expect([c.leadStyle, a.leadStyle]).toEqual([0, 1]);
    for (const q of [c, c2, a, i]) {
      expect(Object.keys(q).sort()).toEqual(BRIDGE_KEYS);
      expect(q.round).toBe(1);
      expect(q.depth).toBeGreaterThanOrEqual(1);
      expect(q.depth).toBeLessThanOrEqual(2); // deliberately imperfect: room to learn
      expect(q.randomness).toBeGreaterThan(0);
      expect(q.timeBudgetMs).toBeGreaterThanOrEqual(20);
      expect(q.timeBudgetMs).toBeLessThanOrEqual(60);
      expect(q.openMin).toBeGreaterThanOrEqual(10);
      expect(q.openMin).toBeLessThanOrEqual(14);
      expect(Number.isInteger(q.depth) && Number.isInteger(q.leadStyle)).toBe(true);
    }
  });

  it('a round-1 bridge bot starts and answers a legal /get_action fast, in both rule sets', async () => {
    const { res, params } = await develop('offline:aggressive', 3, bridgeWs('aggressive', 1));
    for (const f of ['start_ai.sh', 'bot.mjs', 'strategy.mjs', 'params.json', 'NOTES.md'])
      expect(fs.existsSync(path.join(res.botDir, f)), f).toBe(true);
    expect(fs.readFileSync(path.join(res.botDir, 'NOTES.md'), 'utf8')).toMatch(/heuristic bridge bot/);
    expect(res.cost.linesOfCode).toBeGreaterThan(100);
    const child = await startBot(res.botDir);
    try {
      const url = `http://127.0.0.1:${child.port}`;
      const info = await (await fetch(`${url}/info`)).json();
      expect(info.name).toBe('aggressive');
      expect(info.params).toMatchObject({
        openMin: params.openMin,
        aggression: params.aggression,
        gameBonus: params.gameBonus,
        leadStyle: params.leadStyle,
        depth: params.depth,
      });
      const turns = [
        bridgeTurn(1, 'standard', (s) => s.phase === 'bidding'),
        bridgeTurn(2, 'standard', (s) => s.phase !== 'bidding' || s.calls.length >= 3),
        bridgeTurn(3, 'standard', (s) => s.phase === 'finished' || s.tricks.length >= 2),
        bridgeTurn(4, 'variant', (s) => s.phase !== 'bidding'),
      ];
      for (const { state, seat, body } of turns) {
        if (state.phase === 'finished') continue;
        const t0 = Date.now();
        const r = await fetch(`${url}/get_action`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(r.status).toBe(200);
        expect(Date.now() - t0).toBeLessThan(params.timeBudgetMs + ANSWER_SLACK_MS);
        const { action } = await r.json();
        expect(bridge.validate(state, seat, action), JSON.stringify(action)).toBeNull();
      }
    } finally {
      child.stop();
    }
  });

  describe('round 2 learning', () => {
    const rep = report(
      1,
      [
        ['imitator', 0.75],
        ['aggressive', 0.5],
        ['cautious', 0.25],
      ],
      [
        ['imitator', 'aggressive', 0.75],
        ['imitator', 'cautious', 0.75],
        ['aggressive', 'cautious', 0.75],
      ],
    );
    const bots = { imitator: BRIDGE_CHAMPION, aggressive: BRIDGE_AGGRESSIVE, cautious: BRIDGE_CAUTIOUS };

    it('imitator copies the top strategy’s params', async () => {
      const rep2 = report(
        1,
        [
          ['cautious', 0.75],
          ['aggressive', 0.5],
          ['imitator', 0.25],
        ],
        [
          ['cautious', 'aggressive', 0.75],
          ['cautious', 'imitator', 0.75],
          ['aggressive', 'imitator', 0.75],
        ],
      );
      const { res, params } = await develop(
        'offline:imitator',
        1,
        bridgeWs(
          'imitator',
          2,
          previousRound({ cautious: BRIDGE_CHAMPION, aggressive: BRIDGE_AGGRESSIVE, imitator: BRIDGE_CAUTIOUS }, rep2),
        ),
      );
      expect(params.depth).toBe(BRIDGE_CHAMPION.depth);
      for (const k of [
        'aggression',
        'openMin',
        'overcallMin',
        'gameBonus',
        'doubleMargin',
        'slamMin',
        'timeBudgetMs',
      ] as const) {
        expect(Math.abs(params[k] / BRIDGE_CHAMPION[k] - 1), k).toBeLessThan(0.07);
      }
      expect(params.randomness).toBeLessThan(BRIDGE_CHAMPION.randomness);
      expect(res.log).toMatch(/copying the top of the standings: cautious@r1/);
      expect(fs.readFileSync(path.join(res.botDir, 'NOTES.md'), 'utf8')).toMatch(/cautious@r1/);
    });

    it('cautious moves toward the winner, keeps discipline ≥ aggression and never reasons with less', async () => {
      const { res, params } = await develop('offline:cautious', 1, bridgeWs('cautious', 2, previousRound(bots, rep)));
      const closer = (k: keyof typeof BRIDGE_CAUTIOUS) =>
        expect(Math.abs(params[k] - BRIDGE_CHAMPION[k]), k).toBeLessThan(
          Math.abs(BRIDGE_CAUTIOUS[k] - BRIDGE_CHAMPION[k]),
        );
      closer('depth');
      closer('gameBonus');
      closer('overcallMin');
      closer('openMin');
      expect(discipline(params)).toBeGreaterThanOrEqual(params.aggression);
      expect(params.depth).toBeGreaterThanOrEqual(BRIDGE_CAUTIOUS.depth);
      expect(res.log).toMatch(/beaten by imitator@r1/);
    });

    it('aggressive counters what beat it, keeps aggression > discipline', async () => {
      const { res, params } = await develop(
        'offline:aggressive',
        1,
        bridgeWs('aggressive', 2, previousRound(bots, rep)),
      );
      expect(params.depth).toBeGreaterThanOrEqual(BRIDGE_CHAMPION.depth);
      expect(params.aggression).toBeGreaterThan(discipline(params));
      // The champion is disciplined (discipline 0.6 ≥ aggression 0.45): compete harder, overcall lighter than halfway.
      expect(params.aggression).toBeGreaterThan(BRIDGE_AGGRESSIVE.aggression);
      expect(params.overcallMin).toBeLessThan(BRIDGE_CHAMPION.overcallMin);
      expect(params.randomness).toBeLessThan(BRIDGE_AGGRESSIVE.randomness);
      expect(res.log).toMatch(/imitator@r1 beat me/);
      expect(res.log).toMatch(/it is disciplined/);
    });

    it('reads the reference bot’s params.json (no character fields) and out-of-range knobs', async () => {
      const ref = JSON.parse(
        fs.readFileSync(path.resolve(import.meta.dirname, '../games/bridge/bots/heuristic/params.json'), 'utf8'),
      );
      const rep3 = report(
        1,
        [
          ['cautious', 0.75],
          ['aggressive', 0.5],
          ['imitator', 0.25],
        ],
        [
          ['cautious', 'aggressive', 0.75],
          ['cautious', 'imitator', 0.75],
          ['aggressive', 'imitator', 0.75],
        ],
      );
      const { params } = await develop(
        'offline:imitator',
        1,
        bridgeWs(
          'imitator',
          2,
          previousRound(
            {
              cautious: { ...ref, openMin: 30, depth: 9, timeBudgetMs: 2000 },
              aggressive: BRIDGE_AGGRESSIVE,
              imitator: BRIDGE_CAUTIOUS,
            },
            rep3,
          ),
        ),
      );
      expect(params.depth).toBe(3);
      expect(params.openMin).toBeLessThanOrEqual(14);
      expect(params.timeBudgetMs).toBeLessThanOrEqual(60);
    });
  });
});

// ---- learning, measured: round-1 bot vs round-3 bot, in-process through the bot's own engine ----

type EngineCtor = new (
  board: number[][],
  me: number,
  opts: { rules: string; forbidden: Set<number>; params: Params; rng: () => number; deadline: number },
) => { choose(): { cell: number } };
// Short fixed openings, so deterministic bots still play varied games.
const OPENINGS: GomokuMove[][] = [
  [
    [7, 7],
    [7, 8],
  ],
  [
    [7, 7],
    [8, 8],
  ],
  [
    [7, 7],
    [6, 8],
    [8, 6],
  ],
  [
    [6, 6],
    [7, 7],
  ],
  [
    [7, 7],
    [7, 9],
    [6, 8],
  ],
  [
    [8, 7],
    [7, 7],
  ],
];

/** One standard game; returns the score of seat 0 (black). */
function playGame(Engine: EngineCtor, black: Params, white: Params, opening: GomokuMove[], seed: number): number {
  let state = gomoku.init('standard', createRng(seed));
  opening.forEach((m, k) => (state = gomoku.apply(state, k % 2, m)));
  const rngs = [black, white].map((p, s) => {
    const r = createRng(seed * 2 + s + p.seed);
    return () => r.float();
  });
  while (!state.result) {
    const seat = state.toMove!;
    const p = seat === 0 ? black : white;
    // 5× the bot's budget: slack for a loaded machine, so depth (not the clock) decides.
    const engine = new Engine(state.board, seat + 1, {
      rules: 'standard',
      forbidden: new Set(),
      params: p,
      rng: rngs[seat]!,
      deadline: Date.now() + 5 * p.timeBudgetMs,
    });
    const { cell } = engine.choose();
    state = gomoku.apply(state, seat, [Math.floor(cell / 15), cell % 15]);
  }
  return state.result.scores[0]!;
}

/** a's mean score against b over the openings, both colours. */
function match(Engine: EngineCtor, a: Params, b: Params, openings: GomokuMove[][]): number {
  let s = 0;
  openings.forEach((op, k) => {
    s += playGame(Engine, a, b, op, 11 + k);
    s += 1 - playGame(Engine, b, a, op, 11 + k);
  });
  return s / (2 * openings.length);
}

/** A real round: every pair plays, and the arena's report is built from the results. */
function playRound(Engine: EngineCtor, round: number, bots: Record<string, Params>): RoundReport {
  const agents = Object.keys(bots);
  const pairs: Array<[string, string, number]> = [];
  for (let x = 0; x < agents.length; x++) {
    for (let y = x + 1; y < agents.length; y++)
      pairs.push([agents[x]!, agents[y]!, match(Engine, bots[agents[x]!]!, bots[agents[y]!]!, OPENINGS.slice(0, 2))]);
  }
  const mean = (a: string) =>
    pairs.reduce((t, [x, y, s]) => t + (x === a ? s : y === a ? 1 - s : 0), 0) / (agents.length - 1);
  return report(
    round,
    agents.map((a) => [a, mean(a)]),
    pairs,
  );
}

describe('learning, measured', () => {
  it('each character’s round-3 bot scores at least as well as its round-1 bot overall', async () => {
    const { Engine } = (await import(pathToFileURL(path.join(HEURISTIC, 'engine.mjs')).href)) as { Engine: EngineCtor };
    const specs = ['offline:cautious', 'offline:aggressive', 'offline:imitator'];
    const dirs: Record<string, string>[] = [];
    const bots: Record<string, Params>[] = [];
    let logsDir: string | undefined;
    for (let round = 1; round <= 3; round++) {
      const base = path.join(ROOT, `learn-r${round}`);
      const out: Record<string, string> = {};
      for (const spec of specs) {
        const id = spec.slice('offline:'.length);
        const ws = workspace(id, round, {
          outputDir: path.join(base, id),
          ...(round > 1 ? { lastRoundDir: path.join(ROOT, `learn-r${round - 1}`), logsDir } : {}),
        });
        out[id] = (await createOfflineAgent(spec, 42).develop(ws, BUDGET)).botDir;
      }
      dirs.push(out);
      bots.push(
        Object.fromEntries(
          Object.entries(out).map(([id, d]) => [id, JSON.parse(fs.readFileSync(path.join(d, 'params.json'), 'utf8'))]),
        ),
      );
      if (round < 3) {
        logsDir = path.join(ROOT, `learn-logs${round}`);
        fs.mkdirSync(logsDir, { recursive: true });
        fs.writeFileSync(
          path.join(logsDir, 'round_report.json'),
          JSON.stringify(playRound(Engine, round, bots[round - 1]!)),
        );
      }
    }
    const scores: Record<string, number> = {};
    for (const id of Object.keys(bots[0]!)) scores[id] = match(Engine, bots[2]![id]!, bots[0]![id]!, OPENINGS);
    const overall = Object.values(scores).reduce((a, b) => a + b, 0) / 3;
    console.log(`round-3 vs round-1 score: ${JSON.stringify(scores)}, overall ${overall.toFixed(3)}`);
    expect(overall).toBeGreaterThanOrEqual(0.5);
  }, 60_000);
});

// ---- bot processes ----

const bots = new BotProcesses();
afterAll(() => {
  bots.stopAll();
  fs.rmSync(ROOT, { recursive: true, force: true });
});

/** Starts the bot in `dir` (killed in afterAll at the latest); `stop()` kills it now. */
async function startBot(dir: string): Promise<{ port: number; stop: () => void }> {
  const url = await bots.start(dir);
  return { port: Number(new URL(url).port), stop: () => bots.stop(url) };
}
