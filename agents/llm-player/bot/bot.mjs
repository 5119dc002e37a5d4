// The LLM-player bot (the paper's control: an LLM that writes no strategy but is asked for every
// action). Plain node ≥ 18, no dependencies. Usage: node bot.mjs <port>.
//
// game.json (written by the llm-player agent) says the game, rule set, provider and model:
//   {"game", "variant", "provider", "model", "baseUrl"?, "moveTimeoutMs"?, "sampling"?}
// rules.md holds the rules (the part before the protocol marker goes into every prompt).
// For every decision the bot builds a prompt (rules, state, legal actions as numbered options),
// asks the model, and parses the answer leniently (an option number, or the action itself). A
// malformed or illegal answer, or a transient HTTP error, is retried with a short correction, up
// to 3 attempts; a request the provider refused as invalid (400, 404, 413, 422: the same request
// would be refused again) is not repeated. Then, or when 80% of the per-action time is spent, it
// plays a uniformly random legal action and counts a failure (a "[llm-player] fallback" line on
// stdout). Every decision's line ("answered" or "fallback") carries its tokens by kind
// (tokens={...}) and each call's stop reason (stop=…): the run's report reads them from the bot
// log to cost the LLM-player's play. The first line says what the model is sent and what the run
// asked for ("[llm-player] sampling …", from game.json).
// GET /stats: requests, LLM calls, failures and tokens, in total and per game_id.
// The API key is read from the environment only (see llm.mjs) and never printed.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAnswer } from './answer.mjs';
import { BadRequest, loadGame } from './games.mjs';
import { createLlm } from './llm.mjs';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const HERE = path.dirname(fileURLToPath(import.meta.url));
const MAX_ATTEMPTS = 3;
/** HTTP statuses of a request refused as invalid: asking again gets the same answer. */
const INVALID_REQUEST = new Set([400, 404, 413, 422]);
const BUDGET_SHARE = 0.8;
const PROTOCOL_MARKER = '<!-- catarena:protocol -->';

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error('usage: node bot.mjs <port>');
  process.exit(2);
}

function fail(message) {
  console.error(`[llm-player] cannot start: ${message}`);
  process.exit(2);
}

let config;
try {
  config = JSON.parse(fs.readFileSync(path.join(HERE, 'game.json'), 'utf8'));
} catch (err) {
  fail(`game.json is missing or not JSON (${err.message})`);
}
let llm, game;
try {
  llm = createLlm(config, process.env);
  game = await loadGame(config);
} catch (err) {
  fail(err.message);
}

const envMs = Number(process.env.CATARENA_MOVE_TIMEOUT_MS);
const moveMs =
  envMs > 0 ? envMs : Number(config.moveTimeoutMs) > 0 ? Number(config.moveTimeoutMs) : (game.defaultMoveMs ?? 10_000);
const budgetMs = Math.floor(moveMs * BUDGET_SHARE);

let rules = '';
try {
  rules = fs.readFileSync(path.join(HERE, 'rules.md'), 'utf8').split(PROTOCOL_MARKER)[0].trim().slice(0, 6000);
} catch {
  // no rules file: the prompt still names the game and lists the legal actions
}

const SYSTEM = [
  `You are playing ${game.name ?? config.game} (${config.variant} rules) in a tournament against other programs. Play to win.`,
  rules ? `The rules:\n${rules}` : '',
  'Each turn you get the game state and a numbered list of your legal actions. Reply with the number of the action you choose and nothing else.',
]
  .filter(Boolean)
  .join('\n\n');

// mulberry32: a small seeded PRNG (env BOT_SEED makes the fallback reproducible).
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

// ---- statistics ---------------------------------------------------------------------------------

const newStats = () => ({
  requests: 0,
  forced: 0,
  llmCalls: 0,
  llmErrors: 0,
  invalidAnswers: 0,
  refused: 0,
  answered: 0,
  failures: 0,
  tokens: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 },
});
const totals = newStats();
const perGame = new Map();

function statsOf(gameId) {
  let s = perGame.get(gameId);
  if (!s) {
    perGame.set(gameId, (s = newStats()));
    if (perGame.size > 2000) perGame.delete(perGame.keys().next().value);
  }
  return s;
}
function count(s, field, by = 1) {
  s[field] += by;
  totals[field] += by;
}

// ---- answers ------------------------------------------------------------------------------------

function userPrompt(turn) {
  if (turn.prompt) return turn.prompt;
  const lines = turn.options.map((o, i) => `${i + 1}: ${o.label}`);
  return `State:\n${turn.state}\n\nYour legal actions (${turn.options.length}):\n${lines.join('\n')}\n\nAnswer with one number from 1 to ${turn.options.length}.`;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const snippet = (s) =>
  JSON.stringify(
    String(s ?? '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 80),
  );

async function decide(body) {
  const deadline = Date.now() + budgetMs;
  const turn = await game.turn(body);
  const s = statsOf(turn.gameId);
  count(s, 'requests');
  const n = turn.options.length;
  if (n === 1) {
    count(s, 'forced');
    return turn.answer(turn.options[0]);
  }
  const messages = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: userPrompt(turn) },
  ];
  let reason = 'no attempt';
  let attempts = 0;
  // This decision's tokens, by kind, on its log line: the run's report costs them.
  const used = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  // Each call's stop reason (or HTTP status), in order: an answer that was all thinking shows as max_tokens.
  const stops = [];
  while (attempts < MAX_ATTEMPTS) {
    const left = deadline - Date.now();
    if (left < 100) {
      reason = `${reason}; out of time (${budgetMs} ms budget)`;
      break;
    }
    attempts++;
    count(s, 'llmCalls');
    let out;
    try {
      out = await llm.complete(messages, AbortSignal.timeout(left));
    } catch (err) {
      count(s, 'llmErrors');
      stops.push(err?.status ? `http_${err.status}` : 'error');
      reason = `LLM error: ${llm.redact(err?.message ?? err)}`;
      // A refused key or an empty account answers the same way again: no second call this move.
      if (err?.status === 401 || err?.status === 402 || err?.status === 403) break;
      // Nor does a request refused as invalid (a parameter the model does not take, an unknown model).
      if (INVALID_REQUEST.has(err?.status)) {
        count(s, 'refused');
        reason = `${reason}; the provider refused the request as invalid: not asked again`;
        break;
      }
      if (err?.status === 429 || err?.status >= 500) {
        // The server's own wait (retry-after, Google's RetryInfo) when it gave one, if it fits the move's budget.
        const room = Math.max(0, deadline - Date.now() - 100);
        if (err.retryAfterMs !== undefined && err.retryAfterMs > room) {
          reason = `${reason}; the server asked to wait ${Math.round(err.retryAfterMs / 1000)} s, more than the ${Math.round(room / 1000)} s left of this move`;
          break;
        }
        await sleep(Math.min(err.retryAfterMs ?? 300 * attempts, room));
      }
      continue;
    }
    stops.push(out.stopReason || 'unknown');
    for (const kind of Object.keys(used)) {
      const n = out.usage[kind] ?? 0;
      used[kind] += n;
      s.tokens[kind] = (s.tokens[kind] ?? 0) + n;
      totals.tokens[kind] = (totals.tokens[kind] ?? 0) + n;
    }
    const pick = parseAnswer(out.text, turn.options, turn.free);
    if (pick.ok) {
      count(s, 'answered');
      // One line per decision, as a fallback has its own: the run's report counts both.
      console.log(
        `[llm-player] answered game=${turn.gameId} after ${attempts} attempt(s) tokens=${JSON.stringify(used)} stop=${stops.join(',')}`,
      );
      return turn.answer(pick.option);
    }
    count(s, 'invalidAnswers');
    reason = `answer ${snippet(out.text)} ${pick.why}${out.finishReason ? ` (finish reason ${llm.redact(out.finishReason)})` : out.stopReason ? ` (stop reason ${llm.redact(out.stopReason)})` : ''}`;
    messages.push(
      { role: 'assistant', content: String(out.text ?? '').slice(0, 2000) || '(empty)' },
      {
        role: 'user',
        content: `Your answer ${snippet(out.text)} ${pick.why}. Reply with only the number of one legal action, from 1 to ${n}.`,
      },
    );
  }
  count(s, 'failures');
  const option = turn.options[Math.floor(random() * n)];
  console.log(
    `[llm-player] fallback game=${turn.gameId} after ${attempts} attempt(s) tokens=${JSON.stringify(used)} stop=${stops.join(',') || 'none'}: ${reason}; playing a random legal action: ${option.label}`,
  );
  return turn.answer(option);
}

// ---- HTTP ---------------------------------------------------------------------------------------

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > 1_000_000) reject(new BadRequest('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function readJson(req) {
  const text = await readBody(req);
  try {
    const body = JSON.parse(text || 'null');
    if (isObject(body)) return body;
  } catch {
    // below
  }
  throw new BadRequest('body must be a JSON object');
}

const stats = () => ({
  game: config.game,
  variant: config.variant,
  provider: config.provider,
  model: config.model,
  moveTimeoutMs: moveMs,
  budgetMs,
  totals,
  games: Object.fromEntries(perGame),
});

const routes = {
  'GET /health': async () => ({ status: 'healthy' }),
  'GET /info': async () => ({
    name: 'llm-player',
    ai_id: 'llm-player',
    version: '1.0',
    description: `asks ${config.provider}/${config.model} for every action`,
  }),
  'GET /stats': async () => stats(),
};
// One decision route, or several (a game-folder player may ask on more than one path: /speak and /vote).
for (const turnPath of game.turnPaths ?? [game.turnPath])
  routes[`POST ${turnPath}`] = async (req) => decide(await readJson(req));
for (const [route, handle] of Object.entries(game.routes)) {
  // join/leave carry little the bot needs; an odd body (bridge's form-encoded join retry) is {}.
  routes[route] = async (req) => {
    const body = await readJson(req).catch(() => ({}));
    const out = await handle(body);
    if (route === 'POST /leave_game' && typeof body.game_id === 'string' && perGame.has(body.game_id)) {
      console.log(`[llm-player] stats game=${body.game_id} ${JSON.stringify(perGame.get(body.game_id))}`);
    }
    return out;
  };
}

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
      if (!(err instanceof BadRequest)) console.error('[llm-player]', llm.redact(err?.stack ?? err));
      send(err instanceof BadRequest ? 400 : 500, { error: llm.redact(err?.message ?? err) });
    },
  );
}

process.on('uncaughtException', (err) => console.error('[llm-player] uncaught:', llm.redact(err?.stack ?? err)));
for (const sig of ['SIGTERM', 'SIGINT']) {
  process.on(sig, () => {
    console.log(`[llm-player] totals ${JSON.stringify(totals)}`);
    process.exit(0);
  });
}
const server = http.createServer(handler);
server.keepAliveTimeout = 65000;
server.headersTimeout = 66000;
server.on('error', (err) => fail(`cannot listen on ${port}: ${err.message}`));
server.listen(port, '0.0.0.0', () => {
  console.log(
    `[llm-player] ${config.game}/${config.variant} via ${llm.describe}; ${budgetMs} ms of each ${moveMs} ms per action for the model; listening on ${port}`,
  );
  if (typeof config.samplingPlan === 'string') console.log(`[llm-player] sampling ${config.samplingPlan}`);
});
const v6 = http.createServer(handler);
v6.keepAliveTimeout = 65000;
v6.on('error', () => {});
v6.listen(port, '::1');
