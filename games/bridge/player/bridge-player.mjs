// Bridge as the LLM-player sees it (agents/llm-player/bot/games.mjs loads this file, copied next
// to it through the descriptor's playerLibs):
//   POST /get_action  legal = legal_actions
//
// createPlayer(config, kit) → {name, defaultMoveMs, turnPath, routes, turn(body)}; the kit is games.mjs's
// BadRequest and HTTP helpers.

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** How the system prompt names the game. */
const NAME = 'duplicate contract bridge';
/** The per-action deadline when game.json and the environment name none: the arena's default. */
const DEFAULT_MOVE_MS = 10_000;

export function createPlayer(_config, { BadRequest }) {
  const SEATS = ['North', 'East', 'South', 'West'];
  const STRAINS = ['C', 'D', 'H', 'S', 'NT'];
  const RANKS = '23456789TJQKA';
  const isCard = (c) => typeof c === 'string' && c.length === 2 && RANKS.includes(c[0]) && 'CDHS'.includes(c[1]);
  const seat = (id) => SEATS[id] ?? `seat ${id}`;

  function option(a) {
    if (!isObject(a)) return null;
    if (a.type === 'call') {
      if (a.call_type === 'pass' || a.call_type === 'double' || a.call_type === 'redouble') return { label: a.call_type, value: { type: 'call', call_type: a.call_type } };
      if (a.call_type === 'bid' && Number.isInteger(a.level) && a.level >= 1 && a.level <= 7 && STRAINS.includes(a.suit)) {
        return { label: `bid ${a.level}${a.suit}`, aliases: [`${a.level}${a.suit}`], value: { type: 'call', call_type: 'bid', level: a.level, suit: a.suit } };
      }
      return null;
    }
    if ((a.type === 'play' || a.type === 'exchange') && isCard(a.card)) return { label: `${a.type} ${a.card}`, aliases: [a.card], value: { type: a.type, card: a.card } };
    return null;
  }

  function handText(p) {
    if (!Array.isArray(p?.hand)) return null;
    const bySuit = { S: [], H: [], D: [], C: [] };
    for (const c of p.hand) {
      const card = isObject(c) ? `${c.rank}${c.suit}` : String(c);
      if (bySuit[card[1]]) bySuit[card[1]].push(card[0]);
    }
    const order = (r) => -RANKS.indexOf(r);
    return Object.entries(bySuit).map(([s, rs]) => `${s}: ${rs.sort((a, b) => order(a) - order(b)).join('') || '-'}`).join('  ') + (p.high_card_points !== undefined ? ` (${p.high_card_points} HCP)` : '');
  }

  function stateText(b, s) {
    const me = b.player_id;
    const players = Array.isArray(s.players) ? s.players : [];
    const lines = [
      `You are ${seat(me)} (player ${me}); your partner is ${seat((me + 2) % 4)}. Board ${s.board_id ?? '?'}, dealer ${seat(s.dealer_id)}, vulnerable: ${Array.isArray(s.vulnerability) ? `NS ${s.vulnerability[0] ? 'yes' : 'no'}, EW ${s.vulnerability[1] ? 'yes' : 'no'}` : '?'}. Phase: ${s.phase}.`,
    ];
    for (const p of players) {
      const hand = handText(p);
      if (hand) lines.push(`${seat(p.player_id)}'s hand${p.player_id === me ? ' (yours)' : p.is_dummy ? ' (dummy)' : ''}: ${hand}`);
    }
    const calls = Array.isArray(s.bidding?.calls) ? s.bidding.calls : [];
    if (calls.length) lines.push(`Auction: ${calls.map((c) => `${seat(c.player_id)} ${c.call_type === 'bid' ? `${c.level}${c.suit}` : c.call_type}`).join(', ')}.`);
    const contract = s.bidding?.contract ?? s.contract;
    if (isObject(contract)) lines.push(`Contract: ${contract.level}${contract.suit}${contract.doubling === 2 ? ' doubled' : contract.doubling === 4 ? ' redoubled' : ''} by ${seat(contract.declarer_id)}; dummy ${seat(s.dummy_id)}.`);
    if (Array.isArray(s.current_trick) && s.current_trick.length) lines.push(`Current trick: ${s.current_trick.filter(Array.isArray).map(([id, c]) => `${seat(id)} ${c}`).join(', ')}.`);
    if (Array.isArray(s.tricks_won)) lines.push(`Tricks won: NS ${s.tricks_won[0]}, EW ${s.tricks_won[1]}.`);
    if (s.my_exchanged_card) lines.push(`Card received from partner in the exchange: ${s.my_exchanged_card}.`);
    if (s.phase === 'playing' && s.dummy_id === me) lines.push("You are choosing the dummy's card (your partner, the declarer, plays this hand with you).");
    lines.push('Cards: rank then suit (T = ten; S H D C). Bids: level 1-7 and strain C < D < H < S < NT.');
    return lines.join('\n');
  }

  const drain = async () => ({ status: 'ok' });
  return {
    name: NAME,
    defaultMoveMs: DEFAULT_MOVE_MS,
    turnPath: '/get_action',
    lenientBodies: ['/join_game', '/leave_game'],
    routes: { 'POST /join_game': drain, 'POST /leave_game': drain },
    async turn(body) {
      const s = body.game_state;
      if (!isObject(s)) throw new BadRequest('game_state must be an object');
      const list = body.legal_actions ?? [];
      if (!Array.isArray(list)) throw new BadRequest('legal_actions must be a list');
      let options = list.map(option).filter(Boolean);
      if (list.length > 0 && options.length === 0) throw new BadRequest('legal_actions has no known action');
      if (!options.length) options = [option({ type: 'call', call_type: 'pass' })];
      const gameId = typeof body.game_id === 'string' ? body.game_id : '';
      return { gameId, state: stateText(body, s), options, answer: (o) => ({ action: o.value }) };
    },
  };
}

/** The game named in game.json. */
