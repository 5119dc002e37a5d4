// Heuristic chess bot speaking CATArena's chess protocol (plain node ≥ 18, no dependencies):
// POST /move {fen, algorithm, game_id, current_player} → {"move": "<uci>"}; also GET /health,
// GET /info, POST /join_game and POST /leave_game. Standard chess, Chess960 and CATArena's variant
// (Chess960 + obstacles that remove a piece ending its move on them). Search: engine.mjs; move
// generation: chess-core.mjs; reading a request and the variant's obstacles: chess-requests.mjs
// (copies of games/chess/engine/; keep them in sync with `node scripts/sync-bot-libs.mjs`).
//
// Usage: node bot.mjs <port>. Strategy knobs come from params.json (or the file named by env
// BOT_PARAMS); missing knobs take the defaults below, out-of-range values are clamped:
//   name          – reported by /info and in replies.
//   depth         – maximum search depth in plies (1–5, default 3); iterative deepening stops
//                   earlier when the time budget runs out.
//   timeBudgetMs  – wall-clock budget per move in ms (5–9000, default 300); the answer comes
//                   within about this (CATArena allows 10 s).
//   materialScale – multiplies all piece values (0.2–5, default 1): higher = greedier.
//   material      – optional piece values {p, n, b, r, q} in centipawns (default 100, 320, 330,
//                   500, 900), before materialScale.
//   mobility      – weight of mobility (0–10, default 1; 1 = 4/5/2/1 cp per reachable square
//                   of a knight/bishop/rook/queen).
//   pst           – weight of the piece-square tables (0–10, default 1).
//   kingSafety    – weight of the pawn shield in front of the king (0–10, default 1).
//   randomness    – 0 = deterministic; > 0 adds up to randomness × 100 cp of noise to the root
//                   scores of non-mating moves (0–5).
//   seed          – seed of the noise generator.
//   deterministic – true: no clock (the search always reaches `depth`, whatever the machine's
//                   speed) and the noise seeded per move from `seed` and the position, so the
//                   same position always gets the same move (anchor pools, docs/anchors.md);
//                   default false.
//   kingMode      – variant only: "rules" (default: a side without a king cannot be mated, so
//                   losing one's own king is worth kinglessBonus and taking the opponent's king
//                   is only good when losing) or "material" (a king is worth kingValue).
//   kinglessBonus – cp for being kingless, hence unable to lose (0–1000, default 80).
//   kingValue     – cp of a king in kingMode "material" (0–100000, default 5000).
//   gameServer    – where the variant's game server is (URL or port). Env BOT_GAME_SERVER
//                   overrides it; default http://localhost:9021 (CATArena's variant server).
//
// Variant detection: game_id starts with "chess_magic_", or the FEN's castling field has file
// letters (X-FEN). Then the obstacles come from GET <game server>/games/<game_id>/state, fetched
// once per game (2 s timeout); without them the bot plays on without obstacle knowledge.
import { readFileSync } from 'node:fs';
import { BadRequest, portArg, readJson, serve } from './bot-http.mjs';
import * as core from './chess-core.mjs';
import { chessRequests } from './chess-requests.mjs';
import { Engine } from './engine.mjs';

const DEFAULTS = {
  name: 'heuristic', depth: 3, timeBudgetMs: 300, materialScale: 1, mobility: 1, pst: 1, kingSafety: 1,
  randomness: 0, seed: 1, kingMode: 'rules', kinglessBonus: 80, kingValue: 5000,
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
  const num = (v, lo, hi, dflt) => (v !== null && v !== '' && Number.isFinite(Number(v)) ? Math.min(hi, Math.max(lo, Number(v))) : dflt);
  let material = null;
  if (raw.material && typeof raw.material === 'object') {
    material = {};
    for (const t of ['p', 'n', 'b', 'r', 'q']) if (raw.material[t] !== undefined) material[t] = num(raw.material[t], 0, 5000, undefined);
    for (const t of Object.keys(material)) if (material[t] === undefined) delete material[t];
  }
  const gs = raw.gameServer ?? null;
  return {
    name: String(raw.name),
    depth: Math.round(num(raw.depth, 1, 5, DEFAULTS.depth)),
    timeBudgetMs: num(raw.timeBudgetMs, 5, 9000, DEFAULTS.timeBudgetMs),
    materialScale: num(raw.materialScale, 0.2, 5, 1),
    material,
    mobility: num(raw.mobility, 0, 10, 1),
    pst: num(raw.pst, 0, 10, 1),
    kingSafety: num(raw.kingSafety, 0, 10, 1),
    randomness: num(raw.randomness, 0, 5, 0),
    seed: Math.round(num(raw.seed, -(2 ** 31), 2 ** 31, 1)),
    kingMode: raw.kingMode === 'material' ? 'material' : 'rules',
    kinglessBonus: num(raw.kinglessBonus, 0, 1000, 80),
    kingValue: num(raw.kingValue, 0, 100000, 5000),
    gameServer: typeof gs === 'string' || typeof gs === 'number' ? String(gs) : null,
    deterministic: raw.deterministic === true,
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
const rng = mulberry32(params.seed);

/** With `deterministic`, a generator per move seeded by `seed` and the position (FNV-1a), else the process's stream. */
function moveRng(fen, obstacles) {
  if (!params.deterministic) return rng;
  let h = (0x811c9dc5 ^ params.seed) >>> 0;
  for (const ch of `${fen}|${obstacles.join(',')}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return mulberry32(h);
}

// ---- /move -----------------------------------------------------------------------------------

const { parseRequest, obstaclesFor, forget } = chessRequests({ gameServer: params.gameServer, BadRequest });

async function move(body) {
  const t0 = Date.now();
  const { pos, variant, gameId } = parseRequest(body);
  const obstacles = variant ? (await obstaclesFor(gameId)) ?? [] : [];
  const opts = { obstacles };
  let legal;
  try {
    legal = core.legalMoves(pos, opts);
  } catch (err) {
    throw new BadRequest(`cannot generate moves for this fen: ${err.message}`);
  }
  if (!legal.length) throw new BadRequest('no legal move in this position');
  const budget = params.timeBudgetMs;
  const deadline = params.deterministic ? Infinity : t0 + Math.max(5, budget - Math.min(40, 5 + 0.1 * budget));
  const rng = moveRng(body.fen, obstacles);
  let chosen = null, reason;
  try {
    const out = new Engine(pos, { obstacles, variant, params, rng, deadline }).choose();
    const uci = out && core.moveToUci(pos, out.move);
    if (uci && core.findMove(pos, uci, opts)) {
      chosen = uci;
      reason = `depth ${out.depth}, score ${Math.round(out.score)}, ${out.nodes} nodes`;
    }
  } catch (err) {
    console.error(err);
  }
  if (!chosen) {
    // Internal trouble: still answer, with a random legal move.
    chosen = core.moveToUci(pos, legal[Math.floor(rng() * legal.length)]);
    reason = 'fallback: random legal move';
  }
  return {
    move: chosen,
    ai_id: params.name,
    game_id: gameId,
    reasoning: `${variant ? `variant (${obstacles.length} obstacles known)` : 'standard'}: ${reason}`,
    thinking_time: (Date.now() - t0) / 1000,
  };
}

// ---- HTTP ------------------------------------------------------------------------------------

/** join/leave carry nothing the bot needs; a missing or odd body is fine. */
const readOptional = (req) => readJson(req).catch(() => ({}));

const routes = {
  'GET /health': async () => ({ status: 'healthy' }),
  'GET /info': async () => ({
    name: params.name, ai_id: params.name, version: '1.0',
    description: 'material + piece-square + mobility evaluation, alpha-beta with iterative deepening; standard, Chess960 and the obstacle variant',
    params,
  }),
  'POST /move': async (req) => move(await readJson(req)),
  'POST /join_game': async (req) => {
    const body = await readOptional(req);
    return { status: 'joined', ai_id: params.name, game_id: body.game_id ?? null };
  },
  'POST /leave_game': async (req) => {
    const body = await readOptional(req);
    if (typeof body.game_id === 'string') forget(body.game_id);
    return { status: 'left', game_id: body.game_id ?? null };
  },
};

// Warm the JIT up before accepting requests, so the first real move keeps to the budget too; 25 ms
// a position is enough for that and keeps a bot start cheap (a tourney starts every bot twice).
function warmUp() {
  const fens = [core.STANDARD_FEN, 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4', '8/5pk1/6p1/3q4/8/2N4P/5PP1/3R2K1 w - - 0 1'];
  const variants = [false, true, true];
  fens.forEach((fen, i) => {
    try {
      const pos = core.parseFen(fen, { chess960: variants[i] });
      new Engine(pos, { obstacles: i ? [core.parseSquare('d5'), core.parseSquare('e5')] : [], variant: variants[i], params: { ...params, randomness: 0 }, rng: () => 0.5, deadline: Date.now() + 25 }).choose();
    } catch (err) {
      console.error('warm-up failed:', err);
    }
  });
}
warmUp();

serve({ port, name: params.name, routes });
