// `catarena serve --queue`'s queue page (browser, no imports): the workers connected and what each
// plays, the queues' depth, games per minute from the completed counts, and recent failures, as
// the server pushes the queue's status (/api/queue/events, orchestrator/queue/status.ts).
(function () {
  'use strict';
  const app = document.getElementById('app');
  const { el } = window.catarenaServe; // dom.js
  const error = el('p', { class: 'refusal', 'data-testid': 'error' });
  const workers = el('div', { 'data-testid': 'workers' });
  const queues = el('div', { 'data-testid': 'queues' });
  const failures = el('ol', { class: 'failures', 'data-testid': 'failures' });
  app.append(
    el('h1', {}, 'queue'),
    error,
    el('h2', {}, 'Workers'),
    workers,
    el('h2', {}, 'Queues'),
    queues,
    el('h2', {}, 'Recent failures'),
    failures,
  );
  const history = []; // [at, completed per queue]
  const table = (heads, rows) =>
    el('table', {}, el('thead', {}, el('tr', {}, ...heads.map((h) => el('th', {}, h)))), el('tbody', {}, ...rows));
  function draw(msg) {
    if (msg.error) {
      error.textContent = msg.error;
      return;
    }
    error.textContent = '';
    const s = msg.status;
    history.push([msg.at, Object.fromEntries(s.queues.map((q) => [q.name, q.completed]))]);
    while (history.length > 1 && msg.at - history[0][0] > 60_000) history.shift();
    const rate = (name) => {
      if (history.length < 2) return '…';
      const [t0, c0] = history[0];
      const per = ((s.queues.find((q) => q.name === name).completed - (c0[name] || 0)) / ((msg.at - t0) / 1000)) * 60;
      return per.toFixed(1);
    };
    workers.replaceChildren(
      s.workers.length
        ? table(
            ['worker', 'address', 'idle (s)', 'playing'],
            s.workers.map((w) =>
              el(
                'tr',
                { 'data-worker': w.name },
                el('td', {}, w.name),
                el('td', {}, w.address),
                el('td', { class: 'num' }, String(w.idleSeconds)),
                el('td', {}, w.active.length ? w.active.join(', ') : 'idle'),
              ),
            ),
          )
        : el('p', { class: 'muted' }, 'no worker connected (start one with: catarena worker --queue …)'),
    );
    queues.replaceChildren(
      table(
        ['queue', 'waiting', 'active', 'delayed', 'completed', 'failed', 'games/min (last minute)'],
        s.queues.map((q) =>
          el(
            'tr',
            { 'data-queue': q.name },
            el('td', {}, q.name),
            ...[q.waiting, q.active, q.delayed, q.completed, q.failed].map((n) =>
              el('td', { class: 'num' }, String(n)),
            ),
            el('td', { class: 'num' }, rate(q.name)),
          ),
        ),
      ),
    );
    failures.replaceChildren(
      ...s.failures.map((f) =>
        el('li', {}, `${f.queue}/${f.id} after ${f.attempts} attempt(s) at ${f.at}: ${f.reason}`),
      ),
    );
  }
  const events = new EventSource('/api/queue/events');
  events.onmessage = (e) => draw(JSON.parse(e.data));
})();
