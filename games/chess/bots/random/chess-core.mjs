// chess-core.mjs: a dependency-free chess move generator for standard chess, Chess960 and
// CATArena's obstacle variant (see chess-core.d.mts for the API). Plain JavaScript for Node 18+,
// so that bot folders can carry a copy of this single file.
//
// Rules follow python-chess, which CATArena's servers run on:
// * Legality is ordinary chess legality: only the MOVER's king must not be attacked after the
//   move. A side without a king is never in check, so every pseudo-legal move of it is legal, and
//   capturing a king is an ordinary capture.
// * Obstacles never block or forbid a move. After a legal move, the piece standing on the move's
//   UCI target square is removed if that square is an obstacle (kings included), as CATArena's
//   server does (board.push, then remove_piece_at(to_square)); a castling move's target is the
//   rook's square. A king can vanish or be left capturable.
// * The en-passant square is set after every double push and kept even when the pushed pawn
//   vanished on an obstacle (python-chess's push does not look): the adjacent enemy pawn may then
//   capture en passant, capturing nothing.
//
// The public functions take and return plain JSON Position objects. Inside, a mutable 0x88 Board
// with make/unmake does the work (perft, legal move generation).

const FILES = 'abcdefgh';
export const STANDARD_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

// Piece codes: type | colour << 3 (white 0, black 1). 0 = empty.
const PAWN = 1, KNIGHT = 2, BISHOP = 3, ROOK = 4, QUEEN = 5, KING = 6;
const TYPE_LETTERS = ' pnbrqk';
// Internal move: from | to << 7 | promotion type << 14 | flags << 17 (0x88 squares). Castling is
// encoded king-takes-own-rook (to = the rook's square), which is unambiguous in Chess960.
const EP = 1, CASTLE = 2, DOUBLE = 4;

const KNIGHT_STEPS = [33, 31, 18, 14, -33, -31, -18, -14];
const KING_STEPS = [1, -1, 16, -16, 15, 17, -15, -17];
const ROOK_DIRS = [1, -1, 16, -16];
const BISHOP_DIRS = [15, 17, -15, -17];
const SLIDER_DIRS = [null, null, null, BISHOP_DIRS, ROOK_DIRS, KING_STEPS];

const to88 = (s) => s + (s & ~7);
const to64 = (s) => (s + (s & 7)) >> 1;
const letterOf = (code) => (code & 8 ? TYPE_LETTERS[code & 7] : TYPE_LETTERS[code & 7].toUpperCase());
function codeOf(letter) {
  const t = TYPE_LETTERS.indexOf(letter.toLowerCase());
  if (t < 1) throw new Error(`bad piece letter: ${letter}`);
  return t | (letter === letter.toLowerCase() ? 8 : 0);
}

export function squareName(square) {
  if (!Number.isInteger(square) || square < 0 || square > 63) throw new Error(`bad square: ${square}`);
  return FILES[square & 7] + ((square >> 3) + 1);
}

export function parseSquare(name) {
  if (typeof name !== 'string' || !/^[a-h][1-8]$/.test(name)) throw new Error(`bad square name: ${name}`);
  return FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1);
}

/** Mutable 0x88 board with make/unmake; exported for bots that search (see the .d.mts). */
export class Board {
  constructor(position, options = {}) {
    this.b = new Int8Array(128);
    this.kings = new Int16Array([-1, -1]);
    // Castling rooks as 0x88 squares, -1 = none: [white h-side, white a-side, black h-side, black a-side].
    this.castle = new Int16Array([-1, -1, -1, -1]);
    this.undo = new Int32Array(9 * 64); // grown by make() for deep searches
    this.sp = 0;
    this.lists = [];
    this.obstacles = null;
    if (options.obstacles?.length) {
      this.obstacles = new Uint8Array(128);
      for (const s of options.obstacles) this.obstacles[to88(s)] = 1;
    }
    this.chess960 = !!position.chess960;
    for (let s = 0; s < 64; s++) {
      const letter = position.board[s];
      if (!letter) continue;
      const code = codeOf(letter);
      this.b[to88(s)] = code;
      if ((code & 7) === KING) {
        if (this.kings[code >> 3] >= 0) throw new Error('more than one king of a colour');
        this.kings[code >> 3] = to88(s);
      }
    }
    this.turn = position.turn === 'b' ? 1 : 0;
    this.ep = position.ep === null || position.ep === undefined ? -1 : to88(position.ep);
    this.half = position.halfmove | 0;
    this.full = position.fullmove | 0 || 1;
    for (const c of [0, 1]) this.setCastling(c, position.castling[c ? 'b' : 'w'] || []);
  }

  /** Keeps the valid rights only, as python-chess's clean_castling_rights does: the king on its
   *  back rank, a rook of its colour on each named file, at most the outermost rook per side; in
   *  standard chess only a king on e1/e8 with rooks on the a/h files. */
  setCastling(c, files) {
    const k = this.kings[c], rank = c ? 0x70 : 0;
    this.castle[2 * c] = this.castle[2 * c + 1] = -1;
    if (k < 0 || (k & 0x70) !== rank || (!this.chess960 && (k & 7) !== 4)) return;
    for (const f of [...files].sort((x, y) => x - y)) {
      if (this.b[rank + f] !== (ROOK | (c << 3)) || (!this.chess960 && f !== 0 && f !== 7)) continue;
      if (f > (k & 7)) this.castle[2 * c] = rank + f; // the last (outermost) wins on the h-side
      else if (f < (k & 7) && this.castle[2 * c + 1] < 0) this.castle[2 * c + 1] = rank + f;
    }
  }

  toPosition() {
    const board = new Array(64).fill(null);
    for (let s = 0; s < 64; s++) if (this.b[to88(s)]) board[s] = letterOf(this.b[to88(s)]);
    const files = (c) => [this.castle[2 * c + 1], this.castle[2 * c]].filter((s) => s >= 0).map((s) => s & 7);
    return {
      board, turn: this.turn ? 'b' : 'w', castling: { w: files(0), b: files(1) },
      ep: this.ep < 0 ? null : to64(this.ep), halfmove: this.half, fullmove: this.full, chess960: this.chess960,
    };
  }

  /** Is square sq (0x88) attacked by colour `by`? */
  attacked(sq, by) {
    const b = this.b, bit = by << 3;
    if (by === 0) {
      if (!((sq - 15) & 0x88) && b[sq - 15] === PAWN) return true;
      if (!((sq - 17) & 0x88) && b[sq - 17] === PAWN) return true;
    } else {
      if (!((sq + 15) & 0x88) && b[sq + 15] === (PAWN | 8)) return true;
      if (!((sq + 17) & 0x88) && b[sq + 17] === (PAWN | 8)) return true;
    }
    const knight = KNIGHT | bit, king = KING | bit, rook = ROOK | bit, bishop = BISHOP | bit, queen = QUEEN | bit;
    for (let i = 0; i < 8; i++) {
      const s = sq + KNIGHT_STEPS[i];
      if (!(s & 0x88) && b[s] === knight) return true;
      const t = sq + KING_STEPS[i];
      if (!(t & 0x88) && b[t] === king) return true;
    }
    for (let i = 0; i < 4; i++) {
      let d = ROOK_DIRS[i], s = sq + d;
      while (!(s & 0x88)) {
        const p = b[s];
        if (p) { if (p === rook || p === queen) return true; break; }
        s += d;
      }
      d = BISHOP_DIRS[i]; s = sq + d;
      while (!(s & 0x88)) {
        const p = b[s];
        if (p) { if (p === bishop || p === queen) return true; break; }
        s += d;
      }
    }
    return false;
  }

  inCheck() {
    const k = this.kings[this.turn];
    return k >= 0 && this.attacked(k, this.turn ^ 1);
  }

  /** Writes the pseudo-legal moves into list from index n; returns the new length. */
  generate(list, n = 0) {
    const b = this.b, c = this.turn, them = c ^ 1;
    const fwd = c ? -16 : 16, startRank = c ? 6 : 1, lastRank = c ? 0 : 7;
    for (let sq = 0; sq < 120; sq++) {
      if (sq & 8) { sq += 7; continue; }
      const p = b[sq];
      if (!p || p >> 3 !== c) continue;
      const type = p & 7;
      if (type === PAWN) {
        const t = sq + fwd;
        if (!(t & 0x88) && !b[t]) {
          if (t >> 4 === lastRank) n = addPromotions(list, n, sq | (t << 7));
          else {
            list[n++] = sq | (t << 7);
            if (sq >> 4 === startRank && !b[t + fwd]) list[n++] = sq | ((t + fwd) << 7) | (DOUBLE << 17);
          }
        }
        for (let t2 = t - 1; t2 <= t + 1; t2 += 2) {
          if (t2 & 0x88) continue;
          const q = b[t2];
          if (q && q >> 3 === them) {
            if (t2 >> 4 === lastRank) n = addPromotions(list, n, sq | (t2 << 7));
            else list[n++] = sq | (t2 << 7);
          } else if (!q && t2 === this.ep) {
            // As python-chess: the ep square alone decides, whether or not the double-pushed pawn
            // is still there (an obstacle may have removed it; the capture then takes nothing).
            list[n++] = sq | (t2 << 7) | (EP << 17);
          }
        }
      } else if (type === KNIGHT || type === KING) {
        const steps = type === KNIGHT ? KNIGHT_STEPS : KING_STEPS;
        for (let i = 0; i < 8; i++) {
          const t = sq + steps[i];
          if (t & 0x88) continue;
          const q = b[t];
          if (!q || q >> 3 === them) list[n++] = sq | (t << 7);
        }
      } else {
        const dirs = type === QUEEN ? KING_STEPS : SLIDER_DIRS[type];
        for (let i = 0; i < dirs.length; i++) {
          const d = dirs[i];
          for (let t = sq + d; !(t & 0x88); t += d) {
            const q = b[t];
            if (!q) { list[n++] = sq | (t << 7); continue; }
            if (q >> 3 === them) list[n++] = sq | (t << 7);
            break;
          }
        }
      }
    }
    const k = this.kings[c];
    if (k >= 0 && (this.castle[2 * c] >= 0 || this.castle[2 * c + 1] >= 0) && !this.attacked(k, them)) {
      for (let side = 0; side < 2; side++) {
        const rook = this.castle[2 * c + side];
        if (rook >= 0 && this.canCastle(k, rook, side === 0)) list[n++] = k | (rook << 7) | (CASTLE << 17);
      }
    }
    return n;
  }

  /** Chess960 castling (standard chess is the special case): king and rook end on g/f (h-side) or
   *  c/d (a-side); every square either crosses must be empty but for the two of them; the king
   *  may not pass through an attacked square. "Not in check" is tested by the caller and "not in
   *  check afterwards" by make() (that also catches a rook that was shielding the king on the rank). */
  canCastle(k, rook, hSide) {
    const b = this.b, rank = k & 0x70;
    const kTo = rank + (hSide ? 6 : 2), rTo = rank + (hSide ? 5 : 3);
    if (b[rook] !== (ROOK | (this.turn << 3))) return false;
    const lo = Math.min(k, kTo, rook, rTo), hi = Math.max(k, kTo, rook, rTo);
    for (let s = lo; s <= hi; s++) if (b[s] && s !== k && s !== rook) return false;
    const step = kTo > k ? 1 : -1;
    for (let s = k + step; s !== kTo + step && k !== kTo; s += step) if (this.attacked(s, this.turn ^ 1)) return false;
    return true;
  }

  /** Makes a pseudo-legal move. Returns whether it was legal: the mover's king (if any) not
   *  attacked, judged BEFORE obstacle removal as python-chess does. Call unmake() either way. */
  make(m) {
    const b = this.b, c = this.turn, u = this.undo, p = this.sp, castle = this.castle;
    const from = m & 127, to = (m >> 7) & 127, promo = (m >> 14) & 7, flags = m >> 17;
    const piece = b[from];
    if (p + 9 > u.length) { this.undo = new Int32Array(u.length * 2); this.undo.set(u); return this.make(m); }
    u[p] = m; u[p + 1] = piece; u[p + 2] = this.ep; u[p + 3] = this.half;
    u[p + 4] = castle[0]; u[p + 5] = castle[1]; u[p + 6] = castle[2]; u[p + 7] = castle[3];
    this.sp = p + 9;
    this.ep = -1;
    let legal, captured = 0;
    if (flags & CASTLE) {
      const rank = from & 0x70, hSide = to > from;
      const kTo = rank + (hSide ? 6 : 2), rTo = rank + (hSide ? 5 : 3);
      b[from] = 0; b[to] = 0; b[kTo] = piece; b[rTo] = ROOK | (c << 3);
      this.kings[c] = kTo;
      castle[2 * c] = castle[2 * c + 1] = -1;
      this.half++;
      legal = !this.attacked(kTo, c ^ 1);
      // CATArena removes what stands on the move's target, the rook's square: the king or the rook
      // if one of them ended there, else nothing.
      if (this.obstacles?.[to]) {
        b[to] = 0;
        if (to === kTo) this.kings[c] = -1;
      }
    } else {
      const capSq = flags & EP ? to - (c ? -16 : 16) : to;
      captured = b[capSq];
      b[capSq] = 0;
      b[to] = promo ? promo | (c << 3) : piece;
      b[from] = 0;
      if ((piece & 7) === KING) { this.kings[c] = to; castle[2 * c] = castle[2 * c + 1] = -1; }
      if ((captured & 7) === KING) { this.kings[c ^ 1] = -1; castle[2 - 2 * c] = castle[3 - 2 * c] = -1; }
      // A rook leaving its square or captured on it loses its castling right.
      for (let i = 0; i < 4; i++) if (castle[i] === from || castle[i] === to) castle[i] = -1;
      this.half = (piece & 7) === PAWN || captured ? 0 : this.half + 1;
      if (flags & DOUBLE) this.ep = (from + to) >> 1; // FEN semantics: after every double push
      const k = this.kings[c];
      legal = k < 0 || !this.attacked(k, c ^ 1);
      if (this.obstacles?.[to]) {
        b[to] = 0;
        if ((piece & 7) === KING) this.kings[c] = -1;
      }
    }
    u[p + 8] = captured;
    if (c) this.full++;
    this.turn = c ^ 1;
    return legal;
  }

  unmake() {
    const b = this.b, u = this.undo, p = (this.sp -= 9), castle = this.castle;
    const m = u[p], piece = u[p + 1], captured = u[p + 8];
    const from = m & 127, to = (m >> 7) & 127, flags = m >> 17;
    const c = (this.turn ^= 1);
    if (c) this.full--;
    this.ep = u[p + 2]; this.half = u[p + 3];
    castle[0] = u[p + 4]; castle[1] = u[p + 5]; castle[2] = u[p + 6]; castle[3] = u[p + 7];
    if (flags & CASTLE) {
      const rank = from & 0x70, hSide = to > from;
      b[rank + (hSide ? 6 : 2)] = 0; b[rank + (hSide ? 5 : 3)] = 0;
      b[from] = piece; b[to] = ROOK | (c << 3);
      this.kings[c] = from;
      return;
    }
    b[from] = piece;
    if (flags & EP) { b[to] = 0; b[to - (c ? -16 : 16)] = captured; }
    else b[to] = captured;
    if ((piece & 7) === KING) this.kings[c] = from;
    if ((captured & 7) === KING) this.kings[c ^ 1] = to;
  }

  /** Legal moves as internal integers. */
  legal() {
    const list = SCRATCH, out = [];
    const n = this.generate(list);
    for (let i = 0; i < n; i++) {
      if (this.make(list[i])) out.push(list[i]);
      this.unmake();
    }
    return out;
  }

  perft(depth, ply = 0) {
    if (depth === 0) return 1;
    const list = this.lists[ply] || (this.lists[ply] = new Int32Array(512));
    const n = this.generate(list);
    let nodes = 0;
    for (let i = 0; i < n; i++) {
      if (this.make(list[i])) nodes += depth === 1 ? 1 : this.perft(depth - 1, ply + 1);
      this.unmake();
    }
    return nodes;
  }

  /** The public Move object for an internal move (before it is made). */
  decode(m) {
    const from = m & 127, to = (m >> 7) & 127, promo = (m >> 14) & 7, flags = m >> 17;
    if (flags & CASTLE) return { from: to64(from), to: to64((from & 0x70) + (to > from ? 6 : 2)), castleRook: to64(to) };
    const move = { from: to64(from), to: to64(to) };
    if (promo) move.promotion = TYPE_LETTERS[promo];
    const capSq = flags & EP ? to - (this.turn ? -16 : 16) : to;
    if (this.b[capSq]) move.captured = letterOf(this.b[capSq]);
    if (flags & EP) move.enPassant = true;
    return move;
  }

  /** The internal move for a public Move object (not validated). */
  encode(move) {
    const from = to88(move.from), piece = this.b[from];
    if (move.castleRook !== undefined && move.castleRook !== null) return from | (to88(move.castleRook) << 7) | (CASTLE << 17);
    const to = to88(move.to);
    let m = from | (to << 7);
    if (move.promotion) m |= TYPE_LETTERS.indexOf(move.promotion) << 14;
    if ((piece & 7) === PAWN) {
      if (Math.abs(to - from) === 32) m |= DOUBLE << 17;
      else if ((to & 7) !== (from & 7) && !this.b[to] && to === this.ep) m |= EP << 17;
    }
    return m;
  }
}

const SCRATCH = new Int32Array(512); // legal()'s move buffer: it never recurses

function addPromotions(list, n, base) {
  list[n++] = base | (QUEEN << 14);
  list[n++] = base | (ROOK << 14);
  list[n++] = base | (BISHOP << 14);
  list[n++] = base | (KNIGHT << 14);
  return n;
}

// ---------------------------------------------------------------------------------------------
// FEN

export function parseFen(fen, options = {}) {
  const parts = String(fen).trim().split(/\s+/);
  if (parts.length < 4) throw new Error(`bad FEN (needs at least 4 fields): ${fen}`);
  const [placement, turn, castlingField, epField] = parts;
  const ranks = placement.split('/');
  if (ranks.length !== 8) throw new Error(`bad FEN placement: ${placement}`);
  const board = new Array(64).fill(null);
  ranks.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) file += Number(ch);
      else {
        if (file > 7) throw new Error(`bad FEN rank: ${row}`);
        letterOf(codeOf(ch));
        board[(7 - i) * 8 + file++] = ch;
      }
    }
    if (file !== 8) throw new Error(`bad FEN rank: ${row}`);
  });
  if (turn !== 'w' && turn !== 'b') throw new Error(`bad FEN side to move: ${turn}`);
  if (!/^(-|[KQkqA-Ha-h]+)$/.test(castlingField)) throw new Error(`bad FEN castling field: ${castlingField}`);
  if (epField !== '-' && !/^[a-h][36]$/.test(epField)) throw new Error(`bad FEN en-passant field: ${epField}`);
  const numberAt = (i, dflt) => {
    if (parts[i] === undefined) return dflt;
    if (!/^\d+$/.test(parts[i])) throw new Error(`bad FEN move counter: ${parts[i]}`);
    return Number(parts[i]);
  };
  // K/Q (X-FEN) name the outermost rook on that side of the king, letters (Shredder, X-FEN) a file.
  const castling = { w: [], b: [] };
  for (const ch of castlingField === '-' ? '' : castlingField) {
    const white = ch === ch.toUpperCase(), rank = white ? 0 : 56, rook = white ? 'R' : 'r';
    const rookFiles = [0, 1, 2, 3, 4, 5, 6, 7].filter((f) => board[rank + f] === rook);
    const kingFile = board.slice(rank, rank + 8).indexOf(white ? 'K' : 'k');
    let file = FILES.indexOf(ch.toLowerCase());
    if (ch.toLowerCase() === 'k') {
      const outer = rookFiles[rookFiles.length - 1];
      file = outer !== undefined && outer > kingFile ? outer : 7;
    } else if (ch.toLowerCase() === 'q') file = rookFiles[0] !== undefined && rookFiles[0] < kingFile ? rookFiles[0] : 0;
    castling[white ? 'w' : 'b'].push(file);
  }
  const raw = { board, turn, castling, ep: epField === '-' ? null : parseSquare(epField), halfmove: numberAt(4, 0), fullmove: numberAt(5, 1), chess960: true };
  // Chess960 unless told otherwise and every right is a standard one (king on e, rooks on a/h).
  let chess960 = options.chess960;
  if (chess960 === undefined) {
    const asStandard = new Board({ ...raw, chess960: false }).toPosition().castling;
    const as960 = new Board(raw).toPosition().castling;
    chess960 = asStandard.w.length !== as960.w.length || asStandard.b.length !== as960.b.length;
  }
  return new Board({ ...raw, chess960 }).toPosition();
}

/** X-FEN castling (python-chess's castling_xfen): K/Q for the outermost rook on its side of the
 *  king, else the rook's file letter. Standard positions always give KQkq-style letters. */
function castlingFen(board) {
  let out = '';
  for (const c of [0, 1]) {
    const rank = c ? 0x70 : 0, rook = ROOK | (c << 3);
    for (const [slot, outward] of [[2 * c, 1], [2 * c + 1, -1]]) {
      const sq = board.castle[slot];
      if (sq < 0) continue;
      let outermost = true;
      for (let s = sq + outward; s >= rank && s <= rank + 7; s += outward) if (board.b[s] === rook) outermost = false;
      const ch = outermost ? (slot === 2 * c ? 'k' : 'q') : FILES[sq & 7];
      out += c ? ch : ch.toUpperCase();
    }
  }
  return out || '-';
}

/** options.enPassant: 'fen' (default) writes the ep square after every double push; 'legal' only
 *  when an en-passant capture is legal (python-chess's fen() default and chess.js's convention). */
export function toFen(position, options = {}) {
  const board = new Board(position);
  const rows = [];
  for (let r = 7; r >= 0; r--) {
    let row = '', empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = position.board[r * 8 + f];
      if (!p) { empty++; continue; }
      if (empty) { row += empty; empty = 0; }
      row += p;
    }
    rows.push(row + (empty ? empty : ''));
  }
  const ep = options.enPassant === 'legal' ? legalEp(board) : board.ep;
  return `${rows.join('/')} ${position.turn} ${castlingFen(board)} ${ep < 0 ? '-' : squareName(to64(ep))} ${position.halfmove} ${position.fullmove}`;
}

/** The ep square (0x88) if some en-passant capture is legal, else -1. */
function legalEp(board) {
  return board.ep >= 0 && board.legal().some((m) => (m >> 17) & EP) ? board.ep : -1;
}

export function positionKey(position) {
  return toFen(position, { enPassant: 'legal' }).split(' ').slice(0, 4).join(' ');
}

/** Scharnagl numbering, as python-chess's Board.from_chess960_pos (518 = RNBQKBNR). */
export function chess960Position(n) {
  if (!Number.isInteger(n) || n < 0 || n > 959) throw new Error(`bad Chess960 number: ${n}`);
  const rank = new Array(8).fill(null);
  rank[2 * (n % 4) + 1] = 'B'; n = Math.floor(n / 4);
  rank[2 * (n % 4)] = 'B'; n = Math.floor(n / 4);
  const place = (letter, index) => { rank[rank.map((p, f) => (p ? -1 : f)).filter((f) => f >= 0)[index]] = letter; };
  place('Q', n % 6); n = Math.floor(n / 6);
  const [k1, k2] = [[0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]][n];
  place('N', k2); place('N', k1); // the higher index first, so the lower one still counts right
  place('R', 0); place('K', 0); place('R', 0);
  const board = new Array(64).fill(null);
  for (let f = 0; f < 8; f++) {
    board[f] = rank[f]; board[8 + f] = 'P';
    board[48 + f] = 'p'; board[56 + f] = rank[f].toLowerCase();
  }
  const rooks = [rank.indexOf('R'), rank.lastIndexOf('R')];
  return { board, turn: 'w', castling: { w: rooks, b: [...rooks] }, ep: null, halfmove: 0, fullmove: 1, chess960: true };
}

// ---------------------------------------------------------------------------------------------
// Moves

export function legalMoves(position, options) {
  const board = new Board(position, options);
  return board.legal().map((m) => board.decode(m));
}

export function applyMove(position, move, options) {
  const board = new Board(position, options);
  board.make(board.encode(move));
  return board.toPosition();
}

export function moveToUci(position, move) {
  const isCastle = move.castleRook !== undefined && move.castleRook !== null;
  const to = isCastle && position.chess960 ? move.castleRook : move.to;
  return squareName(move.from) + squareName(to) + (move.promotion || '');
}

/** Every UCI string findMove accepts for a legal move: from, to and the promotion letter; a
 *  castling move as king-takes-rook (e1h1), and in standard chess also as the king's two-step (e1g1). */
export function moveUcis(position, move) {
  const from = squareName(move.from);
  if (move.castleRook === undefined) return [from + squareName(move.to) + (move.promotion || '')];
  const takesRook = from + squareName(move.castleRook);
  return position.chess960 ? [takesRook] : [takesRook, from + squareName(move.to)];
}

/** The first legal move that `uci` names (moveUcis), or null. */
export function findMove(position, uci, options) {
  if (typeof uci !== 'string' || !/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(uci)) return null;
  const from = parseSquare(uci.slice(0, 2));
  for (const move of legalMoves(position, options)) {
    if (move.from === from && moveUcis(position, move).includes(uci)) return move;
  }
  return null;
}

export function inCheck(position) {
  return new Board(position).inCheck();
}

/** python-chess's is_insufficient_material: both sides lack mating material. A side has it
 *  unless it has no pawns, rooks or queens and either (knights) it has at most one other piece
 *  (its king) and the opponent has nothing but kings and queens, or (bishops) all bishops on the
 *  board stand on one square colour and there are no pawns or knights at all; bare is insufficient. */
export function insufficientMaterial(position) {
  const pieces = position.board.map((p, s) => ({ p, s })).filter((x) => x.p);
  const lacks = (white) => {
    const own = pieces.filter((x) => (x.p === x.p.toUpperCase()) === white);
    const opp = pieces.filter((x) => (x.p === x.p.toUpperCase()) !== white);
    const has = (list, types) => list.some((x) => types.includes(x.p.toLowerCase()));
    if (has(own, 'prq')) return false;
    if (has(own, 'n')) return own.length <= 2 && !has(opp, 'pnbr');
    if (has(own, 'b')) {
      const colours = new Set(pieces.filter((x) => x.p.toLowerCase() === 'b').map((x) => ((x.s >> 3) + x.s) & 1));
      return colours.size === 1 && !has(pieces, 'pn');
    }
    return true;
  };
  return lacks(true) && lacks(false);
}

export function perft(position, depth, options) {
  return new Board(position, options).perft(depth);
}
