// Random chess bot speaking CATArena's chess protocol (plain node ≥ 18, no dependencies): plays a
// uniformly random legal move. POST /move {fen, algorithm, game_id, current_player} →
// {"move": "<uci>"}; also GET /health, GET /info, POST /join_game and POST /leave_game.
// Standard chess, Chess960 (castling answered king-takes-rook) and CATArena's obstacle variant.
// Move generation: chess-core.mjs; reading a request and the variant's obstacles: chess-requests.mjs
// (copies of games/chess/engine/; keep them in sync with `node scripts/sync-bot-libs.mjs`).
//
// Usage: node bot.mjs <port>. Env BOT_SEED makes its choices reproducible (else Math.random).
// Variant detection: game_id starts with "chess_magic_", or the FEN's castling field has file
// letters. Then the obstacles come from GET <game server>/games/<game_id>/state, fetched once per
// game (2 s timeout; env BOT_GAME_SERVER = URL or port, default http://localhost:9021). They do
// not change which moves are legal, only what they do, so this bot works without them too.
import { BadRequest, portArg, readJson, serve } from './bot-http.mjs';
import * as core from './chess-core.mjs';
import { chessRequests } from './chess-requests.mjs';

const port = portArg();
const params = { name: 'random', gameServer: null };

// mulberry32: a small seeded PRNG.
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
const seed = Number(process.env.BOT_SEED);
const rng = process.env.BOT_SEED && Number.isFinite(seed) ? mulberry32(seed) : Math.random;

// ---- /move -----------------------------------------------------------------------------------

const { parseRequest, obstaclesFor, forget } = chessRequests({ gameServer: params.gameServer, BadRequest });

async function move(body) {
  const t0 = Date.now();
  const { pos, variant, gameId } = parseRequest(body);
  const obstacles = variant ? (await obstaclesFor(gameId)) ?? [] : [];
  let legal;
  try {
    legal = core.legalMoves(pos, { obstacles });
  } catch (err) {
    throw new BadRequest(`cannot generate moves for this fen: ${err.message}`);
  }
  if (!legal.length) throw new BadRequest('no legal move in this position');
  return {
    move: core.moveToUci(pos, legal[Math.floor(rng() * legal.length)]),
    ai_id: params.name,
    game_id: gameId,
    reasoning: `uniform among ${legal.length} legal moves (${variant ? `variant, ${obstacles.length} obstacles known` : 'standard'})`,
    thinking_time: (Date.now() - t0) / 1000,
  };
}

// ---- HTTP ------------------------------------------------------------------------------------

/** join/leave carry nothing the bot needs; a missing or odd body is fine. */
const readOptional = (req) => readJson(req).catch(() => ({}));

const routes = {
  'GET /health': async () => ({ status: 'healthy' }),
  'GET /info': async () => ({ name: params.name, ai_id: params.name, version: '1.0', description: 'uniformly random legal move' }),
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

serve({ port, name: params.name, routes });
