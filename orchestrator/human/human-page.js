// The human seat's page (browser, no imports; orchestrator/human/human-seat.ts). Loaded after the
// replay viewers' renderers (window.catarenaViewers): it follows the game over server-sent events
// (/play/events), draws the board with the game's renderer at the last move, and turns the
// person's input into an action: a click on a Gomoku cell; a click (or a drag) from a chess
// piece to a square, with a choice of piece on a promotion; for the other games, one of the legal
// actions as a button or an action written as JSON. The server checks every action with the
// rules: a refused one is shown with its reason and the turn stays open.
(function () {
  'use strict';
  const root = document.getElementById('human');
  const query = root.dataset.query || '';
  const el = window.catarenaViewerKit.element; // viewer-kit.js, loaded before this script
  const seatsLine = el('p', { class: 'seats', 'data-testid': 'seats' });
  const turn = el('p', { class: 'turn', 'data-testid': 'turn' }, 'connecting…');
  const refusal = el('p', { class: 'refusal', 'data-testid': 'refusal', role: 'alert' });
  const board = el('div', { class: 'board', 'data-testid': 'board' });
  const actions = el('div', { class: 'actions', 'data-testid': 'actions' });
  const results = el('ol', { class: 'results', 'data-testid': 'results' });
  const done = el('p', { class: 'done', 'data-testid': 'done' });
  root.append(
    seatsLine,
    turn,
    el(
      'div',
      { class: 'main' },
      board,
      el('div', { class: 'side' }, refusal, actions, el('h2', {}, 'Games'), results, done),
    ),
  );

  const state = { last: null, sent: false, selected: null, clock: null };
  window.catarenaHuman = state;

  async function answer(action) {
    const msg = state.last;
    if (!msg?.yourTurn || state.sent) return;
    refusal.textContent = '';
    state.sent = true;
    try {
      const res = await fetch(`/play/answer${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-catarena-seat': root.dataset.secret || '' },
        body: JSON.stringify({ gameId: msg.gameId, action }),
      });
      const body = await res.json().catch(() => ({}));
      if (!res.ok || !body.ok) {
        state.sent = false;
        refusal.textContent = `refused: ${body.error || res.status}`;
        return;
      }
      // The next turn's request may arrive before this answer's response: it has drawn its own line.
      if (state.last !== msg) return;
      turn.textContent = 'sent; waiting for the other side…';
      turn.className = 'turn';
    } catch (err) {
      state.sent = false;
      refusal.textContent = `could not send: ${err}`;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Gomoku: a transparent target on every cell of the renderer's SVG (its geometry).

  /** An SVG element with its attributes (values as strings). */
  function svgElement(tag, attrs) {
    const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    return node;
  }

  function pointsInput(svg, msg) {
    const geo = window.catarenaViewers[msg.game]?.geometry || { cell: 32, margin: 36 };
    const size = msg.data.extra?.size || 15;
    const layer = svgElement('g');
    for (let i = 0; i < size; i++) {
      for (let j = 0; j < size; j++) {
        const r = svgElement('rect', {
          x: geo.margin + j * geo.cell - geo.cell / 2,
          y: geo.margin + i * geo.cell - geo.cell / 2,
          width: geo.cell,
          height: geo.cell,
          fill: 'transparent',
          class: 'hit',
          'data-cell': `${i},${j}`,
        });
        r.addEventListener('click', () => answer([i, j]));
        layer.append(r);
      }
    }
    svg.append(layer);
  }

  // ---------------------------------------------------------------------------------------------
  // Squares (chess): click a piece then a square, or drag; a promotion asks for the piece.

  function squaresInput(svg, msg) {
    const legal = msg.legal || [];
    // The square under the pointer, whatever is drawn over it (a piece, the last move's tint, a check).
    const squareOf = (e) => {
      for (const node of document.elementsFromPoint(e.clientX, e.clientY)) {
        if (node.getAttribute && node.closest('svg') === svg && node.closest('[data-square]'))
          return node.closest('[data-square]').getAttribute('data-square');
      }
      return null;
    };
    const mark = (square) => {
      for (const old of svg.querySelectorAll('.selected, .target')) old.remove();
      if (!square) return;
      const rect = svg.querySelector(`rect[data-square="${square}"]`);
      if (!rect) return;
      const ring = svgElement('rect', {
        fill: 'none',
        stroke: '#1565c0',
        'stroke-width': 4,
        class: 'selected',
        'pointer-events': 'none',
      });
      for (const a of ['x', 'y', 'width', 'height']) ring.setAttribute(a, rect.getAttribute(a));
      svg.append(ring);
      for (const m of legal.filter((u) => u.startsWith(square))) {
        const to = svg.querySelector(`rect[data-square="${m.slice(2, 4)}"]`);
        if (!to) continue;
        svg.append(
          svgElement('circle', {
            cx: Number(to.getAttribute('x')) + Number(to.getAttribute('width')) / 2,
            cy: Number(to.getAttribute('y')) + Number(to.getAttribute('height')) / 2,
            r: 7,
            fill: '#1565c0',
            opacity: 0.6,
            class: 'target',
            'pointer-events': 'none',
          }),
        );
      }
    };
    const hasMoves = (square) => legal.some((u) => u.startsWith(square));
    const tryMove = (from, to) => {
      const options = legal.filter((u) => u.slice(0, 4) === from + to);
      state.selected = null;
      mark(null);
      if (options.length > 1) {
        // A promotion: the person picks the piece.
        actions.replaceChildren(
          el('span', {}, 'promote to: '),
          ...options.map((u) =>
            el(
              'button',
              { type: 'button', 'data-testid': `promote-${u[4]}`, onclick: () => answer(u) },
              { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' }[u[4]] || u[4],
            ),
          ),
        );
        return;
      }
      // Sent even when not in the legal list: the server refuses it with the rules' reason.
      answer(options[0] || from + to);
    };
    let down = null;
    let dragged = false;
    svg.addEventListener('pointerdown', (e) => {
      down = squareOf(e);
    });
    svg.addEventListener('pointerup', (e) => {
      const up = squareOf(e);
      if (down && up && down !== up && hasMoves(down) && !state.selected) {
        dragged = true;
        tryMove(down, up);
      }
      down = null;
    });
    svg.addEventListener('click', (e) => {
      if (dragged) {
        dragged = false;
        return;
      }
      const square = squareOf(e);
      if (!square) return;
      if (
        state.selected &&
        square !== state.selected &&
        !(hasMoves(square) && !legal.some((u) => u.slice(0, 4) === state.selected + square))
      ) {
        tryMove(state.selected, square);
        return;
      }
      if (hasMoves(square)) {
        state.selected = square;
        refusal.textContent = '';
        mark(square);
      } else if (!state.selected) {
        refusal.textContent = `refused: no move of yours starts on ${square} (pick one of your pieces that can move)`;
      }
    });
    if (state.selected) mark(state.selected);
  }

  // ---------------------------------------------------------------------------------------------
  // Any game: the legal actions as buttons, and an action written as JSON.

  /** An action as a person reads it (Bridge calls and cards, Hold'em actions, Undercover votes). */
  function label(a) {
    if (typeof a === 'string') return a;
    if (a && typeof a === 'object') {
      if (a.card) return `${a.type === 'exchange' ? 'exchange ' : ''}${a.card}`;
      if (a.call_type) return a.call_type === 'bid' ? `${a.level}${a.suit}` : a.call_type;
      if (a.action) return a.action === 'raise' ? `raise ${a.amount}` : a.action;
      if (a.kind === 'vote')
        return `vote: seat ${a.target}${msgPlayers()[a.target] ? ` (${msgPlayers()[a.target]})` : ''}`;
      if (a.kind === 'speak') return a.statement;
    }
    return JSON.stringify(a);
  }
  const msgPlayers = () => state.last?.seats || [];

  function genericInput(msg) {
    const legal = msg.legal || [];
    if (msg.request) {
      actions.append(
        el(
          'details',
          { open: '', 'data-testid': 'request' },
          el('summary', {}, 'what your seat sees (the request a bot gets)'),
          el('pre', {}, JSON.stringify(msg.request, null, 1)),
        ),
      );
    }
    const raises = legal.filter((a) => a && a.action === 'raise');
    const speeches = legal.filter((a) => a && a.kind === 'speak');
    const buttons = legal.filter((a) => !raises.includes(a) && !speeches.includes(a));
    const list = el('div', { class: 'legal', 'data-testid': 'legal' });
    for (const action of buttons.slice(0, 80))
      list.append(
        el(
          'button',
          { type: 'button', 'data-action': JSON.stringify(action), onclick: () => answer(action) },
          label(action),
        ),
      );
    actions.append(list);
    if (raises.length) {
      // Hold'em: one raise with an amount between the smallest and largest the rules allow.
      const amounts = raises.map((a) => a.amount);
      const min = Math.min(...amounts);
      const max = Math.max(...amounts);
      const amount = el('input', {
        type: 'number',
        min: String(min),
        max: String(max),
        value: String(min),
        'data-testid': 'amount',
      });
      actions.append(
        el(
          'p',
          {},
          'raise ',
          amount,
          ` (${min}–${max}) `,
          el(
            'button',
            {
              type: 'button',
              'data-testid': 'raise',
              onclick: () => answer({ action: 'raise', amount: Number(amount.value) }),
            },
            'raise',
          ),
        ),
      );
    }
    if (speeches.length) {
      // Undercover: a statement of your own (or one of the samples).
      const text = el('textarea', {
        rows: '2',
        cols: '40',
        'data-testid': 'statement',
        placeholder: 'describe your word without saying it',
      });
      actions.append(
        el(
          'p',
          {},
          text,
          ' ',
          el(
            'button',
            { type: 'button', 'data-testid': 'speak', onclick: () => answer({ kind: 'speak', statement: text.value }) },
            'say',
          ),
        ),
        el(
          'p',
          { class: 'muted' },
          'or one of: ',
          ...speeches.slice(0, 5).map((a) => el('button', { type: 'button', onclick: () => answer(a) }, a.statement)),
        ),
      );
    }
    const input = el('input', {
      type: 'text',
      size: '40',
      'data-testid': 'action-json',
      placeholder: legal.length ? JSON.stringify(legal[0]) : 'action as JSON',
    });
    const form = el(
      'form',
      {
        onsubmit: (e) => {
          e.preventDefault();
          let action;
          try {
            action = JSON.parse(input.value);
          } catch {
            action = input.value;
          }
          answer(action);
        },
      },
      'or write an action: ',
      input,
      ' ',
      el('button', { type: 'submit' }, 'send'),
    );
    actions.append(form);
  }

  // ---------------------------------------------------------------------------------------------

  function fmt(ms) {
    const s = Math.ceil(ms / 1000);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  }

  function draw(msg) {
    if (!state.last || state.last.gameId !== msg.gameId) state.selected = null;
    state.last = msg;
    state.sent = false;
    seatsLine.textContent = msg.seats
      .map((s, i) => `${msg.seatNames[i] || `seat ${i}`}: ${s}${msg.human.includes(i) ? ' (you)' : ''}`)
      .join(' · ');
    board.replaceChildren();
    actions.replaceChildren();
    const viewer = window.catarenaViewers?.[msg.game];
    if (msg.data && viewer) {
      viewer.render(board, msg.data, msg.data.moves.length);
    } else board.append(el('p', { class: 'muted' }, 'no board for this game'));
    clearInterval(state.clock);
    if (msg.ended) {
      turn.className = 'turn';
      turn.textContent = `game over: ${msg.result || `${msg.ended.termination} (${msg.ended.reason})`}`;
    } else if (msg.yourTurn) {
      turn.className = 'turn yours';
      const until = Date.now() + msg.yourTurn.leftMs;
      const tick = () =>
        (turn.textContent = `your move (${msg.yourTurn.seatName}) · ${fmt(Math.max(0, until - Date.now()))} left`);
      tick();
      state.clock = setInterval(tick, 1000);
      const svg = board.querySelector('svg');
      // The board input the game's descriptor names (humanBoardInput), else buttons.
      if (msg.boardInput === 'points' && svg) pointsInput(svg, msg);
      else if (msg.boardInput === 'squares' && svg) squaresInput(svg, msg);
      else genericInput(msg);
    } else {
      turn.className = 'turn';
      turn.textContent = msg.thinking ? `${msg.thinking} is thinking…` : 'waiting…';
    }
    results.replaceChildren(...(msg.results || []).map((r) => el('li', {}, r.line)));
  }

  const events = new EventSource(`/play/events${query}`);
  events.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === 'game') draw(msg);
    else if (msg.type === 'waiting') turn.textContent = msg.message;
    else if (msg.type === 'timeout') refusal.textContent = msg.message;
    else if (msg.type === 'done') {
      done.textContent = msg.line;
      results.replaceChildren(...(msg.results || []).map((r) => el('li', {}, r.line)));
      events.close();
    }
  };
})();
