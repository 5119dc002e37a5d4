// Random contract-bridge bot speaking CATArena's Bridge protocol (plain node ≥ 18, no
// dependencies): answers a uniformly random entry of the request's legal_actions, whatever the
// phase (auction call, card play, or the variant's card exchange). Never looks at its cards.
//   POST /get_action {game_id, player_id, position, game_state, legal_actions}
//                    → {"action": <one entry of legal_actions>}
//   POST /join_game, POST /leave_game, GET /health, GET /info.
// With an empty (or missing) legal_actions list it answers a pass: it derives nothing itself.
// Usage: node bot.mjs <port>. Env BOT_SEED makes its choices reproducible (else Math.random).
import { BadRequest, drain, portArg, readJson, serve } from './bot-http.mjs';

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
const rng = process.env.BOT_SEED && Number.isFinite(seed) ? mulberry32(seed) : Math.random;

const RANKS = '23456789TJQKA';
const SUITS = 'CDHS';
const STRAINS = ['C', 'D', 'H', 'S', 'NT'];
const isCard = (c) => typeof c === 'string' && c.length === 2 && RANKS.includes(c[0]) && SUITS.includes(c[1]);

/** A well-formed action from legal_actions, as a clean reply object; null for anything else. */
function cleanAction(a) {
  if (!a || typeof a !== 'object' || Array.isArray(a)) return null;
  if (a.type === 'call') {
    if (a.call_type === 'pass' || a.call_type === 'double' || a.call_type === 'redouble') return { type: 'call', call_type: a.call_type };
    if (a.call_type === 'bid' && Number.isInteger(a.level) && a.level >= 1 && a.level <= 7 && STRAINS.includes(a.suit)) {
      return { type: 'call', call_type: 'bid', level: a.level, suit: a.suit };
    }
    return null;
  }
  if ((a.type === 'play' || a.type === 'exchange') && isCard(a.card)) return { type: a.type, card: a.card };
  return null;
}

function action(body) {
  const state = body.game_state;
  if (!state || typeof state !== 'object' || Array.isArray(state)) throw new BadRequest('game_state must be an object');
  const list = body.legal_actions ?? [];
  if (!Array.isArray(list)) throw new BadRequest('legal_actions must be a list');
  const options = list.map(cleanAction).filter(Boolean);
  if (list.length > 0 && options.length === 0) throw new BadRequest('legal_actions has no known action');
  if (options.length === 0) return { action: { type: 'call', call_type: 'pass' } };
  return { action: options[Math.floor(rng() * options.length)] };
}

// ---- HTTP ------------------------------------------------------------------------------------

const routes = {
  'GET /health': async () => ({ status: 'healthy' }),
  'GET /info': async () => ({ name: NAME, ai_id: NAME, version: '1.0', description: 'uniformly random legal action (bridge, both rule sets)' }),
  'POST /join_game': async (req) => {
    await drain(req);
    return { status: 'joined', ai_id: NAME };
  },
  'POST /leave_game': async (req) => {
    await drain(req);
    return { status: 'left' };
  },
  'POST /get_action': async (req) => action(await readJson(req)),
};

serve({ port, name: NAME, routes });
