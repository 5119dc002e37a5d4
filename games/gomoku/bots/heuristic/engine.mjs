// Threat-pattern evaluation + alpha-beta search for CATArena Gomoku (standard and variant).
//
// Evaluation: every window of L consecutive cells on every line (L = 5 in standard, 3 in the
// variant, where a "triplet" is what wins) that holds stones of one colour only scores
// weights[count] for that colour. Open fours / open threes score several overlapping windows, so
// open shapes outweigh closed ones without explicit pattern tables. Forbidden cells block windows.
// Scores are kept per line and updated incrementally (4 lines per stone), so search is cheap.

export const WIN = 1e9;
const ABORT = Symbol('abort');

/** Default weights per stones-in-window count 0..L. Index L is a completed window. */
export const DEFAULT_WEIGHTS = {
  standard: [0, 1, 10, 100, 1000, 100000],
  // A triplet is half a win; a window with two stones is a triplet threat.
  variant: [0, 3, 40, 2000],
};

export class Engine {
  /**
   * @param {number[][]} board 0 empty, 1 black, 2 white
   * @param {1|2} me colour to move
   * @param {{rules: 'standard'|'variant', forbidden: Set<number>, params: object, rng: () => number, deadline: number}} opts
   */
  constructor(board, me, { rules, forbidden, params, rng, deadline }) {
    const N = board.length;
    this.N = N;
    this.me = me;
    this.variant = rules === 'variant';
    this.L = this.variant ? 3 : 5;
    this.need = this.variant ? 2 : 1; // completed windows needed to win
    this.w = (this.variant ? params.weights?.variant : params.weights?.standard) ?? DEFAULT_WEIGHTS[rules];
    this.p = params;
    this.rng = rng;
    this.deadline = deadline;
    this.nodes = 0;
    this.cells = new Int8Array(N * N);
    this.near = new Int16Array(N * N); // stones within Chebyshev distance 2 → candidate cell
    this.stones = 0;
    for (let i = 0; i < N; i++) {
      for (let j = 0; j < N; j++) if (board[i][j]) this.put(i * N + j, board[i][j]);
    }
    for (const c of forbidden) if (c >= 0 && c < N * N && this.cells[c] === 0) this.cells[c] = 3;
    this.buildLines();
  }

  put(c, colour) {
    this.cells[c] = colour;
    this.stones++;
    this.touch(c, 1);
  }

  touch(c, delta) {
    const N = this.N, i = (c / N) | 0, j = c % N;
    for (let a = Math.max(0, i - 2); a <= Math.min(N - 1, i + 2); a++) {
      for (let b = Math.max(0, j - 2); b <= Math.min(N - 1, j + 2); b++) this.near[a * N + b] += delta;
    }
  }

  buildLines() {
    const { N, L } = this;
    const cells = [];
    this.lineStart = [];
    this.lineLen = [];
    this.cellLine = new Int32Array(N * N * 4).fill(-1);
    this.cellPos = new Int32Array(N * N * 4);
    [[0, 1], [1, 0], [1, 1], [1, -1]].forEach(([di, dj], d) => {
      for (let i = 0; i < N; i++) {
        for (let j = 0; j < N; j++) {
          const pi = i - di, pj = j - dj;
          if (pi >= 0 && pi < N && pj >= 0 && pj < N) continue; // not a line start
          const line = [];
          for (let a = i, b = j; a >= 0 && a < N && b >= 0 && b < N; a += di, b += dj) line.push(a * N + b);
          if (line.length < L) continue;
          const id = this.lineStart.length;
          this.lineStart.push(cells.length);
          this.lineLen.push(line.length);
          line.forEach((c, k) => {
            this.cellLine[c * 4 + d] = id;
            this.cellPos[c * 4 + d] = k;
          });
          cells.push(...line);
        }
      }
    });
    this.lineCells = Int16Array.from(cells);
    const n = this.lineStart.length;
    // Per colour (index 1, 2): score, completed windows (F) and one-short windows (T).
    this.lineS = [null, new Float64Array(n), new Float64Array(n)];
    this.lineF = [null, new Int32Array(n), new Int32Array(n)];
    this.lineT = [null, new Int32Array(n), new Int32Array(n)];
    this.S = [0, 0, 0];
    this.F = [0, 0, 0];
    this.T = [0, 0, 0];
    for (let l = 0; l < n; l++) this.rescore(l);
  }

  /** Recomputes one line's window counts and updates the totals. */
  rescore(l) {
    const { L, w, cells, lineCells } = this;
    const start = this.lineStart[l], len = this.lineLen[l];
    const s = [0, 0, 0], f = [0, 0, 0], t = [0, 0, 0];
    for (let a = 0; a + L <= len; a++) {
      let n1 = 0, n2 = 0, blocked = false;
      for (let k = 0; k < L; k++) {
        const v = cells[lineCells[start + a + k]];
        if (v === 1) n1++;
        else if (v === 2) n2++;
        else if (v === 3) { blocked = true; break; }
      }
      if (blocked || (n1 && n2)) continue;
      const col = n1 ? 1 : 2, n = n1 || n2;
      if (!n) continue;
      s[col] += w[n];
      if (n === L) f[col]++;
      else if (n === L - 1) t[col]++;
    }
    for (const col of [1, 2]) {
      this.S[col] += s[col] - this.lineS[col][l];
      this.F[col] += f[col] - this.lineF[col][l];
      this.T[col] += t[col] - this.lineT[col][l];
      this.lineS[col][l] = s[col];
      this.lineF[col][l] = f[col];
      this.lineT[col][l] = t[col];
    }
  }

  play(c, colour) {
    this.cells[c] = colour;
    this.stones++;
    this.touch(c, 1);
    for (let d = 0; d < 4; d++) if (this.cellLine[c * 4 + d] >= 0) this.rescore(this.cellLine[c * 4 + d]);
  }

  undo(c) {
    this.cells[c] = 0;
    this.stones--;
    this.touch(c, -1);
    for (let d = 0; d < 4; d++) if (this.cellLine[c * 4 + d] >= 0) this.rescore(this.cellLine[c * 4 + d]);
  }

  centre(c) {
    const N = this.N, h = (N - 1) / 2;
    return h - Math.max(Math.abs(((c / N) | 0) - h), Math.abs((c % N) - h));
  }

  /**
   * Candidate cells for `side`, ordered best first, plus `win` (a cell that wins now, or -1) and
   * `blocks` (cells where the opponent would win next move: the only sensible replies).
   */
  candidates(side) {
    const { L, w, cells, lineCells, N } = this;
    const opp = 3 - side;
    // The bot values its own shapes by `attack` and the opponent's by `defense`; at the
    // opponent's nodes the roles swap, matching the minimax evaluation below.
    const wSelf = side === this.me ? this.p.attack : this.p.defense;
    const wOther = side === this.me ? this.p.defense : this.p.attack;
    const list = [];
    const blocks = [];
    let win = -1;
    for (let c = 0; c < N * N; c++) {
      if (cells[c] !== 0 || this.near[c] === 0) continue;
      let gS = 0, gO = 0, kS = 0, kO = 0;
      for (let d = 0; d < 4; d++) {
        const l = this.cellLine[c * 4 + d];
        if (l < 0) continue;
        const p = this.cellPos[c * 4 + d], start = this.lineStart[l];
        const last = Math.min(p, this.lineLen[l] - L);
        for (let a = Math.max(0, p - L + 1); a <= last; a++) {
          let ns = 0, no = 0, blocked = false;
          for (let k = 0; k < L; k++) {
            const v = cells[lineCells[start + a + k]];
            if (v === side) ns++;
            else if (v === opp) no++;
            else if (v === 3) { blocked = true; break; }
          }
          if (blocked) continue;
          if (no === 0) { gS += w[ns + 1] - w[ns]; if (ns === L - 1) kS++; }
          if (ns === 0) { gO += w[no + 1] - w[no]; if (no === L - 1) kO++; }
        }
      }
      if (this.F[side] + kS >= this.need) win = c;
      if (this.F[opp] + kO >= this.need) blocks.push(c);
      list.push({ c, score: wSelf * gS + wOther * gO + this.p.centerBias * 10 * this.centre(c) });
    }
    list.sort((x, y) => y.score - x.score);
    return { list, win, blocks };
  }

  /** Static value from `me`'s side with `side` to move, using the window counters. */
  leaf(side, ply) {
    const opp = 3 - side;
    const sign = side === this.me ? 1 : -1;
    const hasTriplet = (col) => !this.variant || this.F[col] >= 1;
    // Side to move completes a window that wins: a win now.
    if (this.T[side] > 0 && hasTriplet(side)) return sign * (WIN - ply);
    // Opponent has two winning cells (open four, or triplet + two threats): almost surely lost.
    if (this.T[opp] >= 2 && hasTriplet(opp)) return -sign * (WIN / 2 - ply);
    const other = 3 - this.me;
    return this.p.attack * this.S[this.me] - this.p.defense * this.S[other];
  }

  search(depth, alpha, beta, side, ply) {
    // Clock at every inner node (each costs far more than Date.now()), every 64th leaf.
    this.nodes++;
    if ((depth > 0 || (this.nodes & 63) === 0) && Date.now() > this.deadline) throw ABORT;
    if (depth === 0) return this.leaf(side, ply);
    const { list, win, blocks } = this.candidates(side);
    const maximizing = side === this.me;
    if (win >= 0) return (maximizing ? 1 : -1) * (WIN - ply);
    if (list.length === 0) return 0; // board full: draw
    const moves = blocks.length ? blocks : list.slice(0, this.p.candidates).map((m) => m.c);
    let best = maximizing ? -Infinity : Infinity;
    for (const c of moves) {
      this.play(c, side);
      const v = this.search(depth - 1, alpha, beta, 3 - side, ply + 1);
      this.undo(c);
      if (maximizing) {
        if (v > best) best = v;
        if (v > alpha) alpha = v;
      } else {
        if (v < best) best = v;
        if (v < beta) beta = v;
      }
      if (alpha >= beta) break;
    }
    return best;
  }

  /** Opening move: the centre, or the nearest playable cell (random among them with noise). */
  opening() {
    const { N } = this;
    const free = [];
    for (let c = 0; c < N * N; c++) if (this.cells[c] === 0) free.push(c);
    if (!free.length) return { cell: -1, reason: 'no legal move' };
    const top = Math.max(...free.map((c) => this.centre(c)));
    const spread = this.p.randomness > 0 ? 1 : 0;
    const pool = free.filter((c) => this.centre(c) >= top - spread);
    return { cell: pool[Math.floor(this.rng() * pool.length)], reason: 'opening near centre' };
  }

  /** Iterative deepening up to params.depth, within the deadline. */
  choose() {
    if (this.stones === 0) return this.opening();
    const me = this.me, opp = 3 - me;
    const { list, win, blocks } = this.candidates(me);
    if (!list.length) return this.opening(); // no stone nearby is free: any free cell
    if (win >= 0) return { cell: win, reason: 'winning move' };
    if (blocks.length === 1) return { cell: blocks[0], reason: 'forced block' };
    let moves = blocks.length ? blocks : list.slice(0, this.p.candidates).map((m) => m.c);
    let best = { cell: moves[0], value: 0, depth: 0 };
    const noisy = this.p.randomness > 0;
    for (let depth = 1; depth <= this.p.depth; depth++) {
      const scored = [];
      try {
        let alpha = -Infinity;
        for (const c of moves) {
          this.play(c, me);
          // With randomness every root move needs an exact value, so no root window.
          const v = this.search(depth - 1, noisy ? -Infinity : alpha, Infinity, opp, 1);
          this.undo(c);
          scored.push({ c, v });
          if (v > alpha) alpha = v;
        }
      } catch (e) {
        if (e !== ABORT) throw e;
        break; // keep the last completed depth
      }
      for (const m of scored) {
        // Noise only among non-decisive values, so it never throws away a found win/defence.
        const decisive = Math.abs(m.v) >= WIN / 4;
        m.key = m.v + (decisive ? 0 : this.p.randomness * 100 * this.rng());
      }
      scored.sort((x, y) => y.key - x.key);
      best = { cell: scored[0].c, value: scored[0].v, depth };
      moves = scored.map((m) => m.c); // best first for the next iteration
      if (Math.abs(best.value) >= WIN / 4) break; // decided
    }
    const verdict = best.value >= WIN / 4 ? 'forced win found' : best.value <= -WIN / 4 ? 'position lost' : 'best evaluation';
    return { cell: best.cell, reason: `${verdict} at depth ${best.depth} (${this.nodes} nodes)` };
  }
}
