// Undercover's mechanical statement check (games/undercover/rules.ts plays by it), in plain
// JavaScript so the reference bots can carry an identical copy (tests/undercover-bots.test.ts
// fails when a copy drifts). A statement fails when it is empty, too long, names the speaker's word
// or an inflection of it, or repeats an earlier statement of the game.
//
// * Tokens: the statement lower-cased, split on anything that is not a letter or a digit.
// * Names the word: for every word token w (a word may be two tokens: "post office"), some token t
//   of the statement equals w, or shares its stem (w minus a final s/es/ies/ed/ing/er/ers/ly; a
//   doubled final consonant before the suffix counts once: running → run), or,
//   for w of 4+ letters, begins or ends with w ("apples", "applesauce", "pineapple"). A word of
//   several tokens is named when each of its tokens is, or when its tokens written together
//   appear ("postoffice").
// * Repeats: the Jaccard similarity of the two statements' token sets is ≥ REPEAT_THRESHOLD.

export const MAX_STATEMENT_CHARS = 300;
export const REPEAT_THRESHOLD = 0.8;

/** Lower-case letter/digit tokens of a text. */
export function tokens(text) {
  return String(text).toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').split(/[^a-z0-9]+/).filter(Boolean);
}

const SUFFIXES = ['ies', 'ers', 'ing', 'es', 'ed', 'er', 'ly', 's'];

/** A crude stem: the token without one common English suffix (kept at 3+ letters). */
export function stem(token) {
  for (const suffix of SUFFIXES) {
    if (token.length - suffix.length >= 3 && token.endsWith(suffix)) return suffix === 'ies' ? `${token.slice(0, -3)}y` : token.slice(0, -suffix.length);
  }
  return token;
}

function namesToken(t, w) {
  const st = stem(t);
  if (t === w || st === stem(w)) return true;
  // A doubled final consonant before the suffix: running → runn → run.
  if (st !== t && st === w + w.at(-1)) return true;
  return w.length >= 4 && (t.startsWith(w) || t.endsWith(w));
}

/** True when `text` says `word` or an inflection of it. */
export function namesWord(text, word) {
  const said = tokens(text);
  const parts = tokens(word);
  if (!parts.length) return false;
  if (parts.every((w) => said.some((t) => namesToken(t, w)))) return true;
  const joined = parts.join('');
  return parts.length > 1 && said.some((t) => namesToken(t, joined));
}

/** Jaccard similarity of two texts' token sets (0 when both are empty). */
export function similarity(a, b) {
  const x = new Set(tokens(a));
  const y = new Set(tokens(b));
  if (!x.size && !y.size) return 0;
  let both = 0;
  for (const t of x) if (y.has(t)) both++;
  return both / (x.size + y.size - both);
}

/**
 * Why a statement fails, or null when it passes: 'empty', 'too_long', 'names_word', 'repeat'.
 * `earlier` is every statement made before it in the game.
 */
export function statementFault(text, word, earlier = []) {
  if (typeof text !== 'string' || !tokens(text).length) return 'empty';
  if (text.length > MAX_STATEMENT_CHARS) return 'too_long';
  if (namesWord(text, word)) return 'names_word';
  if (earlier.some((e) => similarity(text, e) >= REPEAT_THRESHOLD)) return 'repeat';
  return null;
}
