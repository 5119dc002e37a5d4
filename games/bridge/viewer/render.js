// Bridge replay renderer (browser, no imports): the compass layout of one board in one room, from
// the per-step snapshots and extras of games/bridge/viewer/data.ts. North at the top, South at
// the bottom, West and East at the sides, each with the cards still held (all four hands are
// shown: this is a replay for analysts; a live page's view of a game in play gets '?' for a hand
// it may not see, drawn as its size); the trick on the table in the middle (the winning card
// marked once the trick is complete); the auction table with the calls made so far; dealer,
// vulnerability, contract, declarer and dummy; tricks won per side and, at the end, the result.
// extra(): the duplicate facts of this room and a link to the other room's page.
(function () {
  'use strict';
  const viewers = (window.catarenaViewers = window.catarenaViewers || {});
  const SUITS = ['S', 'H', 'D', 'C'];
  const GLYPH = { S: '♠', H: '♥', D: '♦', C: '♣' };
  const LETTER = ['N', 'E', 'S', 'W'];
  const NAME = ['North', 'East', 'South', 'West'];
  const CSS = `
.bx-grid { display: grid; grid-template-columns: 230px 250px 230px; gap: 10px; align-items: start; font-size: 13px; }
.bx-box { border: 1px solid #ccc; border-radius: 8px; padding: 6px 8px; background: #fafafa; }
.bx-hand { min-height: 104px; }
.bx-hand.bx-tomove { box-shadow: 0 0 0 3px #ffd54f; }
.bx-hand.bx-dummy { background: #f1f5ff; }
.bx-who { font-weight: 600; margin-bottom: 3px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.bx-tag { display: inline-block; margin-left: 4px; padding: 0 5px; border-radius: 8px; font-size: 10px; line-height: 16px; background: #555; color: #fff; font-weight: 700; vertical-align: middle; }
.bx-tag.bx-vul { background: #c62828; }
.bx-tag.bx-dealer { background: #fff; color: #000; border: 1px solid #000; }
.bx-suit { font-size: 15px; line-height: 1.35; letter-spacing: .5px; white-space: nowrap; }
.bx-glyph { display: inline-block; width: 1.2em; }
.bx-red { color: #c62828; }
.bx-rank.bx-recv { background: #c8e6c9; border-radius: 3px; }
.bx-rank.bx-giving { text-decoration: line-through; color: #999; }
.bx-center { height: 230px; position: relative; background: radial-gradient(#2f8a4f, #1d6236); border-radius: 12px; color: #fff; }
.bx-center .bx-title { position: absolute; left: 0; right: 0; top: 4px; text-align: center; font-size: 12px; opacity: .9; }
.bx-slot { position: absolute; transform: translate(-50%, -50%); }
.bx-card { display: inline-block; box-sizing: border-box; width: 34px; height: 46px; padding-top: 3px; border: 1px solid #888; border-radius: 5px; background: #fff; color: #111; font-weight: 700; font-size: 15px; line-height: 1.1; text-align: center; }
.bx-card small { display: block; font-size: 1em; }
.bx-card.bx-red { color: #c62828; }
.bx-card.bx-win { box-shadow: 0 0 0 3px #ffd54f; }
.bx-count { position: absolute; left: 0; right: 0; bottom: 4px; text-align: center; font-weight: 600; }
.bx-auction th, .bx-auction td { min-width: 2.6em; text-align: center; }
.bx-auction th.bx-vul { color: #c62828; }
.bx-auction td.bx-last { background: #ffe9a8; }
.bx-line { font-weight: 600; }
`;

  const { addStyle, el } = window.catarenaViewerKit; // reports/html/viewer-kit.js
  const ensureStyle = () => addStyle('bx-style', CSS);

  const red = (suit) => suit === 'H' || suit === 'D';
  const rankText = (r) => (r === 'T' ? '10' : r);
  const cards = (run) => run.match(/../g) || [];

  function card(c, win) {
    const node = el('span', `bx-card${red(c[1]) ? ' bx-red' : ''}${win ? ' bx-win' : ''}`);
    node.dataset.card = c;
    node.append(rankText(c[0]), el('small', '', GLYPH[c[1]]));
    return node;
  }

  function vulOf(x, seat) {
    return seat % 2 === 0 ? x.vulnerability.ns : x.vulnerability.ew;
  }

  function hand(data, x, f, seat) {
    const held = cards(f.h[seat]);
    const box = el('div', 'bx-box bx-hand');
    box.dataset.testid = `hand-${LETTER[seat]}`;
    box.dataset.count = String(held.length);
    if (f.tm === seat) box.classList.add('bx-tomove');
    if (x.dummy === seat && f.ph !== 'bidding') box.classList.add('bx-dummy');
    const who = el('div', 'bx-who');
    who.title = `${NAME[seat]}: ${data.seats[seat]}`;
    who.append(`${LETTER[seat]} · ${data.seats[seat]}`);
    if (x.dealer === seat) who.append(el('span', 'bx-tag bx-dealer', 'dealer'));
    if (vulOf(x, seat)) who.append(el('span', 'bx-tag bx-vul', 'vul'));
    if (x.contract && f.ph !== 'bidding') {
      if (x.contract.declarer === seat) who.append(el('span', 'bx-tag', 'declarer'));
      if (x.dummy === seat) who.append(el('span', 'bx-tag', 'dummy'));
    }
    box.append(who);
    if (f.h[seat] === '?') {
      // A hand this view may not see (data.ts visibleHands): its size only.
      box.dataset.hidden = 'true';
      box.dataset.count = String(f.hs ? f.hs[seat] : '');
      box.append(el('div', 'bx-suit bx-hidden', f.hs ? `${f.hs[seat]} cards, hidden` : 'hidden'));
      return box;
    }
    const received = x.exchange && f.ph !== 'bidding' && f.ph !== 'exchanging' ? x.exchange.received[seat] : null;
    const giving = f.g ? f.g[seat] : null;
    for (const suit of SUITS) {
      const row = el('div', 'bx-suit');
      row.append(el('span', `bx-glyph${red(suit) ? ' bx-red' : ''}`, GLYPH[suit]));
      const inSuit = held.filter((c) => c[1] === suit);
      if (!inSuit.length) row.append('—');
      inSuit.forEach((c, k) => {
        if (k) row.append(' ');
        const r = el('span', 'bx-rank', rankText(c[0]));
        r.dataset.card = c;
        if (c === received) {
          r.classList.add('bx-recv');
          r.title = 'received from partner';
        }
        if (c === giving) {
          r.classList.add('bx-giving');
          r.title = 'given to partner';
        }
        row.append(r);
      });
      box.append(row);
    }
    return box;
  }

  function center(_data, _x, f) {
    const box = el('div', 'bx-center');
    box.dataset.testid = 'trick';
    let title;
    if (f.ph === 'bidding') title = 'auction';
    else if (f.ph === 'exchanging') title = 'card exchange';
    else if (f.t.length) title = `trick ${f.tw !== undefined ? f.nt : f.nt + 1}`;
    else title = f.ph === 'finished' ? 'board over' : `trick ${f.nt + 1}`;
    box.append(el('div', 'bx-title', title));
    const pos = [
      [50, 26],
      [78, 50],
      [50, 74],
      [22, 50],
    ];
    if (f.ph === 'exchanging' && f.g) {
      f.g.forEach((c, seat) => {
        const slot = el('div', 'bx-slot', c ? '' : '…');
        slot.style.left = `${pos[seat][0]}%`;
        slot.style.top = `${pos[seat][1]}%`;
        if (c) slot.append(card(c, false));
        box.append(slot);
      });
    }
    for (const [seat, c] of f.t) {
      const slot = el('div', 'bx-slot');
      slot.style.left = `${pos[seat][0]}%`;
      slot.style.top = `${pos[seat][1]}%`;
      slot.append(card(c, f.tw === seat));
      box.append(slot);
    }
    const count = el('div', 'bx-count', `tricks NS ${f.won[0]} · EW ${f.won[1]}`);
    count.dataset.testid = 'tricks-won';
    count.dataset.ns = String(f.won[0]);
    count.dataset.ew = String(f.won[1]);
    count.dataset.total = String(f.nt);
    box.append(count);
    return box;
  }

  function auction(x, f) {
    const box = el('div', 'bx-box');
    const table = el('table', 'bx-auction');
    table.dataset.testid = 'auction';
    const head = el('tr');
    for (let seat = 0; seat < 4; seat++) head.append(el('th', vulOf(x, seat) ? 'bx-vul' : '', LETTER[seat]));
    table.append(head);
    const shown = x.calls.slice(0, f.nc);
    let row = el('tr');
    for (let seat = 0; seat < x.dealer; seat++) row.append(el('td', '', ''));
    let col = x.dealer;
    const cells = shown.map((c) => ({ text: c.text, cls: '' }));
    if (cells.length) cells[cells.length - 1].cls = 'bx-last';
    if (f.ph === 'bidding' && f.tm !== null) cells.push({ text: '?', cls: '' });
    for (const c of cells) {
      if (col === 4) {
        table.append(row);
        row = el('tr');
        col = 0;
      }
      const td = el('td', c.cls, c.text);
      if (/[♥♦]/.test(c.text)) td.classList.add('bx-red');
      row.append(td);
      col++;
    }
    table.append(row);
    box.append(el('div', 'bx-line', 'Auction'), table);
    return box;
  }

  function info(data, x, _f) {
    const box = el('div', 'bx-box');
    const vul =
      x.vulnerability.ns && x.vulnerability.ew
        ? 'both'
        : x.vulnerability.ns
          ? 'NS'
          : x.vulnerability.ew
            ? 'EW'
            : 'none';
    box.append(
      el('div', 'bx-line', `Board ${x.board}`),
      el('div', '', `dealer ${NAME[x.dealer]} · vulnerable: ${vul}`),
    );
    if (x.duplicate)
      box.append(el('div', '', `${x.duplicate.room} room · NS ${x.duplicate.ns} · EW ${x.duplicate.ew}`));
    box.append(
      el(
        'div',
        'muted',
        data.variant === 'variant' ? 'magic: one card to partner after the auction' : 'standard rules',
      ),
    );
    return box;
  }

  function contract(x, f, last) {
    const box = el('div', 'bx-box');
    box.dataset.testid = 'contract';
    if (f.ph === 'bidding') box.append(el('div', 'bx-line', 'contract: —'));
    else if (x.contract) {
      box.append(el('div', 'bx-line', `contract ${x.contract.text}`));
      const side = x.contract.declarer % 2;
      const need = x.contract.level + 6;
      box.append(el('div', '', `declarer's side ${f.won[side]} of ${need} needed · defence ${f.won[1 - side]}`));
    } else box.append(el('div', 'bx-line', 'passed out'));
    if (f.ph === 'finished' || last) {
      const line = el('div', 'bx-line', x.line);
      line.dataset.testid = 'board-result';
      box.append(line);
    }
    return box;
  }

  function exchangeBox(data, x, f) {
    const box = el('div', 'bx-box');
    if (x.exchange && f.ph !== 'bidding' && f.ph !== 'exchanging') {
      box.append(el('div', 'bx-line', 'Exchange'));
      for (let seat = 0; seat < 4; seat++) {
        const g = x.exchange.given[seat];
        if (g)
          box.append(
            el('div', '', `${LETTER[seat]} gave ${GLYPH[g[1]]}${rankText(g[0])} to ${LETTER[(seat + 2) % 4]}`),
          );
      }
    } else if (f.nt > 0 && x.tricks[f.nt - 1]) {
      const t = x.tricks[f.nt - 1];
      box.append(
        el('div', 'bx-line', `Trick ${f.nt}`),
        el(
          'div',
          '',
          `${t.cards.map(([s, c]) => `${LETTER[s]} ${GLYPH[c[1]]}${rankText(c[0])}`).join(', ')} → ${LETTER[t.winner]}`,
        ),
      );
    } else
      box.append(
        el(
          'div',
          'muted',
          data.variant === 'variant' ? 'each player passes one card to partner after the auction' : '',
        ),
      );
    return box;
  }

  function render(boardEl, data, step) {
    ensureStyle();
    const x = data.extra || {};
    const f = data.frames[Math.max(0, Math.min(step, data.frames.length - 1))];
    if (!f) {
      boardEl.append(el('p', '', 'no board recorded'));
      return;
    }
    const grid = el('div', 'bx-grid');
    grid.dataset.testid = 'bridge-table';
    grid.append(info(data, x, f), hand(data, x, f, 0), contract(x, f, step >= data.moves.length));
    grid.append(hand(data, x, f, 3), center(data, x, f), hand(data, x, f, 1));
    grid.append(auction(x, f), hand(data, x, f, 2), exchangeBox(data, x, f));
    boardEl.append(grid);
    if (x.broken)
      boardEl.append(
        el('p', 'warn', `the replay could not be rebuilt past move ${x.broken.ply + 1}: ${x.broken.message}`),
      );
  }

  function extra(root, data) {
    ensureStyle();
    const x = data.extra || {};
    const d = x.duplicate;
    root.append(el('h3', '', 'Duplicate'));
    if (!d) {
      root.append(el('p', 'muted', 'not part of a duplicate match'));
      return;
    }
    const table = el('table');
    table.dataset.testid = 'duplicate';
    const row = (k, v) => {
      const tr = el('tr');
      tr.append(el('th', 'text', k));
      const td = el('td', 'text');
      td.append(v);
      tr.append(td);
      table.append(tr);
    };
    row('match', d.match);
    row('board', `${d.board} of ${d.boards}`);
    row('teams', `${d.teams[0]} vs ${d.teams[1]}`);
    row(`${d.room} room`, `NS ${d.ns} · EW ${d.ew}`);
    row('NS score here', x.nsScore === null || x.nsScore === undefined ? '—' : String(x.nsScore));
    if (d.other) {
      const a = el('a', '', `${d.other.room} room`);
      a.href = `replay.html?id=${encodeURIComponent(d.other.id)}`;
      a.dataset.testid = 'other-room';
      const cell = el('span');
      cell.append(a, ` (${d.other.id}; same deal, ${d.ew} sits NS there)`);
      row('other room', cell);
    }
    if (x.comparison) {
      row(`NS score, ${d.other ? d.other.room : 'other'} room`, String(x.comparison.otherNs));
      row(`IMPs for ${d.teams[0]}`, String(x.comparison.imps));
    }
    root.append(table);
    if (!x.comparison)
      root.append(el('p', 'muted', 'The IMPs of this board need both rooms: open the other room, or the run report.'));
  }

  viewers.bridge = { render, extra };
})();
