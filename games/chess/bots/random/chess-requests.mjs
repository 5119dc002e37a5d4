// What the chess reference bots share of CATArena's chess protocol: reading a POST /move body
// (FEN, game id, side to move; Chess960 and the obstacle variant detected from them) and the
// variant's obstacles, fetched once per game from the game server. Source of the copies beside
// each bot (scripts/sync-bot-libs.mjs; tests/chess-bots.test.ts fails when one drifts).
//
// chessRequests({gameServer, BadRequest}) → {parseRequest(body), obstaclesFor(gameId), forget(gameId)}:
//   gameServer  the bot's configured game server (URL or port; the environment wins), or null
//   BadRequest  the error class the bot's HTTP plumbing answers with 400 (bot-http.mjs)
import http from 'node:http';
import * as core from './chess-core.mjs';

/** CATArena's chess variant server port, where a bot looks when nothing says otherwise. */
const VARIANT_PORT = 9021;

export function chessRequests({ gameServer = null, BadRequest }) {
  function gameServerUrl() {
    const v = (process.env.CATARENA_GAME_SERVER || process.env.BOT_GAME_SERVER || gameServer || '').trim();
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

  /** A game is over (POST /leave_game): its obstacles are no longer needed. */
  const forget = (gameId) => obstacleCache.delete(gameId);

  return { parseRequest, obstaclesFor, forget };
}
