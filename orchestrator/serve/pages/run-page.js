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
  // Names, W's colours and the leaderboard's order, as the report has them (reports/board-rule.ts).
  const { strategyLabel, scoreColour, trackMetrics, leaderboard: boardOf, LEADERBOARD_RULE } = window.catarenaBoard;
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
  const rule = el('p', { class: 'muted rule', 'data-testid': 'rule' }, LEADERBOARD_RULE);
  const gamesList = el('ol', { class: 'games', 'data-testid': 'games-list', reversed: '' });
  const gamesNote = el('p', { class: 'muted' }, 'none yet');
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
    el('h2', {}, 'Leaderboard'),
    rule,
    leader,
    el('h2', {}, 'W (row vs column: mean score)'),
    wBox,
    el('h2', {}, 'Finished games and their replays'),
    gamesNote,
    gamesList,
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

  function drawTrack(name) {
    const t = tracks.get(name);
    const ids = [...t.ids].sort();
    const head = el('tr', {}, el('th', {}, ''), ...ids.map((id) => el('th', { title: id }, strategyLabel(id))));
    const rows = ids.map((a) =>
      el(
        'tr',
        {},
        el('th', { title: a }, strategyLabel(a)),
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
              title: `${strategyLabel(a)} vs ${strategyLabel(b)}: ${v.toFixed(3)} over ${c[1]} games`,
            },
            v.toFixed(2),
          );
          td.style.background = scoreColour(v);
          if (v < 0.2 || v > 0.8) td.style.color = '#fff';
          return td;
        }),
      ),
    );
    t.box.replaceChildren(
      el('h3', {}, name),
      el('table', { class: 'W', 'data-track': name }, el('thead', {}, head), el('tbody', {}, ...rows)),
    );
  }

  // One board over the tracks, per agent, in the report's order (board-rule.ts): S and L from W
  // as it stands, so the order can change as games finish.
  function drawLeaderboard() {
    const metrics = [...tracks.values()].map((t) => {
      const ids = [...t.ids];
      const cell = (a, b) => {
        const c = t.cells.get(`${a}|${b}`);
        return c ? c[0] / c[1] : null;
      };
      const m = trackMetrics(ids, cell);
      const agents = Object.keys(m);
      return {
        agents,
        S: Object.fromEntries(agents.map((a) => [a, m[a].S])),
        L: Object.fromEntries(agents.map((a) => [a, m[a].L])),
      };
    });
    const fmt = (x, d) => (x === null || x === undefined ? '—' : x.toFixed(d));
    const rows = boardOf(metrics);
    leader.replaceChildren(
      el(
        'table',
        { class: 'leaderboard' },
        el(
          'thead',
          {},
          el('tr', {}, ...['#', 'agent', 'avg rank S', 'avg rank L', 'mean S', 'mean L'].map((h) => el('th', {}, h))),
        ),
        el(
          'tbody',
          {},
          ...rows.map((r, k) =>
            el(
              'tr',
              { 'data-agent': r.agent },
              el('td', {}, String(k + 1)),
              el('td', { class: 'agent', title: r.agent }, r.agent),
              el('td', { class: 'num' }, fmt(r.meanRankS, 2)),
              el('td', { class: 'num' }, fmt(r.meanRankL, 2)),
              el('td', { class: 'num' }, fmt(r.meanS, 3)),
              el('td', { class: 'num' }, fmt(r.meanL, 3)),
            ),
          ),
        ),
      ),
    );
  }

  // The finished games, newest first, each with its replay (/run/<name>/replay?id=…): a person's
  // own game of a play run too. Links once the run's files may be shown (not while a person plays).
  let view = { humans: [] };
  let runState = '';
  const replayable = () => !(view.humans?.length && runState === 'running');
  function addGames(results) {
    for (const r of results) {
      const label = `${r.track}: ${r.seats.map(strategyLabel).join(' vs ')} · ${r.scores.map((x) => Math.round(x * 1000) / 1000).join('–')}${r.termination !== 'normal' ? ` · ${r.termination}` : ''}`;
      const li = el('li', { 'data-game': r.id }, label);
      if (replayable()) li.append(' · ', el('a', { href: `${base}replay?id=${encodeURIComponent(r.id)}` }, 'replay'));
      gamesList.prepend(li);
    }
    while (gamesList.children.length > 200) gamesList.lastElementChild.remove();
    gamesNote.hidden = gamesList.children.length > 0;
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
            `${r.track}: ${r.seats.map(strategyLabel).join(' vs ')}: ${r.offender !== null ? strategyLabel(r.seats[r.offender]) : 'a bot'} ${r.termination}: ${r.reason}`,
          ),
        );
      }
    }
    addGames(results);
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
      el(
        'div',
        { class: 'muted' },
        `${msg.spec.game}/${msg.spec.variant}: ${msg.spec.seats.map(strategyLabel).join(' vs ')}`,
      ),
      board,
    );
    fit(board);
    live.boards = boardEls.size;
  }
  /** A board wider than its box (Hold'em's table, Bridge's compass) is scaled down to fit, not cut or spilled. */
  function fit(board) {
    const wide = board.scrollWidth;
    const room = board.clientWidth;
    if (wide > room + 1 && room > 0) for (const c of board.children) c.style.zoom = String(room / wide);
  }
  function dropBoards(ids) {
    for (const id of ids) endBoard(id);
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
    runState = s;
    if (summary) about.textContent = summary.about;
  }
  // Only what the run has (orchestrator/serve/runs.ts runLinks): a play or arena run writes no report.
  function drawLinks(l) {
    if (!l) return;
    const parts = [];
    if (l.report) parts.push(el('a', { href: l.report, 'data-testid': 'report-link' }, 'report.html'));
    if (l.crosstable) parts.push(el('a', { href: l.crosstable, 'data-testid': 'crosstable-link' }, 'cross-table'));
    if (l.journal) parts.push(el('a', { href: l.journal }, 'journal.jsonl'));
    if (!l.report && runState !== 'finished' && l.journal && !l.crosstable)
      parts.push(el('span', { class: 'muted' }, 'the report is linked here once the run has written it'));
    links.replaceChildren(...parts.flatMap((p, k) => (k ? [' · ', p] : [p])));
  }

  function drawSpectator(v) {
    view = v || { humans: [] };
    spectator.textContent = v ? v.note : '';
    spectator.setAttribute('data-mode', v ? v.mode : '');
  }

  function replaceProgress(lines) {
    progress.replaceChildren(...lines.map((t) => el('div', {}, t)));
    progress.scrollTop = progress.scrollHeight;
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
      gamesList.replaceChildren();
      drawState(msg.state, msg.summary);
      drawLinks(msg.links);
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
    else if (msg.type === 'state') {
      drawState(msg.state);
      drawLinks(msg.links);
      gamesList.replaceChildren(); // a person's run that ended: its games' replays open now
      addGames(live.results.slice(-200));
    } else if (msg.type === 'links') drawLinks(msg.links);
    else if (msg.type === 'dropped') {
      dropBoards(msg.ids);
      inFlight(msg.inFlight);
    } else if (msg.type === 'progress-all') {
      replaceProgress(msg.progress);
      dropBoards(msg.dropped);
      inFlight(msg.inFlight);
    } else if (msg.type === 'spectator') drawSpectator(msg.spectator);
  };
})();
