// The human seat's Undercover table (browser, no imports; orchestrator/human/human-page.js): drawn
// from the seat's own request (games/undercover/wire.ts): the person's word, the statements so far
// by round, who is out, and a statement box or one vote button per candidate. A statement that
// names the person's own word gives it away: the page says so and asks again before sending it.
(function () {
  'use strict';
  const seats = (window.catarenaSeats = window.catarenaSeats || {});

  /** True when the statement contains the word (any case), so saying it would give the word away. */
  function namesWord(statement, word) {
    if (!word) return false;
    const fold = (s) => s.normalize('NFKC').toLowerCase();
    return fold(statement).includes(fold(word));
  }

  function render(panel, msg, kit) {
    const { el, answer } = kit;
    const req = msg.request;
    const name = (seat) => `${req.players[seat] ?? `seat ${seat}`} (seat ${seat})`;
    panel.append(
      el(
        'p',
        { class: 'big', 'data-testid': 'word' },
        'your word: ',
        el('strong', {}, req.word ?? '(none: you are in the audience)'),
      ),
      el('p', {}, `category ${req.category} · round ${req.round} of ${req.max_rounds}${req.revote ? ' · revote' : ''}`),
    );
    const out = (req.eliminated || []).map((e) => `${name(e.seat)} in round ${e.round}`);
    if (out.length) panel.append(el('p', {}, `out: ${out.join('; ')}`));
    const said = el('ol', { class: 'statements', 'data-testid': 'statements' });
    for (const s of req.statements || [])
      said.append(el('li', {}, el('span', { class: 'muted' }, `round ${s.round}, ${name(s.seat)}: `), s.statement));
    panel.append(
      el('h3', {}, 'statements so far'),
      (req.statements || []).length ? said : el('p', { class: 'muted' }, 'none yet'),
    );
    const legal = msg.legal || [];
    const votes = legal.filter((a) => a.kind === 'vote');
    if (votes.length) {
      panel.append(
        el('h3', {}, 'vote out'),
        el(
          'div',
          { class: 'legal', 'data-testid': 'legal' },
          ...votes.map((a) =>
            el(
              'button',
              { type: 'button', 'data-vote': String(a.target), onclick: () => answer(a) },
              `vote ${name(a.target)}`,
            ),
          ),
        ),
      );
    }
    const samples = legal.filter((a) => a.kind === 'speak');
    if (!samples.length) return;
    const text = el('textarea', {
      id: 'statement',
      rows: '2',
      'data-testid': 'statement',
      placeholder: 'describe your word without saying it',
    });
    const warning = el('p', { class: 'refusal', role: 'alert', 'data-testid': 'word-warning' });
    let confirmed = '';
    const say = () => {
      const statement = text.value;
      if (namesWord(statement, req.word) && confirmed !== statement) {
        confirmed = statement;
        warning.textContent = `your statement names your own word "${req.word}": everyone would know it. Press "say" again to send it anyway.`;
        return;
      }
      warning.textContent = '';
      answer({ kind: 'speak', statement });
    };
    panel.append(
      el('label', { for: 'statement' }, 'your statement'),
      text,
      el('p', {}, el('button', { type: 'button', 'data-testid': 'speak', onclick: say }, 'say')),
      warning,
      el(
        'p',
        { class: 'muted' },
        'or one of: ',
        ...samples.slice(0, 5).map((a) => el('button', { type: 'button', onclick: () => answer(a) }, a.statement)),
      ),
    );
  }

  seats.undercover = { render, namesWord };
})();
