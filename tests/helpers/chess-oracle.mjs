// An independent chess oracle for the differential test (tests/chess-differential.test.ts): it
// replays UCI move lists the way CATArena's chess servers and arena judge them, on chessops
// (npm; by python-chess's author, with python-chess's move generation and FEN conventions), and
// shares no code with catarena's engine (games/chess/engine/chess-core.mjs).
//
// What CATArena does, from its servers' source (chessgame/chess/server.py,
// chessgame/chess_variant/server.py, chessgame/chess_Arena/arena.py; compat §3):
// - a move is legal if it is in python-chess's board.legal_moves; the board is pushed;
// - variant: after the push, if the move's to-square (UCI target; a castling move's is the rook's
//   square) is an obstacle, board.remove_piece_at(to_square), which also clears python-chess's
//   move stack (so repetitions count from there);
// - after each move the status is, in this order: checkmate (the mover wins), stalemate,
//   insufficient material, fivefold repetition, the 75-move rule, else ongoing;
// - the arena stops a game still ongoing after 200 plies: `max_moves`;
// - FENs are python-chess's board.fen(): X-FEN castling, the ep square only when an en-passant
//   capture is legal.
// python-chess's own choices where they matter in the variant, reproduced here on top of chessops:
// - push sets the ep square after every double push, even when the pawn then vanishes on an
//   obstacle; the capture is then generated (it captures nothing), legal when the capturer's king,
//   if any, is not attacked afterwards (chessops's canCaptureEp would count the vanished pawn's
//   square as occupied);
// - castling rights of a side without a king are dropped (clean_castling_rights).
// With `adjudication: 'engine'` the repetition and move rules are threefold and fifty moves instead.
//
// Use: import { replay } from './chess-oracle.mjs', or as a filter of JSON lines:
//   node tests/helpers/chess-oracle.mjs < games.jsonl
//   in:  {"variant": "variant", "chess960Pos": 518, "obstacles": ["d4", "e4"], "moves": ["a2a3", …]}
//        (optional: "fen" instead of the start position, "adjudication": "engine")
//   out: {"plies": [{"fen", "legal": [uci…] sorted, "status"}, …]}, plies[0] the start, or {"error"}
import { Chess } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { opposite, parseSquare } from 'chessops/util';

export const MAX_PLIES = 200;
const FILES = 'abcdefgh';
const name = (sq) => FILES[sq & 7] + ((sq >> 3) + 1);

/** The Chess960 back rank of Scharnagl number n (0..959), as python-chess's from_chess960_pos. */
export function chess960BackRank(n) {
  if (!Number.isInteger(n) || n < 0 || n > 959) throw new Error(`bad Chess960 number ${n}`);
  const rank = Array(8).fill(null);
  const free = () => rank.flatMap((p, f) => (p ? [] : [f]));
  rank[2 * (n % 4) + 1] = 'B'; // light-squared bishop on b, d, f or h
  n = Math.floor(n / 4);
  rank[2 * (n % 4)] = 'B'; // dark-squared bishop on a, c, e or g
  n = Math.floor(n / 4);
  rank[free()[n % 6]] = 'Q';
  n = Math.floor(n / 6);
  const knights = [
    [0, 1],
    [0, 2],
    [0, 3],
    [0, 4],
    [1, 2],
    [1, 3],
    [1, 4],
    [2, 3],
    [2, 4],
    [3, 4],
  ][n];
  const five = free();
  for (const k of knights) rank[five[k]] = 'N';
  const [r1, k, r2] = free();
  rank[r1] = 'R';
  rank[k] = 'K';
  rank[r2] = 'R';
  return rank.join('');
}

function startPosition(variant, chess960Pos, fen) {
  if (fen) {
    // Any position, kings or not (python-chess's Board(fen) takes one without kings; chessops's
    // fromSetup would refuse it).
    const pos = Chess.default();
    pos.setupUnchecked(parseFen(fen).unwrap());
    return pos;
  }
  fen =
    variant === 'variant'
      ? (() => {
          const back = chess960BackRank(chess960Pos);
          return `${back.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${back} w KQkq - 0 1`;
        })()
      : 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  return Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
}

/** Legal moves as chessops moves plus their UCI, with python-chess's en passant of a vanished pawn. */
function legalMoves(pos, chess960) {
  const ctx = pos.ctx();
  const out = [];
  const ep = pos.epSquare;
  const vanished = ep !== undefined && !pos.board.occupied.has(ep + (pos.turn === 'white' ? -8 : 8));
  for (const from of pos.board[pos.turn]) {
    let dests = pos.dests(from, ctx);
    const piece = pos.board.get(from);
    if (piece.role === 'pawn' && vanished) {
      // Legal as python-chess has it: the capturer's own king (if any) is not attacked once the
      // capturer has left its square and stands on the ep square; nothing else changes.
      dests = dests.without(ep);
      const adjacent =
        Math.abs((from & 7) - (ep & 7)) === 1 && from >> 3 === (ep >> 3) + (pos.turn === 'white' ? -1 : 1);
      const king = pos.board.kingOf(pos.turn);
      const safe =
        king === undefined ||
        pos.kingAttackers(king, opposite(pos.turn), pos.board.occupied.without(from).with(ep)).isEmpty();
      if (adjacent && safe) dests = dests.with(ep);
    }
    for (const to of dests) {
      if (piece.role === 'pawn' && (to >> 3 === 0 || to >> 3 === 7)) {
        for (const promotion of ['queen', 'rook', 'bishop', 'knight'])
          out.push({ move: { from, to, promotion }, uci: name(from) + name(to) + promotion[0].replace('k', 'n') });
      } else if (piece.role === 'king' && pos.board[pos.turn].has(to)) {
        // Castling: chessops gives the rook's square; python-chess's UCI is king-takes-rook in
        // Chess960 and the king's two-step in standard chess.
        const target = chess960 ? to : (to & 56) + (to > from ? 6 : 2);
        out.push({ move: { from, to }, uci: name(from) + name(target) });
      } else out.push({ move: { from, to }, uci: name(from) + name(to) });
    }
  }
  return out;
}

function snapshot(pos, chess960) {
  const legal = legalMoves(pos, chess960);
  const setup = pos.toSetup();
  setup.epSquare = legal.some(({ move }) => move.to === pos.epSquare && pos.board.pawn.has(move.from))
    ? pos.epSquare
    : undefined;
  setup.halfmoves = pos.halfmoves; // chessops caps it at 150 in toSetup; python-chess does not
  const fen = makeFen(setup);
  return { fen, key: fen.split(' ').slice(0, 4).join(' '), legal };
}

/**
 * Replays `moves` from the start of `variant` ('standard' or 'variant': Chess960 number
 * `chess960Pos` with `obstacles`), or from `fen`. Returns every ply's FEN, sorted legal UCIs and
 * CATArena's status; plies[0] is the start. Throws on a move the oracle finds illegal.
 */
export function replay({
  variant = 'standard',
  chess960Pos = 518,
  fen,
  obstacles = [],
  moves,
  adjudication = 'catarena',
  maxPlies = MAX_PLIES,
}) {
  const chess960 = variant === 'variant';
  const blocked = new Set(obstacles.map((s) => parseSquare(s)));
  const [repetitions, halfmoves, repetitionStatus, moveRuleStatus] =
    adjudication === 'engine'
      ? [3, 100, 'draw_threefold_repetition', 'draw_fifty_moves']
      : [5, 150, 'draw_fivefold_repetition', 'draw_seventyfive_moves'];
  const pos = startPosition(variant, chess960Pos, fen);
  let snap = snapshot(pos, chess960);
  let keys = [snap.key];
  const plies = [{ fen: snap.fen, legal: snap.legal.map((m) => m.uci).sort(), status: 'ongoing' }];
  for (const [i, uci] of moves.entries()) {
    if (plies[i].status !== 'ongoing')
      throw new Error(`ply ${i + 1}: ${uci} after the game ended (${plies[i].status})`);
    const found = snap.legal.find((m) => m.uci === uci);
    if (!found) throw new Error(`ply ${i + 1}: ${uci} is not legal in ${snap.fen}`);
    const mover = pos.turn;
    pos.play(found.move);
    const target = parseSquare(uci.slice(2, 4));
    const removal = chess960 && blocked.has(target);
    if (removal) pos.board.take(target);
    for (const colour of ['white', 'black'])
      if (pos.board.kingOf(colour) === undefined) pos.castles.discardColor(colour);
    snap = snapshot(pos, chess960);
    keys = removal ? [snap.key] : [...keys, snap.key]; // remove_piece_at clears python-chess's move stack
    let status = 'ongoing';
    if (!snap.legal.length && pos.isCheck()) status = `${mover}_win`;
    else if (!snap.legal.length) status = 'draw_stalemate';
    else if (pos.isInsufficientMaterial()) status = 'draw_insufficient_material';
    else if (keys.filter((k) => k === snap.key).length >= repetitions) status = repetitionStatus;
    else if (pos.halfmoves >= halfmoves) status = moveRuleStatus;
    else if (i + 1 >= maxPlies) status = 'max_moves';
    plies.push({ fen: snap.fen, legal: snap.legal.map((m) => m.uci).sort(), status });
  }
  return { plies };
}

// As a filter: one JSON game per input line, one JSON answer per output line.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { createInterface } = await import('node:readline');
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    try {
      process.stdout.write(`${JSON.stringify(replay(JSON.parse(line)))}\n`);
    } catch (err) {
      process.stdout.write(`${JSON.stringify({ error: err.message })}\n`);
    }
  }
}
