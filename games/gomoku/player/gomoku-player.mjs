// Gomoku as the LLM-player sees it (agents/llm-player/bot/games.mjs loads this file, copied next
// to it through the descriptor's playerLibs):
//   POST /get_move  legal = empty cells minus the variant's forbidden cells (from join_game's
//                   forbidden_points or the game server's /forbidden_points)
//
// createPlayer(config, kit) → {name, defaultMoveMs, turnPath, routes, turn(body)}; the kit is games.mjs's
// BadRequest and HTTP helpers.

/** How the system prompt names the game. */
const NAME = 'Gomoku';
/** The per-action deadline when game.json and the environment name none: the arena's default. */
const DEFAULT_MOVE_MS = 10_000;

export function createPlayer(config, { BadRequest, serverUrl, getJson, boundedSet }) {
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
    name: NAME,
    defaultMoveMs: DEFAULT_MOVE_MS,
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
