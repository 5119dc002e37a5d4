// The human seat's page (browser, no imports; orchestrator/human/human-seat.ts). Loaded after the
// replay viewers' renderers (window.catarenaViewers): it follows the game over server-sent events
// (/play/events), draws the board with the game's renderer at the last move, and turns the
// person's input into an action: a click on a Gomoku cell; a click (or a drag) from a chess
// piece to a square (the board turned when the person plays black; the moves so far listed beside
// it), with a choice of piece on a promotion; a game that hides cards or words draws the seat's own
// request as a table (its descriptor's humanSeat script, catarenaSeats[game]); any game: the raw
// request and an action written as JSON, one click away. The server checks every action with the
// rules: a refused one is shown with its reason and the turn stays open. A game's end stays on
// screen until the person moves on (or HOLD_MS): the next game does not replace it at once.
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
  const seatPanel = el('div', { class: 'seat', 'data-testid': 'seat-panel' });
  const moveList = el('div', { class: 'movelist', 'data-testid': 'move-list' });
  const nextGame = el('button', { type: 'button', 'data-testid': 'next-game', onclick: () => advance() }, 'next game');
  const gameOver = el('div', { class: 'gameover', 'data-testid': 'game-over', hidden: '' });
  // The replay viewer's board; in a game with a seat table it folds away while the person plays.
  const boardBox = el('details', { class: 'boardbox', open: '' }, el('summary', {}, 'the whole table'), board);
  const main = el(
    'div',
    { class: 'main' },
    el('div', { class: 'boardcol' }, boardBox, moveList),
    el('div', { class: 'side' }, refusal, seatPanel, actions, el('h2', {}, 'Games'), results, done),
  );
  root.append(seatsLine, turn, gameOver, main);

  /** How long a game's end stays on screen before the next game is drawn, unless the person moves on. */
  const HOLD_MS = 5000;
  const state = { last: null, sent: false, selected: null, clock: null, held: null, holdTimer: null };
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

  /** An action as a button's text: a string as it is, else its JSON. */
  const label = (a) => (typeof a === 'string' ? a : JSON.stringify(a));

  /** The request the seat's bot would get, folded (one click away). */
  function requestBox(msg) {
    if (!msg.request) return;
    actions.append(
      el(
        'details',
        { 'data-testid': 'request' },
        el('summary', {}, 'the raw request (what a bot gets)'),
        el('pre', {}, JSON.stringify(msg.request, null, 1)),
      ),
    );
  }

  function genericInput(msg) {
    const legal = msg.legal || [];
    requestBox(msg);
    const list = el('div', { class: 'legal', 'data-testid': 'legal' });
    for (const action of legal.slice(0, 80))
      list.append(
        el(
          'button',
          { type: 'button', 'data-action': JSON.stringify(action), onclick: () => answer(action) },
          label(action),
        ),
      );
    actions.append(list);
    actions.append(jsonForm(legal));
  }

  /** An action written as JSON (any game): for what the buttons do not offer. */
  function jsonForm(legal) {
    const input = el('input', {
      type: 'text',
      'aria-label': 'action as JSON',
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
    return form;
  }

  // ---------------------------------------------------------------------------------------------
  // A seat table (catarenaSeats[game]) and what it draws with.

  const SUITS = { s: ['♠', 'spades'], h: ['♥', 'hearts'], d: ['♦', 'diamonds'], c: ['♣', 'clubs'] };
  /** A card as a person reads it: "10♥", red for hearts and diamonds. */
  function card(rank, suit) {
    const [symbol, name] = SUITS[String(suit).toLowerCase()] || [suit, suit];
    const r = rank === 'T' ? '10' : rank;
    const red = symbol === '♥' || symbol === '♦';
    return el(
      'span',
      { class: red ? 'card red' : 'card', 'data-card': `${rank}${suit}`, 'aria-label': `${r} of ${name}` },
      `${r}${symbol}`,
    );
  }
  const kit = { el, card, answer: (action) => answer(action) };

  function seatInput(msg, seatView) {
    seatView.render(seatPanel, msg, kit);
    const raw = el(
      'details',
      { 'data-testid': 'raw' },
      el('summary', {}, 'write an action as JSON'),
      jsonForm(msg.legal || []),
    );
    requestBox(msg);
    actions.append(raw);
  }

  // ---------------------------------------------------------------------------------------------
  // Chess: the moves so far, numbered in pairs (1. e4 e5), the last one marked.

  function drawMoveList(msg) {
    moveList.replaceChildren();
    if (msg.boardInput !== 'squares' || !msg.data) return;
    const texts = msg.data.moves.map((m) => m.text);
    const rows = window.catarenaViewerKit.moveRows(texts);
    const list = el('ol', { class: 'moves', 'aria-label': 'moves so far' });
    for (const row of rows)
      list.append(el('li', { value: String(row.number) }, row.moves.map((t) => t ?? '…').join('  ')));
    moveList.append(el('h2', {}, 'Moves'), texts.length ? list : el('p', { class: 'muted' }, 'no moves yet'));
    list.lastElementChild?.scrollIntoView?.({ block: 'nearest' });
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
    seatPanel.replaceChildren();
    const viewer = window.catarenaViewers?.[msg.game];
    // A person playing only the second seat of a board game (chess: black) sees it from their side.
    const flip = msg.human.length === 1 && msg.human[0] === 1;
    if (msg.data && viewer) {
      viewer.render(board, msg.data, msg.data.moves.length, { flip });
    } else board.append(el('p', { class: 'muted' }, 'no board for this game'));
    drawMoveList(msg);
    clearInterval(state.clock);
    const seatView = window.catarenaSeats?.[msg.game];
    // A seat table comes first and the replay board folds under "the whole table" while the person plays.
    const seated = Boolean(seatView && msg.yourTurn && msg.request);
    boardBox.open = !seated;
    boardBox.classList.toggle('plain', !seatView);
    main.classList.toggle('seated', seated);
    if (msg.ended) {
      turn.className = 'turn';
      turn.textContent = `game over: ${msg.result || `${msg.ended.termination} (${msg.ended.reason})`}`;
    } else if (msg.yourTurn) {
      turn.className = 'turn yours';
      const until = Date.now() + msg.yourTurn.leftMs;
      const who = msg.yourTurn.seatName || `seat ${msg.yourTurn.seat}`;
      const tick = () => (turn.textContent = `your move (${who}) · ${fmt(Math.max(0, until - Date.now()))} left`);
      tick();
      state.clock = setInterval(tick, 1000);
      const svg = board.querySelector('svg');
      // The board input the game's descriptor names (humanBoardInput), a seat table, else buttons.
      if (msg.boardInput === 'points' && svg) pointsInput(svg, msg);
      else if (msg.boardInput === 'squares' && svg) squaresInput(svg, msg);
      else if (seatView && msg.request) seatInput(msg, seatView);
      else genericInput(msg);
    } else {
      turn.className = 'turn';
      turn.textContent = msg.thinking ? `${msg.thinking} is thinking…` : 'waiting…';
    }
    results.replaceChildren(...(msg.results || []).map((r) => el('li', {}, r.line)));
  }

  /** Holds the game that just ended on screen: the next game waits for the button or HOLD_MS. */
  function hold(ended) {
    state.held = { gameId: ended.gameId, next: null };
    gameOver.replaceChildren(
      el('p', {}, `game over: ${ended.result || ended.ended.termination}. The next game starts in a few seconds. `),
      nextGame,
    );
    gameOver.hidden = false;
    state.holdTimer = setTimeout(advance, HOLD_MS);
  }

  function advance() {
    clearTimeout(state.holdTimer);
    const next = state.held?.next;
    state.held = null;
    gameOver.hidden = true;
    if (next) draw(next);
  }

  function onGame(msg) {
    const last = state.last;
    if (state.held) {
      if (msg.gameId === state.held.gameId)
        draw(msg); // the ended game's result line, late
      else state.held.next = msg;
      return;
    }
    if (last?.ended && msg.gameId !== last.gameId) {
      hold(last);
      state.held.next = msg;
      return;
    }
    draw(msg);
  }

  const events = new EventSource(`/play/events${query}`);
  events.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === 'game') onGame(msg);
    else if (msg.type === 'waiting') turn.textContent = msg.message;
    else if (msg.type === 'stopped') {
      turn.className = 'turn';
      turn.textContent = msg.message;
      actions.replaceChildren();
      seatPanel.replaceChildren();
      clearInterval(state.clock);
    } else if (msg.type === 'timeout') refusal.textContent = msg.message;
    else if (msg.type === 'done') {
      done.textContent = msg.line;
      results.replaceChildren(...(msg.results || []).map((r) => el('li', {}, r.line)));
      events.close();
    }
  };
})();
