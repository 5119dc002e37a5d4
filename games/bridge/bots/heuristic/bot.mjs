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
import { readFileSync } from 'node:fs';
import { BadRequest, drain, portArg, readJson, serve } from './bot-http.mjs';
import { BadRequest as StrategyBadRequest, clampParams, decide } from './strategy.mjs';

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

const port = portArg();
const params = loadParams();
const DEBUG = process.env.BOT_DEBUG === '1';

/**
 * strategy.mjs throws its own BadRequest class (it has no HTTP part): turn those into
 * bot-http's, so a malformed request is still answered 400 with its message, unlogged.
 */
function decideOrBadRequest(body) {
  try {
    return decide(body, params);
  } catch (err) {
    throw err instanceof StrategyBadRequest ? new BadRequest(err.message) : err;
  }
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
    const d = decideOrBadRequest(await readJson(req));
    if (DEBUG) console.error(`${JSON.stringify(d.action)}: ${d.why} [${(performance.now() - t0).toFixed(1)} ms]`);
    return { action: d.action };
  },
};

serve({ port, name: params.name, routes });
