// The Gomoku board of the replay viewer (browser, no imports; games/core/viewer.ts). Step k is
// rebuilt from frames 1..k (frames[k] = the cell [i, j] the k-th move filled, null for a failed
// request): a 15×15 grid as inline SVG with star points, stones numbered in the order played,
// the variant's forbidden cells crossed out in red, the last stone ringed in red, and at the
// final step the winning five (or the winner's triplets in the variant) outlined.
// Coordinates as in games/gomoku/viewer/data.ts: columns a–o left to right (j), rows 15…1 top
// to bottom (i = 0 is row 15), so [7, 7] is h8.
(function () {
  'use strict';
  const NS = 'http://www.w3.org/2000/svg';
  const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
  const CELL = 32;
  const MARGIN = 36;

  function svg(tag, attrs, text) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function render(el, data, step) {
    const extra = data.extra || {};
    const size = extra.size || 15;
    const forbidden = extra.forbidden || [];
    const span = (size - 1) * CELL;
    const width = span + 2 * MARGIN;
    const x = (j) => MARGIN + j * CELL;
    const y = (i) => MARGIN + i * CELL;
    const root = svg('svg', {
      viewBox: `0 0 ${width} ${width}`,
      width,
      height: width,
      role: 'img',
      'aria-label': `Gomoku board after ${step} moves`,
      'data-testid': 'board-svg',
    });
    root.append(svg('rect', { x: 0, y: 0, width, height: width, fill: '#e3b56b', rx: 6 }));

    const grid = svg('g', { stroke: '#5a4214', 'stroke-width': 1 });
    for (let k = 0; k < size; k++) {
      grid.append(svg('line', { x1: x(0), y1: y(k), x2: x(size - 1), y2: y(k) }));
      grid.append(svg('line', { x1: x(k), y1: y(0), x2: x(k), y2: y(size - 1) }));
    }
    root.append(grid);
    const stars =
      size === 15
        ? [
            [3, 3],
            [3, 11],
            [7, 7],
            [11, 3],
            [11, 11],
          ]
        : [];
    for (const [i, j] of stars) root.append(svg('circle', { cx: x(j), cy: y(i), r: 3.5, fill: '#5a4214' }));

    const labels = svg('g', { fill: '#5a4214', 'font-size': 12, 'text-anchor': 'middle' });
    for (let k = 0; k < size; k++) {
      labels.append(svg('text', { x: x(k), y: MARGIN - 20 }, LETTERS[k]));
      labels.append(svg('text', { x: x(k), y: y(size - 1) + 30 }, LETTERS[k]));
      labels.append(svg('text', { x: MARGIN - 24, y: y(k) + 4 }, String(size - k)));
      labels.append(svg('text', { x: x(size - 1) + 24, y: y(k) + 4 }, String(size - k)));
    }
    root.append(labels);

    // Forbidden cells (variant): a red cross; a stone can never stand there.
    for (const [i, j] of forbidden) {
      const g = svg('g', {
        class: 'forbidden',
        'data-cell': `${i},${j}`,
        stroke: '#c62828',
        'stroke-width': 2.5,
        'stroke-linecap': 'round',
      });
      const d = CELL * 0.28;
      g.append(svg('line', { x1: x(j) - d, y1: y(i) - d, x2: x(j) + d, y2: y(i) + d }));
      g.append(svg('line', { x1: x(j) - d, y1: y(i) + d, x2: x(j) + d, y2: y(i) - d }));
      g.append(svg('title', {}, `forbidden ${LETTERS[j]}${size - i}`));
      root.append(g);
    }

    // Stones up to this step, numbered; the last one's number in red and ringed in red.
    const stones = [];
    for (let k = 1; k <= step; k++) {
      const cell = data.frames[k];
      if (cell) stones.push({ i: cell[0], j: cell[1], k, seat: data.moves[k - 1].seat });
    }
    const last = stones.length ? stones[stones.length - 1] : null;
    const final = step === data.moves.length;
    const highlight = final ? extra.highlight || [] : [];
    const five = extra.highlightKind === 'five';

    // The winning five: a line through it, under the stones.
    if (highlight.length && five) {
      const first = highlight[0];
      const end = highlight[highlight.length - 1];
      root.append(
        svg('line', {
          class: 'win-line',
          x1: x(first[1]),
          y1: y(first[0]),
          x2: x(end[1]),
          y2: y(end[0]),
          stroke: '#2e7d32',
          'stroke-width': 6,
          'stroke-linecap': 'round',
        }),
      );
    }
    for (const s of stones) {
      const black = s.seat === 0;
      root.append(
        svg('circle', {
          class: 'stone',
          'data-move': s.k,
          'data-seat': s.seat,
          cx: x(s.j),
          cy: y(s.i),
          r: CELL * 0.45,
          fill: black ? '#1b1b1b' : '#fafafa',
          stroke: black ? '#000' : '#777',
          'stroke-width': 1,
        }),
      );
      const label = String(s.k);
      const colour = s === last ? (black ? '#ff8a80' : '#d50000') : black ? '#fff' : '#1b1b1b';
      root.append(
        svg(
          'text',
          {
            x: x(s.j),
            y: y(s.i) + 4,
            'text-anchor': 'middle',
            'font-size': label.length > 2 ? 10 : 12,
            'font-weight': s === last ? 700 : 400,
            fill: colour,
            'pointer-events': 'none',
          },
          label,
        ),
      );
    }
    // The end: the five (green) or the winner's triplets (orange) ringed.
    for (const [i, j] of highlight) {
      root.append(
        svg('circle', {
          class: 'win',
          cx: x(j),
          cy: y(i),
          r: CELL * 0.49,
          fill: 'none',
          stroke: five ? '#2e7d32' : '#fb8c00',
          'stroke-width': 3,
        }),
      );
    }
    if (last)
      root.append(
        svg('circle', {
          class: 'last',
          cx: x(last.j),
          cy: y(last.i),
          r: CELL * 0.45,
          fill: 'none',
          stroke: '#e53935',
          'stroke-width': 2.5,
        }),
      );

    el.append(root);
    const status = document.createElement('p');
    status.className = 'board-status';
    status.setAttribute('data-testid', 'board-status');
    const names = data.seatNames;
    const next = step < data.moves.length ? data.moves[step].seat : null;
    const parts = [`${stones.length} stones`];
    if (last) parts.push(`last: ${names[last.seat]} ${LETTERS[last.j]}${size - last.i}`);
    if (final) parts.push(data.result);
    else if (next !== null) parts.push(`${names[next]} to move`);
    if (forbidden.length) parts.push(`${forbidden.length} forbidden cells`);
    status.textContent = parts.join(' · ');
    el.append(status);
  }

  window.catarenaViewers = window.catarenaViewers || {};
  window.catarenaViewers.gomoku = { render, geometry: { cell: CELL, margin: MARGIN } }; // geometry: where the human seat's page puts its cell targets
})();
