// Hold'em replay renderer (browser, no imports): draws the oval table of one step of a table
// round from the per-hand data of games/holdem/viewer/data.ts. Step k shows the table after move
// k: the hand that move belongs to is found by a binary search over the hands' move offsets, and
// only that hand's forced bets and decisions are replayed. When a step ends a hand it shows the
// showdown: every live hand's rank, the pots and who won what. All hole cards are shown (this is
// a replay for analysts), but those a live page's view may not see, which come as '?' and are
// drawn as card backs.
(function () {
  'use strict';
  const viewers = (window.catarenaViewers = window.catarenaViewers || {});
  const SUIT = { c: '♣', d: '♦', h: '♥', s: '♠' };
  const KIND = ['fold', 'check', 'call', 'raise', 'all_in', 'none', 'ante', 'small_blind', 'big_blind'];
  const STREET = ['preflop', 'flop', 'turn', 'river'];
  const BOARD_AT = [0, 3, 4, 5];
  const CSS = `
.hx-table { position: relative; width: 780px; height: 560px; font-size: 13px; }
.hx-felt { position: absolute; left: 125px; top: 130px; width: 530px; height: 300px; border-radius: 50%; background: radial-gradient(#2f8a4f, #1d6236); border: 10px solid #6b4226; box-sizing: border-box; }
.hx-center { position: absolute; left: 230px; top: 192px; width: 320px; text-align: center; color: #fff; }
.hx-info { font-size: 12px; opacity: .9; margin-bottom: 6px; }
.hx-board { min-height: 46px; }
.hx-board .hx-card { width: 34px; height: 44px; font-size: 15px; }
.hx-pot { margin-top: 6px; font-weight: 600; }
.hx-pots { margin-top: 4px; font-size: 12px; line-height: 1.35; }
.hx-pots .hx-win { color: #ffe082; }
.hx-seat { position: absolute; width: 112px; box-sizing: border-box; padding: 2px 4px; border: 1px solid #999; border-radius: 8px; background: #fafafa; text-align: center; box-shadow: 0 1px 2px rgba(0,0,0,.15); }
.hx-seat.hx-folded { opacity: .45; }
.hx-seat.hx-out { opacity: .3; background: #eee; }
.hx-seat.hx-acted { border: 2px solid #0b57d0; }
.hx-seat.hx-next { box-shadow: 0 0 0 3px #ffd54f; }
.hx-seat.hx-winner { background: #fff6cc; border: 2px solid #c99a00; }
.hx-name { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.hx-badges { position: absolute; top: -9px; right: 4px; }
.hx-badge { display: inline-block; min-width: 16px; padding: 0 3px; margin-left: 3px; border-radius: 8px; font-size: 10px; line-height: 16px; background: #555; color: #fff; font-weight: 700; }
.hx-badge.hx-d { background: #fff; color: #000; border: 1px solid #000; }
.hx-badge.hx-allin { background: #b00020; }
.hx-stack { font-variant-numeric: tabular-nums; font-weight: 600; }
.hx-last { font-size: 12px; color: #333; min-height: 16px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.hx-rank { font-size: 11px; line-height: 14px; font-weight: 600; color: #6a1b9a; }
.hx-bet { position: absolute; transform: translate(-50%, -50%); padding: 0 6px; border-radius: 9px; background: #ffe082; border: 1px solid #b28704; font-size: 12px; font-weight: 600; font-variant-numeric: tabular-nums; }
.hx-card { display: inline-block; box-sizing: border-box; width: 25px; height: 35px; margin: 1px; padding-top: 2px; border: 1px solid #888; border-radius: 4px; background: #fff; color: #111; font-weight: 700; line-height: 1.05; text-align: center; vertical-align: middle; }
.hx-card.hx-red { color: #c62828; }
.hx-card.hx-best { box-shadow: 0 0 0 2px #c99a00; }
.hx-card.hx-back { background: repeating-linear-gradient(45deg, #8e2b2b 0 4px, #b84848 4px 8px); }
.hx-card.hx-empty { border: 1px dashed rgba(255,255,255,.5); background: transparent; }
.hx-card small { display: block; font-size: 1em; }
.hx-standings td, .hx-standings th { font-variant-numeric: tabular-nums; }
`;

  const { addStyle, el } = window.catarenaViewerKit; // reports/html/viewer-kit.js
  const ensureStyle = () => addStyle('hx-style', CSS);

  const fmt = (n) => Number(n).toLocaleString('en-US');

  function card(c, best) {
    if (!c) return el('span', 'hx-card hx-empty');
    if (c === '?') return el('span', 'hx-card hx-back', ''); // a card this view may not see (data.ts HIDDEN_CARD)
    const node = el('span', `hx-card${c[1] === 'h' || c[1] === 'd' ? ' hx-red' : ''}${best ? ' hx-best' : ''}`);
    node.dataset.card = c;
    node.title = c;
    node.append(c[0] === 'T' ? '10' : c[0], el('small', '', SUIT[c[1]] || c[1]));
    return node;
  }

  /** A decision as written; `open`: nobody has bet on this street yet (after the flop), so a raise is a bet. */
  function actText(kind, amount, to, open) {
    switch (KIND[kind]) {
      case 'raise':
        return open ? `bet ${fmt(to)}` : `raise to ${fmt(to)}`;
      case 'call':
        return `call ${fmt(amount)}`;
      case 'all_in':
        return `all-in ${fmt(to)}`;
      case 'small_blind':
        return `SB ${fmt(amount)}`;
      case 'big_blind':
        return `BB ${fmt(amount)}`;
      case 'ante':
        return `ante ${fmt(amount)}`;
      case 'none':
        return 'no action';
      default:
        return KIND[kind];
    }
  }

  /** Index of the hand that move m (0-based) belongs to: the last hand whose offset is ≤ m. */
  function handIndexOf(hands, m) {
    let lo = 0;
    let hi = hands.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (hands[mid].off <= m) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The table during hand h after its first j decisions (j = all of them: the hand is over). */
  function handState(h, j) {
    const n = h.st.length;
    const stack = h.st.slice();
    const bet = new Array(n).fill(0);
    const committed = new Array(n).fill(0);
    const status = h.st.map((c) => (c > 0 ? 'active' : 'out'));
    const last = new Array(n).fill('');
    for (const [seat, kind, amount] of h.pre) {
      stack[seat] -= amount;
      committed[seat] += amount;
      if (KIND[kind] !== 'ante') bet[seat] += amount;
      if (stack[seat] === 0) status[seat] = 'all_in';
      last[seat] = actText(kind, amount, bet[seat]);
    }
    let street = 0;
    let top = 1; // the street's highest bet so far (pre-flop: the blinds)
    for (let i = 0; i < j; i++) {
      const [seat, st, kind, amount, to] = h.a[i];
      if (KIND[kind] === 'none') continue;
      if (st !== street) {
        bet.fill(0);
        for (let s = 0; s < n; s++) if (status[s] === 'active') last[s] = '';
        street = st;
        top = 0;
      }
      stack[seat] -= amount;
      committed[seat] += amount;
      bet[seat] = to;
      if (KIND[kind] === 'fold') status[seat] = 'folded';
      else if (stack[seat] === 0) status[seat] = 'all_in';
      last[seat] = actText(kind, amount, to, top === 0);
      top = Math.max(top, to);
    }
    const done = j >= h.a.length && !!h.pots;
    let toAct = null;
    if (!done && j < h.a.length) {
      const nxt = h.a[j];
      if (nxt[1] !== street) {
        bet.fill(0);
        for (let s = 0; s < n; s++) if (status[s] === 'active') last[s] = '';
        street = nxt[1];
      }
      toAct = nxt[0];
    }
    const won = new Array(n).fill(0);
    if (done) {
      for (const p of h.pots) for (const [seat, chips] of p.w) won[seat] += chips;
      if (h.ret) won[h.ret[0]] += h.ret[1];
      bet.fill(0);
    }
    const board = done ? h.bd : h.bd.slice(0, BOARD_AT[street]);
    return {
      stack,
      bet,
      committed,
      status,
      last,
      street,
      board,
      toAct,
      done,
      won,
      acted: j > 0 ? h.a[j - 1][0] : null,
    };
  }

  function render(boardEl, data, step) {
    ensureStyle();
    const x = data.extra || {};
    const hands = x.hands || [];
    if (!hands.length) {
      boardEl.append(el('p', '', 'no hands recorded'));
      return;
    }
    const total = data.moves.length;
    let hi;
    let j;
    if (step >= total) {
      // The last step: the last hand, over (it may be a hand played out without a decision).
      hi = hands.length - 1;
      j = hands[hi].a.length;
    } else if (step === 0) {
      hi = 0;
      j = 0;
    } else {
      hi = handIndexOf(hands, step - 1);
      j = Math.min(step - hands[hi].off, hands[hi].a.length);
    }
    const h = hands[hi];
    const s = handState(h, j);
    const n = h.st.length;
    const final = step >= total && hi === hands.length - 1;

    const table = el('div', 'hx-table');
    table.dataset.testid = 'holdem-table';
    table.dataset.hand = String(h.n);
    table.append(el('div', 'hx-felt'));

    const cx = 390;
    const cy = 280;
    const angle = (i) => Math.PI / 2 + (2 * Math.PI * i) / n;
    const shown = new Map((h.sd || []).map(([seat, cat, five]) => [seat, { cat, five }]));
    // The board cards that make the main pot's winning hand(s).
    const bestCards = new Set();
    if (h.pots?.length)
      for (const [seat] of h.pots[0].w) if (shown.has(seat)) for (const c of shown.get(seat).five) bestCards.add(c);
    const winners = new Set((h.pots || []).flatMap((p) => p.w.filter(([, chips]) => chips > 0).map(([seat]) => seat)));

    for (let i = 0; i < n; i++) {
      const a = angle(i);
      const box = el('div', 'hx-seat');
      box.dataset.testid = `seat-${i}`;
      box.style.left = `${Math.round(cx + 330 * Math.cos(a) - 56)}px`;
      box.style.top = `${Math.round(cy + 232 * Math.sin(a) - 44)}px`;
      const endStack = s.stack[i] + s.won[i];
      box.dataset.stack = String(endStack);
      const st = s.status[i];
      if (st === 'out') box.classList.add('hx-out');
      if (st === 'folded') box.classList.add('hx-folded');
      if (s.acted === i && !s.done) box.classList.add('hx-acted');
      if (s.toAct === i) box.classList.add('hx-next');
      if (s.done && winners.has(i)) box.classList.add('hx-winner');

      const name = el('div', 'hx-name');
      name.title = `seat ${i + 1}: ${data.seats[i]}`;
      name.append(`${i + 1} · ${data.seats[i]}`);
      box.append(name);
      if (st !== 'out') {
        const badges = el('div', 'hx-badges');
        if (h.btn === i) badges.append(el('span', 'hx-badge hx-d', 'D'));
        if (h.sbs === i) badges.append(el('span', 'hx-badge', 'SB'));
        if (h.bbs === i) badges.append(el('span', 'hx-badge', 'BB'));
        box.append(badges);
      }
      const cards = el('div', 'hx-cards');
      const hole = h.hole[i];
      if (hole)
        for (const c of hole)
          cards.append(card(c, s.done && shown.has(i) && winners.has(i) && shown.get(i).five.includes(c)));
      box.append(cards);
      const stack = el('div', 'hx-stack', st === 'out' ? 'out' : fmt(endStack));
      if (st === 'all_in' && !s.done) stack.append(el('span', 'hx-badge hx-allin', 'ALL-IN'));
      box.append(stack);
      const net = endStack - h.st[i];
      const last = el('div', 'hx-last');
      if (s.done && shown.has(i)) box.append(el('div', 'hx-rank', shown.get(i).cat));
      if (s.done && st !== 'out') {
        last.append(net > 0 ? `+${fmt(net)}` : net < 0 ? `−${fmt(-net)}` : st === 'folded' ? 'fold' : '±0');
      } else last.append(s.last[i]);
      last.title = last.textContent;
      box.append(last);
      table.append(box);

      if (s.bet[i] > 0) {
        const chip = el('div', 'hx-bet', fmt(s.bet[i]));
        chip.style.left = `${Math.round(cx + 178 * Math.cos(a))}px`;
        chip.style.top = `${Math.round(cy + 104 * Math.sin(a))}px`;
        chip.dataset.testid = `bet-${i}`;
        table.append(chip);
      }
    }

    const center = el('div', 'hx-center');
    const street = s.done ? (h.sd ? 'showdown' : 'hand over') : STREET[s.street];
    center.append(
      el(
        'div',
        'hx-info',
        `Hand ${h.n} · level ${h.lv} · blinds ${fmt(h.sb)}/${fmt(h.bb)}${h.ante ? ` · ante ${fmt(h.ante)}` : ''} · ${street}`,
      ),
    );
    const boardCards = el('div', 'hx-board');
    boardCards.dataset.testid = 'board-cards';
    for (let c = 0; c < 5; c++) boardCards.append(card(s.board[c], s.done && s.board[c] && bestCards.has(s.board[c])));
    center.append(boardCards);
    // The pot: every chip put in this hand, bets of the current street included.
    const pot = el(
      'div',
      'hx-pot',
      `pot ${fmt(s.done ? h.pots.reduce((t, p) => t + p.amt, 0) : s.committed.reduce((t, c) => t + c, 0))}`,
    );
    pot.dataset.testid = 'pot';
    center.append(pot);
    if (s.done) {
      const pots = el('div', 'hx-pots');
      pots.dataset.testid = 'pots';
      h.pots.forEach((p, k) => {
        const who = p.w
          .map(
            ([seat, chips]) => `${data.seats[seat]}${shown.has(seat) ? ` (${shown.get(seat).cat})` : ''} ${fmt(chips)}`,
          )
          .join(', ');
        const line = el('div', '', `${k === 0 ? 'main pot' : `side pot ${k}`} ${fmt(p.amt)} → `);
        line.append(el('span', 'hx-win', who));
        pots.append(line);
      });
      if (h.ret) pots.append(el('div', '', `uncalled ${fmt(h.ret[1])} back to ${data.seats[h.ret[0]]}`));
      if (h.out?.length) pots.append(el('div', '', `out: ${h.out.map((seat) => data.seats[seat]).join(', ')}`));
      if (final) pots.append(el('div', 'hx-win', `table over after ${h.n} hands`));
      center.append(pots);
    }
    table.append(center);
    boardEl.append(table);
    if (x.broken)
      boardEl.append(
        el('p', 'warn', `the replay could not be rebuilt past move ${x.broken.ply + 1}: ${x.broken.message}`),
      );
  }

  /** Final standings, and a jump to any hand (a 720-hand round is long to scrub). */
  function extra(root, data) {
    ensureStyle();
    const x = data.extra || {};
    const hands = x.hands || [];
    root.append(el('h3', '', 'Standings'));
    const table = el('table', 'hx-standings');
    table.dataset.testid = 'standings';
    const head = el('tr');
    for (const t of ['place', 'seat', 'strategy', 'chips', 'out in hand']) head.append(el('th', '', t));
    table.append(head);
    const outIn = new Map((x.eliminated || []).map((e) => [e.seat, e.hand]));
    const order = data.seats
      .map((_, i) => i)
      .sort((a, b) => (x.places ? x.places[a] - x.places[b] : 0) || x.chips[b] - x.chips[a] || a - b);
    for (const seat of order) {
      const row = el('tr');
      row.append(
        el('td', '', x.places ? String(x.places[seat]) : ''),
        el('td', '', String(seat + 1)),
        el('td', 'text', data.seats[seat]),
        el('td', '', fmt(x.chips[seat])),
        el('td', '', outIn.has(seat) ? String(outIn.get(seat)) : ''),
      );
      table.append(row);
    }
    root.append(table);
    root.append(
      el(
        'p',
        'muted',
        `${hands.length} hands · ${fmt(x.startingChips)} chips each · ${x.deck === 'short' ? '36-card short deck' : '52-card deck'} · hand cap ${x.handCap}`,
      ),
    );

    const form = el('form', 'hx-jump');
    const input = el('input');
    input.type = 'number';
    input.min = '1';
    input.max = String(hands.length ? hands[hands.length - 1].n : 1);
    input.dataset.testid = 'hand-input';
    input.setAttribute('aria-label', 'hand number');
    const go = el('button', '', 'go to hand');
    go.type = 'submit';
    form.append(input, ' ', go);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const want = Number(input.value);
      const idx = hands.findIndex((h) => h.n >= want);
      if (idx < 0) return;
      const items = document.querySelectorAll('[data-testid="moves"] > li');
      const h = hands[idx];
      // The hand's first move (a hand played out without a decision: the next one that has one).
      if (h.off < items.length) items[h.off].click();
      else document.querySelector('[data-testid="last"]')?.click();
    });
    root.append(form);
  }

  viewers.holdem = { render, extra };
})();
