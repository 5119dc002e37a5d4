// The human seat's Hold'em table (browser, no imports; orchestrator/human/human-page.js): drawn
// from the seat's own request, the body its bot would get (games/holdem/wire.ts): the person's
// hole cards, the board, the pot and what calling costs, every player's stack and bet, and the
// legal actions as buttons, with a slider (and a number field) for the amount a raise goes to.
(function () {
  'use strict';
  const seats = (window.catarenaSeats = window.catarenaSeats || {});
  const STREET = { preflop: 'pre-flop', flop: 'flop', turn: 'turn', river: 'river' };

  function render(panel, msg, kit) {
    const { el, card, answer } = kit;
    const req = msg.request;
    const me = req.players[req.current_player] || {};
    const toCall = Math.max(0, (req.current_bet || 0) - (me.current_bet || 0));
    const cards = (list) =>
      el('span', { class: 'cards' }, ...(list || []).map((c) => card(c.slice(0, -1), c.slice(-1))));
    panel.append(
      el(
        'p',
        {},
        `hand ${req.hand_number} · ${STREET[req.phase] || req.phase} · blinds ${req.small_blind}/${req.big_blind}`,
      ),
      el(
        'div',
        { class: 'felt', 'data-testid': 'community' },
        'board: ',
        req.community_cards.length ? cards(req.community_cards) : '—',
      ),
      el('p', { class: 'big' }, 'your cards: ', cards(me.hole_cards)),
      el('p', { 'data-testid': 'pot' }, `pot ${req.pot} · to call ${toCall} · your stack ${me.chips}`),
    );
    const rows = Object.values(req.players).map((p) => {
      const marks = [p.is_dealer && 'D', p.is_small_blind && 'SB', p.is_big_blind && 'BB'].filter(Boolean).join(' ');
      return el(
        'tr',
        { class: p.player_id === req.current_player ? 'you' : '' },
        el('td', {}, `${p.name}${p.player_id === req.current_player ? ' (you)' : ''}`),
        el('td', { class: 'num' }, String(p.chips)),
        el('td', { class: 'num' }, String(p.current_bet)),
        el('td', {}, [p.state, marks].filter(Boolean).join(' · ')),
      );
    });
    panel.append(
      el(
        'table',
        { class: 'players', 'data-testid': 'stacks' },
        el(
          'thead',
          {},
          el('tr', {}, el('th', {}, 'player'), el('th', {}, 'stack'), el('th', {}, 'bet'), el('th', {}, '')),
        ),
        el('tbody', {}, ...rows),
      ),
    );
    const legal = msg.legal || [];
    const buttons = el('div', { class: 'legal', 'data-testid': 'legal' });
    for (const a of legal.filter((x) => x.action !== 'raise')) {
      const text = a.action === 'call' ? `call ${toCall}` : a.action === 'all_in' ? `all in (${me.chips})` : a.action;
      buttons.append(el('button', { type: 'button', 'data-action': a.action, onclick: () => answer(a) }, text));
    }
    panel.append(buttons);
    const raises = legal.filter((x) => x.action === 'raise').map((x) => x.amount);
    if (raises.length) {
      const [min, max] = [Math.min(...raises), Math.max(...raises)];
      const slider = el('input', {
        type: 'range',
        min: String(min),
        max: String(max),
        value: String(min),
        step: String(req.big_blind || 1),
        'aria-label': 'raise to',
        'data-testid': 'slider',
      });
      const amount = el('input', {
        type: 'number',
        min: String(min),
        max: String(max),
        value: String(min),
        'aria-label': 'raise to (chips)',
        'data-testid': 'amount',
      });
      slider.addEventListener('input', () => (amount.value = slider.value));
      amount.addEventListener('input', () => (slider.value = amount.value));
      panel.append(
        el(
          'div',
          { class: 'raise' },
          el('label', {}, 'raise to ', amount),
          slider,
          el(
            'button',
            {
              type: 'button',
              'data-testid': 'raise',
              onclick: () => answer({ action: 'raise', amount: Number(amount.value) }),
            },
            'raise',
          ),
          el('span', { class: 'muted' }, ` ${min}–${max}`),
        ),
      );
    }
  }

  seats.holdem = { render };
})();
