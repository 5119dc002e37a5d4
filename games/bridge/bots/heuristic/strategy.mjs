// The heuristic bridge bot's decisions, as one pure function of the request: decide(body, params)
// → {action, why}. No state between requests and no Math.random: the only "randomness" is a
// generator seeded from a hash of the request's content (never the game_id or player names)
// and params.seed, so the same request always gets the same answer — both rooms of a duplicate
// board see the same play from the same strategy. bot.mjs serves it over HTTP.
//
// Bidding (natural, a simplified Standard American):
//   opening  — 1NT 15–17 balanced, 2NT 20–22 balanced, else 1 of the longest suit with ≥ openMin
//              HCP (5-card majors, the longer major with 5-5; else the longer minor, 1D with 4-4,
//              1C with 3-3); pass below openMin.
//   response — to 1 of a major: raise with 3+ cards by support points (6–9 two, 10–12 three,
//              game from gameBonus − 12); a new suit at the 1 level with 6+; a new suit at the 2
//              level with 10+; 2NT 11–12 / 3NT 13+ balanced; 1NT 6–10. To 1 of a minor: a 4-card
//              major at the 1 level, a minor raise, NT by strength. To 1NT: 2NT invite / 3NT game
//              by points, a 6-card major to game (or 2 of it, weak), a 5-card major 3 (forcing).
//   rebid    — opener accepts or declines invitations by its points, raises a responded suit
//              with 4, shows 18–19 balanced with 2NT, rebids a 6-card suit, names a second suit.
//   the rest — "placement": estimate partner from its calls (points and suit lengths shown),
//              pick the strain (a major fit ≥ 8, else NT when balanced, else a minor fit, else a
//              long suit) and the level its combined points are worth (game at gameBonus, slam at
//              slamMin, part-scores by strength or the law of total tricks when competing), and
//              bid it if the auction is below it. Never beyond game without slam values.
//   overcall — a good 5-card suit (two of A K Q J T) at the 1 level with overcallMin–18 HCP (it
//              has no takeout double, so strong hands overcall too); at the 2 level a 6-card
//              suit, or a 5-card one when aggressive, with more; 1NT with 15–18 balanced and a
//              stopper. Otherwise it passes while its side is silent.
//   double   — penalty only: when the defence is worth doubleMargin tricks more than it needs to
//              beat the opponents' bid. Partner's double is left in. Never redoubles.
// Play:
//   opening lead — partner's bid suit; vs NT the top of a sequence, else 4th best of the longest
//                  suit (leadStyle 1 prefers the long suit even over a short sequence); vs a
//                  trump contract A from AK, the top of a sequence, a singleton, then (leadStyle
//                  1) the long suit or (0) a passive trump / top of nothing.
//   following    — second hand low (but cover an honour, and ruff when void); third hand high,
//                  only as high as needed (the cheapest of equivalent cards, or the cheapest sure
//                  winner); fourth hand wins as cheaply as possible; never overtakes partner's
//                  sure winner; ruffs when void and the trick is the opponents'; discards the
//                  lowest card of its weakest suit.
//   declarer     — (also when asked for dummy's card: both hands are visible then) draws trumps
//                  (with a trick history: while the side holds more trumps than are out; without:
//                  while it holds the master trump and 3+ trumps, or early with an 8+ fit); in NT
//                  first establishes its longest suit when the sure tricks fall short; cashes
//                  sure winners (short hand first), ruffs in the hand that is void, else leads
//                  low from the longest suit.
//   The CATArena state has no trick history, so "sure" means "beats every card it cannot see";
//   an optional trick history in the state (tricks / tricks_history / played_cards) sharpens it.
// Variant exchange: give partner the highest card of a suit partner named first (partner's long
//   suit gets longer and stronger, and partner gets an entry); else, as dummy in a trump contract,
//   the highest trump (the declarer's trump control); else the lowest card of the shortest side
//   suit (our shortness grows: ruffs or discards). The two gifts of a side cross simultaneously.
//
// Knobs (params.json, clamped; defaults in DEFAULTS):
//   openMin 10–14       HCP needed to open one of a suit;
//   overcallMin 7–12    HCP needed to overcall;
//   gameBonus 23–27     combined points the side needs to bid game (lower = bolder);
//   doubleMargin 2–6    defensive tricks above those needed before a penalty double;
//   slamMin 31–35       combined points for a slam (and slamMin − 2 combined HCP);
//   leadStyle 0|1       0 passive (sequences, trump leads), 1 aggressive (long suits);
//   aggression 0–1      competing: the law of total tricks −1 / +1 level at ≤ 0.25 / ≥ 0.75,
//                       the game threshold ±1 point, 2-level overcalls with a 5-card suit;
//   depth 1–3           how much the defence reasons with: 1 its own hand, 2 also the auction
//                       (partner's suit, the opponents' suits), 3 also dummy's cards;
//   randomness 0–1      a valuation jitter of ±randomness/2 HCP and lead tie-breaks, drawn from
//                       the content hash (so still deterministic);
//   seed, name          hash seed; the name /info reports;
//   timeBudgetMs        accepted and reported only: every decision takes well under 1 ms.

export const DEFAULTS = {
  name: 'heuristic', openMin: 12, overcallMin: 8, gameBonus: 25, doubleMargin: 3, slamMin: 33, leadStyle: 0,
  aggression: 0.5, depth: 3, timeBudgetMs: 50, randomness: 0, seed: 1,
};

/** Params from any object: missing or odd values take the defaults, numbers are clamped. */
export function clampParams(raw) {
  const r = raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {};
  const d = DEFAULTS;
  const num = (v, lo, hi, dflt) => (v !== null && v !== undefined && v !== '' && typeof v !== 'boolean' && Number.isFinite(Number(v)) ? Math.min(hi, Math.max(lo, Number(v))) : dflt);
  return {
    name: typeof r.name === 'string' && r.name ? r.name : d.name,
    openMin: num(r.openMin, 10, 14, d.openMin),
    overcallMin: num(r.overcallMin, 7, 12, d.overcallMin),
    gameBonus: num(r.gameBonus, 23, 27, d.gameBonus),
    doubleMargin: num(r.doubleMargin, 2, 6, d.doubleMargin),
    slamMin: num(r.slamMin, 31, 35, d.slamMin),
    leadStyle: num(r.leadStyle, 0, 1, d.leadStyle) >= 0.5 ? 1 : 0,
    aggression: num(r.aggression, 0, 1, d.aggression),
    depth: Math.round(num(r.depth, 1, 3, d.depth)),
    timeBudgetMs: Math.round(num(r.timeBudgetMs, 1, 5000, d.timeBudgetMs)),
    randomness: num(r.randomness, 0, 1, d.randomness),
    seed: Math.round(num(r.seed, -(2 ** 31), 2 ** 31 - 1, d.seed)),
  };
}

export class BadRequest extends Error {}

// ---- cards, seats ---------------------------------------------------------------------------

const RANKS = '23456789TJQKA';
const SUITS = ['C', 'D', 'H', 'S'];
const STRAINS = ['C', 'D', 'H', 'S', 'NT'];
const SEAT_NAMES = ['north', 'east', 'south', 'west'];
const SEAT_LETTERS = ['N', 'E', 'S', 'W'];
const DECK = SUITS.flatMap((s) => [...RANKS].map((r) => r + s));

const rankOf = (c) => RANKS.indexOf(c[0]) + 2;
const suitOf = (c) => c[1];
const sideOf = (seat) => seat % 2;
const partnerOf = (seat) => (seat + 2) % 4;
const isMajor = (s) => s === 'H' || s === 'S';
const bidRank = (level, strain) => level * 5 + STRAINS.indexOf(strain);
const gameLevel = (strain) => (strain === 'NT' ? 3 : isMajor(strain) ? 4 : 5);
const byRankDesc = (a, b) => rankOf(b) - rankOf(a);

function normCard(x) {
  if (typeof x === 'string') {
    let s = x.trim().toUpperCase();
    if (s.startsWith('10')) s = `T${s.slice(2)}`;
    if (s.length === 2 && RANKS.includes(s[0]) && SUITS.includes(s[1])) return s;
    if (s.length === 2 && SUITS.includes(s[0]) && RANKS.includes(s[1])) return s[1] + s[0];
    return null;
  }
  if (x && typeof x === 'object') {
    let r = x.rank;
    if (typeof r === 'number') r = r >= 2 && r <= 14 ? RANKS[r - 2] : null;
    else if (typeof r === 'string') r = r.trim().toUpperCase() === '10' ? 'T' : r.trim().toUpperCase();
    if ((typeof r !== 'string' || !RANKS.includes(r) || r.length !== 1) && Number.isInteger(x.value) && x.value >= 2 && x.value <= 14) r = RANKS[x.value - 2];
    const s = typeof x.suit === 'string' ? x.suit.trim().toUpperCase()[0] : null;
    if (typeof r === 'string' && r.length === 1 && RANKS.includes(r) && SUITS.includes(s)) return r + s;
  }
  return null;
}

function seatOf(v) {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 3) return v;
  if (typeof v === 'string') {
    const t = v.trim();
    if (/^[0-3]$/.test(t)) return Number(t);
    const byName = SEAT_NAMES.indexOf(t.toLowerCase());
    if (byName >= 0) return byName;
    const byLetter = SEAT_LETTERS.indexOf(t.toUpperCase());
    if (byLetter >= 0) return byLetter;
  }
  return null;
}

// ---- request parsing ------------------------------------------------------------------------

/** A legal_actions entry → {reply, kind, level?, strain?, card?}; null if not a known action. */
function normAction(a) {
  if (!a || typeof a !== 'object' || Array.isArray(a)) return null;
  if (a.type === 'call') {
    const ct = a.call_type;
    if (ct === 'pass' || ct === 'double' || ct === 'redouble') return { reply: { type: 'call', call_type: ct }, kind: ct };
    if (ct === 'bid') {
      const level = Number(a.level);
      const strain = typeof a.suit === 'string' ? a.suit.toUpperCase() : null;
      if (Number.isInteger(level) && level >= 1 && level <= 7 && STRAINS.includes(strain)) {
        return { reply: { type: 'call', call_type: 'bid', level: a.level, suit: a.suit }, kind: 'bid', level, strain };
      }
    }
    return null;
  }
  if (a.type === 'play' || a.type === 'exchange') {
    const card = normCard(a.card);
    return card ? { reply: { type: a.type, card: a.card }, kind: a.type, card } : null;
  }
  return null;
}

function parseContract(c) {
  if (!c || typeof c !== 'object') return null;
  const level = Number(c.level);
  const strain = typeof c.suit === 'string' ? c.suit.toUpperCase() : typeof c.strain === 'string' ? c.strain.toUpperCase() : null;
  const declarer = seatOf(c.declarer_id ?? c.declarer);
  if (!Number.isInteger(level) || level < 1 || level > 7 || !STRAINS.includes(strain) || declarer === null) return null;
  return { level, strain, declarer, doubling: Number(c.doubling) || 1 };
}

/** [[pid, card], …] or [{player_id, card}, …] → [[seat, card], …] (bad entries dropped). */
function parseTrick(list) {
  const out = [];
  if (!Array.isArray(list)) return out;
  for (const e of list) {
    const seat = seatOf(Array.isArray(e) ? e[0] : e?.player_id ?? e?.seat);
    const card = normCard(Array.isArray(e) ? e[1] : e?.card);
    if (seat !== null && card) out.push([seat, card]);
  }
  return out;
}

/** Cards of an optional trick history, if the state carries one in any common shape. */
function historyCards(gs) {
  const out = new Set();
  const lists = [gs.tricks_history, gs.tricks, gs.trick_history, gs.completed_tricks];
  for (const l of lists) {
    if (!Array.isArray(l)) continue;
    for (const t of l) for (const [, c] of parseTrick(Array.isArray(t) ? t : t?.cards)) out.add(c);
  }
  if (Array.isArray(gs.played_cards)) for (const c of gs.played_cards) { const n = normCard(c); if (n) out.add(n); }
  return out;
}

function parseCalls(raw, dealer) {
  const out = [];
  if (!Array.isArray(raw)) return out;
  raw.forEach((c, i) => {
    if (!c || typeof c !== 'object') return;
    let seat = seatOf(c.player_id ?? c.seat);
    if (seat === null && dealer !== null) seat = (dealer + i) % 4;
    if (seat === null) return;
    const kind = c.call_type;
    if (kind === 'pass' || kind === 'double' || kind === 'redouble') out.push({ seat, kind });
    else if (kind === 'bid') {
      const level = Number(c.level);
      const strain = typeof c.suit === 'string' ? c.suit.toUpperCase() : null;
      if (Number.isInteger(level) && level >= 1 && level <= 7 && STRAINS.includes(strain)) out.push({ seat, kind, level, strain });
    }
  });
  return out;
}

export function parseRequest(body) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadRequest('body must be a JSON object');
  const gs = body.game_state;
  if (!gs || typeof gs !== 'object' || Array.isArray(gs)) throw new BadRequest('game_state must be an object');
  const rawLegal = body.legal_actions ?? [];
  if (!Array.isArray(rawLegal)) throw new BadRequest('legal_actions must be a list');
  const legal = rawLegal.map(normAction).filter(Boolean);
  if (rawLegal.length > 0 && legal.length === 0) throw new BadRequest('legal_actions has no known action');
  if (body.player_id !== undefined && body.player_id !== null && seatOf(body.player_id) === null) throw new BadRequest('player_id must be 0..3');
  const me = seatOf(body.player_id) ?? seatOf(body.position) ?? seatOf(gs.current_player_id);
  if (me === null) throw new BadRequest('no seat: player_id must be 0..3 (or position north/east/south/west)');

  const players = Array.isArray(gs.players) ? gs.players : gs.players && typeof gs.players === 'object' ? Object.values(gs.players) : [];
  const hands = [null, null, null, null];
  const handSizes = [13, 13, 13, 13];
  players.forEach((p, i) => {
    if (!p || typeof p !== 'object') return;
    const seat = seatOf(p.player_id) ?? seatOf(p.position) ?? (i < 4 ? i : null);
    if (seat === null) return;
    if (Array.isArray(p.hand)) {
      const cards = p.hand.map(normCard).filter(Boolean);
      hands[seat] = [...new Set(cards)];
      handSizes[seat] = hands[seat].length;
    } else if (Number.isInteger(p.hand_size)) handSizes[seat] = p.hand_size;
  });
  const dealer = seatOf(gs.dealer_id);
  const bidding = gs.bidding && typeof gs.bidding === 'object' ? gs.bidding : {};
  const calls = parseCalls(bidding.calls ?? gs.calls, dealer);
  const contract = parseContract(bidding.contract) ?? parseContract(gs.contract);
  const trick = parseTrick(gs.current_trick);
  const played = historyCards(gs);
  const vul = Array.isArray(gs.vulnerability) ? [!!gs.vulnerability[0], !!gs.vulnerability[1]] : [false, false];
  const tw = Array.isArray(gs.tricks_won) ? gs.tricks_won.map(Number) : [];
  const tricksWon = [Number.isInteger(tw[0]) ? tw[0] : 0, Number.isInteger(tw[1]) ? tw[1] : 0];
  const kinds = new Set(legal.map((a) => a.kind));
  let phase = typeof gs.phase === 'string' ? gs.phase : '';
  if (kinds.has('play')) phase = 'playing';
  else if (kinds.has('exchange')) phase = 'exchanging';
  else if (kinds.has('pass') || kinds.has('bid')) phase = 'bidding';
  const received = normCard(gs.my_exchanged_card);
  return { me, legal, hands, handSizes, dealer, calls, contract, trick, played, vul, phase, received, tricksWon };
}

// ---- determinism: a content hash ------------------------------------------------------------

/** FNV-1a over the decision-relevant content (never game_id or names). */
function contentHash(ctx, seed) {
  const key = JSON.stringify([
    ctx.me, ctx.phase, ctx.hands.map((h) => (h ? h.slice().sort() : null)), ctx.handSizes, ctx.dealer,
    ctx.calls.map((c) => [c.seat, c.kind, c.level ?? 0, c.strain ?? '']), ctx.contract, ctx.trick, [...ctx.played].sort(), ctx.vul,
    ctx.legal.map((a) => [a.kind, a.level ?? 0, a.strain ?? '', a.card ?? '']),
  ]);
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

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

// ---- hand evaluation ------------------------------------------------------------------------

function handInfo(cards) {
  const len = { C: 0, D: 0, H: 0, S: 0 };
  const hcpS = { C: 0, D: 0, H: 0, S: 0 };
  const quality = { C: 0, D: 0, H: 0, S: 0 };
  for (const c of cards) {
    const s = suitOf(c), r = rankOf(c);
    len[s]++;
    if (r > 10) hcpS[s] += r - 10;
    if (r >= 10) quality[s]++;
  }
  const hcp = SUITS.reduce((n, s) => n + hcpS[s], 0);
  const sorted = SUITS.map((s) => len[s]).sort((a, b) => b - a);
  const balanced = sorted[2] >= 3 && sorted[3] >= 2;
  const lengthPts = SUITS.reduce((n, s) => n + Math.max(0, len[s] - 4), 0);
  const longest = Math.max(...sorted);
  return { cards, len, hcpS, quality, hcp, balanced, lengthPts, longest, hasVoid: sorted[3] === 0, hasSingleton: sorted[3] <= 1 };
}

/** Shortness points when supporting partner's suit (void 5, singleton 3, doubleton 1). */
function supportPts(h, trump) {
  let pts = 0;
  for (const s of SUITS) {
    if (s === trump) continue;
    pts += h.len[s] === 0 ? 5 : h.len[s] === 1 ? 3 : h.len[s] === 2 ? 1 : 0;
  }
  return pts;
}

/** Opener's revaluation once a fit is found: void 3, singleton 2 outside the trump suit. */
function shortPts(h, trump) {
  let pts = 0;
  for (const s of SUITS) if (s !== trump) pts += h.len[s] === 0 ? 3 : h.len[s] === 1 ? 2 : 0;
  return pts;
}

/** Slam needs slamMin combined points and, so that shape alone never drives it, slamMin − 2 HCP. */
const slamOk = (params, points, hcp) => points >= params.slamMin && hcp >= params.slamMin - 2;

/** A stopper in suit s: A, Kx, Qxx, Jxxx. */
function stopper(h, s) {
  const ranks = h.cards.filter((c) => suitOf(c) === s).map(rankOf);
  return ranks.includes(14) || (ranks.includes(13) && ranks.length >= 2) || (ranks.includes(12) && ranks.length >= 3) || (ranks.includes(11) && ranks.length >= 4);
}

// ---- the auction ----------------------------------------------------------------------------

/** The lowest level at which `strain` can be bid after the bids `bids` (8 if none). */
function cheapestLevel(bids, strain) {
  const last = bids[bids.length - 1];
  if (!last) return 1;
  for (let level = 1; level <= 7; level++) if (bidRank(level, strain) > bidRank(last.level, last.strain)) return level;
  return 8;
}

/** What `seat`'s calls have shown: points (mid estimate), suit lengths, balance. */
function inferSeat(calls, seat) {
  const info = { mid: 6, lens: { C: 0, D: 0, H: 0, S: 0 }, balanced: false, strains: [], bids: 0 };
  const p = partnerOf(seat);
  const show = (s, n) => {
    if (s !== 'NT') info.lens[s] = Math.max(info.lens[s], n);
  };
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i];
    if (c.seat !== seat) continue;
    const before = calls.slice(0, i);
    const bidsBefore = before.filter((x) => x.kind === 'bid');
    const partnerBids = bidsBefore.filter((x) => x.seat === p);
    if (c.kind === 'pass') {
      if (info.bids === 0 && bidsBefore.length === 0) info.mid = Math.min(info.mid, 6);
      else if (info.bids === 0 && partnerBids.length === 1 && bidsBefore.length === 1 && bidsBefore[0].seat === p && bidsBefore[0].level === 1) {
        info.mid = Math.min(info.mid, 3); // passed partner's one-level opening, no interference
      }
      continue;
    }
    if (c.kind === 'double') {
      info.mid = Math.max(info.mid, 12);
      continue;
    }
    if (c.kind === 'redouble') {
      info.mid = Math.max(info.mid, 10);
      continue;
    }
    const { level, strain } = c;
    const jump = level - cheapestLevel(bidsBefore, strain);
    if (bidsBefore.length === 0) {
      // Opening.
      if (strain === 'NT') {
        info.balanced = true;
        info.mid = level === 1 ? 16 : level === 2 ? 21 : 12;
      } else if (level === 1) {
        info.mid = 13;
        show(strain, isMajor(strain) ? 5 : 3);
      } else {
        info.mid = 8;
        show(strain, level === 2 ? 6 : 7);
      }
    } else if (info.bids === 0 && partnerBids.length > 0) {
      // Response (or advance of partner's overcall).
      const pFirst = partnerBids[0];
      const pStrains = partnerBids.map((b) => b.strain);
      if (strain !== 'NT' && pStrains.includes(strain)) {
        show(strain, isMajor(strain) ? 3 : 4);
        info.mid = level >= gameLevel(strain) && jump >= 1 ? 13 : jump === 0 ? 8 : 11;
      } else if (strain === 'NT') {
        info.balanced = true;
        if (pFirst.strain === 'NT') info.mid = level === 2 ? 8.5 : level >= 6 ? 18 : 12;
        else info.mid = level === 1 ? 8 : level === 2 ? 11.5 : 14;
      } else if (pFirst.strain === 'NT') {
        show(strain, level >= gameLevel(strain) ? 6 : 5);
        info.mid = level >= gameLevel(strain) ? (pFirst.level === 1 ? 11 : 6) : level === 2 && pFirst.level === 1 ? 3 : 11;
      } else {
        show(strain, jump >= 1 ? 5 : 4);
        info.mid = jump >= 1 ? 15 : level === 1 ? 8 : 11;
      }
    } else if (info.bids === 0) {
      // Overcall.
      if (strain === 'NT' && level === 1) {
        info.balanced = true;
        info.mid = 16;
      } else if (jump >= 1) {
        info.mid = 8;
        show(strain, 6);
      } else {
        info.mid = 10;
        show(strain, 5);
      }
    } else {
      // Rebid.
      const pStrains = partnerBids.map((b) => b.strain);
      const opener = calls.find((x) => x.kind === 'bid').seat === seat;
      if (strain === 'NT') {
        info.balanced = true;
        if (opener && jump >= 1 && level === 2) info.mid = Math.max(info.mid, 18);
      } else if (pStrains.includes(strain)) {
        show(strain, 4);
        if (jump >= 1 && level < gameLevel(strain)) info.mid += 3;
      } else if (info.strains.includes(strain)) {
        show(strain, 6);
        if (jump >= 1 && level < gameLevel(strain)) info.mid = Math.max(info.mid, 16);
        else if (opener && jump === 0) info.mid = Math.min(info.mid, 13);
      } else {
        show(strain, 4);
      }
    }
    info.bids++;
    if (strain !== 'NT') info.strains.push(strain);
  }
  return info;
}

function chooseCall(ctx, params, rng) {
  const { me, calls, legal } = ctx;
  const hand = ctx.hands[me] ?? [];
  const h = handInfo(hand);
  // The valuation jitter: ±randomness/2 HCP, the same for the same request.
  const jitter = (rng() - 0.5) * params.randomness;
  const hcp = h.hcp + jitter;
  const partner = partnerOf(me);
  const pInfo = inferSeat(calls, partner);
  const bids = calls.filter((c) => c.kind === 'bid');
  const lastBid = bids[bids.length - 1] ?? null;
  const myBids = bids.filter((b) => b.seat === me);
  const partnerBids = bids.filter((b) => b.seat === partner);
  const effGame = params.gameBonus - 2 * (params.aggression - 0.5);
  const pass = { kind: 'pass' };
  const find = (want) => legal.find((a) => a.kind === want.kind && (want.kind !== 'bid' || (a.level === want.level && a.strain === want.strain)));
  const bid = (level, strain) => ({ kind: 'bid', level, strain });
  const legalBid = (level, strain) => !!find(bid(level, strain));
  const A = { ctx, params, h, hcp, jitter, pInfo, bids, lastBid, myBids, partnerBids, effGame, legalBid, me, partner };

  // Penalty double: the opponents hold the auction and the defence has a big surplus.
  if (lastBid && sideOf(lastBid.seat) !== sideOf(me) && find({ kind: 'double' }) && penaltyDouble(A)) {
    return { call: { kind: 'double' }, why: 'penalty double: defence well above the tricks needed' };
  }
  // Partner doubled the opponents' last bid for penalty: leave it in.
  const lastActive = [...calls].reverse().find((c) => c.kind !== 'pass');
  if (lastActive && lastActive.kind === 'double' && lastActive.seat === partner) return { call: pass, why: "leave partner's penalty double in" };

  let pick = null;
  if (!lastBid) pick = opening(A);
  else if (sideOf(bids[0].seat) === sideOf(me)) {
    const openAt = calls.indexOf(bids[0]);
    if (bids[0].seat === partner && !calls.some((c, i) => i > openAt && c.seat === me)) pick = response(A);
    else if (bids[0].seat === me && myBids.length === 1 && partnerBids.length >= 1) pick = openerRebid(A);
  } else if (myBids.length === 0 && partnerBids.length === 0) {
    // The opponents opened and our side is silent: an overcall or nothing (no placement bids
    // here: partner would read them as an overcall's values).
    pick = overcall(A) ?? { call: pass, why: 'no overcall' };
  }
  if (pick && pick.call.kind === 'bid' && !legalBid(pick.call.level, pick.call.strain)) pick = null;
  if (pick === null) pick = placement(A);
  if (pick && pick.call.kind === 'bid' && !legalBid(pick.call.level, pick.call.strain)) pick = null;
  return pick ?? { call: pass, why: 'nothing to add' };
}

function penaltyDouble(A) {
  const { h, pInfo, lastBid, params } = A;
  const need = 8 - lastBid.level;
  let tricks = ((h.hcp + pInfo.mid) * 13) / 40;
  if (lastBid.strain !== 'NT') {
    const t = h.len[lastBid.strain];
    if (t >= 4) tricks += (t - 3) * 0.5 + (h.hcpS[lastBid.strain] >= 3 ? 0.5 : 0);
    if (pInfo.lens[lastBid.strain] > 0) tricks -= 1; // partner bid their suit: our values are in it twice
  }
  return tricks - need >= params.doubleMargin;
}

function opening(A) {
  const { h, hcp, params } = A;
  const call = (level, strain, why) => ({ call: { kind: 'bid', level, strain }, why });
  if (h.balanced && hcp >= 15 && hcp < 18) return call(1, 'NT', `1NT: ${h.hcp} HCP balanced`);
  if (h.balanced && hcp >= 20 && hcp < 23) return call(2, 'NT', `2NT: ${h.hcp} HCP balanced`);
  if (hcp < params.openMin) return { call: { kind: 'pass' }, why: `${h.hcp} HCP: below openMin ${params.openMin}` };
  let strain;
  if (h.len.S >= 5 || h.len.H >= 5) strain = h.len.S >= h.len.H ? 'S' : 'H';
  else if (h.len.D > h.len.C || (h.len.D === 4 && h.len.C === 4)) strain = 'D';
  else strain = 'C';
  return call(1, strain, `open 1${strain} with ${h.hcp} HCP`);
}

function response(A) {
  const { h, hcp, bids, partner, effGame, params } = A;
  const open = bids[0];
  const interference = bids.some((b) => sideOf(b.seat) !== sideOf(partner));
  if (interference) return null;
  const call = (level, strain, why) => ({ call: { kind: 'bid', level, strain }, why });
  const pass = (why) => ({ call: { kind: 'pass' }, why });
  const majors = ['S', 'H'];
  const long6 = majors.find((s) => h.len[s] >= 6);
  const long5 = majors.find((s) => h.len[s] >= 5);
  if (open.strain === 'NT' && open.level === 1) {
    const pts = hcp + h.lengthPts;
    if (h.balanced && slamOk(params, hcp + 16, hcp + 16)) return call(6, 'NT', 'slam values opposite 1NT');
    if (long6 && pts >= effGame - 16) return call(4, long6, `6-card major and game values opposite 1NT`);
    if (long6) return call(2, long6, '6-card major, weak: sign off');
    if (long5 && pts >= effGame - 15) return call(3, long5, '5-card major, game values: 3 forcing');
    if (hcp >= effGame - 15) return call(3, 'NT', 'game values opposite 1NT');
    if (hcp >= effGame - 17) return call(2, 'NT', 'invite opposite 1NT');
    return pass('no game opposite 1NT');
  }
  if (open.strain === 'NT' && open.level === 2) {
    if (h.balanced && slamOk(params, hcp + 21, hcp + 21)) return call(6, 'NT', 'slam values opposite 2NT');
    if (long6 && hcp >= effGame - 21) return call(4, long6, '6-card major opposite 2NT');
    if (hcp >= effGame - 21) return call(3, 'NT', 'game opposite 2NT');
    return pass('too weak opposite 2NT');
  }
  if (open.level !== 1) return null; // partner preempted: placement
  const o = open.strain;
  if (isMajor(o) && h.len[o] >= 3) {
    const sp = hcp + supportPts(h, o);
    if (slamOk(params, sp + 14, hcp + 14)) return call(6, o, `slam values with a fit for ${o}`);
    if (sp >= effGame - 12) return call(4, o, `game raise (${h.hcp} HCP + shortness)`);
    if (sp >= effGame - 15) return call(3, o, 'limit raise');
    if (sp >= 6) return call(2, o, 'simple raise');
    return pass('too weak to raise');
  }
  if (hcp < 6) return pass(`${h.hcp} HCP: too weak to respond`);
  // A 4-card major at the 1 level (up the line with 4-4).
  const oneLevelMajors = majors.filter((s) => h.len[s] >= 4 && STRAINS.indexOf(s) > STRAINS.indexOf(o));
  if (oneLevelMajors.length) {
    const s = oneLevelMajors.sort((a, b) => h.len[b] - h.len[a] || STRAINS.indexOf(a) - STRAINS.indexOf(b))[0];
    return call(1, s, `new suit ${s} at the 1 level`);
  }
  if (!isMajor(o) && h.len[o] >= (o === 'C' ? 5 : 4) && !h.balanced) {
    const sp = hcp + supportPts(h, o);
    if (sp >= effGame - 15 && sp < effGame - 12) return call(3, o, 'limit raise of the minor');
    if (sp < effGame - 15) return call(2, o, 'simple raise of the minor');
  }
  if (o === 'C' && h.len.D >= 4 && hcp < 11) return call(1, 'D', 'new suit D at the 1 level');
  if (h.balanced && hcp >= effGame - 12) return call(3, 'NT', 'game in NT, balanced');
  if (h.balanced && hcp >= effGame - 14) return call(2, 'NT', 'invite in NT, balanced');
  if (hcp >= 10) {
    const twoLevel = SUITS.filter((s) => s !== o && STRAINS.indexOf(s) < STRAINS.indexOf(o) && h.len[s] >= 4)
      .sort((a, b) => h.len[b] - h.len[a] || h.hcpS[b] - h.hcpS[a]);
    if (twoLevel.length) return call(2, twoLevel[0], `new suit ${twoLevel[0]} at the 2 level`);
    if (hcp >= effGame - 12) return call(3, 'NT', 'game values, no fit');
  }
  if (hcp <= 10) return call(1, 'NT', '1NT response');
  return null;
}

function openerRebid(A) {
  const { h, hcp, bids, me, effGame, params, pInfo } = A;
  const open = bids.find((b) => b.seat === me);
  const pr = A.partnerBids[A.partnerBids.length - 1];
  const call = (level, strain, why) => ({ call: { kind: 'bid', level, strain }, why });
  const pass = (why) => ({ call: { kind: 'pass' }, why });
  if (bids.some((b) => sideOf(b.seat) !== sideOf(me))) return null; // competition: placement
  const o = open.strain;
  const pts = hcp + h.lengthPts;
  if (o === 'NT') {
    if (pr.strain === 'NT' && pr.level === 2) return hcp >= effGame - 8.5 ? call(3, 'NT', 'accept the invitation') : pass('decline the invitation');
    if (pr.strain !== 'NT' && pr.level === 3 && isMajor(pr.strain)) return h.len[pr.strain] >= 3 ? call(4, pr.strain, 'fit for the major') : call(3, 'NT', 'no fit: 3NT');
    return pass('partner placed the contract');
  }
  if (pr.strain === o) {
    // Partner raised.
    const shown = pr.level === 2 ? 8 : pr.level === 3 ? 11 : 13;
    const total = hcp + shortPts(h, o) + h.lengthPts + shown;
    if (slamOk(params, total, hcp + shown)) return call(6, o, 'slam values after the raise');
    if (pr.level >= gameLevel(o)) return pass('partner bid game');
    if (isMajor(o)) {
      if (total >= effGame) return call(4, o, 'game after the raise');
      if (total >= effGame - 2 && pr.level === 2) return call(3, o, 'invite after the simple raise');
      return pass('no game after the raise');
    }
    if (h.balanced && hcp + shown >= effGame && stopperAll(h, o)) return call(3, 'NT', 'game in NT after the minor raise');
    if (total >= effGame + 3) return call(5, o, 'minor game');
    return pass('part-score in the minor');
  }
  if (pr.strain === 'NT') {
    const shown = pr.level === 1 ? 8 : pr.level === 2 ? 11.5 : 14;
    if (pr.level >= 3) return pass('partner bid game');
    if (h.len[o] >= 6) return hcp + h.lengthPts + shown >= effGame && isMajor(o) ? call(4, o, '6-card major to game') : call(pr.level + 1, o, 'rebid the 6-card suit');
    if (h.balanced) return hcp + shown >= effGame ? call(3, 'NT', 'game in NT') : hcp >= 18 && pr.level === 1 ? call(2, 'NT', '18–19 balanced') : pass('balanced minimum');
    const second = SUITS.filter((s) => s !== o && h.len[s] >= 4 && STRAINS.indexOf(s) < STRAINS.indexOf(o)).sort((a, b) => h.len[b] - h.len[a])[0];
    if (second && pr.level === 1) return call(2, second, 'second suit');
    return pass('nothing more to show');
  }
  // Partner bid a new suit.
  const x = pr.strain;
  const shown = pInfo.mid;
  if (h.len[x] >= 4 || (isMajor(x) && h.len[x] >= 3 && pr.level === 2)) {
    const total = pts + shortPts(h, x) + shown;
    if (slamOk(params, total, hcp + shown)) return call(6, x, 'slam values with the fit');
    if (total >= effGame + (isMajor(x) ? 0 : 3)) return call(gameLevel(x), x, 'game with the fit');
    if (total >= effGame - 2) return call(pr.level === 1 ? 3 : pr.level + 1, x, 'invitational raise');
    return call(pr.level + 1, x, 'raise partner');
  }
  if (pr.level === 1) {
    const oneLevel = SUITS.filter((s) => h.len[s] >= 4 && STRAINS.indexOf(s) > STRAINS.indexOf(x) && s !== o)[0];
    if (oneLevel && !h.balanced) return call(1, oneLevel, 'second suit at the 1 level');
  }
  if (h.len[o] >= 6) return hcp >= 16 ? call(3, o, 'jump rebid of the 6-card suit') : call(2, o, 'rebid the 6-card suit');
  if (h.balanced) {
    if (hcp + shown >= effGame) return call(3, 'NT', 'game in NT');
    if (hcp >= 18 || pr.level === 2) return call(2, 'NT', 'balanced rebid');
    return call(1, 'NT', '12–14 balanced');
  }
  const second = SUITS.filter((s) => s !== o && s !== x && h.len[s] >= 4 && STRAINS.indexOf(s) < STRAINS.indexOf(o)).sort((a, b) => h.len[b] - h.len[a])[0];
  if (second) return call(2, second, 'second suit');
  return h.len[o] >= 5 ? call(2, o, 'rebid the 5-card suit') : call(1, 'NT', 'no better rebid');
}

const stopperAll = (h, except) => SUITS.every((s) => s === except || stopper(h, s) || h.len[s] >= 4);

function overcall(A) {
  const { h, hcp, bids, params } = A;
  const theirs = bids[0].strain;
  const call = (level, strain, why) => ({ call: { kind: 'bid', level, strain }, why });
  if (h.balanced && hcp >= 15 && hcp <= 18 && (theirs === 'NT' || stopper(h, theirs)) && A.legalBid(1, 'NT')) return call(1, 'NT', '1NT overcall: 15–18 with a stopper');
  if (hcp < params.overcallMin || hcp > 18) return null;
  const suits = SUITS.filter((s) => s !== theirs && h.len[s] >= 5 && (h.quality[s] >= 2 || h.len[s] >= 6))
    .sort((a, b) => h.len[b] - h.len[a] || h.quality[b] - h.quality[a] || STRAINS.indexOf(b) - STRAINS.indexOf(a));
  for (const s of suits) {
    const level = cheapestLevel(bids, s);
    if (level === 1) return call(1, s, `overcall 1${s}: good suit, ${h.hcp} HCP`);
    if (level === 2 && (h.len[s] >= 6 || (params.aggression >= 0.5 && hcp >= params.overcallMin + 3)) && hcp >= params.overcallMin + 2) {
      return call(2, s, `overcall 2${s}: good suit, ${h.hcp} HCP`);
    }
  }
  return null;
}

/** The contract our combined values are worth, bid toward it if the auction is below it. */
function placement(A) {
  const { h, hcp, pInfo, lastBid, me, partner, effGame, params, myBids } = A;
  if (myBids.length >= 4) return null;
  const fit = (s) => h.len[s] + pInfo.lens[s];
  const lott = (s) => fit(s) - 6 + (params.aggression >= 0.75 ? 1 : params.aggression <= 0.25 ? -1 : 0);
  const ourHolds = lastBid && sideOf(lastBid.seat) === sideOf(me);
  const combinedHcp = hcp + pInfo.mid;

  // The strain.
  let strain = null;
  const majorFit = ['S', 'H'].filter((s) => fit(s) >= 8 && pInfo.lens[s] > 0).sort((a, b) => fit(b) - fit(a));
  const minorFit = ['D', 'C'].filter((s) => fit(s) >= 8 && pInfo.lens[s] > 0).sort((a, b) => fit(b) - fit(a));
  const ntOk = !h.hasSingleton && (h.balanced || pInfo.balanced);
  if (majorFit.length) strain = majorFit[0];
  else if (ntOk && combinedHcp >= 20) strain = 'NT';
  else if (minorFit.length) strain = minorFit[0];
  else {
    const own = SUITS.filter((s) => h.len[s] >= 6).sort((a, b) => h.len[b] - h.len[a] || STRAINS.indexOf(b) - STRAINS.indexOf(a))[0];
    const theirs = SUITS.filter((s) => pInfo.lens[s] >= 5 && h.len[s] >= 2).sort((a, b) => fit(b) - fit(a))[0];
    strain = own ?? theirs ?? (!h.hasSingleton ? 'NT' : SUITS.slice().sort((a, b) => h.len[b] - h.len[a])[0]);
  }
  const supporting = strain !== 'NT' && pInfo.lens[strain] >= h.len[strain] && fit(strain) >= 8;
  const myPts = strain === 'NT' ? hcp + (h.longest >= 5 ? 1 : 0) : supporting ? hcp + supportPts(h, strain) : hcp + h.lengthPts;
  const combined = myPts + pInfo.mid;
  const fitted = strain === 'NT' || fit(strain) >= 8;
  // No fit but game values: 3NT unless void (a singleton in partner's suit is fine).
  if (strain !== 'NT' && !fitted && combined >= effGame && !h.hasVoid) strain = 'NT';
  // A minor game needs more; 3NT is the cheaper game when nobody is short.
  if (!isMajor(strain) && strain !== 'NT' && combined >= effGame && combined < effGame + 3 && !h.hasSingleton) strain = 'NT';
  const gl = gameLevel(strain);
  const gameNeed = strain === 'NT' || isMajor(strain) ? effGame : effGame + 3;
  let target;
  if (slamOk(params, combined, combinedHcp) && (strain === 'NT' || fit(strain) >= 8)) target = 6;
  else if (combined >= gameNeed && (strain === 'NT' || fit(strain) >= 8 || h.len[strain] >= 7)) target = gl;
  else {
    const byStrength = combined >= 23 ? 3 : combined >= 20 ? 2 : combined >= 17 ? 1 : 0;
    if (strain !== 'NT' && fit(strain) >= 8) target = Math.max(byStrength, combined >= 14 ? lott(strain) : 0);
    else target = Math.min(byStrength, 2);
    target = Math.min(target, gl - 1);
  }
  const base = (level, s, why) => ({ call: { kind: 'bid', level, strain: s }, why: `${why} (combined ≈ ${Math.round(combined)}, partner ≈ ${pInfo.mid})` });
  if (target <= 0) return null;
  const cheapest = (s) => cheapestLevel(A.bids, s);
  const theirSuits = A.bids.filter((b) => sideOf(b.seat) !== sideOf(me) && b.strain !== 'NT').map((b) => b.strain);
  // Only bids partner will read right: a new suit above the 1 level and NT bids promise values.
  const call = (level, s, why) => {
    const game = level >= gameLevel(s);
    if (s === 'NT') {
      if (!ourHolds && !game && (combined < 23 || !theirSuits.every((t) => stopper(h, t)))) return null;
      if (!game && hcp < (level === 1 ? 6 : 10)) return null;
    } else if (!game && level >= 2 && pInfo.lens[s] === 0 && !A.myBids.some((b) => b.strain === s) && hcp < 10) return null;
    return base(level, s, why);
  };
  if (ourHolds) {
    if (lastBid.strain === strain) {
      if (lastBid.level >= target) return null;
      return call(target >= gl ? target : cheapest(strain), strain, 'raise toward our contract');
    }
    if (lastBid.level >= target) return null;
    const ps = lastBid.strain;
    // Game push: in partner's strain when it is playable.
    if (target >= gl && lastBid.seat === partner) {
      if (ps === 'NT' && combined >= effGame && lastBid.level < 3 && !h.hasVoid) return call(3, 'NT', 'game in partner\'s NT');
      if (ps !== 'NT' && fit(ps) >= 8 && combined >= (isMajor(ps) ? effGame : effGame + 3) && lastBid.level < gameLevel(ps)) return call(gameLevel(ps), ps, 'game in partner\'s suit');
    }
    const level = target >= gl ? target : cheapest(strain);
    return level <= target ? call(level, strain, 'our best strain') : null;
  }
  // Entering or competing.
  const cl = cheapest(strain);
  if (cl > target) return null;
  return call(target >= gl ? target : cl, strain, target >= gl ? 'bid our game' : 'compete');
}

// ---- the play -------------------------------------------------------------------------------

function beats(a, b, trump) {
  if (suitOf(a) === suitOf(b)) return rankOf(a) > rankOf(b);
  return trump !== null && suitOf(a) === trump;
}

function trickWinner(trick, trump) {
  let best = trick[0];
  for (const e of trick.slice(1)) if (beats(e[1], best[1], trump)) best = e;
  return best;
}

function choosePlay(ctx, params, rng) {
  const { me, contract, trick } = ctx;
  const legalCards = ctx.legal.filter((a) => a.kind === 'play').map((a) => a.card);
  if (legalCards.length === 1) return { card: legalCards[0], why: 'only card' };
  const trump = contract && contract.strain !== 'NT' ? contract.strain : null;
  const declarer = contract ? contract.declarer : null;
  const dummy = declarer === null ? null : partnerOf(declarer);
  const partner = partnerOf(me);
  const declaring = declarer !== null && sideOf(me) === sideOf(declarer);
  const myHand = ctx.hands[me] ?? legalCards;
  const visible = ctx.hands.map((hnd, s) => (s === me ? myHand : hnd));
  const known = new Set([...ctx.played]);
  for (const hnd of visible) if (hnd) for (const c of hnd) known.add(c);
  for (const [, c] of trick) known.add(c);
  const unseen = DECK.filter((c) => !known.has(c));
  const P = { ctx, params, rng, me, partner, trump, declarer, dummy, declaring, myHand, visible, unseen, legalCards, trick };
  if (trick.length === 0) return declaring ? declarerLead(P) : defenderLead(P);
  return follow(P);
}

/** Could an opponent still to play this trick beat `card`? (Hidden hands: any unseen card.) */
function laterThreat(P, card) {
  const { trick, me, trump, visible, unseen } = P;
  const led = suitOf(trick[0][1]);
  const later = [];
  for (let k = 1; k < 4 - trick.length; k++) later.push((me + k) % 4);
  for (const s of later) {
    if (sideOf(s) === sideOf(me)) continue;
    const hand = visible[s];
    if (hand) {
      const follows = hand.some((c) => suitOf(c) === led);
      const usable = follows ? hand.filter((c) => suitOf(c) === led) : hand;
      if (usable.some((c) => beats(c, card, trump))) return true;
    } else {
      const ledOut = unseen.filter((c) => suitOf(c) === led);
      const usable = ledOut.length ? ledOut : unseen;
      if (usable.some((c) => beats(c, card, trump))) return true;
    }
  }
  return false;
}

/** Lowest-ranked first, non-trumps before trumps. */
function cheapestOf(cards, trump) {
  return cards.slice().sort((a, b) => (suitOf(a) === trump) - (suitOf(b) === trump) || rankOf(a) - rankOf(b))[0];
}

/** The lowest card of the weakest (fewest HCP, then shortest) non-trump suit. */
function discard(P, cards) {
  const { trump } = P;
  const bySuit = new Map();
  for (const c of cards) bySuit.set(suitOf(c), [...(bySuit.get(suitOf(c)) ?? []), c]);
  const suits = [...bySuit.keys()];
  const pool = suits.filter((s) => s !== trump).length ? suits.filter((s) => s !== trump) : suits;
  const hcpOf = (s) => bySuit.get(s).reduce((n, c) => n + Math.max(0, rankOf(c) - 10), 0);
  const s = pool.sort((a, b) => hcpOf(a) - hcpOf(b) || bySuit.get(a).length - bySuit.get(b).length || SUITS.indexOf(a) - SUITS.indexOf(b))[0];
  return bySuit.get(s).slice().sort((a, b) => rankOf(a) - rankOf(b))[0];
}

/** The cheapest card equivalent to `top` in my hand: no card anyone else may hold lies between. */
function cheapestEquivalent(P, top) {
  const s = suitOf(top);
  const mine = P.myHand.filter((c) => suitOf(c) === s).sort(byRankDesc);
  const open = new Set(P.unseen);
  P.visible.forEach((hnd, seat) => {
    if (hnd && sideOf(seat) !== sideOf(P.me)) for (const c of hnd) open.add(c);
  });
  let card = top;
  for (const c of mine) {
    if (rankOf(c) >= rankOf(card)) continue;
    let gap = false;
    for (let r = rankOf(c) + 1; r < rankOf(card); r++) if (open.has(RANKS[r - 2] + s)) gap = true;
    if (gap) break;
    card = c;
  }
  return card;
}

function follow(P) {
  const { trick, trump, me } = P;
  const led = suitOf(trick[0][1]);
  // Follow suit whenever the offered cards allow it (even if more was offered).
  const inSuit = P.legalCards.filter((c) => suitOf(c) === led);
  const legalCards = inSuit.length ? inSuit : P.legalCards;
  const pos = trick.length; // 1 = second hand, 2 = third, 3 = fourth
  const [winSeat, winCard] = trickWinner(trick, trump);
  const partnerWinning = sideOf(winSeat) === sideOf(me);
  const following = legalCards.some((c) => suitOf(c) === led);
  const lowest = () => (following ? legalCards.slice().sort((a, b) => rankOf(a) - rankOf(b))[0] : discard(P, legalCards));
  const winners = legalCards.filter((c) => beats(c, winCard, trump));
  const sure = winners.filter((c) => !laterThreat(P, c));
  const ruffs = following ? [] : winners.filter((c) => suitOf(c) === trump);

  if (partnerWinning && (pos === 3 || !laterThreat(P, winCard))) return { card: lowest(), why: 'partner has the trick' };
  if (pos === 3) {
    if (winners.length) return { card: cheapestOf(winners, trump), why: 'fourth hand: win as cheaply as possible' };
    return { card: lowest(), why: 'fourth hand: cannot win' };
  }
  if (pos === 2) {
    if (sure.length) return { card: cheapestOf(sure, trump), why: 'third hand: cheapest sure winner' };
    if (!following) {
      if (!partnerWinning && ruffs.length) return { card: cheapestOf(ruffs, trump), why: 'ruff the opponents\' trick' };
      return { card: lowest(), why: 'discard' };
    }
    const top = legalCards.slice().sort(byRankDesc)[0];
    if (beats(top, winCard, trump)) return { card: cheapestEquivalent(P, top), why: 'third hand high, only as high as needed' };
    return { card: lowest(), why: 'third hand: cannot beat it' };
  }
  // Second hand: partner plays fourth; on the declaring side its hand is visible.
  const partnerHand = P.declaring ? P.visible[P.partner] : null;
  const partnerCanWin = !!partnerHand && (() => {
    const f = partnerHand.filter((c) => suitOf(c) === led);
    return (f.length ? f : partnerHand).some((c) => beats(c, winCard, trump));
  })();
  if (!following) {
    if (ruffs.length && !partnerCanWin) return { card: cheapestOf(ruffs, trump), why: 'ruff the opponents\' trick' };
    return { card: lowest(), why: 'second hand: discard' };
  }
  if (partnerHand && !partnerCanWin && sure.length) return { card: cheapestOf(sure, trump), why: 'second hand: take a sure trick partner cannot' };
  if (rankOf(trick[0][1]) >= 11 && winners.length && !partnerCanWin) return { card: cheapestOf(winners, trump), why: 'cover an honour with an honour' };
  return { card: lowest(), why: 'second hand low' };
}

/** Suits by length of my hand; the card helpers for leads. */
function suitCards(hand, s) {
  return hand.filter((c) => suitOf(c) === s).sort(byRankDesc);
}

/** The top card of a sequence headed by an honour (AK, KQ, QJ, JT, T9 with an honour), or null. */
function sequenceTop(cards) {
  if (cards.length < 2) return null;
  const [a, b] = cards;
  if (rankOf(a) >= 10 && rankOf(a) - rankOf(b) === 1) return a;
  return null;
}

function fourthBest(cards) {
  return cards.length >= 4 ? cards[3] : cards[cards.length - 1];
}

/** Which suits partner and the opponents bid, from the auction. */
function bidSuits(ctx, seatFilter) {
  return ctx.calls.filter((c) => c.kind === 'bid' && c.strain !== 'NT' && seatFilter(c.seat)).map((c) => c.strain);
}

function defenderLead(P) {
  const { ctx, trump, myHand, params, rng, me, partner } = P;
  const opening = ctx.played.size === 0 && ctx.handSizes.every((n) => n === 13) && myHand.length === 13;
  const partnerSuits = bidSuits(ctx, (s) => s === partner).filter((s) => s !== trump);
  const theirSuits = new Set(bidSuits(ctx, (s) => sideOf(s) !== sideOf(me)));
  const suits = SUITS.filter((s) => myHand.some((c) => suitOf(c) === s));
  const side = suits.filter((s) => s !== trump);
  const pool = side.length ? side : suits;
  const tiny = () => rng() * params.randomness * 0.5;
  // depth: how much the defence reasons with — 1 its own hand, 2 also the auction (partner's
  // suit, the opponents' suits), 3 also dummy's cards (masters, ruffs, leading through dummy).
  const depth = params.depth;
  const dummyHand = depth >= 3 && P.dummy !== null ? P.visible[P.dummy] : null;

  // Partner's suit.
  const ps = depth >= 2 ? partnerSuits.reverse().find((s) => suits.includes(s)) : null;
  if (ps) {
    const cs = suitCards(myHand, ps);
    const seq = sequenceTop(cs);
    const card = cs.length <= 2 || seq ? cs[0] : cs.some((c) => rankOf(c) >= 11) ? cs[cs.length - 1] : cs[0];
    return { card, why: `lead partner's suit ${ps}` };
  }
  if (!opening) {
    // Cash a sure winner in a side suit (not into a visible void with trumps).
    for (const s of pool) {
      const top = suitCards(myHand, s)[0];
      const master = !P.unseen.some((c) => suitOf(c) === s && rankOf(c) > rankOf(top))
        && !(dummyHand?.some((c) => suitOf(c) === s && rankOf(c) > rankOf(top)));
      const ruffable = trump && dummyHand && !dummyHand.some((c) => suitOf(c) === s) && dummyHand.some((c) => suitOf(c) === trump);
      if (master && !ruffable) return { card: top, why: `cash the master ${top}` };
    }
  }
  // Score each candidate suit; the highest score leads.
  const scored = pool.map((s) => {
    const cs = suitCards(myHand, s);
    const seq = sequenceTop(cs);
    const hasAK = cs.length >= 2 && rankOf(cs[0]) === 14 && rankOf(cs[1]) === 13;
    const honour = cs.some((c) => rankOf(c) >= 11);
    let score = 0, card;
    if (trump === null) {
      const longScore = cs.length * 2 + cs.reduce((n, c) => n + Math.max(0, rankOf(c) - 10), 0) * 0.3;
      if (seq && (cs.length >= 3 || params.leadStyle === 0)) {
        card = seq;
        score = (params.leadStyle === 0 ? 20 : 10) + longScore;
      } else {
        card = cs.length >= 4 ? fourthBest(cs) : cs[0];
        score = longScore + (params.leadStyle === 1 ? 8 : 0);
      }
    } else if (hasAK) {
      card = cs[0];
      score = 30;
    } else if (seq) {
      card = seq;
      score = 25;
    } else if (cs.length === 1 && myHand.some((c) => suitOf(c) === trump)) {
      card = cs[0];
      score = 22 - (rankOf(cs[0]) >= 13 ? 10 : 0);
    } else if (params.leadStyle === 1) {
      card = cs.length === 2 ? cs[0] : honour ? fourthBest(cs) : cs[0];
      score = 10 + cs.length - (rankOf(cs[0]) === 14 ? 6 : 0);
    } else {
      card = honour ? fourthBest(cs) : cs[0];
      score = 8 - (rankOf(cs[0]) === 14 ? 6 : 0) + (!honour && cs.length === 3 ? 3 : 0) - cs.length * 0.5;
    }
    if (depth >= 2 && theirSuits.has(s)) score -= 6;
    if (dummyHand && !opening) {
      // Through dummy's strength (dummy plays next), up to its weakness (dummy plays last).
      const dummyHonours = dummyHand.filter((c) => suitOf(c) === s && rankOf(c) >= 11).length;
      const dummyNext = P.dummy === (me + 1) % 4;
      score += dummyNext ? 2 * Math.min(dummyHonours, 2) : -2 * Math.min(dummyHonours, 2);
    }
    return { s, card, score: score + tiny() };
  });
  // Passive trump lead vs a suit contract.
  if (trump && params.leadStyle === 0) {
    const ts = suitCards(myHand, trump);
    if (ts.length >= 2 && ts.length <= 3 && !ts.some((c) => rankOf(c) >= 11)) scored.push({ s: trump, card: ts[ts.length - 1], score: 14 + tiny() });
  }
  scored.sort((a, b) => b.score - a.score || SUITS.indexOf(b.s) - SUITS.indexOf(a.s));
  return { card: scored[0].card, why: `${opening ? 'opening lead' : 'lead'} in ${scored[0].s}` };
}

function declarerLead(P) {
  const { trump, myHand, partner, visible, unseen, params, rng } = P;
  const partnerHand = visible[partner] ?? [];
  const ours = (s) => myHand.filter((c) => suitOf(c) === s).length + partnerHand.filter((c) => suitOf(c) === s).length;
  const masterIn = (hand, s) => {
    const top = suitCards(hand, s)[0];
    return top && !unseen.some((c) => suitOf(c) === s && rankOf(c) > rankOf(top)) ? top : null;
  };
  const tiny = () => rng() * params.randomness * 0.5;
  if (trump) {
    // Draw trumps. With a trick history `out` is exact and the rule is "while we hold more than
    // are out"; without one (CATArena's state) unseen trumps include those already played, so:
    // while our side holds the master trump and at least 3 trumps, or early with an 8+ fit.
    const out = unseen.filter((c) => suitOf(c) === trump).length;
    const mine = suitCards(myHand, trump);
    const m = masterIn(myHand, trump);
    const pm = masterIn(partnerHand, trump);
    const exact = P.ctx.played.size > 0;
    const draw = exact ? ours(trump) > out : (!!(m || pm) && ours(trump) >= 3) || (myHand.length >= 12 && ours(trump) >= 8);
    if (out > 0 && mine.length && draw) {
      if (m && (!pm || rankOf(m) > rankOf(pm))) return { card: cheapestEquivalent(P, m), why: `draw trumps (${out} unseen)` };
      return { card: mine[mine.length - 1], why: `draw trumps toward partner (${out} unseen)` };
    }
  }
  // No trump: when the sure tricks do not make the contract, establish a long suit first
  // (cashing early only sets up the defenders' suits).
  if (!trump && P.ctx.contract) {
    const topTricks = (s) => {
      const both = [...suitCards(myHand, s), ...suitCards(partnerHand, s)].sort(byRankDesc);
      const high = Math.max(0, ...unseen.filter((c) => suitOf(c) === s).map(rankOf));
      let k = 0;
      while (k < both.length && rankOf(both[k]) > high) k++;
      return Math.min(k, Math.max(suitCards(myHand, s).length, suitCards(partnerHand, s).length));
    };
    const sure = SUITS.reduce((n, s) => n + topTricks(s), 0);
    const need = P.ctx.contract.level + 6 - P.ctx.tricksWon[sideOf(P.me)];
    if (sure < need) {
      const long = SUITS.filter((s) => myHand.some((c) => suitOf(c) === s) && ours(s) >= 7 && topTricks(s) < ours(s) - 2)
        .sort((a, b) => ours(b) - ours(a) || SUITS.indexOf(b) - SUITS.indexOf(a))[0];
      if (long) {
        const cs = suitCards(myHand, long);
        const seq = sequenceTop(cs);
        const pm = masterIn(partnerHand, long);
        const card = pm ? cs[cs.length - 1] : seq ?? (topTricks(long) > 0 && masterIn(myHand, long) ? cheapestEquivalent(P, masterIn(myHand, long)) : cs[cs.length - 1]);
        return { card, why: `establish ${long} (${sure} sure tricks, ${need} needed)` };
      }
    }
  }
  // Cash sure winners: the short hand's masters first; else lead low toward partner's master.
  const cands = [];
  for (const s of SUITS) {
    if (s === trump) continue;
    const mineS = suitCards(myHand, s), theirs = suitCards(partnerHand, s);
    if (!mineS.length) continue;
    const m = masterIn(myHand, s);
    const pm = masterIn(partnerHand, s);
    const oppVoidRuff = trump && unseen.filter((c) => suitOf(c) === s).length === 0 && unseen.some((c) => suitOf(c) === trump);
    if (oppVoidRuff) continue;
    if (m && (!pm || rankOf(m) > rankOf(pm)) && (mineS.length <= theirs.length || !pm)) cands.push({ card: cheapestEquivalent(P, m), score: 20 + (mineS.length <= theirs.length ? 2 : 0) + tiny(), why: `cash ${s}` });
    else if (pm && mineS.length) cands.push({ card: mineS[mineS.length - 1], score: 18 + tiny(), why: `lead toward partner's master in ${s}` });
  }
  if (trump && myHand.some((c) => suitOf(c) !== trump)) {
    // A ruff in partner's hand: a suit partner is void in while it still has trumps.
    const pTrumps = partnerHand.filter((c) => suitOf(c) === trump).length;
    if (pTrumps > 0 && partnerHand.length) {
      for (const s of SUITS) {
        if (s === trump) continue;
        const mineS = suitCards(myHand, s);
        if (mineS.length && !partnerHand.some((c) => suitOf(c) === s)) cands.push({ card: mineS[mineS.length - 1], score: 16 + tiny(), why: `ruff ${s} in partner's hand` });
      }
    }
  }
  if (cands.length) {
    cands.sort((a, b) => b.score - a.score || rankOf(a.card) - rankOf(b.card));
    return { card: cands[0].card, why: cands[0].why };
  }
  // Establish: low from the longest combined side suit (trumps last).
  const suits = SUITS.filter((s) => myHand.some((c) => suitOf(c) === s));
  const pool = suits.filter((s) => s !== trump).length ? suits.filter((s) => s !== trump) : suits;
  pool.sort((a, b) => ours(b) - ours(a) || SUITS.indexOf(b) - SUITS.indexOf(a));
  const cs = suitCards(myHand, pool[0]);
  const seq = sequenceTop(cs);
  return { card: seq ?? cs[cs.length - 1], why: `establish ${pool[0]}` };
}

// ---- the variant's exchange -----------------------------------------------------------------

function chooseExchange(ctx) {
  const { me, contract, calls } = ctx;
  const cards = ctx.legal.filter((a) => a.kind === 'exchange').map((a) => a.card);
  const hand = cards.length ? cards : ctx.hands[me] ?? [];
  const partner = partnerOf(me);
  const trump = contract && contract.strain !== 'NT' ? contract.strain : null;
  // Partner's own suits: those partner named before I did, latest first.
  const firstBidder = new Map();
  for (const c of calls) if (c.kind === 'bid' && c.strain !== 'NT' && sideOf(c.seat) === sideOf(me) && !firstBidder.has(c.strain)) firstBidder.set(c.strain, c.seat);
  const partnerSuits = [...firstBidder].filter(([, seat]) => seat === partner).map(([s]) => s).reverse();
  for (const s of partnerSuits) {
    const cs = suitCards(hand, s);
    if (cs.length) return { card: cs[0], why: `the highest card of partner's suit ${s}` };
  }
  if (trump && contract.declarer === partner) {
    const ts = suitCards(hand, trump);
    if (ts.length) return { card: ts[0], why: 'the highest trump, to the declarer' };
  }
  const suits = SUITS.filter((s) => hand.some((c) => suitOf(c) === s) && s !== trump);
  const pool = suits.length ? suits : SUITS.filter((s) => hand.some((c) => suitOf(c) === s));
  pool.sort((a, b) => suitCards(hand, a).length - suitCards(hand, b).length || SUITS.indexOf(a) - SUITS.indexOf(b));
  const cs = suitCards(hand, pool[0]);
  return { card: cs[cs.length - 1], why: `the lowest card of the shortest suit ${pool[0]}` };
}

// ---- entry point ----------------------------------------------------------------------------

/** Playable cards from the state when the request carries no legal_actions. */
function derivePlays(ctx) {
  const hand = ctx.hands[ctx.me] ?? [];
  if (!ctx.trick.length) return hand;
  const led = suitOf(ctx.trick[0][1]);
  const f = hand.filter((c) => suitOf(c) === led);
  return f.length ? f : hand;
}

export function decide(body, params = DEFAULTS) {
  const ctx = parseRequest(body);
  const rng = mulberry32(contentHash(ctx, params.seed));
  if (!ctx.legal.length) {
    // No legal_actions (CATArena's retry body, or its server fetch failed): derive what we can.
    if (ctx.phase === 'playing') ctx.legal = derivePlays(ctx).map((card) => ({ reply: { type: 'play', card }, kind: 'play', card }));
    else if (ctx.phase === 'exchanging') ctx.legal = (ctx.hands[ctx.me] ?? []).map((card) => ({ reply: { type: 'exchange', card }, kind: 'exchange', card }));
    if (!ctx.legal.length) return { action: { type: 'call', call_type: 'pass' }, why: 'no legal actions given: pass' };
  }
  const pick = (pred) => ctx.legal.find(pred)?.reply;
  if (ctx.legal.some((a) => a.kind === 'play')) {
    const d = choosePlay(ctx, params, rng);
    return { action: pick((a) => a.kind === 'play' && a.card === d.card) ?? ctx.legal.find((a) => a.kind === 'play').reply, why: d.why };
  }
  if (ctx.legal.some((a) => a.kind === 'exchange')) {
    const d = chooseExchange(ctx);
    return { action: pick((a) => a.kind === 'exchange' && a.card === d.card) ?? ctx.legal.find((a) => a.kind === 'exchange').reply, why: d.why };
  }
  const d = chooseCall(ctx, params, rng);
  const c = d.call;
  const chosen = pick((a) => a.kind === c.kind && (c.kind !== 'bid' || (a.level === c.level && a.strain === c.strain)));
  if (chosen) return { action: chosen, why: d.why };
  return { action: pick((a) => a.kind === 'pass') ?? ctx.legal[0].reply, why: `${d.why} (not legal: pass)` };
}
