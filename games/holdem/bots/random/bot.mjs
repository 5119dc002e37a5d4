// Random Texas Hold'em bot speaking CATArena's Hold'em protocol (plain node ≥ 18, no
// dependencies): picks uniformly among the offered actions; a raise goes to a random whole amount
// in [min, max], skewed toward small raises. Never looks at the cards, so both decks are alike.
//   POST /action {…table view…, valid_actions} → {"action": …, "amount": <int>}
//   GET /health, GET /info.
// Usage: node bot.mjs <port>. Env BOT_SEED makes its choices reproducible (else Math.random).
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
const rng = process.env.BOT_SEED && Number.isFinite(seed) ? mulberry32(seed) : Math.random;

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() && Number.isFinite(Number(v)) ? Number(v) : NaN);
const int = (v) => (Number.isFinite(v) ? Math.max(0, Math.floor(v)) : 0);

/** Every offered action as a ready reply (raise: the whole-number range), in offer order. */
function options(list) {
  if (!Array.isArray(list)) throw new BadRequest('valid_actions must be a list');
  const out = [];
  for (const e of list) {
    if (!e || typeof e !== 'object') continue;
    if (e.action === 'fold' || e.action === 'check') out.push({ action: e.action, amount: 0 });
    else if (e.action === 'call' || e.action === 'all_in') out.push({ action: e.action, amount: int(num(e.amount)) });
    else if (e.action === 'raise' && e.amount && typeof e.amount === 'object') {
      const lo = Math.max(1, Math.ceil(num(e.amount.min))), hi = Math.floor(num(e.amount.max));
      if (Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi) out.push({ action: 'raise', min: lo, max: hi });
    }
  }
  if (!out.length) throw new BadRequest('valid_actions has no known action');
  return out;
}

function action(body) {
  const opts = options(body.valid_actions);
  const pick = opts[Math.floor(rng() * opts.length)];
  if (pick.action !== 'raise') return { action: pick.action, amount: pick.amount };
  // Cubed uniform: mostly near the minimum, now and then a big one.
  const amount = pick.min + Math.floor((pick.max - pick.min + 1) * rng() ** 3);
  return { action: 'raise', amount: Math.min(pick.max, amount) };
}

// ---- HTTP ------------------------------------------------------------------------------------

const routes = {
  'GET /health': async () => ({ status: 'healthy' }),
  'GET /info': async () => ({ name: NAME, ai_id: NAME, version: '1.0', description: 'uniformly random valid action' }),
  'POST /action': async (req) => action(await readJson(req)),
};

serve({ port, name: NAME, routes });
