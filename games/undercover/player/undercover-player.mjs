// Undercover as the LLM-player sees it (agents/llm-player/bot/games.mjs loads this file, copied
// next to it through the descriptor's playerLibs, with statement-check.mjs):
//   POST /speak  a free-text turn: the model writes the statement itself (the whole answer,
//                first line, quotes stripped); the numbered options are fallback statements that
//                pass the check, for an answer that is a bare number and for the random fallback
//   POST /vote   the candidates as numbered options ("seat 3 (p3)")
// Both bodies carry the word and the whole public history, so the player keeps no state.
import { MAX_STATEMENT_CHARS, statementFault } from './statement-check.mjs';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function history(body) {
  const ids = Array.isArray(body.players) ? body.players : [];
  const who = (seat) => `seat ${seat}${ids[seat] ? ` (${ids[seat]})` : ''}${seat === body.seat ? ' = you' : ''}`;
  const lines = [];
  for (const s of body.statements ?? []) {
    lines.push(`round ${s.round}, ${who(s.seat)}: ${s.statement === null ? '(no statement)' : JSON.stringify(s.statement)}${s.eliminated ? ` → out (${s.eliminated})` : ''}`);
  }
  for (const v of body.votes ?? []) lines.push(`round ${v.round}${v.revote ? ' revote' : ''}: ${who(v.voter)} voted ${v.target === null ? '(lost ballot)' : who(v.target)}`);
  for (const e of body.eliminated ?? []) if (e.by === 'vote') lines.push(`round ${e.round}: ${who(e.seat)} was voted out`);
  return { who, lines };
}

function stateText(body) {
  const { who, lines } = history(body);
  const words = isObject(body.words) ? ` The civilians' word is "${body.words.civilian}", the undercover word "${body.words.undercover}".` : '';
  const role = body.role ? ` Your role: ${body.role}.` : ' You do not know your role.';
  return [
    `You are ${who(body.seat)}. Your word: ${body.word === null ? '(none: you are the audience)' : JSON.stringify(body.word)} (category ${body.category}).${role}${words}`,
    `Round ${body.round} of at most ${body.max_rounds}. Alive players: ${(body.alive ?? []).map(who).join(', ')}.`,
    lines.length ? `What happened so far:\n${lines.join('\n')}` : 'Nothing has been said yet.',
  ].join('\n');
}

export function createPlayer(_config, { BadRequest }) {
  return {
    turnPaths: ['/speak', '/vote'],
    routes: {
      'POST /join': async (body) => ({ status: 'joined', game_id: body.game_id ?? null }),
    },
    async turn(body) {
      if (typeof body.game_id !== 'string') throw new BadRequest('game_id required');
      if (body.phase === 'vote') return voteTurn(body, BadRequest);
      if (typeof body.word !== 'string' || !body.word) throw new BadRequest('word required');
      // The body is the check's context: this seat, the round and the statements so far.
      const fallbacks = [`A clue from seat ${body.seat} in round ${body.round}: it belongs with ${body.category}.`, `Round ${body.round}, seat ${body.seat}: something many people know well.`]
        .filter((t) => statementFault(t, body.word, body) === null);
      const said = Array.isArray(body.statements) ? body.statements.length : 0;
      const options = (fallbacks.length ? fallbacks : [`Seat ${body.seat} round ${body.round} clue ${said}.`]).map((t) => ({ label: t, value: t }));
      const prompt = `${stateText(body)}\n\nIt is your turn to speak. Write ONE short statement (one or two sentences) that describes your word without saying it or any form of it (plural, past, -ing, …), and without repeating a statement another player made in an earlier round: a statement that does either puts you out at once. Reply with the statement only.`;
      const free = (raw) => {
        const text = raw.split('\n').map((l) => l.trim()).find(Boolean)?.replace(/^["'“]+|["'”]+$/g, '').slice(0, MAX_STATEMENT_CHARS);
        return text ? { label: text, value: text } : null;
      };
      return { gameId: body.game_id, state: stateText(body), options, free, prompt, answer: (o) => ({ statement: o.value }) };
    },
  };
}

function voteTurn(body, BadRequest) {
  const candidates = Array.isArray(body.candidates) ? body.candidates.filter(Number.isInteger) : [];
  if (!candidates.length) throw new BadRequest('candidates must list at least one seat');
  const { who } = history(body);
  const options = candidates.map((c) => ({ label: who(c), value: c }));
  const goal = body.role === 'audience' ? 'find an undercover player' : body.role === 'undercover' ? 'vote out a civilian' : 'vote out a player whose word differs from yours (an undercover player, if you are a civilian)';
  const prompt = `${stateText(body)}\n\nTime to vote${body.revote ? ' again, among the tied players only' : ''}: ${goal}. Your choices:\n${options.map((o, i) => `${i + 1}: ${o.label}`).join('\n')}\n\nAnswer with one number from 1 to ${options.length}.`;
  return { gameId: body.game_id, state: stateText(body), options, prompt, answer: (o) => ({ vote: o.value }) };
}
