// Random Gomoku bot speaking CATArena's bot protocol (plain node, no dependencies): plays a
// uniformly random empty, non-forbidden cell. Usage: node bot.mjs <port>. Env BOT_SEED makes
// its choices reproducible; without it Math.random is used.
import http from 'node:http';

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error('usage: node bot.mjs <port>');
  process.exit(2);
}
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
class BadRequest extends Error {}

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

function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > 1_000_000) reject(new BadRequest('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error();
        resolve(body);
      } catch {
        reject(new BadRequest('body must be a JSON object'));
      }
    });
    req.on('error', reject);
  });
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

function handler(req, res) {
  const route = routes[`${req.method} ${(req.url ?? '').split('?')[0]}`];
  const send = (code, obj) => {
    if (res.headersSent) return;
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(obj));
  };
  if (!route) return send(404, { error: 'Endpoint not found' });
  route(req).then(
    (out) => send(200, out),
    (err) => {
      if (!(err instanceof BadRequest)) console.error(err);
      send(err instanceof BadRequest ? 400 : 500, { error: String(err.message || err) });
    },
  );
}

const server = http.createServer(handler);
server.keepAliveTimeout = 65000; // longer than clients' pools, so no reset mid-request
server.headersTimeout = 66000;
server.listen(port, '0.0.0.0', () => console.log(`${NAME} listening on ${port}`));
// Also answer on IPv6 loopback in case "localhost" resolves to ::1 (best effort).
const v6 = http.createServer(handler);
v6.keepAliveTimeout = 65000;
v6.on('error', () => {});
v6.listen(port, '::1');
