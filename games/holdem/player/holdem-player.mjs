// Texas Hold'em as the LLM-player sees it (agents/llm-player/bot/games.mjs loads this file, copied
// next to it through the descriptor's playerLibs):
//   POST /action  legal = valid_actions (a raise range offered as a few sizes, or any "raise to X")
//
// createPlayer(config, kit) → {name, defaultMoveMs, turnPath, routes, turn(body)}; the kit is games.mjs's
// BadRequest and HTTP helpers.

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** How the system prompt names the game. */
const NAME = "no-limit Texas Hold'em (tournament)";
/** The per-action deadline when game.json and the environment name none: the arena's default. */
const DEFAULT_MOVE_MS = 3_000;

export function createPlayer(_config, { BadRequest }) {
  const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() && Number.isFinite(Number(v)) ? Number(v) : NaN);
  const int = (v) => (Number.isFinite(v) ? Math.max(0, Math.floor(v)) : 0);

  function stateText(b) {
    const players = isObject(b.players) ? Object.values(b.players).filter(isObject) : [];
    const meId = b.current_player;
    const me = players.find((p) => p.player_id === meId) ?? {};
    const lines = [
      `Hand ${b.hand_number ?? '?'}, ${b.phase ?? '?'} (deck: ${b.deck ?? 'standard'}). Blinds ${b.small_blind}/${b.big_blind}. Pot ${b.pot}.`,
      `Your hole cards: ${(me.hole_cards ?? []).join(' ') || '?'}. Community cards: ${(b.community_cards ?? []).join(' ') || 'none'}.`,
      `Bet to match on this street: ${b.current_bet}; you have put in ${me.current_bet ?? 0} this street; your chips: ${me.chips ?? '?'}; minimum raise increment: ${b.min_raise}.`,
      'Players (chips, state, bet this street):',
      ...players.map((p) => {
        const roles = [p.is_dealer && 'dealer', p.is_small_blind && 'small blind', p.is_big_blind && 'big blind'].filter(Boolean).join(', ');
        return `- ${p.player_id === meId ? `${p.player_id} (you)` : p.player_id}: ${p.chips} chips, ${p.state}, bet ${p.current_bet}${roles ? `, ${roles}` : ''}`;
      }),
    ];
    const history = Array.isArray(b.action_history) ? b.action_history.filter(isObject) : [];
    if (history.length) lines.push(`This hand so far: ${history.slice(-30).map((a) => `${a.player_id} ${a.action}${a.amount ? ` ${a.amount}` : ''} (${a.phase})`).join('; ')}.`);
    lines.push('Cards: rank then suit (T = ten; s h d c). "raise to X" makes your total bet on this street X.');
    return lines.join('\n');
  }

  return {
    name: NAME,
    defaultMoveMs: DEFAULT_MOVE_MS,
    turnPath: '/action',
    routes: {},
    async turn(body) {
      if (!Array.isArray(body.valid_actions)) throw new BadRequest('valid_actions must be a list');
      const options = [];
      let range = null;
      for (const e of body.valid_actions) {
        if (!isObject(e)) continue;
        if (e.action === 'fold' || e.action === 'check') options.push({ label: e.action, value: { action: e.action, amount: 0 } });
        else if (e.action === 'call') options.push({ label: `call ${int(num(e.amount))}`, aliases: ['call'], value: { action: 'call', amount: int(num(e.amount)) } });
        else if (e.action === 'all_in') options.push({ label: `all_in ${int(num(e.amount))}`, aliases: ['all_in', 'all-in', 'allin'], value: { action: 'all_in', amount: int(num(e.amount)) } });
        else if (e.action === 'raise' && isObject(e.amount)) {
          const lo = Math.max(1, Math.ceil(num(e.amount.min))), hi = Math.floor(num(e.amount.max));
          if (!Number.isFinite(lo) || !Number.isFinite(hi) || lo > hi) continue;
          range = { lo, hi };
          // A few sizes: the minimum, twice it, half the pot and the pot on top of the bet to match.
          const bet = int(num(body.current_bet)), pot = int(num(body.pot));
          const sizes = [lo, 2 * lo, bet + Math.round(pot / 2), bet + pot].map((x) => Math.min(hi, Math.max(lo, x)));
          for (const x of [...new Set(sizes)].sort((a, b) => a - b)) options.push({ label: `raise to ${x}`, value: { action: 'raise', amount: x } });
        }
      }
      if (!options.length) throw new BadRequest('valid_actions has no known action');
      const state = stateText(body) + (range ? `\nYou may also answer "raise to X" for any whole X from ${range.lo} to ${range.hi}.` : '');
      // "raise to 150" / "raise 150" with any amount in the offered range.
      const free = range
        ? (text) => {
            const m = /\braise(?:\s+to)?\s*:?\s*(\d+)/i.exec(text);
            const x = m ? Number(m[1]) : NaN;
            return Number.isInteger(x) && x >= range.lo && x <= range.hi ? { label: `raise to ${x}`, value: { action: 'raise', amount: x } } : null;
          }
        : undefined;
      return { gameId: typeof body.game_id === 'string' ? body.game_id : '', state, options, free, answer: (o) => o.value };
    },
  };
}
