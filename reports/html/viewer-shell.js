// The replay viewer's frame (browser, no imports): shows a ViewerData (games/core/viewer.ts) given
// to window.catarenaShowReplay (the shared replays/replay.html), or window.CATARENA_REPLAY inline
// (a page of a run written before replay.html, or a single page); draws the title, the step
// controls and the move list, and asks the game's renderer (window.catarenaViewers[game], games/<game>/viewer/render.js) to draw the board
// for the current step. Keys: ← → step, Home / End jump, space plays and pauses; a click on a move
// jumps to it. Chess lists its moves in pairs under their move numbers (1. e4 e5); every game has
// autoplay (▶, at the speed chosen beside it).
(function () {
  'use strict';
  window.catarenaShowReplay = show;
  if (window.CATARENA_REPLAY) show(window.CATARENA_REPLAY);

  function show(data) {
    const viewer = window.catarenaViewers?.[data.game];
    const el = window.catarenaViewerKit.element; // viewer-kit.js, loaded before this script
    const root = document.getElementById('replay');
    const steps = data.moves.length + 1;
    let step = Number(new URLSearchParams(location.search).get('step') ?? location.hash.replace(/^#step=/, '') ?? 0);
    if (!Number.isInteger(step) || step < 0) step = 0;
    if (step >= steps) step = steps - 1;

    root.append(
      el('h1', {}, `${data.game} · ${data.variant}`),
      el('p', { class: 'seats' }, data.seats.map((s, i) => `${data.seatNames[i] ?? `seat ${i}`}: ${s}`).join(' · ')),
      el('p', { class: 'result', 'data-testid': 'result' }, data.result),
    );
    const board = el('div', { class: 'board', 'data-testid': 'board' });
    const label = el('span', { class: 'step', 'data-testid': 'step' });
    const slider = el('input', {
      type: 'range',
      min: '0',
      max: String(steps - 1),
      value: String(step),
      'aria-label': 'step',
    });
    const button = (text, title, to) =>
      el('button', { type: 'button', title, 'data-testid': title, onclick: () => go(to()) }, text);
    const play = el('button', { type: 'button', title: 'play', 'data-testid': 'play', onclick: () => toggle() }, '▶');
    const speed = el(
      'select',
      { 'aria-label': 'autoplay speed', 'data-testid': 'speed', onchange: () => playing && (stop(), start()) },
      ...[
        ['1000', '1 move/s'],
        ['400', '2.5 moves/s'],
        ['150', '7 moves/s'],
        ['30', 'fast'],
      ].map(([ms, text]) => el('option', { value: ms }, text)),
    );
    speed.value = '400';
    const controls = el(
      'div',
      { class: 'controls' },
      button('«', 'first', () => 0),
      button('‹', 'back', () => step - 1),
      play,
      button('›', 'forward', () => step + 1),
      button('»', 'last', () => steps - 1),
      speed,
      slider,
      label,
    );
    // Autoplay: a step every speed.value ms until the last; a step the user takes does not stop it.
    let playing = null;
    function start() {
      if (step >= steps - 1) go(0);
      playing = setInterval(() => {
        go(step + 1);
        if (step >= steps - 1) stop();
      }, Number(speed.value));
      play.textContent = '⏸';
      play.title = 'pause';
      play.setAttribute('aria-pressed', 'true');
    }
    function stop() {
      clearInterval(playing);
      playing = null;
      play.textContent = '▶';
      play.title = 'play';
      play.setAttribute('aria-pressed', 'false');
    }
    const toggle = () => (playing ? stop() : start());
    slider.addEventListener('input', () => go(Number(slider.value)));
    // Paired (chess): white's and black's moves side by side under the move number (a game that
    // starts with black's move begins "1. … e5").
    const paired = data.pairedMoves === true;
    const list = el('ol', { class: paired ? 'moves paired' : 'moves', 'data-testid': 'moves', start: '1' });
    const shift = paired && data.moves.length && data.moves[0].seat === 1 ? 1 : 0;
    let row = null;
    // A 720-hand Hold'em table round has over ten thousand moves: items are plain text (a span only
    // for an error), the first ones are built at once and the rest in chunks after the first paint,
    // or at once up to a move that is jumped to.
    const items = [];
    const seatName = (seat) => data.seatNames[seat] ?? `seat ${seat}`;
    function build(upTo) {
      const fragment = document.createDocumentFragment();
      for (let k = items.length; k < Math.min(upTo, data.moves.length); k++) {
        const m = data.moves[k];
        const li = document.createElement(paired ? 'span' : 'li');
        li.dataset.step = String(k + 1);
        if (paired) {
          li.className = 'ply';
          li.textContent = m.text;
          li.title = `${seatName(m.seat)} · ${m.latencyMs} ms${m.note ? ` · ${m.note}` : ''}`;
          if ((k + shift) % 2 === 0 || !row) {
            row = document.createElement('li');
            row.append(el('span', { class: 'no' }, `${Math.floor((k + shift) / 2) + 1}.`));
            if (k === 0 && shift) row.append(el('span', { class: 'ply' }, '…'));
            fragment.append(row);
          }
          row.append(li);
        } else {
          li.textContent = `${seatName(m.seat)} ${m.text} · ${m.latencyMs} ms${m.note ? ` · ${m.note}` : ''}`;
          fragment.append(li);
        }
        if (m.error) {
          li.classList.add('failed');
          li.append(' ', el('span', { class: 'error' }, m.error));
        }
        items.push(li);
      }
      list.append(fragment);
    }
    list.addEventListener('click', (e) => {
      const item = e.target.closest('[data-step]');
      if (item) go(Number(item.dataset.step));
    });
    build(400);
    const more = () => {
      if (items.length >= data.moves.length) return;
      build(items.length + 2000);
      setTimeout(more, 0);
    };
    setTimeout(more, 0);
    const side = el('div', { class: 'side' }, list);
    root.append(controls, el('div', { class: 'main' }, board, side));
    if (viewer?.extra) {
      const extra = el('div', { class: 'extra', 'data-testid': 'extra' });
      root.append(extra);
      viewer.extra(extra, data);
    }

    // A board wider than the page (Hold'em's table on a phone) is scaled down to fit, not cut.
    function fit() {
      const room = root.clientWidth;
      for (const c of board.children) c.style.zoom = '';
      const wide = board.scrollWidth;
      if (wide > room + 1 && room > 0) for (const c of board.children) c.style.zoom = String(room / wide);
    }
    window.addEventListener('resize', fit);
    let current = null;
    function go(to) {
      step = Math.max(0, Math.min(steps - 1, to));
      slider.value = String(step);
      label.textContent = `move ${step} of ${steps - 1}`;
      build(step);
      if (current) current.classList.remove('current');
      current = step > 0 ? items[step - 1] : null;
      if (current) {
        current.classList.add('current');
        current.scrollIntoView({ block: 'nearest' });
      } else side.scrollTop = 0;
      board.replaceChildren();
      if (viewer) viewer.render(board, data, step);
      else board.append(el('p', {}, `no viewer for ${data.game}`));
      fit();
      history.replaceState(null, '', `#step=${step}`);
    }
    document.addEventListener('keydown', (e) => {
      if (e.target && e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
      if (e.key === 'ArrowRight') go(step + 1);
      else if (e.key === 'ArrowLeft') go(step - 1);
      else if (e.key === 'Home') go(0);
      else if (e.key === 'End') go(steps - 1);
      else if (e.key === ' ' && !(e.target && /^(BUTTON|SELECT|A)$/.test(e.target.tagName))) toggle();
      else return;
      e.preventDefault();
    });
    go(step);
  }
})();
