// Move-generator speed: perft nodes per second of games/chess/engine/chess-core.mjs on the standard
// start (depth 5), Kiwipete (4), a Chess960 position (4) and a CATArena-style obstacle position
// (4), and chess.js on the start position for comparison. chess.js has no public perft: it is
// timed with a plain recursion over moves()/move()/undo() that counts the last ply in bulk
// (moves().length), which flatters it; ours makes and unmakes every leaf move.
import { Chess } from 'chess.js';
import { chess960Position, parseFen, parseSquare, perft, STANDARD_FEN } from '../games/chess/engine/chess-core.mjs';

function chessJsPerft(chess: Chess, depth: number): number {
  const moves = chess.moves();
  if (depth === 1) return moves.length;
  let nodes = 0;
  for (const san of moves) {
    chess.move(san);
    nodes += chessJsPerft(chess, depth - 1);
    chess.undo();
  }
  return nodes;
}

function time(run: () => number) {
  const t0 = performance.now();
  const nodes = run();
  const seconds = (performance.now() - t0) / 1000;
  return { nodes, seconds: +seconds.toFixed(3), nodesPerSecond: Math.round(nodes / seconds) };
}

export async function benchChessPerft(chessJsDepth = 3) {
  // CATArena's obstacles: files a–d of ranks 3–6 with their mirrors, six pairs.
  const obstacles = ['a3', 'h3', 'c3', 'f3', 'b4', 'g4', 'd5', 'e5', 'a6', 'h6', 'c6', 'f6'].map(parseSquare);
  const cases: { name: string; run: () => number }[] = [
    { name: 'standard start, depth 5', run: () => perft(parseFen(STANDARD_FEN), 5) },
    {
      name: 'Kiwipete, depth 4',
      run: () => perft(parseFen('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'), 4),
    },
    {
      name: 'Chess960 (CPW id 0), depth 4',
      run: () => perft(parseFen('bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'), 4),
    },
    { name: 'Chess960 #100 + 12 obstacles, depth 4', run: () => perft(chess960Position(100), 4, { obstacles }) },
    { name: `chess.js standard start, depth ${chessJsDepth}`, run: () => chessJsPerft(new Chess(), chessJsDepth) },
  ];
  perft(parseFen(STANDARD_FEN), 3); // warm up the JIT
  const rows = cases.map(({ name, run }) => ({ position: name, ...time(run) }));
  const ours = rows[0]!.nodesPerSecond,
    theirs = rows[rows.length - 1]!.nodesPerSecond;
  console.log('chess-core perft (make/unmake every leaf) vs chess.js (bulk-counted last ply)');
  console.table(rows);
  console.log(`start position: chess-core is ${(ours / theirs).toFixed(0)}x chess.js`);
  return { rows, speedupOverChessJs: +(ours / theirs).toFixed(1) };
}

// Run directly: node --import tsx bench/chess-perft.ts
if (import.meta.url === `file://${process.argv[1]}`) await benchChessPerft();
