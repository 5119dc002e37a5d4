// Heuristic Texas Hold'em bot speaking CATArena's Hold'em protocol (plain node ≥ 18, no
// dependencies). Usage: node bot.mjs <port>.
//   POST /action  the acting player's view of the table plus valid_actions →
//                 {"action": "fold|check|call|raise|all_in", "amount": <int>} (raise = raise-to)
//   GET /health, GET /info.
// Strategy: pre-flop a hand-group chart (Sklansky-Malmuth groups 1–8, everything else 9)
// adjusted for position, the number of live opponents and the size of the bet faced, checked
// against Monte-Carlo equity; after the flop Monte-Carlo equity against the live opponents'
// random hands (equity.mjs) weighed against the pot odds. Both decks: "standard" (52 cards) and
// "short" (36 cards 6..A, flush above full house, A-6-7-8-9 the lowest straight); the request's
// `deck` field says which (missing: standard).
//
// Knobs from params.json (or the file named by env BOT_PARAMS), read once; a missing or odd value
// takes its default and every value is clamped:
//   name         – reported by /info.
//   tightness    – 0..1: how strong a pre-flop hand it needs, and its margin over the pot odds.
//   aggression   – 0..1: raise rather than call, and how big its bets are.
//   bluff        – 0..0.3: how often it bets or raises without the cards.
//   simulations  – 50..5000 Monte-Carlo samples per decision (times depth).
//   depth        – 1..4: multiplies simulations (samples = simulations × depth).
//   timeBudgetMs – 20..2000: the sampling stops at this budget (CATArena allows 3 s per action).
//   randomness   – 0..1: noise on the hand strength and bet sizes it acts on.
//   seed         – seed of its random generator (same seed + same requests → same answers).
//   deterministic – true: no clock (always `simulations × depth` samples, whatever the machine's
//                  speed) and the generator seeded per decision from `seed` and the request
//                  (its game_id left out), so the same state always gets the same answer in any
//                  game order (anchor pools, docs/anchors.md); default false.
import { readFileSync } from 'node:fs';
import { BadRequest, portArg, readJson, serve } from './bot-http.mjs';
import { cardCode, codeRank, equity, normDeck } from './equity.mjs';

const DEFAULTS = {
  name: 'heuristic', tightness: 0.5, aggression: 0.5, bluff: 0.05, simulations: 1000, depth: 1,
  timeBudgetMs: 100, randomness: 0.1, seed: 1,
};

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
  const num = (v, lo, hi, dflt) => (v !== null && v !== '' && Number.isFinite(Number(v)) ? Math.min(hi, Math.max(lo, Number(v))) : dflt);
  const d = DEFAULTS;
  return {
    name: typeof raw.name === 'string' && raw.name ? raw.name : d.name,
    tightness: num(raw.tightness, 0, 1, d.tightness),
    aggression: num(raw.aggression, 0, 1, d.aggression),
    bluff: num(raw.bluff, 0, 0.3, d.bluff),
    simulations: Math.round(num(raw.simulations, 50, 5000, d.simulations)),
    depth: Math.round(num(raw.depth, 1, 4, d.depth)),
    timeBudgetMs: num(raw.timeBudgetMs, 20, 2000, d.timeBudgetMs),
    randomness: num(raw.randomness, 0, 1, d.randomness),
    seed: Math.round(num(raw.seed, -(2 ** 31), 2 ** 31, d.seed)),
    deterministic: raw.deterministic === true,
  };
}

// mulberry32: small seeded PRNG so `seed` makes the play reproducible.
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

const port = portArg();
const params = loadParams();
let rng = mulberry32(params.seed);

/** With `deterministic`: a generator for one decision, seeded by `seed` and the request without its game_id (FNV-1a). */
function requestRng(body) {
  let h = (0x811c9dc5 ^ params.seed) >>> 0;
  for (const ch of JSON.stringify({ ...body, game_id: undefined })) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return mulberry32(h);
}

// ---- pre-flop chart --------------------------------------------------------------------------

// Sklansky-Malmuth hand groups; a hand in none of them is group 9.
const GROUPS = [
  'AA KK QQ JJ AKs',
  'TT AQs AJs KQs AKo',
  '99 JTs QJs KJs ATs AQo',
  'T9s KQo 88 QTs 98s J9s AJo KTs',
  '77 87s Q9s T8s KJo QJo JTo 76s 97s A9s A8s A7s A6s A5s A4s A3s A2s 65s',
  '66 ATo 55 86s KTo QTo 54s K9s J8s 75s',
  '44 J9o 64s T9o 53s 33 98o 43s 22 K8s K7s K6s K5s K4s K3s K2s T7s Q8s',
  '87o A9o Q9o 76o 42s 32s 96s 85s J8o J7s 65o 54o 74s K9o T8o',
];
const GROUP = new Map();
GROUPS.forEach((hands, g) => hands.split(' ').forEach((h) => GROUP.set(h, g + 1)));
const RANK_CHARS = '23456789TJQKA';

/** Chart group 1 (best) .. 9 of two hole-card codes. */
function handGroup(a, b) {
  let hi = codeRank(a), lo = codeRank(b);
  if (lo > hi) [hi, lo] = [lo, hi];
  const key = RANK_CHARS[hi - 2] + RANK_CHARS[lo - 2] + (hi === lo ? '' : (a & 3) === (b & 3) ? 's' : 'o');
  return GROUP.get(key) ?? 9;
}

// ---- request parsing -------------------------------------------------------------------------

const num = (v, dflt = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() && Number.isFinite(Number(v)) ? Number(v) : dflt);

/** valid_actions → { fold, check, call: amount|null, raise: {min,max}|null, all_in: amount|null }. */
function parseValidActions(list) {
  if (!Array.isArray(list)) throw new BadRequest('valid_actions must be a list');
  const va = { fold: false, check: false, call: null, raise: null, all_in: null };
  for (const e of list) {
    if (!e || typeof e !== 'object') continue;
    switch (e.action) {
      case 'fold': va.fold = true; break;
      case 'check': va.check = true; break;
      case 'call': va.call = Math.max(0, num(e.amount)); break;
      case 'all_in': va.all_in = Math.max(0, num(e.amount)); break;
      case 'raise': {
        const a = e.amount;
        if (!a || typeof a !== 'object') break;
        const lo = Math.ceil(num(a.min, NaN)), hi = Math.floor(num(a.max, NaN));
        if (Number.isFinite(lo) && Number.isFinite(hi) && lo <= hi && hi > 0) va.raise = { min: Math.max(1, lo), max: hi };
        break;
      }
      default:
    }
  }
  if (!va.fold && !va.check && va.call === null && !va.raise && va.all_in === null) throw new BadRequest('valid_actions has no known action');
  return va;
}

function parseCards(list, what) {
  if (!Array.isArray(list)) throw new BadRequest(`${what} must be a list of cards`);
  return list.map((c) => {
    const code = cardCode(c);
    if (code < 0) throw new BadRequest(`${what}: invalid card ${JSON.stringify(c)}`);
    return code;
  });
}

const LIVE = new Set(['active', 'all_in']);

function parseState(body) {
  const va = parseValidActions(body.valid_actions);
  const players = body.players;
  if (!players || typeof players !== 'object' || Array.isArray(players)) throw new BadRequest('players must be an object keyed by player id');
  let meId = typeof body.current_player === 'string' ? body.current_player : null;
  if (!meId || !players[meId]) {
    // No (known) current_player: the only player whose hole cards are shown is the one asked.
    const shown = Object.keys(players).filter((id) => Array.isArray(players[id]?.hole_cards) && players[id].hole_cards.length === 2);
    if (shown.length !== 1) throw new BadRequest('current_player must name an entry of players');
    meId = shown[0];
  }
  const me = players[meId];
  if (!me || typeof me !== 'object') throw new BadRequest('current_player must name an entry of players');
  const hole = parseCards(me.hole_cards, 'hole_cards');
  if (hole.length !== 2) throw new BadRequest('the acting player needs exactly 2 hole_cards');
  const board = parseCards(body.community_cards ?? [], 'community_cards');
  if (![0, 3, 4, 5].includes(board.length)) throw new BadRequest('community_cards must hold 0, 3, 4 or 5 cards');
  const all = [...hole, ...board];
  if (new Set(all).size !== all.length) throw new BadRequest('duplicate card');
  const deck = normDeck(body.deck);
  if (deck === 'short' && all.some((c) => codeRank(c) < 6)) throw new BadRequest('card below 6 in a short-deck game');

  // Seats in table order (players is in seat order); the dealer from is_dealer, else dealer_index.
  const seats = Object.keys(players).filter((id) => players[id] && typeof players[id] === 'object' && players[id].state !== 'out');
  let dealer = seats.findIndex((id) => players[id].is_dealer === true);
  if (dealer < 0) dealer = Math.max(0, Math.floor(num(body.dealer_index))) % Math.max(1, seats.length);
  const opponents = seats.filter((id) => id !== meId && LIVE.has(players[id].state ?? 'active'));

  const bb = Math.max(1, num(body.big_blind, 0) || num(body.min_raise, 0) || 20);
  const myBet = Math.max(0, num(me.current_bet));
  const currentBet = Math.max(myBet, num(body.current_bet));
  const toCall = va.check ? 0 : va.call ?? Math.max(0, currentBet - myBet);
  const phase = ['preflop', 'flop', 'turn', 'river'].includes(body.phase) ? body.phase : ['preflop', null, null, 'flop', 'turn', 'river'][board.length];
  // Lateness 0 (first to act) .. 1 (last to act) among the seats still in the hand.
  const n = seats.length;
  const mySeat = seats.indexOf(meId);
  let lateness = 0.5;
  if (n >= 2 && mySeat >= 0) {
    const fromDealer = (mySeat - dealer + n) % n; // 0 dealer, 1 small blind, 2 big blind, ...
    const order = phase === 'preflop' ? (fromDealer - 3 + 2 * n) % n : (fromDealer - 1 + n) % n;
    lateness = order / (n - 1);
  }
  return {
    va, hole, board, deck, phase, bb, myBet, currentBet, toCall, lateness,
    pot: Math.max(0, num(body.pot)),
    minRaise: Math.max(bb, num(body.min_raise, bb)),
    chips: Math.max(0, num(me.chips)),
    opponents: Math.max(1, opponents.length),
  };
}

// ---- decisions -------------------------------------------------------------------------------

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
const noise = () => rng() + rng() - 1; // triangular in [-1, 1]

/** A raise to `target` (the total street bet), as an intent; finalize() makes it legal. */
const raiseTo = (target, why, strong = false) => ({ action: 'raise', target, why, strong });
const act = (action, why) => ({ action, why });

function preflop(s, eq) {
  const { tightness: t, aggression: a, bluff } = params;
  const [c1, c2] = s.hole;
  const group = handGroup(c1, c2);
  const g = group + params.randomness * 1.5 * noise();
  const facingBB = s.toCall / s.bb;
  const raised = s.currentBet > s.bb * 1.01; // someone raised the big blind
  // The worst group it plays: tightness 0 → 8, 1 → 2; later position and fewer opponents widen it.
  let G = 8 - 6 * t + (s.lateness >= 0.6 ? 1 : 0) - (s.opponents >= 5 ? 1 : 0) + (s.opponents === 1 ? 1 : 0);
  if (raised) G -= Math.min(3.5, Math.log2(Math.max(1, s.currentBet / s.bb)));
  G = Math.max(G, raised ? 1.5 : 2);
  // The worst group it raises with: aggression 0 → 1, 1 → 4; fewer against a raise.
  let R = 1 + 3 * a - (raised ? 1.5 : 0);
  if (s.currentBet >= 12 * s.bb) R = Math.min(R, 1.2);
  const sizeUnopened = s.bb * (2.2 + 1.6 * a + 0.6 * noise() * params.randomness) + Math.max(0, s.pot - 1.5 * s.bb);
  const size3bet = s.currentBet * (2.6 + 1.2 * a);
  const target = raised ? size3bet : sizeUnopened;
  const why = `preflop group ${group} (plays ≤ ${G.toFixed(1)}, raises ≤ ${R.toFixed(1)}), equity ${eq.toFixed(2)} vs ${s.opponents}`;

  if (s.toCall === 0) {
    if (g <= R) return raiseTo(target, `${why}: raise`);
    if (!raised && s.lateness >= 0.6 && rng() < bluff) return raiseTo(sizeUnopened, `${why}: steal`);
    return act('check', `${why}: check`);
  }
  const potOdds = s.toCall / (s.pot + s.toCall);
  if (g <= R) return raiseTo(target, `${why}: raise`);
  if (g <= G) {
    // Playable by the chart: call unless the price is far above what its equity is worth.
    const worth = eq * (1.4 - 0.5 * t);
    if (worth >= potOdds || group <= 2) return act('call', `${why}: call`);
    return act('fold', `${why}: too expensive (pot odds ${potOdds.toFixed(2)})`);
  }
  // Not in its chart: complete a small blind or call a tiny price with a near-playable hand.
  if (facingBB <= 0.5 && g <= G + 2) return act('call', `${why}: cheap completion`);
  if (!raised && s.lateness >= 0.6 && rng() < bluff) return raiseTo(sizeUnopened, `${why}: steal`);
  return act('fold', `${why}: fold`);
}

function postflop(s, eq) {
  const { tightness: t, aggression: a, bluff } = params;
  const fair = 1 / (s.opponents + 1);
  const e = clamp(eq + 0.08 * params.randomness * noise(), 0, 1);
  const rel = (e - fair) / (1 - fair); // 0 = an average hand here, 1 = the nuts
  const potOdds = s.toCall / (s.pot + s.toCall);
  const betT = 0.5 - 0.3 * a + 0.15 * t;
  const raiseT = 0.72 - 0.3 * a + 0.15 * t;
  const sizeFrac = clamp(0.35 + 0.65 * a + 0.15 * params.randomness * noise(), 0.25, 1.2);
  const why = `${s.phase}: equity ${eq.toFixed(2)} vs ${s.opponents} (strength ${rel.toFixed(2)})`;

  if (s.toCall === 0) {
    if (rel >= betT) return raiseTo(s.currentBet + Math.max(s.bb, s.pot * sizeFrac), `${why}: value bet`, rel >= 0.8);
    if (rng() < bluff / s.opponents * (s.phase === 'river' ? 1.3 : 1)) return raiseTo(s.currentBet + Math.max(s.bb, s.pot * 0.6), `${why}: bluff`);
    return act('check', `${why}: check`);
  }
  const potAfter = s.pot + s.toCall;
  if (rel >= raiseT && e > potOdds) {
    return raiseTo(s.currentBet + Math.max(s.minRaise, potAfter * sizeFrac), `${why}: raise`, rel >= 0.8);
  }
  const margin = 0.1 * t - 0.03;
  if (e >= potOdds + margin || rel >= 0.9) return act('call', `${why}: call (pot odds ${potOdds.toFixed(2)})`);
  if (s.opponents === 1 && rng() < bluff * 0.4) return raiseTo(s.currentBet + Math.max(s.minRaise, potAfter * 0.8), `${why}: bluff raise`);
  return act('fold', `${why}: fold (pot odds ${potOdds.toFixed(2)})`);
}

/** An intent → a reply valid under valid_actions, with an integer amount. */
function finalize(intent, s) {
  const { va } = s;
  const int = (v) => Math.max(0, Math.floor(v));
  const fallback = (why) => {
    if (va.check) return { action: 'check', amount: 0, why };
    const price = va.call ?? s.toCall;
    const cheap = price <= Math.max(s.bb, 0.1 * (s.pot + price));
    if (va.call !== null && cheap) return { action: 'call', amount: int(va.call), why };
    if (va.fold) return { action: 'fold', amount: 0, why };
    if (va.call !== null) return { action: 'call', amount: int(va.call), why };
    if (va.all_in !== null) return { action: 'all_in', amount: int(va.all_in), why };
    return { action: 'fold', amount: 0, why };
  };
  const stack = s.chips + s.myBet;
  if (intent.action === 'raise') {
    let target = intent.target;
    // Most of the stack anyway: put it all in.
    if (target >= 0.7 * stack) target = stack;
    if (va.raise) {
      const amount = clamp(Math.round(target), va.raise.min, va.raise.max);
      return { action: 'raise', amount, why: intent.why };
    }
    // No raise offered: the stack is short. Shove when strong, else just call or check.
    const callsAll = va.call !== null && va.call >= s.chips;
    if (va.all_in !== null && !callsAll && (intent.strong || s.phase === 'preflop' || target >= 0.5 * stack)) {
      return { action: 'all_in', amount: int(va.all_in), why: `${intent.why} (all in: no raise offered)` };
    }
    intent = va.check ? act('check', intent.why) : act('call', intent.why);
  }
  if (intent.action === 'call' && va.call === null && va.check) intent = act('check', intent.why);
  if (intent.action === 'check' && va.check) return { action: 'check', amount: 0, why: intent.why };
  if (intent.action === 'call' && va.call !== null) return { action: 'call', amount: int(va.call), why: intent.why };
  if (intent.action === 'call' && va.call === null && va.all_in !== null) return { action: 'all_in', amount: int(va.all_in), why: intent.why };
  if (intent.action === 'fold') {
    if (va.check) return { action: 'check', amount: 0, why: `${intent.why}; checking is free` };
    if (va.fold) return { action: 'fold', amount: 0, why: intent.why };
  }
  if (intent.action === 'all_in' && va.all_in !== null) return { action: 'all_in', amount: int(va.all_in), why: intent.why };
  return fallback(`${intent.why} (${intent.action} not offered)`);
}

function decide(body) {
  const t0 = Date.now();
  if (params.deterministic) rng = requestRng(body);
  const s = parseState(body);
  const samples = params.simulations * params.depth;
  // Leave headroom under the budget for HTTP and JSON.
  const deadline = params.deterministic ? Infinity : t0 + Math.max(5, params.timeBudgetMs * 0.85 - 5);
  const { equity: eq, samples: done } = equity(s.hole, s.board, s.opponents, { deck: s.deck, samples, deadline, rng });
  const intent = s.phase === 'preflop' ? preflop(s, eq) : postflop(s, eq);
  const out = finalize(intent, s);
  return { reply: { action: out.action, amount: out.amount }, why: out.why, samples: done, ms: Date.now() - t0 };
}

// ---- HTTP ------------------------------------------------------------------------------------

const DEBUG = process.env.BOT_DEBUG === '1';
const routes = {
  'GET /health': async () => ({ status: 'healthy' }),
  'GET /info': async () => ({
    name: params.name, ai_id: params.name, version: '1.0',
    description: "pre-flop hand chart + Monte-Carlo equity vs pot odds; standard and short deck Hold'em",
    params,
  }),
  'POST /action': async (req) => {
    const d = decide(await readJson(req));
    if (DEBUG) console.error(`${d.reply.action} ${d.reply.amount}: ${d.why} [${d.samples} samples, ${d.ms} ms]`);
    return d.reply;
  },
};

serve({ port, name: params.name, routes });
