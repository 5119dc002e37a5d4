// The human seat's Bridge table (browser, no imports; orchestrator/human/human-page.js): drawn
// from the seat's own request (games/bridge/wire.ts): the auction as a table under N E S W, the
// contract, the trick on the table, the seat's hand by suit and dummy's once it is shown, legal
// cards as buttons in the hands, and in the auction every bid as a button (the legal ones enabled),
// pass, double and redouble.
(function () {
  'use strict';
  const seats = (window.catarenaSeats = window.catarenaSeats || {});
  const POS = ['N', 'E', 'S', 'W'];
  const SUITS = ['S', 'H', 'D', 'C'];
  const SYMBOL = { S: '♠', H: '♥', D: '♦', C: '♣', NT: 'NT' };
  const RANKS = 'AKQJT98765432';
  const callText = (c) =>
    c.call_type === 'bid' ? `${c.level}${SYMBOL[c.suit]}` : { pass: 'pass', double: 'X', redouble: 'XX' }[c.call_type];

  function auction(el, gs) {
    const calls = gs.bidding?.calls || [];
    const cells = [...Array(gs.dealer_id % 4).fill(''), ...calls.map(callText)];
    const rows = [];
    for (let i = 0; i < Math.max(cells.length, 1); i += 4)
      rows.push(el('tr', {}, ...[0, 1, 2, 3].map((k) => el('td', {}, cells[i + k] || ''))));
    return el(
      'table',
      { class: 'auction', 'data-testid': 'auction' },
      el('thead', {}, el('tr', {}, ...POS.map((p) => el('th', { scope: 'col' }, p)))),
      el('tbody', {}, ...rows),
    );
  }

  function hand(el, kit, player, label, legalCards) {
    const rows = SUITS.map((suit) => {
      const cards = player.hand
        .filter((c) => c.suit === suit)
        .sort((a, b) => RANKS.indexOf(a.rank) - RANKS.indexOf(b.rank))
        .map((c) => {
          const code = c.rank + c.suit;
          const legal = legalCards.has(code);
          return el(
            'button',
            legal
              ? {
                  type: 'button',
                  class: 'cardbtn',
                  'data-card': code,
                  onclick: () => kit.answer({ type: 'play', card: code }),
                }
              : { type: 'button', class: 'cardbtn', 'data-card': code, disabled: '' },
            kit.card(c.rank, suit),
          );
        });
      return el(
        'div',
        { class: 'suitrow' },
        el('span', { class: `suit s-${suit}` }, SYMBOL[suit]),
        ...(cards.length ? cards : ['—']),
      );
    });
    return el(
      'div',
      { class: 'hand', 'data-testid': `seat-hand-${POS[player.player_id]}` },
      el('h3', {}, label),
      ...rows,
    );
  }

  function render(panel, msg, kit) {
    const { el } = kit;
    const gs = msg.request.game_state;
    const me = msg.request.player_id;
    const contract = gs.bidding?.contract;
    const vul = gs.vulnerability || [];
    panel.append(
      el(
        'p',
        {},
        `board ${gs.board_id} · dealer ${POS[gs.dealer_id]} · vulnerable: ${vul[0] ? 'N-S' : ''}${vul[0] && vul[1] ? ', ' : ''}${vul[1] ? 'E-W' : ''}${!vul[0] && !vul[1] ? 'none' : ''} · you play ${POS[me]}`,
      ),
      auction(el, gs),
    );
    if (contract)
      panel.append(
        el(
          'p',
          { 'data-testid': 'contract' },
          `contract ${callText({ call_type: 'bid', ...contract })}${contract.doubling > 1 ? 'X'.repeat(contract.doubling - 1) : ''} by ${POS[contract.declarer_id]} · tricks N-S ${gs.tricks_won[0]}, E-W ${gs.tricks_won[1]}`,
        ),
      );
    if (gs.current_trick?.length)
      panel.append(
        el(
          'p',
          { 'data-testid': 'trick' },
          'on the table: ',
          ...gs.current_trick.flatMap(([p, c]) => [`${POS[p]} `, kit.card(c.slice(0, -1), c.slice(-1)), ' ']),
        ),
      );
    const legal = msg.legal || [];
    const legalCards = new Set(legal.filter((a) => a.type === 'play').map((a) => a.card));
    // The seat's own hand first, then dummy's once it is face up (a declarer plays it too).
    const shown = gs.players
      .filter((p) => p.hand)
      .sort((a, b) => (a.player_id === me ? -1 : b.player_id === me ? 1 : 0));
    for (const p of shown)
      panel.append(
        hand(
          el,
          kit,
          p,
          `${p.player_id === me ? 'to play: ' : ''}${p.is_dummy ? 'dummy' : 'hand'} (${POS[p.player_id]})`,
          p.player_id === me ? legalCards : new Set(),
        ),
      );
    const calls = legal.filter((a) => a.type === 'call');
    if (!calls.length) return;
    const key = (a) => (a.call_type === 'bid' ? `${a.level}${a.suit}` : a.call_type);
    const byKey = new Map(calls.map((a) => [key(a), a]));
    const grid = el('div', { class: 'bids', 'data-testid': 'bids' });
    for (let level = 1; level <= 7; level++)
      for (const suit of ['C', 'D', 'H', 'S', 'NT']) {
        const a = byKey.get(`${level}${suit}`);
        grid.append(
          el(
            'button',
            a
              ? { type: 'button', class: `bid s-${suit}`, 'data-call': `${level}${suit}`, onclick: () => kit.answer(a) }
              : { type: 'button', class: `bid s-${suit}`, disabled: '' },
            `${level}${SYMBOL[suit]}`,
          ),
        );
      }
    const others = el('div', { class: 'legal', 'data-testid': 'legal' });
    for (const t of ['pass', 'double', 'redouble']) {
      const a = byKey.get(t);
      if (a) others.append(el('button', { type: 'button', 'data-call': t, onclick: () => kit.answer(a) }, t));
    }
    panel.append(others, grid);
  }

  seats.bridge = { render };
})();
