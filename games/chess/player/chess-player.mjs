// Chess as the LLM-player sees it (agents/llm-player/bot/games.mjs loads this file, copied next
// to it through the descriptor's playerLibs, with chess-core.mjs):
//   POST /move  legal = chess-core.mjs's moves, with the variant's obstacles from the game server
//
// createPlayer(config, kit) → {name, defaultMoveMs, turnPath, routes, turn(body)}; the kit is games.mjs's
// BadRequest and HTTP helpers.

/** How the system prompt names the game. */
const NAME = 'chess';
/** The per-action deadline when game.json and the environment name none: the arena's default. */
const DEFAULT_MOVE_MS = 10_000;

export async function createPlayer(config, { BadRequest, serverUrl, getJson, boundedSet }) {
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
    name: NAME,
    defaultMoveMs: DEFAULT_MOVE_MS,
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
