// The replay viewer's frame (browser, no imports): shows a ViewerData (games/core/viewer.ts) given
// to window.catarenaShowReplay (the shared replays/replay.html), or window.CATARENA_REPLAY inline
// (a page of a run written before replay.html, or a single page); draws the title, the step
// controls and the move list, and asks the game's renderer (window.catarenaViewers[game], games/<game>/viewer/render.js) to draw the board
// for the current step. Keys: ← → step, Home / End jump, a click on a move jumps to it.
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
    const controls = el(
      'div',
      { class: 'controls' },
      button('«', 'first', () => 0),
      button('‹', 'back', () => step - 1),
      button('›', 'forward', () => step + 1),
      button('»', 'last', () => steps - 1),
      slider,
      label,
    );
    slider.addEventListener('input', () => go(Number(slider.value)));
    const list = el('ol', { class: 'moves', 'data-testid': 'moves', start: '1' });
    // A 720-hand Hold'em table round has over ten thousand moves: items are plain text (a span only
    // for an error), the first ones are built at once and the rest in chunks after the first paint,
    // or at once up to a move that is jumped to.
    const items = [];
    const seatName = (seat) => data.seatNames[seat] ?? `seat ${seat}`;
    function build(upTo) {
      const fragment = document.createDocumentFragment();
      for (let k = items.length; k < Math.min(upTo, data.moves.length); k++) {
        const m = data.moves[k];
        const li = document.createElement('li');
        li.textContent = `${seatName(m.seat)} ${m.text} · ${m.latencyMs} ms${m.note ? ` · ${m.note}` : ''}`;
        if (m.error) {
          li.className = 'failed';
          li.append(' ', el('span', { class: 'error' }, m.error));
        }
        items.push(li);
        fragment.append(li);
      }
      list.append(fragment);
    }
    list.addEventListener('click', (e) => {
      const li = e.target.closest('li');
      if (li) go(items.indexOf(li) + 1);
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
      history.replaceState(null, '', `#step=${step}`);
    }
    document.addEventListener('keydown', (e) => {
      if (e.target && e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
      if (e.key === 'ArrowRight') go(step + 1);
      else if (e.key === 'ArrowLeft') go(step - 1);
      else if (e.key === 'Home') go(0);
      else if (e.key === 'End') go(steps - 1);
      else return;
      e.preventDefault();
    });
    go(step);
  }
})();
