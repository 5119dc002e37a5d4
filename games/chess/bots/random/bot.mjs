// Random chess bot speaking CATArena's chess protocol (plain node ≥ 18, no dependencies): plays a
// uniformly random legal move. POST /move {fen, algorithm, game_id, current_player} →
// {"move": "<uci>"}; also GET /health, GET /info, POST /join_game and POST /leave_game.
// Standard chess, Chess960 (castling answered king-takes-rook) and CATArena's obstacle variant.
// Move generation: chess-core.mjs (a copy of games/chess/engine/chess-core.mjs; keep it in sync
// with `node scripts/sync-bot-libs.mjs`).
//
// Usage: node bot.mjs <port>. Env BOT_SEED makes its choices reproducible (else Math.random).
// Variant detection: game_id starts with "chess_magic_", or the FEN's castling field has file
// letters. Then the obstacles come from GET <game server>/games/<game_id>/state, fetched once per
// game (2 s timeout; env BOT_GAME_SERVER = URL or port, default http://localhost:9021). They do
// not change which moves are legal, only what they do, so this bot works without them too.
import http from 'node:http';
import { BadRequest, portArg, readJson, serve } from './bot-http.mjs';
import * as core from './chess-core.mjs';

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

// ---- the game server (variant obstacles) ------------------------------------------------------

const VARIANT_PORT = 9021;

function gameServerUrl() {
  const v = (process.env.CATARENA_GAME_SERVER || process.env.BOT_GAME_SERVER || params.gameServer || '').trim();
  if (!v) return `http://localhost:${VARIANT_PORT}`;
  if (/^\d+$/.test(v)) return `http://localhost:${v}`;
  return v.replace(/\/+$/, '');
}

/** GET url → parsed JSON, rejecting after timeoutMs in total. */
function getJsonOnce(url, timeoutMs) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: timeoutMs }, (res) => {
      const chunks = [];
      let size = 0;
      res.on('data', (c) => {
        size += c.length;
        if (size > 1_000_000) req.destroy(new Error('state too large'));
        else chunks.push(c);
      });
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}`));
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (e) {
          reject(e);
        }
      });
      res.on('error', reject);
    });
    const timer = setTimeout(() => req.destroy(new Error('timeout')), timeoutMs);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.on('close', () => clearTimeout(timer));
  });
}

/** "localhost" may resolve to ::1 only on some Node versions: try 127.0.0.1, then ::1. */
async function getJson(url, timeoutMs) {
  const u = new URL(url);
  if (u.hostname !== 'localhost') return getJsonOnce(url, timeoutMs);
  const until = Date.now() + timeoutMs;
  try {
    u.hostname = '127.0.0.1';
    return await getJsonOnce(u.href, timeoutMs);
  } catch (err) {
    const left = until - Date.now();
    if (left < 50) throw err;
    u.hostname = '[::1]';
    return getJsonOnce(u.href, left);
  }
}

/** game_id → { promise of obstacle squares (null = unknown), failedAt } */
const obstacleCache = new Map();

async function fetchObstacles(gameId) {
  const url = `${gameServerUrl()}/games/${encodeURIComponent(gameId)}/state`;
  const state = await getJson(url, 2000);
  if (!state || !Array.isArray(state.obstacles)) return [];
  return state.obstacles.filter((s) => typeof s === 'string' && /^[a-h][1-8]$/.test(s)).map((s) => core.parseSquare(s));
}

function obstaclesFor(gameId) {
  if (!gameId) return Promise.resolve(null);
  const cached = obstacleCache.get(gameId);
  // A failed fetch is retried at most every 10 s, so one outage does not blind a whole game.
  if (cached && !(cached.failedAt && Date.now() - cached.failedAt > 10_000)) return cached.promise;
  const entry = { promise: null, failedAt: 0 };
  entry.promise = fetchObstacles(gameId).catch((err) => {
    entry.failedAt = Date.now();
    console.error(`obstacles for ${gameId}: ${err.message}; playing without them`);
    return null;
  });
  obstacleCache.set(gameId, entry);
  if (obstacleCache.size > 1000) obstacleCache.delete(obstacleCache.keys().next().value); // bound memory
  return entry.promise;
}

// ---- /move -----------------------------------------------------------------------------------

function parseRequest(body) {
  const { fen, game_id: gameId, current_player: player } = body;
  if (typeof fen !== 'string' || !fen.trim() || fen.length > 200) throw new BadRequest('fen must be a FEN string');
  if (gameId !== undefined && gameId !== null && typeof gameId !== 'string') throw new BadRequest('game_id must be a string');
  if (player !== undefined && player !== null && player !== 'white' && player !== 'black') {
    throw new BadRequest("current_player must be 'white' or 'black'");
  }
  const castling = fen.trim().split(/\s+/)[2] ?? '';
  const variant = (typeof gameId === 'string' && gameId.startsWith('chess_magic_')) || /[A-Ha-h]/.test(castling);
  let pos;
  try {
    pos = core.parseFen(fen.trim(), { chess960: variant });
  } catch (err) {
    throw new BadRequest(`bad fen: ${err.message}`);
  }
  return { pos, variant, gameId: typeof gameId === 'string' ? gameId : null };
}

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
    if (typeof body.game_id === 'string') obstacleCache.delete(body.game_id);
    return { status: 'left', game_id: body.game_id ?? null };
  },
};

serve({ port, name: params.name, routes });
