// Random Gomoku bot speaking CATArena's bot protocol (plain node, no dependencies): plays a
// uniformly random empty, non-forbidden cell. Usage: node bot.mjs <port>. Env BOT_SEED makes
// its choices reproducible; without it Math.random is used.
import { BadRequest, portArg, readJson, serve } from './bot-http.mjs';

const port = portArg();
const NAME = 'random';

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
const random = process.env.BOT_SEED && Number.isFinite(seed) ? mulberry32(seed) : Math.random;

/** game_id → { rules, points: [i, j][], color } */
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
  return { status: 'joined', ai_id: NAME, game_id: gameId, my_color: color, rules };
}

function getMove(body) {
  const board = body.board;
  if (!Array.isArray(board) || board.length < 5 || board.length > 25) throw new BadRequest('board must be N×N');
  for (const row of board) {
    if (!Array.isArray(row) || row.length !== board.length) throw new BadRequest('board must be N×N');
    for (const v of row) if (v !== 0 && v !== 1 && v !== 2) throw new BadRequest('cells must be 0, 1 or 2');
  }
  if (body.current_player !== 'black' && body.current_player !== 'white') {
    throw new BadRequest("current_player must be 'black' or 'white'");
  }
  const game = typeof body.game_id === 'string' ? games.get(body.game_id) : undefined;
  const forbidden = new Set((game?.points ?? []).map(([i, j]) => `${i},${j}`));
  const legal = [];
  board.forEach((row, i) => row.forEach((v, j) => {
    if (v === 0 && !forbidden.has(`${i},${j}`)) legal.push([i, j]);
  }));
  if (!legal.length) throw new BadRequest('no legal move');
  return {
    move: legal[Math.floor(random() * legal.length)],
    ai_id: NAME,
    game_id: body.game_id ?? null,
    reasoning: `uniform among ${legal.length} legal cells (${game?.rules ?? 'standard'})`,
  };
}

const routes = {
  'GET /health': async () => ({ status: 'healthy' }),
  'GET /info': async () => ({ name: NAME, ai_id: NAME, version: '1.0', description: 'uniformly random legal move' }),
  'POST /join_game': async (req) => joinGame(await readJson(req)),
  'POST /get_move': async (req) => getMove(await readJson(req)),
  'POST /leave_game': async (req) => {
    const body = await readJson(req);
    games.delete(body.game_id);
    return { status: 'left', game_id: body.game_id ?? null };
  },
};

serve({ port, name: NAME, routes });
