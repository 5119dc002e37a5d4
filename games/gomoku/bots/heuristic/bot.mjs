// Heuristic Gomoku bot speaking CATArena's bot protocol (plain node, no dependencies).
// Usage: node bot.mjs <port>. Strategy knobs come from params.json (or the file named by env
// BOT_PARAMS):
//   name         – reported by /info and in replies.
//   attack       – weight of the bot's own shapes in evaluation and move ordering (≥ 0).
//   defense      – weight of the opponent's shapes: high values block early, low values race.
//   depth        – maximum search depth in plies (1–8); iterative deepening stops earlier when
//                  the time budget runs out.
//   candidates   – moves kept per node after ordering (top-K, 2–60): wider = safer but shallower.
//   timeBudgetMs – wall-clock budget per move in ms (50–9000); CATArena allows 10 s.
//   centerBias   – preference for cells near the centre (ordering and tie-breaks, ≥ 0).
//   randomness   – 0 = deterministic; > 0 adds up to randomness × 100 points of noise to the
//                  root scores of non-decisive moves (100 ≈ one three-stone window) and
//                  varies the opening move.
//   seed         – seed of the noise (same seed and position → same move, in any game order).
//   deterministic – true: no clock (the search always reaches `depth`, whatever the machine's
//                  speed; anchor pools, docs/anchors.md); default false.
//   weights      – optional {"standard": [6 numbers], "variant": [4 numbers]}: the score of a
//                  window holding 0..L stones of one colour (L = 5 standard, 3 variant).
import { readFileSync } from 'node:fs';
import { BadRequest, portArg, readJson, serve } from './bot-http.mjs';
import { Engine } from './engine.mjs';

const DEFAULTS = {
  name: 'heuristic', attack: 1, defense: 1, depth: 4, candidates: 12,
  timeBudgetMs: 1500, centerBias: 0.1, randomness: 0, seed: 1,
};

function loadParams() {
  const path = process.env.BOT_PARAMS || new URL('./params.json', import.meta.url);
  let raw;
  try {
    raw = { ...DEFAULTS, ...JSON.parse(readFileSync(path, 'utf8')) };
  } catch (err) {
    // Fail at start, loudly: a silently ignored params file would hide a broken strategy.
    console.error(`cannot read params ${path}: ${err.message}`);
    process.exit(1);
  }
  const num = (v, lo, hi, dflt) => (Number.isFinite(Number(v)) ? Math.min(hi, Math.max(lo, Number(v))) : dflt);
  const weights = {};
  for (const [rules, len] of [['standard', 6], ['variant', 4]]) {
    const w = raw.weights?.[rules];
    if (Array.isArray(w) && w.length === len && w.every(Number.isFinite)) weights[rules] = w.map(Number);
  }
  return {
    name: String(raw.name),
    attack: num(raw.attack, 0, 100, 1),
    defense: num(raw.defense, 0, 100, 1),
    depth: Math.round(num(raw.depth, 1, 8, 4)),
    candidates: Math.round(num(raw.candidates, 2, 60, 12)),
    timeBudgetMs: num(raw.timeBudgetMs, 50, 9000, 1500),
    centerBias: num(raw.centerBias, 0, 100, 0.1),
    randomness: num(raw.randomness, 0, 100, 0),
    seed: Math.round(num(raw.seed, -(2 ** 31), 2 ** 31, 1)),
    deterministic: raw.deterministic === true,
    weights,
  };
}

// mulberry32: small seeded PRNG so `seed` makes the noise reproducible.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const port = portArg();
const params = loadParams();

/**
 * The noise generator for one move, seeded by `seed` and the position: the same position always
 * gets the same move, whatever games this process played before (so results do not depend on
 * which games a warm bot happened to play first, or on which worker).
 */
function moveRng(board, me) {
  let h = (params.seed ^ me) >>> 0;
  for (const row of board) for (const v of row) h = Math.imul(h ^ v, 0x01000193) >>> 0;
  return mulberry32(h);
}
/** game_id → { rules, forbidden: Set<i*N+j>, color } */
const games = new Map();

function parsePoints(points) {
  if (!Array.isArray(points)) throw new BadRequest('forbidden_points must be a list');
  return points.map((p) => {
    if (!Array.isArray(p) || p.length !== 2 || !p.every(Number.isInteger)) throw new BadRequest('bad forbidden point');
    return p;
  });
}

/** Variant detection: the variant server exposes /games/{id}/forbidden_points, standard 404s. */
async function fetchForbidden(serverUrl, gameId) {
  if (typeof serverUrl !== 'string' || !serverUrl) return null;
  try {
    const url = `${serverUrl.replace(/\/+$/, '')}/games/${encodeURIComponent(gameId)}/forbidden_points`;
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    if (res.status !== 200) return null;
    const body = await res.json();
    return Array.isArray(body?.forbidden_points) ? parsePoints(body.forbidden_points) : null;
  } catch {
    return null;
  }
}

async function joinGame(body) {
  const { game_id: gameId, my_color: color } = body;
  if (typeof gameId !== 'string' || !gameId) throw new BadRequest('game_id required');
  if (color !== 'black' && color !== 'white') throw new BadRequest("my_color must be 'black' or 'white'");
  if (body.rules !== undefined && body.rules !== 'standard' && body.rules !== 'variant') {
    throw new BadRequest("rules must be 'standard' or 'variant'");
  }
  // The orchestrator may say the rules outright; otherwise ask the game server.
  let points = body.forbidden_points !== undefined ? parsePoints(body.forbidden_points) : null;
  if (body.rules !== 'standard' && !points) points = await fetchForbidden(body.game_server_url, gameId);
  const rules = body.rules ?? (points ? 'variant' : 'standard');
  games.set(gameId, { rules, points: rules === 'variant' ? points ?? [] : [], color });
  if (games.size > 1000) games.delete(games.keys().next().value); // bound memory
  return { status: 'joined', ai_id: params.name, game_id: gameId, my_color: color, rules };
}

function parseBoard(board) {
  if (!Array.isArray(board) || board.length < 5 || board.length > 25) throw new BadRequest('board must be N×N');
  for (const row of board) {
    if (!Array.isArray(row) || row.length !== board.length) throw new BadRequest('board must be N×N');
    for (const v of row) if (v !== 0 && v !== 1 && v !== 2) throw new BadRequest('cells must be 0, 1 or 2');
  }
  return board;
}

function getMove(body) {
  const t0 = Date.now();
  const board = parseBoard(body.board);
  const me = body.current_player === 'black' ? 1 : body.current_player === 'white' ? 2 : 0;
  if (!me) throw new BadRequest("current_player must be 'black' or 'white'");
  const N = board.length;
  const game = typeof body.game_id === 'string' ? games.get(body.game_id) : undefined;
  const rules = game?.rules ?? 'standard'; // unknown game: standard rules
  const forbidden = new Set();
  for (const [i, j] of game?.points ?? []) if (i >= 0 && i < N && j >= 0 && j < N) forbidden.add(i * N + j);
  // Leave headroom for HTTP and JSON under the budget.
  const deadline = params.deterministic ? Infinity : t0 + Math.max(20, params.timeBudgetMs * 0.85 - 20);
  const engine = new Engine(board, me, { rules, forbidden, params, rng: moveRng(board, me), deadline });
  const { cell, reason } = engine.choose();
  if (cell < 0 || board[(cell / N) | 0][cell % N] !== 0 || forbidden.has(cell)) {
    throw new BadRequest('no legal move'); // the board is full; never answer an illegal cell
  }
  return {
    move: [(cell / N) | 0, cell % N],
    ai_id: params.name,
    game_id: body.game_id ?? null,
    reasoning: `${rules}: ${reason}`,
  };
}

const routes = {
  'GET /health': async () => ({ status: 'healthy' }),
  'GET /info': async () => ({
    name: params.name, ai_id: params.name, version: '1.0',
    description: 'threat-pattern evaluation + alpha-beta; CATArena standard and variant rules',
    params,
  }),
  'POST /join_game': async (req) => joinGame(await readJson(req)),
  'POST /get_move': async (req) => getMove(await readJson(req)),
  'POST /leave_game': async (req) => {
    const body = await readJson(req);
    games.delete(body.game_id);
    return { status: 'left', game_id: body.game_id ?? null };
  },
};

serve({ port, name: params.name, routes });
