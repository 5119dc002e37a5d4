// `catarena serve`'s runs page (browser, no imports): every run of the folder with its state,
// what it plays, its progress and links, pushed by the server (/api/runs/events) as it changes.
(function () {
  'use strict';
  const app = document.getElementById('app');
  const { el } = window.catarenaServe; // dom.js
  const table = el('table', { class: 'runs', 'data-testid': 'runs' });
  const empty = el(
    'p',
    { class: 'muted' },
    'no runs yet: start one (catarena tourney / play / arena) with this --out; it shows up here',
  );
  app.append(el('h1', {}, 'catarena runs'), empty, table);
  function draw(runs) {
    empty.hidden = runs.length > 0;
    const head = el(
      'tr',
      {},
      ...['run', 'state', 'what', 'games', 'progress', 'started', 'links'].map((h) => el('th', {}, h)),
    );
    const rows = runs.map((r) =>
      el(
        'tr',
        { 'data-run': r.name, 'data-state': r.state },
        el('td', { class: 'name' }, el('a', { href: r.links.live }, r.name)),
        el(
          'td',
          {},
          el('span', { class: `state ${r.state}` }, r.state),
          r.message ? el('div', { class: 'muted' }, r.message.slice(0, 120)) : null,
        ),
        el('td', { class: 'what' }, r.about),
        el(
          'td',
          { class: 'num' },
          String(r.games),
          r.journal?.state === 'tampered'
            ? el('div', { class: 'warning', 'data-journal': 'tampered' }, `journal tampered at line ${r.journal.line}`)
            : r.journal?.state === 'unverified'
              ? el('div', { class: 'muted', 'data-journal': 'unverified' }, 'unverified')
              : null,
        ),
        el('td', { class: 'muted last' }, r.progress || ''),
        el('td', { class: 'muted' }, r.startedAt ? r.startedAt.replace('T', ' ').slice(0, 19) : ''),
        el(
          'td',
          {},
          el('a', { href: r.links.live }, 'live'),
          ...(r.links.report ? [' · ', el('a', { href: r.links.report }, 'report')] : []),
          ...(r.links.crosstable ? [' · ', el('a', { href: r.links.crosstable }, 'cross-table')] : []),
        ),
      ),
    );
    // Each cell says its column, for the phone layout where the head is not shown (page-css.ts).
    const names = ['', 'state', 'plays', 'games', 'progress', 'started', ''];
    for (const row of rows) [...row.children].forEach((td, k) => names[k] && td.setAttribute('data-label', names[k]));
    table.replaceChildren(el('thead', {}, head), el('tbody', {}, ...rows));
  }
  const events = new EventSource('/api/runs/events');
  events.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === 'runs') draw(msg.runs);
  };
})();
