// The chess board of the replay viewer (browser, no imports; games/core/viewer.ts). frames[k] =
// {fen, from, to, check, obstacle} after k moves (games/chess/viewer/data.ts). The board is
// inline SVG, White at the bottom: pieces are the Unicode chess glyphs in <text> (a white piece
// is the filled glyph in white under the outlined one, a black piece the filled glyph in black;
// the system's fonts, nothing loaded), the last move's squares tinted, the checked king on red,
// (Black at the bottom with render(…, {flip: true})), the variant's obstacles as dark crossed blocks (a piece that ends its move on one is removed:
// that square is ringed in red at that step), and below the board whose move it is.
// extra(): the variant's start and obstacles, and the PGN with "Copy PGN" and "Download .pgn".
(function () {
  'use strict';
  const NS = 'http://www.w3.org/2000/svg';
  const SQ = 48;
  const MARGIN = 20;
  const FILES = 'abcdefgh';
  // Filled glyphs (U+265A…) for every piece; outlined ones (U+2654…) drawn over white pieces.
  const FILLED = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
  const OUTLINE = { k: '\u2654', q: '\u2655', r: '\u2656', b: '\u2657', n: '\u2658', p: '\u2659' };
  const NAMES = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
  const TEXT = '\uFE0E'; // text presentation, never an emoji
  const FONT = '"DejaVu Sans", "Noto Sans Symbols2", "Segoe UI Symbol", "Apple Symbols", sans-serif';

  function svg(tag, attrs, text) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function html(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') node.className = v;
      else node.setAttribute(k, String(v));
    }
    for (const c of children) node.append(c);
    return node;
  }

  /** FEN placement → board[rank][file], rank 0 = rank 1. */
  function parsePlacement(fen) {
    const rows = fen.split(' ')[0].split('/');
    const board = [];
    rows.forEach((row, r) => {
      const rank = [];
      for (const ch of row) {
        if (/\d/.test(ch)) for (let n = 0; n < Number(ch); n++) rank.push(null);
        else rank.push(ch);
      }
      board[7 - r] = rank;
    });
    return board;
  }

  // Black at the bottom when `options.flip` (the human seat of a person playing black).
  let flipped = false;
  const squareXY = (name) => {
    const file = FILES.indexOf(name[0]);
    const row = 8 - Number(name[1]);
    return { x: MARGIN + (flipped ? 7 - file : file) * SQ, y: MARGIN + (flipped ? 7 - row : row) * SQ };
  };

  function render(el, data, step, options) {
    flipped = Boolean(options?.flip);
    const frame = data.frames[step] || data.frames[0];
    const extra = data.extra || {};
    const board = parsePlacement(frame.fen);
    const turn = frame.fen.split(' ')[1] === 'b' ? 1 : 0;
    const width = 8 * SQ + 2 * MARGIN;
    const root = svg('svg', {
      viewBox: `0 0 ${width} ${width}`,
      width,
      height: width,
      role: 'img',
      'aria-label': `chess position after ${step} moves`,
      'data-testid': 'board-svg',
    });
    root.append(svg('rect', { x: 0, y: 0, width, height: width, fill: '#6d4c33', rx: 4 }));

    for (let rank = 0; rank < 8; rank++) {
      for (let file = 0; file < 8; file++) {
        const name = FILES[file] + (rank + 1);
        const { x, y } = squareXY(name);
        root.append(
          svg('rect', {
            x,
            y,
            width: SQ,
            height: SQ,
            fill: (rank + file) % 2 === 0 ? '#b58863' : '#f0d9b5',
            'data-square': name,
          }),
        );
      }
    }
    const labels = svg('g', { fill: '#f0d9b5', 'font-size': 12, 'text-anchor': 'middle' });
    for (let k = 0; k < 8; k++) {
      const f = squareXY(`${FILES[k]}1`).x;
      const r = squareXY(`a${k + 1}`).y;
      labels.append(svg('text', { x: f + SQ / 2, y: width - 5 }, FILES[k]));
      labels.append(svg('text', { x: MARGIN / 2, y: r + SQ / 2 + 4 }, String(k + 1)));
    }
    root.append(labels);

    if (frame.from && frame.to) {
      for (const name of [frame.from, frame.to]) {
        const { x, y } = squareXY(name);
        root.append(svg('rect', { class: 'lastmove', x, y, width: SQ, height: SQ, fill: '#f6f669', opacity: 0.55 }));
      }
    }

    for (const name of extra.obstacles || []) {
      const { x, y } = squareXY(name);
      const g = svg('g', { class: 'obstacle', 'data-square': name });
      g.append(
        svg('rect', { x: x + 4, y: y + 4, width: SQ - 8, height: SQ - 8, rx: 5, fill: '#4e342e', opacity: 0.85 }),
      );
      g.append(
        svg('path', {
          d: `M${x + 12} ${y + 12}L${x + SQ - 12} ${y + SQ - 12}M${x + SQ - 12} ${y + 12}L${x + 12} ${y + SQ - 12}`,
          stroke: '#d7ccc8',
          'stroke-width': 3,
          'stroke-linecap': 'round',
        }),
      );
      g.append(svg('title', {}, `obstacle ${name}: a piece that ends its move here is removed`));
      root.append(g);
    }

    if (frame.check) {
      const king = turn === 0 ? 'K' : 'k';
      for (let rank = 0; rank < 8; rank++) {
        for (let file = 0; file < 8; file++) {
          if (board[rank][file] !== king) continue;
          const { x, y } = squareXY(FILES[file] + (rank + 1));
          root.append(
            svg('circle', {
              class: 'check',
              cx: x + SQ / 2,
              cy: y + SQ / 2,
              r: SQ * 0.48,
              fill: '#e53935',
              opacity: 0.75,
            }),
          );
        }
      }
    }
    if (frame.obstacle && frame.to) {
      const { x, y } = squareXY(frame.to);
      root.append(
        svg('circle', {
          class: 'removed',
          cx: x + SQ / 2,
          cy: y + SQ / 2,
          r: SQ * 0.44,
          fill: 'none',
          stroke: '#e53935',
          'stroke-width': 3,
        }),
      );
    }

    let pieces = 0;
    for (let rank = 0; rank < 8; rank++) {
      for (let file = 0; file < 8; file++) {
        const piece = board[rank][file];
        if (!piece) continue;
        pieces++;
        const name = FILES[file] + (rank + 1);
        const { x, y } = squareXY(name);
        const type = piece.toLowerCase();
        const white = piece !== type;
        const g = svg('g', {
          class: 'piece',
          'data-piece': piece,
          'data-square': name,
          'font-family': FONT,
          'font-size': SQ * 0.82,
          'text-anchor': 'middle',
        });
        const at = { x: x + SQ / 2, y: y + SQ * 0.8 };
        if (white) {
          g.append(svg('text', { ...at, fill: '#fff' }, FILLED[type] + TEXT));
          g.append(svg('text', { ...at, fill: '#000' }, OUTLINE[type] + TEXT));
        } else {
          g.append(svg('text', { ...at, fill: '#000' }, FILLED[type] + TEXT));
        }
        g.append(svg('title', {}, `${white ? 'white' : 'black'} ${NAMES[type]} ${name}`));
        root.append(g);
      }
    }
    el.append(root);

    const status = html('p', { class: 'board-status', 'data-testid': 'board-status' });
    const parts = [`${pieces} pieces`];
    if (frame.obstacle) parts.push(`the piece on ${frame.to} was removed by the obstacle`);
    if (step === data.moves.length) parts.push(data.result);
    else parts.push(`${turn === 0 ? 'White' : 'Black'} to move${frame.check ? ', in check' : ''}`);
    status.textContent = parts.join(' · ');
    el.append(status);
  }

  function extra(el, data) {
    const x = data.extra || {};
    if (data.variant === 'variant') {
      el.append(
        html(
          'p',
          { class: 'muted' },
          `Chess960 start position ${x.chess960Pos} · obstacles: ${(x.obstacles || []).join(' ')} (a piece that ends its move on one is removed)`,
        ),
      );
    }
    if (!x.pgn) return;
    el.append(html('h2', {}, 'PGN'));
    if (x.pgnNote)
      el.append(
        html(
          'p',
          { class: 'warn', 'data-testid': 'pgn-note' },
          `This game is not a valid PGN game: ${x.pgnNote}. It is shown for reference.`,
        ),
      );
    const text = html('textarea', { readonly: '', rows: 10, cols: 80, spellcheck: 'false', 'data-testid': 'pgn' });
    text.value = x.pgn;
    const said = html('span', { class: 'muted', 'data-testid': 'copy-status' });
    const copy = html('button', { type: 'button', 'data-testid': 'copy-pgn' }, 'Copy PGN');
    copy.addEventListener('click', () => {
      const fallback = () => {
        text.focus();
        text.select();
        let ok = false;
        try {
          ok = document.execCommand('copy');
        } catch {
          ok = false;
        }
        said.textContent = ok ? 'copied' : 'selected: press Ctrl+C to copy';
      };
      if (navigator.clipboard?.writeText) {
        navigator.clipboard.writeText(x.pgn).then(() => (said.textContent = 'copied'), fallback);
      } else fallback();
    });
    const download = html(
      'a',
      {
        href: `data:application/x-chess-pgn;charset=utf-8,${encodeURIComponent(x.pgn)}`,
        download: `${data.id}.pgn`,
        'data-testid': 'download-pgn',
      },
      'Download .pgn',
    );
    el.append(html('p', { class: 'controls' }, copy, ' ', download, ' ', said), text);
  }

  window.catarenaViewers = window.catarenaViewers || {};
  window.catarenaViewers.chess = { render, extra };
})();
