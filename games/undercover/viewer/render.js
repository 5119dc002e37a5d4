// The Undercover replay renderer (browser, no imports; games/core/viewer.ts): step k shows where
// the game stands after k moves, from games/undercover/viewer/data.ts: the round and phase, the
// seats (strategy, role and word: all shown, this is a replay for people reading it after the
// game), who is in and who is out and why, the statements so far with any check fault, the
// ballots of every vote with what the count decided, and at the end the winning team and each
// seat's composite score. Every event carries the step `k` that shows it.
(function () {
  'use strict';
  const viewers = (window.catarenaViewers = window.catarenaViewers || {});
  const CSS = `
.ux { max-width: 760px; font-size: 14px; }
.ux h3 { margin: .8rem 0 .3rem; font-size: 15px; }
.ux-phase { font-weight: 600; }
.ux-seats td, .ux-seats th { padding: 2px 8px; }
.ux-seats tr.ux-out td { color: #888; }
.ux-seats tr.ux-next td { background: #fff6cc; }
.ux-role-undercover { color: #b00020; font-weight: 600; }
.ux-role-audience { color: #555; font-style: italic; }
.ux-statements { padding-left: 2em; margin: 0; }
.ux-statements li.ux-fault { color: #555; }
.ux-statements li.ux-new, .ux-votes div.ux-new { background: #ffe9a8; }
.ux-fault-tag { color: #b00020; margin-left: .4em; }
.ux-votes > div { margin: 2px 0; }
.ux-decided { font-weight: 600; }
.ux-outcome { margin-top: .6rem; padding: .4rem .6rem; border: 2px solid #c99a00; background: #fff6cc; border-radius: 6px; }
.ux-hidden { color: #777; font-size: 12px; }
`;
  const BY = { vote: 'voted out', silent: 'no statement (bot failure)' };
  const REASON = {
    undercover_out: 'every undercover player is out',
    undercover_majority: 'the undercover players are at least as many as the civilians',
    round_cap: 'an undercover player was still in at the round cap',
  };

  const { addStyle, el } = window.catarenaViewerKit; // reports/html/viewer-kit.js
  const ensureStyle = () => addStyle('ux-style', CSS);

  const why = (by) => BY[by] || `statement check: ${String(by).replace(/_/g, ' ')}`;
  const who = (data, seat) => `seat ${seat} (${data.seats[seat]})`;

  function render(board, data, step) {
    ensureStyle();
    const x = data.extra || {};
    const frame = data.frames[step] || data.frames[data.frames.length - 1];
    const [round, phase, ballot, candidates] = frame;
    const over = x.overAt !== null && step >= x.overAt;
    const root = el('div', 'ux');
    root.dataset.testid = 'undercover';
    root.dataset.step = String(step);

    const phaseText = over
      ? `game over after round ${round}`
      : phase === 'speak'
        ? `round ${round} of ${x.maxRounds} · statements`
        : ballot === 1
          ? `round ${round} of ${x.maxRounds} · revote among seats ${(candidates || []).join(', ')}`
          : `round ${round} of ${x.maxRounds} · vote${x.audience !== null ? ' (the audience votes)' : ''}`;
    const head = el('p', 'ux-phase', phaseText);
    head.dataset.testid = 'phase';
    root.append(head);
    const words = el(
      'p',
      '',
      `category: ${x.category} · civilian word: ${x.words.civilian} · undercover word: ${x.words.undercover} `,
    );
    words.dataset.testid = 'words';
    words.append(
      el(
        'span',
        'ux-hidden',
        x.words.civilian === '?'
          ? '(hidden while the game is played: "?" is what this view may not see)'
          : data.variant === 'standard'
            ? '(shown for the replay: each player knew only their own word, not their role)'
            : '(the players knew both words and their role)',
      ),
    );
    root.append(words);

    // Seats: role, word, status at this step; the score once the game is over.
    const outAt = new Map();
    for (const e of x.eliminated) if (e.k <= step) outAt.set(e.seat, e);
    const next = data.moves[step] && !over ? data.moves[step].seat : null;
    const seats = el('table', 'ux-seats');
    seats.dataset.testid = 'seats';
    const hr = el('tr');
    const cols = ['seat', 'strategy', 'role', 'word', 'status'];
    if (over && x.final) cols.push('score', 'place');
    for (const t of cols) hr.append(el('th', ['strategy', 'role', 'word', 'status'].includes(t) ? 'text' : '', t));
    seats.append(hr);
    data.seats.forEach((id, seat) => {
      const role = x.roles[seat];
      const e = outAt.get(seat);
      const tr = el('tr', `${e ? 'ux-out' : ''}${seat === next ? ' ux-next' : ''}`);
      tr.dataset.testid = `seat-${seat}`;
      tr.dataset.status = role === 'audience' ? 'audience' : e ? 'out' : 'alive';
      tr.dataset.role = role;
      const status = role === 'audience' ? 'votes, never out' : e ? `out in round ${e.round}: ${why(e.by)}` : 'in';
      tr.append(
        el('td', '', String(seat)),
        el('td', 'text', id),
        el('td', `text ux-role-${role}`, role),
        el('td', 'text', x.seatWords[seat] ?? '—'),
        el('td', 'text', status),
      );
      if (over && x.final) {
        const score = el('td', '', x.final.scores[seat].toFixed(3));
        score.dataset.testid = `score-${seat}`;
        score.title = `win ${x.final.win[seat]} · survival ${x.final.survival[seat]} · voting accuracy ${x.final.accuracy[seat].toFixed(2)}`;
        tr.append(score, el('td', '', String(x.final.places[seat] ?? '')));
      }
      seats.append(tr);
    });
    root.append(seats);

    // Statements so far.
    root.append(el('h3', '', 'Statements'));
    const said = x.statements.filter((s) => s.k <= step);
    const list = el('ol', 'ux-statements');
    list.dataset.testid = 'statements';
    list.dataset.count = String(said.length);
    for (const s of said) {
      const li = el(
        'li',
        `${s.fault ? 'ux-fault' : ''}${s.k === step ? ' ux-new' : ''}`,
        `R${s.round} · ${who(data, s.seat)}: ${s.text === null ? '(no statement)' : `“${s.text}”`}`,
      );
      if (s.fault) li.append(el('span', 'ux-fault-tag', `✗ ${why(s.fault)} — out`));
      list.append(li);
    }
    if (!said.length) list.append(el('li', 'muted', 'none yet'));
    root.append(list);

    // Ballots: per round and ballot, as far as cast; the count once closed.
    root.append(el('h3', '', 'Votes'));
    const votes = el('div', 'ux-votes');
    votes.dataset.testid = 'votes';
    const groups = new Map();
    for (const b of x.ballots) {
      if (b.k > step) continue;
      const key = `${b.round}/${b.ballot}`;
      if (!groups.has(key)) groups.set(key, { round: b.round, ballot: b.ballot, cast: [] });
      groups.get(key).cast.push(b);
    }
    for (const g of groups.values()) {
      const close = x.closes.find((c) => c.round === g.round && c.ballot === g.ballot && c.k <= step);
      const line = el('div', close && close.k === step ? 'ux-new' : '');
      line.dataset.testid = `vote-${g.round}-${g.ballot}`;
      const cast = g.cast.map((b) => `${b.voter} → ${b.target === null ? 'lost' : b.target}`).join(', ');
      line.append(`Round ${g.round} ${g.ballot === 1 ? 'revote' : 'vote'}: ${cast}`);
      if (close) {
        const decided =
          close.result === 'out'
            ? `${who(data, close.seat)} is out`
            : close.result === 'revote'
              ? `tie between seats ${close.tied.join(', ')} → revote`
              : 'nobody out';
        line.append(' ⇒ ', el('span', 'ux-decided', decided));
      } else line.append(el('span', 'muted', ' (open: ballots are secret until it closes)'));
      votes.append(line);
    }
    if (!groups.size) votes.append(el('div', 'muted', 'no ballot yet'));
    root.append(votes);

    if (over && x.final) {
      const f = x.final;
      const box = el('div', 'ux-outcome');
      box.dataset.testid = 'outcome';
      box.dataset.winner = f.winner;
      box.dataset.reason = f.reason;
      const team = f.winner === 'civilian' ? 'Civilians win' : 'Undercover wins';
      box.append(
        el(
          'div',
          'ux-decided',
          `${team}: ${REASON[f.reason] || f.reason} (after ${f.rounds} round${f.rounds === 1 ? '' : 's'}).`,
        ),
      );
      const ranked = data.seats.map((_, s) => s).sort((a, b) => f.scores[b] - f.scores[a] || a - b);
      box.append(
        el(
          'div',
          '',
          `Composite scores (0.75·win + 0.15·survival + 0.10·voting accuracy): ${ranked.map((s) => `${who(data, s)} ${f.scores[s].toFixed(3)}`).join(' · ')}`,
        ),
      );
      root.append(box);
    }
    if (x.broken)
      root.append(
        el('p', 'warn', `the replay could not be rebuilt past move ${x.broken.ply + 1}: ${x.broken.message}`),
      );
    board.append(root);
  }

  viewers.undercover = { render };
})();
