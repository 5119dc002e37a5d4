// `catarena serve`'s live run page (browser, no imports; loaded after the replay viewers'
// renderers). Everything arrives over server-sent events (/run/<name>/events): a snapshot on
// connect, then results as games end (W per track and the leaderboard grow a cell at a time),
// boards of the games in flight (the game's replay viewer at its last move), progress lines,
// agents developing, and the run's state. No reload, no polling.
(function () {
  'use strict';
  const run = window.CATARENA_SERVE.run;
  const base = `/run/${encodeURIComponent(run)}/`;
  const app = document.getElementById('app');
  const { el } = window.catarenaServe; // dom.js
  const state = el('span', { class: 'state', 'data-testid': 'state' }, '…');
  const about = el('p', { class: 'muted', 'data-testid': 'about' });
  const links = el('p', { 'data-testid': 'links' });
  // The server's spectator setting for this run (orchestrator/serve/spectator.ts): what boards in flight show.
  const spectator = el('p', { class: 'muted', 'data-testid': 'spectator' });
  const progress = el('div', { class: 'progress', 'data-testid': 'progress' });
  const agents = el('div', { class: 'agents', 'data-testid': 'agents' });
  const flightTitle = el('h2', { 'data-testid': 'in-flight' }, 'Games in flight');
  const boards = el('div', { class: 'boards', 'data-testid': 'boards' });
  const wBox = el('div', { class: 'grid', 'data-testid': 'W' });
  const leader = el('div', { 'data-testid': 'leaderboard' });
  const failures = el('ol', { class: 'failures', 'data-testid': 'failures' });
  const noFailures = el('p', { class: 'muted' }, 'none so far');
  const counter = el('span', { 'data-testid': 'games' }, '0');
  app.append(
    el('h1', {}, run, ' ', state),
    about,
    links,
    el('p', {}, counter, ' games finished'),
    el(
      'div',
      { class: 'grid' },
      el('div', { style: 'flex: 1 1 24rem' }, el('h2', {}, 'Progress'), progress),
      el('div', { style: 'flex: 2 1 36rem' }, el('h2', {}, 'Agents'), agents),
    ),
    flightTitle,
    spectator,
    boards,
    el('h2', {}, 'W (row vs column: mean score) and leaderboard'),
    wBox,
    leader,
    el('h2', {}, 'Failures'),
    noFailures,
    failures,
  );

  // What tests and the benchmark read: when each result was drawn (ms since the epoch).
  const live = { results: [], drawnAt: {}, boards: 0, boardsSeen: 0, connectedAt: Date.now() };
  window.catarenaServe = live;

  // ---------------------------------------------------------------------------------------------
  // W per track from the results: a row strategy's mean score against a column strategy (two
  // seats: its score; more seats: 1 for finishing ahead, ½ level, 0 behind).

  function pairScores(r) {
    const out = [];
    for (let i = 0; i < r.seats.length; i++) {
      for (let j = 0; j < r.seats.length; j++) {
        if (i === j || r.seats[i] === r.seats[j]) continue;
        let s;
        if (r.seats.length === 2) s = r.scores[i];
        else if (r.places) s = r.places[i] < r.places[j] ? 1 : r.places[i] === r.places[j] ? 0.5 : 0;
        else s = r.scores[i] > r.scores[j] ? 1 : r.scores[i] === r.scores[j] ? 0.5 : 0;
        out.push([r.seats[i], r.seats[j], s]);
      }
    }
    return out;
  }

  const tracks = new Map(); // track → {ids:Set, cells: Map("a|b" → [sum, n]), table}
  function track(name) {
    let t = tracks.get(name);
    if (!t) {
      t = { ids: new Set(), cells: new Map(), box: el('div', { class: 'track', 'data-track': name }) };
      tracks.set(name, t);
      wBox.append(t.box);
    }
    return t;
  }

  function colour(v) {
    // 0 red → ½ white → 1 green
    const h = v >= 0.5 ? 120 : 0;
    const l = 100 - Math.abs(v - 0.5) * 2 * 45;
    return `hsl(${h}, 60%, ${l}%)`;
  }

  function drawTrack(name) {
    const t = tracks.get(name);
    const ids = [...t.ids].sort();
    const head = el('tr', {}, el('th', {}, ''), ...ids.map((id) => el('th', { title: id }, id)));
    const rows = ids.map((a) =>
      el(
        'tr',
        {},
        el('th', { title: a }, a),
        ...ids.map((b) => {
          if (a === b) return el('td', { class: 'diag' }, '—');
          const c = t.cells.get(`${a}|${b}`);
          if (!c) return el('td', { class: 'cell', 'data-row': a, 'data-col': b, 'data-n': '0' }, '');
          const v = c[0] / c[1];
          const td = el(
            'td',
            {
              class: 'cell',
              'data-row': a,
              'data-col': b,
              'data-n': String(c[1]),
              title: `${a} vs ${b}: ${v.toFixed(3)} over ${c[1]} games`,
            },
            v.toFixed(2),
          );
          td.style.background = colour(v);
          return td;
        }),
      ),
    );
    t.box.replaceChildren(
      el('h3', {}, name),
      el('table', { class: 'W', 'data-track': name }, el('thead', {}, head), el('tbody', {}, ...rows)),
    );
  }

  function drawLeaderboard() {
    const parts = [];
    for (const [name, t] of tracks) {
      const rows = [...t.ids].map((id) => {
        let sum = 0;
        let n = 0;
        for (const [key, c] of t.cells) if (key.startsWith(`${id}|`)) (sum += c[0]), (n += c[1]);
        return { id, mean: n ? sum / n : 0, n };
      });
      rows.sort((a, b) => b.mean - a.mean);
      parts.push(
        el(
          'table',
          { class: 'leaderboard', 'data-track': name },
          el('caption', {}, name),
          el(
            'thead',
            {},
            el(
              'tr',
              {},
              el('th', {}, '#'),
              el('th', {}, 'strategy'),
              el('th', {}, 'mean score'),
              el('th', {}, 'pair games'),
            ),
          ),
          el(
            'tbody',
            {},
            ...rows.map((r, k) =>
              el(
                'tr',
                {},
                el('td', {}, String(k + 1)),
                el('td', {}, r.id),
                el('td', { class: 'num' }, r.mean.toFixed(3)),
                el('td', { class: 'num' }, String(r.n)),
              ),
            ),
          ),
        ),
      );
    }
    leader.replaceChildren(el('div', { class: 'grid' }, ...parts));
  }

  function addResults(results) {
    const touched = new Set();
    for (const r of results) {
      live.results.push(r);
      const t = track(r.track);
      for (const id of r.seats) t.ids.add(id);
      for (const [a, b, s] of pairScores(r)) {
        const c = t.cells.get(`${a}|${b}`) || [0, 0];
        c[0] += s;
        c[1] += 1;
        t.cells.set(`${a}|${b}`, c);
      }
      touched.add(r.track);
      if (r.termination !== 'normal') {
        failures.append(
          el(
            'li',
            {},
            `${r.track}: ${r.seats.join(' vs ')}: ${r.offender !== null ? r.seats[r.offender] : 'a bot'} ${r.termination}: ${r.reason}`,
          ),
        );
      }
    }
    for (const name of touched) drawTrack(name);
    if (touched.size) drawLeaderboard();
    counter.textContent = String(live.results.length);
    noFailures.hidden = failures.children.length > 0;
    const now = Date.now();
    for (const r of results) live.drawnAt[r.id] = now;
  }

  // ---------------------------------------------------------------------------------------------
  // Boards in flight

  const boardEls = new Map();
  function drawBoard(msg) {
    let box = boardEls.get(msg.id);
    if (!box) {
      live.boardsSeen++;
      box = el('div', { class: 'game', 'data-game': msg.id });
      boardEls.set(msg.id, box);
      boards.append(box);
      while (boards.children.length > 6) {
        const first = boards.firstElementChild;
        boardEls.delete(first.getAttribute('data-game'));
        first.remove();
      }
    }
    const viewer = window.catarenaViewers?.[msg.spec.game];
    const board = el('div', { class: 'board' });
    if (msg.data && viewer) viewer.render(board, msg.data, msg.data.moves.length);
    else board.append(el('p', { class: 'muted' }, `${msg.moves} moves`));
    box.setAttribute('data-moves', String(msg.moves));
    box.replaceChildren(
      el('div', { class: 'muted' }, `${msg.spec.game}/${msg.spec.variant}: ${msg.spec.seats.join(' vs ')}`),
      board,
    );
    live.boards = boardEls.size;
  }
  function endBoard(id) {
    const box = boardEls.get(id);
    if (box) box.remove();
    boardEls.delete(id);
    live.boards = boardEls.size;
  }
  function inFlight(n) {
    flightTitle.textContent = `Games in flight: ${n}`;
  }

  // ---------------------------------------------------------------------------------------------

  function drawAgents(rows) {
    if (!rows.length) {
      agents.replaceChildren(el('p', { class: 'muted' }, 'no agents (a play or arena run)'));
      return;
    }
    const cost = (c) => {
      if (!c) return '';
      const parts = [];
      if (c.usd !== undefined) parts.push(`$${Number(c.usd).toFixed(3)}`);
      if (c.inputTokens !== undefined) parts.push(`${c.inputTokens + (c.outputTokens || 0)} tokens`);
      if (c.wallMs !== undefined) parts.push(`${(c.wallMs / 1000).toFixed(1)} s`);
      return parts.join(' · ');
    };
    // Per track its latest round only (earlier rounds are in the report), agents developing first.
    const latest = {};
    for (const r of rows) latest[r.track] = Math.max(latest[r.track] || 0, r.round);
    rows = rows.filter((r) => r.round === latest[r.track] || r.state === 'developing');
    rows.sort(
      (a, b) =>
        (a.state === 'developing' ? 0 : 1) - (b.state === 'developing' ? 0 : 1) ||
        a.track.localeCompare(b.track) ||
        a.agent.localeCompare(b.agent),
    );
    const head = el(
      'tr',
      {},
      ...['track', 'round', 'agent', 'state', 'cost', 'log (tail)'].map((h) => el('th', {}, h)),
    );
    const body = rows.map((r) =>
      el(
        'tr',
        { 'data-agent': r.agent, 'data-state': r.state },
        el('td', {}, r.track),
        el('td', { class: 'num' }, String(r.round)),
        el('td', {}, r.agent),
        el(
          'td',
          {},
          el(
            'span',
            { class: `state ${r.state === 'developing' ? 'running' : r.state === 'failed' ? 'failed' : 'finished'}` },
            r.state,
          ),
        ),
        el('td', {}, cost(r.cost)),
        el(
          'td',
          {},
          r.logTail?.trim()
            ? el(
                'details',
                {},
                el('summary', {}, (r.logTail.trim().split('\n').pop() || '').slice(0, 60)),
                el('pre', {}, r.logTail.trim().split('\n').slice(-12).join('\n')),
              )
            : '',
        ),
      ),
    );
    // Developing first, then the latest rounds.
    agents.replaceChildren(el('table', {}, el('thead', {}, head), el('tbody', {}, ...body.slice(0, 40))));
  }

  function drawState(s, summary) {
    state.textContent = s;
    state.className = `state ${s}`;
    if (summary) about.textContent = summary.about;
    links.replaceChildren(
      el('a', { href: `${base}files/journal.jsonl` }, 'journal.jsonl'),
      ' · ',
      el('a', { href: `${base}files/report.html`, 'data-testid': 'report-link' }, 'report.html'),
      s === 'finished' ? '' : el('span', { class: 'muted' }, ' (once the run has finished)'),
    );
  }

  function drawSpectator(view) {
    spectator.textContent = view ? view.note : '';
    spectator.setAttribute('data-mode', view ? view.mode : '');
  }

  function addWarning(text) {
    failures.append(el('li', { class: 'warning' }, text.replace(/^!\s*/, '')));
    noFailures.hidden = true;
  }

  function addProgress(text, replace) {
    const last = progress.lastElementChild;
    if (replace && last && /^\d+\/\d+ games/.test(last.textContent)) last.textContent = text;
    else progress.append(el('div', {}, text));
    while (progress.children.length > 60) progress.firstElementChild.remove();
    progress.scrollTop = progress.scrollHeight;
  }

  const events = new EventSource(`${base}events`);
  events.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === 'snapshot') {
      // A reconnect starts over.
      live.results = [];
      tracks.clear();
      wBox.replaceChildren();
      failures.replaceChildren();
      boards.replaceChildren();
      boardEls.clear();
      progress.replaceChildren();
      drawState(msg.state, msg.summary);
      drawSpectator(msg.spectator);
      addResults(msg.results);
      for (const b of msg.boards) drawBoard(b);
      inFlight(msg.inFlight);
      for (const p of msg.progress) addProgress(p, false);
      for (const w of msg.warnings || []) addWarning(w);
      drawAgents(msg.agents);
    } else if (msg.type === 'results') addResults(msg.results);
    else if (msg.type === 'board') {
      drawBoard(msg);
      inFlight(msg.inFlight);
    } else if (msg.type === 'ended') {
      endBoard(msg.id);
      inFlight(msg.inFlight);
    } else if (msg.type === 'progress') addProgress(msg.text, msg.replace);
    else if (msg.type === 'agents') drawAgents(msg.agents);
    else if (msg.type === 'warning') addWarning(msg.text);
    else if (msg.type === 'state') drawState(msg.state);
    else if (msg.type === 'spectator') drawSpectator(msg.spectator);
  };
})();
