// The four games as the LLM-player sees them. Each game turns one decision request of its
// CATArena protocol into a Turn: the game id, the state as text for the prompt, the legal actions
// as numbered options ({label, aliases?, value}), and how an option becomes the HTTP answer.
//   gomoku  POST /get_move   legal = empty cells minus the variant's forbidden cells (from
//                            join_game's forbidden_points or the game server's /forbidden_points)
//   chess   POST /move       legal = chess-core.mjs (copied next to this file for chess games)
//   holdem  POST /action     legal = valid_actions (a raise range offered as a few sizes)
//   bridge  POST /get_action legal = legal_actions
// Any other game brings its own <game>-player.mjs (see gameFolderPlayer); a Turn may then carry
// `prompt` (the whole user prompt, e.g. for a free-text answer) and `free` (reads a free answer).

export class BadRequest extends Error {}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The game server: env CATARENA_GAME_SERVER (set by catarena), else what the request said, else CATArena's port. */
function serverUrl(fromRequest, fallbackPort) {
  const v = (process.env.CATARENA_GAME_SERVER || fromRequest || '').trim();
  if (!v) return `http://localhost:${fallbackPort}`;
  if (/^\d+$/.test(v)) return `http://localhost:${v}`;
  return v.replace(/\/+$/, '');
}

/** GET url → JSON, with "localhost" tried as 127.0.0.1 then ::1; null on any failure. */
async function getJson(url, timeoutMs) {
  const u = new URL(url);
  const hosts = u.hostname === 'localhost' ? ['127.0.0.1', '[::1]'] : [u.hostname];
  const until = Date.now() + timeoutMs;
  for (const host of hosts) {
    u.hostname = host;
    const left = until - Date.now();
    if (left < 50) break;
    try {
      const res = await fetch(u.href, { signal: AbortSignal.timeout(left) });
      if (res.status === 200) return await res.json();
      return null;
    } catch {
      // try the next address
    }
  }
  return null;
}

/** A bounded map (several games at once, none remembered forever). */
function boundedSet(map, key, value) {
  map.set(key, value);
  if (map.size > 1000) map.delete(map.keys().next().value);
}

// ---- Gomoku -------------------------------------------------------------------------------------

function gomoku(config) {
  /** game_id → { color, serverUrl, forbidden: [i, j][] | null } */
  const games = new Map();

  function parsePoints(points) {
    if (!Array.isArray(points)) return null;
    const out = points.filter((p) => Array.isArray(p) && p.length === 2 && p.every(Number.isInteger));
    return out.length === points.length ? out : null;
  }

  async function forbiddenOf(gameId, game) {
    if (config.variant !== 'variant') return [];
    if (game.forbidden) return game.forbidden;
    const body = await getJson(`${serverUrl(game.serverUrl, 20000)}/games/${encodeURIComponent(gameId)}/forbidden_points`, 2000);
    const points = parsePoints(body?.forbidden_points);
    if (points) game.forbidden = points;
    else console.log(`[llm-player] game=${gameId}: could not read the forbidden cells; retrying next move`);
    return points ?? [];
  }

  return {
    turnPath: '/get_move',
    routes: {
      'POST /join_game': async (body) => {
        const gameId = body.game_id;
        if (typeof gameId !== 'string' || !gameId) throw new BadRequest('game_id required');
        const game = { color: body.my_color, serverUrl: typeof body.game_server_url === 'string' ? body.game_server_url : '', forbidden: parsePoints(body.forbidden_points) };
        boundedSet(games, gameId, game);
        await forbiddenOf(gameId, game);
        return { status: 'joined', game_id: gameId, my_color: body.my_color };
      },
      'POST /leave_game': async (body) => {
        games.delete(body.game_id);
        return { status: 'left', game_id: body.game_id ?? null };
      },
    },
    async turn(body) {
      const board = body.board;
      if (!Array.isArray(board) || board.length < 5 || board.length > 25) throw new BadRequest('board must be N×N');
      for (const row of board) {
        if (!Array.isArray(row) || row.length !== board.length || row.some((v) => v !== 0 && v !== 1 && v !== 2)) throw new BadRequest('board must be N×N of 0, 1, 2');
      }
      const me = body.current_player;
      if (me !== 'black' && me !== 'white') throw new BadRequest("current_player must be 'black' or 'white'");
      const gameId = typeof body.game_id === 'string' ? body.game_id : '';
      let game = games.get(gameId);
      if (!game) boundedSet(games, gameId, (game = { color: me, serverUrl: '', forbidden: null }));
      const forbidden = await forbiddenOf(gameId, game);
      const banned = new Set(forbidden.map(([i, j]) => `${i},${j}`));
      const options = [];
      board.forEach((row, i) => row.forEach((v, j) => {
        if (v === 0 && !banned.has(`${i},${j}`)) options.push({ label: `(${i},${j})`, value: [i, j] });
      }));
      const n = board.length;
      const head = `    ${Array.from({ length: n }, (_, j) => String(j).padStart(2)).join(' ')}`;
      const rows = board.map((row, i) => `${String(i).padStart(3)} ${row.map((v, j) => ` ${v === 1 ? 'X' : v === 2 ? 'O' : banned.has(`${i},${j}`) ? '#' : '.'}`).join(' ')}`);
      const stones = board.flat().filter((v) => v !== 0).length;
      const state = [
        `You play ${me} (${me === 'black' ? 'X' : 'O'}); your opponent plays ${me === 'black' ? 'white (O)' : 'black (X)'}. Stones on the board: ${stones}.`,
        `Board (row i down, column j across; X black, O white, . empty${banned.size ? ', # forbidden' : ''}):`,
        head,
        ...rows,
        'A move (i,j) puts your stone on row i, column j.',
      ].join('\n');
      return { gameId, state, options, answer: (o) => ({ move: o.value }) };
    },
  };
}

// ---- Chess --------------------------------------------------------------------------------------

async function chess(config) {
  let core;
  try {
    core = await import('./chess-core.mjs');
  } catch (err) {
    throw new Error(`chess needs chess-core.mjs next to bot.mjs (the LLM-player agent copies it in): ${err.message}`);
  }
  /** game_id → promise of obstacle squares */
  const obstacles = new Map();

  function obstaclesOf(gameId) {
    if (!gameId) return Promise.resolve([]);
    let p = obstacles.get(gameId);
    if (!p) {
      p = getJson(`${serverUrl('', 9021)}/games/${encodeURIComponent(gameId)}/state`, 2000).then((state) => {
        if (!Array.isArray(state?.obstacles)) {
          obstacles.delete(gameId); // retried next move
          return [];
        }
        return state.obstacles.filter((s) => typeof s === 'string' && /^[a-h][1-8]$/.test(s));
      });
      boundedSet(obstacles, gameId, p);
    }
    return p;
  }

  function boardText(placement) {
    const lines = placement.split('/').map((rank, r) => {
      const cells = [];
      for (const ch of rank) {
        if (/\d/.test(ch)) for (let k = 0; k < Number(ch); k++) cells.push('.');
        else cells.push(ch);
      }
      return `${8 - r}  ${cells.join(' ')}`;
    });
    return [...lines, '   a b c d e f g h'].join('\n');
  }

  return {
    turnPath: '/move',
    routes: {
      'POST /join_game': async (body) => ({ status: 'joined', game_id: body.game_id ?? null }),
      'POST /leave_game': async (body) => {
        obstacles.delete(body.game_id);
        return { status: 'left', game_id: body.game_id ?? null };
      },
    },
    async turn(body) {
      const fen = typeof body.fen === 'string' ? body.fen.trim() : '';
      if (!fen || fen.length > 200) throw new BadRequest('fen must be a FEN string');
      const gameId = typeof body.game_id === 'string' ? body.game_id : '';
      const castling = fen.split(/\s+/)[2] ?? '';
      const variant = config.variant === 'variant' || gameId.startsWith('chess_magic_') || /[A-Ha-h]/.test(castling);
      let pos;
      try {
        pos = core.parseFen(fen, { chess960: variant });
      } catch (err) {
        throw new BadRequest(`bad fen: ${err.message}`);
      }
      const obstacleNames = variant ? await obstaclesOf(gameId) : [];
      const legal = core.legalMoves(pos, { obstacles: obstacleNames.map((s) => core.parseSquare(s)) });
      if (!legal.length) throw new BadRequest('no legal move in this position');
      const options = legal.map((m) => core.moveToUci(pos, m)).sort().map((uci) => ({ label: uci, value: uci }));
      const side = fen.split(/\s+/)[1] === 'b' ? 'black' : 'white';
      const state = [
        `You play ${side} (${side === 'white' ? 'upper-case' : 'lower-case'} pieces). FEN: ${fen}`,
        boardText(fen.split(/\s+/)[0]),
        core.inCheck(pos) ? 'You are in check.' : '',
        variant ? `Obstacles (a piece ending its move there is removed): ${obstacleNames.length ? obstacleNames.join(' ') : 'unknown'}.` : '',
        variant ? 'Castling is written king-takes-own-rook (e.g. e1h1).' : '',
        'Moves are in UCI notation (from square, to square, promotion piece).',
      ].filter(Boolean).join('\n');
      return { gameId, state, options, answer: (o) => ({ move: o.value }) };
    },
  };
}

// ---- Texas Hold'em ------------------------------------------------------------------------------

function holdem() {
  const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() && Number.isFinite(Number(v)) ? Number(v) : NaN);
  const int = (v) => (Number.isFinite(v) ? Math.max(0, Math.floor(v)) : 0);

  function stateText(b) {
    const players = isObject(b.players) ? Object.values(b.players).filter(isObject) : [];
    const meId = b.current_player;
    const me = players.find((p) => p.player_id === meId) ?? {};
    const lines = [
      `Hand ${b.hand_number ?? '?'}, ${b.phase ?? '?'} (deck: ${b.deck ?? 'standard'}). Blinds ${b.small_blind}/${b.big_blind}. Pot ${b.pot}.`,
      `Your hole cards: ${(me.hole_cards ?? []).join(' ') || '?'}. Community cards: ${(b.community_cards ?? []).join(' ') || 'none'}.`,
      `Bet to match on this street: ${b.current_bet}; you have put in ${me.current_bet ?? 0} this street; your chips: ${me.chips ?? '?'}; minimum raise increment: ${b.min_raise}.`,
      'Players (chips, state, bet this street):',
      ...players.map((p) => {
        const roles = [p.is_dealer && 'dealer', p.is_small_blind && 'small blind', p.is_big_blind && 'big blind'].filter(Boolean).join(', ');
        return `- ${p.player_id === meId ? `${p.player_id} (you)` : p.player_id}: ${p.chips} chips, ${p.state}, bet ${p.current_bet}${roles ? `, ${roles}` : ''}`;
      }),
    ];
    const history = Array.isArray(b.action_history) ? b.action_history.filter(isObject) : [];
    if (history.length) lines.push(`This hand so far: ${history.slice(-30).map((a) => `${a.player_id} ${a.action}${a.amount ? ` ${a.amount}` : ''} (${a.phase})`).join('; ')}.`);
    lines.push('Cards: rank then suit (T = ten; s h d c). "raise to X" makes your total bet on this street X.');
    return lines.join('\n');
  }

  return {
    turnPath: '/action',
    routes: {},
    async turn(body) {
      if (!Array.isArray(body.valid_actions)) throw new BadRequest('valid_actions must be a list');
      const options = [];
      let range = null;
      for (const e of body.valid_actions) {
        if (!isObject(e)) continue;
        if (e.action === 'fold' || e.action === 'check') options.push({ label: e.action, value: { action: e.action, amount: 0 } });
        else if (e.action === 'call') options.push({ label: `call ${int(num(e.amount))}`, aliases: ['call'], value: { action: 'call', amount: int(num(e.amount)) } });
        else if (e.action === 'all_in') options.push({ label: `all_in ${int(num(e.amount))}`, aliases: ['all_in', 'all-in', 'allin'], value: { action: 'all_in', amount: int(num(e.amount)) } });
        else if (e.action === 'raise' && isObject(e.amount)) {
          const lo = Math.max(1, Math.ceil(num(e.amount.min))), hi = Math.floor(num(e.amount.max));
          if (!Number.isFinite(lo) || !Number.isFinite(hi) || lo > hi) continue;
          range = { lo, hi };
          // A few sizes: the minimum, twice it, half the pot and the pot on top of the bet to match.
          const bet = int(num(body.current_bet)), pot = int(num(body.pot));
          const sizes = [lo, 2 * lo, bet + Math.round(pot / 2), bet + pot].map((x) => Math.min(hi, Math.max(lo, x)));
          for (const x of [...new Set(sizes)].sort((a, b) => a - b)) options.push({ label: `raise to ${x}`, value: { action: 'raise', amount: x } });
        }
      }
      if (!options.length) throw new BadRequest('valid_actions has no known action');
      const state = stateText(body) + (range ? `\nYou may also answer "raise to X" for any whole X from ${range.lo} to ${range.hi}.` : '');
      // "raise to 150" / "raise 150" with any amount in the offered range.
      const free = range
        ? (text) => {
            const m = /\braise(?:\s+to)?\s*:?\s*(\d+)/i.exec(text);
            const x = m ? Number(m[1]) : NaN;
            return Number.isInteger(x) && x >= range.lo && x <= range.hi ? { label: `raise to ${x}`, value: { action: 'raise', amount: x } } : null;
          }
        : undefined;
      return { gameId: typeof body.game_id === 'string' ? body.game_id : '', state, options, free, answer: (o) => o.value };
    },
  };
}

// ---- Bridge -------------------------------------------------------------------------------------

function bridge() {
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
export async function loadGame(config) {
  switch (config.game) {
    case 'gomoku':
      return gomoku(config);
    case 'chess':
      return chess(config);
    case 'holdem':
      return holdem(config);
    case 'bridge':
      return bridge(config);
    default:
      return gameFolderPlayer(config);
  }
}

/**
 * A game not built in here brings its own turn builder: `<game>-player.mjs`, copied next to this
 * file from the game folder (its descriptor's playerLibs), exporting `createPlayer(config, {BadRequest})`.
 */
async function gameFolderPlayer(config) {
  const name = String(config.game ?? '');
  const file = new URL(`./${name.replace(/[^\w-]/g, '')}-player.mjs`, import.meta.url);
  let mod;
  try {
    mod = await import(file.href);
  } catch (err) {
    throw new Error(`game.json names the game "${name}", which has no ${name}-player.mjs here (${err.message})`);
  }
  return mod.createPlayer(config, { BadRequest });
}

/** Default per-action deadline of each game, as the arena plays it. */
export const DEFAULT_MOVE_MS = { gomoku: 10_000, chess: 10_000, holdem: 3_000, bridge: 10_000 };

const GAME_NAMES = { gomoku: 'Gomoku', chess: 'chess', holdem: "no-limit Texas Hold'em (tournament)", bridge: 'duplicate contract bridge' };
export const gameName = (game) => GAME_NAMES[game] ?? game;
