// Search and evaluation of the heuristic chess bot (plain JavaScript, no dependencies besides the
// move generator chess-core.mjs next to it). Standard chess, Chess960 and CATArena's obstacle
// variant (a piece whose move ends on an obstacle square is removed from the board, kings too).
//
// Evaluation (centipawns, side to move): material + piece-square tables (middlegame/endgame king)
// + mobility (pseudo-legal target squares of knights, bishops, rooks, queens; obstacle squares do
// not count) + a light king-safety term (own pawns in front of the king while queens/rooks are
// on) + a mop-up term that drives the losing king to the edge once one side is clearly ahead.
//
// Kings in the variant (params.kingMode):
//   "rules" (default) – follows the real end conditions (python-chess on CATArena's server and
//       games/chess/rules.ts): a side WITHOUT a king can never be checkmated, so it can no longer
//       lose, and the only way to win is to mate a king. Losing one's own king is therefore a gain
//       (immunity, worth params.kinglessBonus), and capturing the opponent's king only helps when
//       losing (it caps the game at a draw).
//   "material" – the naive reading: a king is worth params.kingValue, capturing the opponent's
//       king is very good and losing one's own very bad.
//
// Search: negamax alpha-beta with iterative deepening up to params.depth plies, check extension
// at the horizon, quiescence on captures and promotions, MVV-LVA + killer move ordering, and a
// hard deadline (the best move of the deepest finished iteration is played). Root noise
// (params.randomness × up to 100 cp) is applied exactly with a per-move shifted alpha.
//
// Speed: the search runs on chess-core's mutable Board (make/unmake) and reads two of its
// internals, the 0x88 array `b` (piece code = type 1..6 for p n b r q k, + 8 for black) and the
// move integer layout (from | to << 7 | promotion << 14 | flags << 17, flags 1 = en passant,
// 2 = castling with to = the rook's square). checkInternals() verifies both against the public
// decode() at every root and throws if chess-core changes, so the bot then falls back loudly.
import * as core from './chess-core.mjs';

export const MATE = 100000;
const INF = 1e9;
const ABORT = { abort: true };
const MATE_BOUND = MATE - 1000;

export const DEFAULT_VALUES = { p: 100, n: 320, b: 330, r: 500, q: 900 };

// Piece-square tables, rank 8 first, from White's point of view.
const PST = {
  p: [
    0, 0, 0, 0, 0, 0, 0, 0, 50, 50, 50, 50, 50, 50, 50, 50, 10, 10, 20, 30, 30, 20, 10, 10, 5, 5, 10, 25, 25, 10, 5, 5,
    0, 0, 0, 20, 20, 0, 0, 0, 5, -5, -10, 0, 0, -10, -5, 5, 5, 10, 10, -20, -20, 10, 10, 5, 0, 0, 0, 0, 0, 0, 0, 0,
  ],
  n: [
    -50, -40, -30, -30, -30, -30, -40, -50, -40, -20, 0, 0, 0, 0, -20, -40, -30, 0, 10, 15, 15, 10, 0, -30, -30, 5, 15, 20, 20, 15, 5, -30,
    -30, 0, 15, 20, 20, 15, 0, -30, -30, 5, 10, 15, 15, 10, 5, -30, -40, -20, 0, 5, 5, 0, -20, -40, -50, -40, -30, -30, -30, -30, -40, -50,
  ],
  b: [
    -20, -10, -10, -10, -10, -10, -10, -20, -10, 0, 0, 0, 0, 0, 0, -10, -10, 0, 5, 10, 10, 5, 0, -10, -10, 5, 5, 10, 10, 5, 5, -10,
    -10, 0, 10, 10, 10, 10, 0, -10, -10, 10, 10, 10, 10, 10, 10, -10, -10, 5, 0, 0, 0, 0, 5, -10, -20, -10, -10, -10, -10, -10, -10, -20,
  ],
  r: [
    0, 0, 0, 0, 0, 0, 0, 0, 5, 10, 10, 10, 10, 10, 10, 5, -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5, -5, 0, 0, 0, 0, 0, 0, -5, 0, 0, 0, 5, 5, 0, 0, 0,
  ],
  q: [
    -20, -10, -10, -5, -5, -10, -10, -20, -10, 0, 0, 0, 0, 0, 0, -10, -10, 0, 5, 5, 5, 5, 0, -10, -5, 0, 5, 5, 5, 5, 0, -5,
    0, 0, 5, 5, 5, 5, 0, -5, -10, 5, 5, 5, 5, 5, 0, -10, -10, 0, 5, 0, 0, 0, 0, -10, -20, -10, -10, -5, -5, -10, -10, -20,
  ],
  kMg: [
    -30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50, -40, -40, -30, -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20, -10, -20, -20, -20, -20, -20, -20, -10, 20, 20, 0, 0, 0, 0, 20, 20, 20, 30, 10, 0, 0, 10, 30, 20,
  ],
  kEg: [
    -50, -40, -30, -20, -20, -30, -40, -50, -30, -20, -10, 0, 0, -10, -20, -30, -30, -10, 20, 30, 30, 20, -10, -30, -30, -10, 30, 40, 40, 30, -10, -30,
    -30, -10, 30, 40, 40, 30, -10, -30, -30, -10, 20, 30, 30, 20, -10, -30, -30, -30, 0, 0, 0, 0, -30, -30, -50, -30, -30, -30, -30, -30, -30, -50,
  ],
};
const PHASE = { p: 0, n: 1, b: 1, r: 2, q: 4 };
/** cp per reachable square at mobility weight 1. */
const MOBILITY = { n: 4, b: 5, r: 2, q: 1 };

const PAWN = 1, KNIGHT = 2, BISHOP = 3, ROOK = 4, QUEEN = 5, KING = 6;
const EP = 1, CASTLE = 2;
const TYPES = ' pnbrqk';
const KNIGHT_STEPS = [33, 31, 18, 14, -33, -31, -18, -14];
const DIAG = [15, 17, -15, -17];
const ORTHO = [1, -1, 16, -16];
const ALL = [...DIAG, ...ORTHO];
const to88 = (s) => s + (s & ~7);

export class Engine {
  /**
   * @param {import('./chess-core.mjs').Position} position
   * @param {{ obstacles?: number[], variant?: boolean, params: object, rng: () => number, deadline: number }} opts
   */
  constructor(position, { obstacles = [], variant = false, params, rng, deadline }) {
    this.position = position;
    this.board = new core.Board(position, { obstacles });
    this.variant = variant;
    this.obstacle = new Uint8Array(128);
    for (const sq of obstacles) if (sq >= 0 && sq < 64) this.obstacle[to88(sq)] = 1;
    this.p = params;
    this.rng = rng;
    this.deadline = deadline;
    this.nodes = 0;
    const scale = Number.isFinite(params.materialScale) ? params.materialScale : 1;
    const v = { ...DEFAULT_VALUES, ...(params.material ?? {}) };
    // Indexed by piece type 1..6.
    this.val = [0, v.p * scale, v.n * scale, v.b * scale, v.r * scale, v.q * scale, 0];
    this.orderVal = [0, 1, 3, 3, 5, 9, 20];
    this.mob = params.mobility ?? 1;
    this.pstW = params.pst ?? 1;
    this.kingW = params.kingSafety ?? 1;
    this.kingMode = params.kingMode === 'material' ? 'material' : 'rules';
    this.kinglessBonus = params.kinglessBonus ?? 80;
    this.kingValue = params.kingValue ?? 5000;
    this.killers = [];
    this.lists = [];
    this.keys = [];
  }

  checkTime() {
    if ((++this.nodes & 15) === 0 && Date.now() >= this.deadline) throw ABORT;
  }

  /** Throws unless Board.b and the move layout are what this file assumes (see the header). */
  checkInternals(moves) {
    const b = this.board.b;
    if (!(b instanceof Int8Array) || b.length !== 128) throw new Error('chess-core Board internals changed (b)');
    for (let s = 0; s < 64; s++) {
      const letter = this.position.board[s];
      const code = b[to88(s)];
      const want = letter ? TYPES.indexOf(letter.toLowerCase()) | (letter === letter.toLowerCase() ? 8 : 0) : 0;
      if (code !== want) throw new Error('chess-core Board internals changed (piece codes)');
    }
    for (const m of moves) {
      const d = this.board.decode(m);
      const from = m & 127, to = (m >> 7) & 127, flags = m >> 17;
      const ok = to88(d.from) === from && (flags & CASTLE ? to88(d.castleRook) === to : to88(d.to) === to) && (((m >> 14) & 7) === (d.promotion ? TYPES.indexOf(d.promotion) : 0));
      if (!ok) throw new Error('chess-core Board internals changed (move layout)');
    }
  }

  // ---- evaluation ------------------------------------------------------------------------------

  /** Static score from White's point of view. */
  evalWhite() {
    const b = this.board.b, val = this.val;
    let matW = 0, matB = 0, pst = 0, mob = 0, phase = 0;
    let wk = -1, bk = -1;
    for (let sq = 0; sq < 120; sq++) {
      if (sq & 8) { sq += 7; continue; }
      const pc = b[sq];
      if (!pc) continue;
      const t = pc & 7, black = pc & 8;
      if (t === KING) {
        if (black) bk = sq;
        else wk = sq;
        continue;
      }
      const idx = black ? (sq >> 4) * 8 + (sq & 7) : (7 - (sq >> 4)) * 8 + (sq & 7);
      phase += PHASE[TYPES[t]];
      const tbl = PST[TYPES[t]];
      if (black) {
        matB += val[t];
        pst -= tbl[idx];
      } else {
        matW += val[t];
        pst += tbl[idx];
      }
      if (t !== PAWN && this.mob) {
        const m = this.mobilityOf(b, sq, t, black) * MOBILITY[TYPES[t]];
        mob += black ? -m : m;
      }
    }
    const mat = matW - matB;
    const ph = Math.min(24, phase) / 24; // 1 = opening, 0 = bare endgame
    if (wk >= 0) {
      const idx = (7 - (wk >> 4)) * 8 + (wk & 7);
      pst += ph * PST.kMg[idx] + (1 - ph) * PST.kEg[idx];
    }
    if (bk >= 0) {
      const idx = (bk >> 4) * 8 + (bk & 7);
      pst -= ph * PST.kMg[idx] + (1 - ph) * PST.kEg[idx];
    }
    let score = mat + this.pstW * pst + this.mob * mob;
    if (this.kingW && ph > 0.4) score += this.kingW * ph * (this.shield(b, wk, 0) - this.shield(b, bk, 8));
    // Mop-up: the side clearly ahead in a thin position drives the other king to the edge.
    if (wk >= 0 && bk >= 0 && ph < 0.5 && Math.abs(mat) >= 300) {
      const [winK, loseK] = mat > 0 ? [wk, bk] : [bk, wk];
      const lf = loseK & 7, lr = loseK >> 4;
      const edge = Math.max(3 - lf, lf - 4) + Math.max(3 - lr, lr - 4);
      const dist = Math.abs((winK & 7) - lf) + Math.abs((winK >> 4) - lr);
      const m = 10 * edge + 4 * (14 - dist);
      score += mat > 0 ? m : -m;
    }
    if (!this.variant || (wk >= 0 && bk >= 0)) return score;
    if (this.kingMode === 'material') return score - (wk < 0 ? this.kingValue : 0) + (bk < 0 ? this.kingValue : 0);
    // "rules": a kingless side cannot lose, a side facing a kingless one cannot win.
    if (wk < 0 && bk < 0) return 0;
    const immune = (s) => this.kinglessBonus + (s > 0 ? s : s * 0.1);
    return wk < 0 ? immune(score) : -immune(-score);
  }

  evaluate() {
    const s = this.evalWhite();
    return this.board.turn === 0 ? s : -s;
  }

  /** Reachable squares (empty or enemy, not an obstacle) of a knight/bishop/rook/queen. */
  mobilityOf(b, sq, t, black) {
    let n = 0;
    const obst = this.obstacle;
    if (t === KNIGHT) {
      for (let i = 0; i < 8; i++) {
        const to = sq + KNIGHT_STEPS[i];
        if (to & 0x88) continue;
        const q = b[to];
        if ((!q || (q & 8) !== black) && !obst[to]) n++;
      }
      return n;
    }
    const dirs = t === BISHOP ? DIAG : t === ROOK ? ORTHO : ALL;
    for (let i = 0; i < dirs.length; i++) {
      const d = dirs[i];
      for (let to = sq + d; !(to & 0x88); to += d) {
        const q = b[to];
        if (q) {
          if ((q & 8) !== black && !obst[to]) n++;
          break;
        }
        if (!obst[to]) n++;
      }
    }
    return n;
  }

  /** Own pawns on the three files around the king, one (10 cp) and two (6 cp) ranks ahead. */
  shield(b, k, black) {
    if (k < 0) return 0;
    const pawn = PAWN | black, dir = black ? -16 : 16;
    let s = 0;
    for (let df = -1; df <= 1; df++) {
      const f = (k & 7) + df;
      if (f < 0 || f > 7) continue;
      const s1 = k + df + dir, s2 = s1 + dir;
      if (!(s1 & 0x88) && b[s1] === pawn) s += 10;
      if (!(s2 & 0x88) && b[s2] === pawn) s += 6;
    }
    return s;
  }

  // ---- move ordering -------------------------------------------------------------------------

  /** Captured piece type of a pseudo-legal move (0 = none). */
  capturedType(m) {
    const flags = m >> 17;
    if (flags & CASTLE) return 0;
    const to = (m >> 7) & 127;
    // En passant takes the pawn behind the ep square, if it is still there: a pawn that
    // double-pushed onto an obstacle vanished, and the capture then takes nothing (CATArena).
    if (flags & EP) return this.board.b[to - (this.board.turn ? -16 : 16)] & 7;
    return this.board.b[to] & 7;
  }

  orderKey(m, ply) {
    const b = this.board.b, ov = this.orderVal;
    const from = m & 127, to = (m >> 7) & 127, promo = (m >> 14) & 7, flags = m >> 17;
    const mover = b[from] & 7;
    const cap = this.capturedType(m);
    let s = 0;
    if (cap) s += 1000 + 100 * ov[cap] - ov[mover];
    if (promo) s += promo === QUEEN ? 900 : 100;
    if (!(flags & CASTLE) && this.obstacle[to]) s -= 100 * ov[promo || mover] + 50;
    else if (!cap) {
      const k = this.killers[ply];
      if (k && (k[0] === m || k[1] === m)) s += 500;
    }
    return s;
  }

  /** Pseudo-legal moves of this ply, ordered best first (tactical only if `tacticalOnly`). */
  ordered(ply, tacticalOnly) {
    const list = this.lists[ply] ?? (this.lists[ply] = new Int32Array(256));
    const keys = this.keys[ply] ?? (this.keys[ply] = new Int32Array(256));
    const total = this.board.generate(list);
    let n = 0;
    for (let i = 0; i < total; i++) {
      const m = list[i];
      if (tacticalOnly && !((m >> 14) & 7) && !this.capturedType(m)) continue;
      list[n] = m;
      keys[n] = this.orderKey(m, ply);
      n++;
    }
    // Insertion sort by key, descending (lists are short).
    for (let i = 1; i < n; i++) {
      const m = list[i], k = keys[i];
      let j = i - 1;
      while (j >= 0 && keys[j] < k) {
        list[j + 1] = list[j];
        keys[j + 1] = keys[j];
        j--;
      }
      list[j + 1] = m;
      keys[j + 1] = k;
    }
    return n;
  }

  storeKiller(m, ply) {
    if (this.capturedType(m)) return;
    const k = (this.killers[ply] ??= [0, 0]);
    if (k[0] === m) return;
    k[1] = k[0];
    k[0] = m;
  }

  // ---- search --------------------------------------------------------------------------------

  negamax(depth, alpha, beta, ply) {
    this.checkTime();
    const B = this.board;
    if (depth <= 0) {
      // Check extension at the horizon (bounded), so short mates are seen.
      if (ply < this.maxPly && B.inCheck()) depth = 1;
      else return this.quiesce(alpha, beta, ply, 0);
    }
    const n = this.ordered(ply, false);
    const list = this.lists[ply];
    let best = -INF, legal = 0;
    for (let i = 0; i < n; i++) {
      const m = list[i];
      if (!B.make(m)) {
        B.unmake();
        continue;
      }
      legal++;
      const s = -this.negamax(depth - 1, -beta, -alpha, ply + 1);
      B.unmake();
      if (s > best) {
        best = s;
        if (s > alpha) {
          alpha = s;
          if (alpha >= beta) {
            this.storeKiller(m, ply);
            break;
          }
        }
      }
    }
    if (legal === 0) return B.inCheck() ? -(MATE - ply) : 0;
    return best;
  }

  quiesce(alpha, beta, ply, qd) {
    const stand = this.evaluate();
    if (stand >= beta) return stand;
    if (stand > alpha) alpha = stand;
    if (qd >= 6) return stand;
    const B = this.board, val = this.val;
    const n = this.ordered(ply, true);
    const list = this.lists[ply];
    let best = stand;
    for (let i = 0; i < n; i++) {
      const m = list[i];
      const cap = this.capturedType(m), promo = (m >> 14) & 7;
      let gain = val[cap] + (promo ? val[promo] - val[PAWN] : 0);
      if (this.obstacle[(m >> 7) & 127]) gain -= promo ? val[promo] : val[B.b[m & 127] & 7];
      if (cap !== KING && stand + gain + 200 <= alpha) continue; // delta pruning
      this.checkTime();
      if (!B.make(m)) {
        B.unmake();
        continue;
      }
      const s = -this.quiesce(-beta, -alpha, ply + 1, qd + 1);
      B.unmake();
      if (s > best) {
        best = s;
        if (s > alpha) {
          alpha = s;
          if (alpha >= beta) break;
        }
      }
    }
    return best;
  }

  /** The move to play: { move (public Move), score, depth, nodes }, or null without legal moves. */
  choose() {
    const B = this.board;
    const n = this.ordered(0, false);
    let root = [];
    for (let i = 0; i < n; i++) {
      const m = this.lists[0][i];
      if (B.make(m)) root.push(m);
      B.unmake();
    }
    if (root.length === 0) return null;
    this.checkInternals(root);
    const decoded = new Map(root.map((m) => [m, B.decode(m)]));
    const maxDepth = Math.max(1, Math.min(8, this.p.depth ?? 3));
    let best = { move: root[0], score: 0, depth: 0 };
    const amp = (this.p.randomness ?? 0) * 100;
    const noise = new Map(root.map((m) => [m, amp > 0 ? (this.rng() * 2 - 1) * amp : 0]));
    if (root.length > 1) {
      for (let depth = 1; depth <= maxDepth; depth++) {
        this.maxPly = depth + 4;
        const scores = new Map();
        let iterBest = 0, iterScore = -INF, aborted = false;
        try {
          for (const m of root) {
            const nz = noise.get(m);
            const alpha = iterBest ? iterScore - nz : -INF;
            B.make(m);
            const s = -this.negamax(depth - 1, -INF, -alpha, 1);
            B.unmake();
            const total = Math.abs(s) >= MATE_BOUND ? s : s + nz;
            scores.set(m, total);
            if (!iterBest || total > iterScore) {
              iterBest = m;
              iterScore = total;
            }
          }
        } catch (e) {
          if (e !== ABORT) throw e;
          aborted = true; // the board is left mid-search: only `decoded` is used from here on
        }
        // A partial iteration searched the previous best first, so its best is at least as good.
        if (iterBest) best = { move: iterBest, score: iterScore, depth: aborted ? depth - 1 : depth };
        if (aborted) break;
        root = [...root].sort((a, b) => (scores.get(b) ?? -INF) - (scores.get(a) ?? -INF));
        if (iterScore >= MATE_BOUND) break; // forced mate found: no need to look deeper
      }
    }
    return { move: decoded.get(best.move), score: best.score, depth: best.depth, nodes: this.nodes };
  }
}
