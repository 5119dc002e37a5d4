// Heuristic contract-bridge bot speaking CATArena's Bridge protocol (plain node ≥ 18, no
// dependencies). Usage: node bot.mjs <port>.
//   POST /get_action {game_id, player_id, position, game_state, legal_actions}
//                    → {"action": <one entry of legal_actions>}
//   POST /join_game, POST /leave_game, GET /health, GET /info.
// Rule-based bidding (natural, HCP and distribution), card play and the variant's partner card
// exchange: see strategy.mjs, which also lists the knobs. Every answer is a pure function of the
// request (the game_id and player names play no part), so both rooms of a duplicate board get
// the same play from the same bot.
//
// Knobs from params.json (or the file named by env BOT_PARAMS), read once at start; a missing or
// odd value takes its default and every value is clamped (strategy.mjs clampParams). Env
// BOT_DEBUG=1 logs each decision's reason to stderr.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { BadRequest, clampParams, decide } from './strategy.mjs';

function loadParams() {
  const path = process.env.BOT_PARAMS || new URL('./params.json', import.meta.url);
  let raw = {};
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) raw = parsed;
    else console.error(`params ${path} is not a JSON object: using the defaults`);
  } catch (err) {
    console.error(`cannot read params ${path} (${err.message}): using the defaults`);
  }
  return clampParams(raw);
}

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error('usage: node bot.mjs <port>');
  process.exit(2);
}
const params = loadParams();
const DEBUG = process.env.BOT_DEBUG === '1';

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

/** Reads and discards a body of any shape (CATArena's join retry is form-encoded). */
function drain(req) {
  return new Promise((resolve) => {
    req.on('data', () => {});
    req.on('end', resolve);
    req.on('error', resolve);
  });
}

const routes = {
  'GET /health': async () => ({ status: 'healthy' }),
  'GET /info': async () => ({
    name: params.name, ai_id: params.name, version: '1.0',
    description: 'rule-based bridge: natural bidding on HCP and distribution, standard leads and follow rules, declarer draws trumps and cashes winners; both rule sets',
    params,
  }),
  'POST /join_game': async (req) => {
    await drain(req);
    return { status: 'joined', ai_id: params.name };
  },
  'POST /leave_game': async (req) => {
    await drain(req);
    return { status: 'left' };
  },
  'POST /get_action': async (req) => {
    const t0 = performance.now();
    const d = decide(await readJson(req), params);
    if (DEBUG) console.error(`${JSON.stringify(d.action)}: ${d.why} [${(performance.now() - t0).toFixed(1)} ms]`);
    return { action: d.action };
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
      send(err instanceof BadRequest ? 400 : 500, { error: String(err?.message || err) });
    },
  );
}

process.on('uncaughtException', (err) => console.error('uncaught:', err));
const server = http.createServer(handler);
server.keepAliveTimeout = 65000; // longer than clients' pools, so no reset mid-request
server.headersTimeout = 66000;
server.on('error', (err) => {
  console.error(`cannot listen on ${port}: ${err.message}`);
  process.exit(1);
});
server.listen(port, '0.0.0.0', () => console.log(`${params.name} listening on ${port}`));
// Also answer on IPv6 loopback in case "localhost" resolves to ::1 (best effort).
const v6 = http.createServer(handler);
v6.keepAliveTimeout = 65000;
v6.on('error', () => {});
v6.listen(port, '::1');
