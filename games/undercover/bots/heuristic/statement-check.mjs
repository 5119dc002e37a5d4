// Undercover's mechanical statement check (games/undercover/rules.ts plays by it), in plain
// JavaScript so the bots carry an identical copy: scripts/sync-bot-libs.mjs copies this file into
// every Node bot folder under games/undercover/bots, the LLM-player gets it through the game's
// playerLibs. A statement fails when it is empty, longer than MAX_STATEMENT_CHARS, names the
// speaker's word (the word itself or one of its inflections), or repeats a statement another
// player made in an earlier round.
//
// * Normalisation, before anything is compared: compatibility decomposition (NFKD: fullwidth,
//   mathematical, circled letters and ligatures become plain letters), accents and other combining
//   marks dropped (café → cafe), invisible characters dropped (Unicode format characters, category
//   Cf, and the other default-ignorable code points: zero-width space and joiners, soft hyphen, word
//   joiner, variation selectors, Hangul fillers, tag characters), letters of other scripts that look
//   like Latin ones mapped to them (CONFUSABLES: Cyrillic а е о р с у х і ј ѕ …, Greek α ο ρ ι κ ν
//   …), lower case.
// * Tokens: maximal runs of letters and digits of any script (\p{L}\p{N}). A statement is empty
//   when it has no token: one in Chinese or Russian is not, one of emoji or invisible characters is.
// * Names the word: a token of the statement is one of the word's forms (below), as a whole word. A
//   token that merely begins or ends with the word, or is a part of it, is another word: "during"
//   and "weddings" do not name ring, "asking" not king, "comfortable" not table, "pineapple" not
//   apple; nor does a derivation (farm for farmer, teach for teacher, calmly for calm). Besides its
//   tokens, a statement also says
//   - each word with punctuation inside, glued: ap-ple, a.p.p.l.e, post-office → apple, postoffice;
//   - each run of three or more single letters, glued: "a p p l e" → apple;
//   - each two neighbouring tokens of three or more letters each, glued: "fire truck" → firetruck
//     ("is land" is not island: "is" is too short to count).
//   A word of several tokens (post office) is named when each of its tokens is (in any form) or
//   when its tokens written together are (postoffice, post-offices).
// * The forms of a word (wordForms) are generated forward from it by the spelling rules:
//   - plural and third person: -s; -es after s, x, z, ch, sh and o (tomatoes; quiz → quizzes);
//     consonant + y → -ies; -us → -i, -um → -a, -is → -es, -man → -men; IRREGULAR: mouse → mice,
//     foot → feet, child → children, person → people, knife → knives, wolf → wolves, …;
//   - past and participles: -ed (-d after e; consonant + y → -ied; panic → panicked), -ing (e
//     dropped: loving; kept after ee, oe, ye: canoeing, so bee never gives being; ie → ying:
//     tying), a final consonant after one vowel doubled (a word of one syllable only doubled: hat →
//     hatted, never hated); the comparative and superlative of IRREGULAR's adjectives (calmer);
//   - a possessive is the word plus the token "s" ("apple's" → apple, s), so it is named already.
//   Such a form counts whatever it means (training names train, deserted names desert): the check
//   reads spelling, not sense. Forms shorter than the word, or irregular ones, count only where
//   they are the same word, decided word by word (LEXICON; tests/undercover-statement-check.test.ts
//   fails when a word of words.json has no decision):
//   - an -ing word made from a verb (ING_VERBS: swimming, boxing, wedding, …) names that verb's
//     forms as well (swim, swims, swam, swum; boxed; wed, wedded), except the bare forms (the base
//     and its -s) of a verb that are first of all an unrelated noun (HOMONYMS: box, bowl, row,
//     fence: "Comes in a box" does not name boxing, "He boxed" does) and "dove" (the bird, not
//     dived). Other -ing words (king, morning, dumpling: NOT_VERBAL) have a noun's forms only;
//   - a plural word names its singular (noodles → noodle, dominoes → domino, tears → tear), unless
//     the singular is first of all another word (NOT_PLURAL: shorts/short, glasses/glass,
//     blues/blue; and pilates, christmas, which are no plurals).
// * Repeats: the statement's token set equals that of a statement another player made in an earlier
//   round that passed the check (CK-Arena: "you cannot repeat statements made by other players in
//   previous rounds"). Word order, case, punctuation and everything normalisation removes do not
//   matter; one word more or less does ("You can eat it raw" does not repeat "You can eat it"). The
//   speaker's own statements, the current round's and statements that failed the check do not count;
//   those of players voted out since do.

export const MAX_STATEMENT_CHARS = 300;

/** Letters of other scripts (and Latin variants) that look like a Latin letter, both cases. */
const CONFUSABLES = {
  // Cyrillic
  А: 'A', а: 'a', В: 'B', Е: 'E', е: 'e', Ѕ: 'S', ѕ: 's', І: 'I', і: 'i', Ј: 'J', ј: 'j', К: 'K', к: 'k', М: 'M', Н: 'H', О: 'O', о: 'o',
  Р: 'P', р: 'p', С: 'C', с: 'c', Т: 'T', У: 'Y', у: 'y', Х: 'X', х: 'x', Һ: 'H', һ: 'h', ԁ: 'd', Ԛ: 'Q', ԛ: 'q', Ԝ: 'W', ԝ: 'w', Ӏ: 'l', ӏ: 'l',
  Ү: 'Y', ү: 'y', Ь: 'b', ь: 'b',
  // Greek
  Α: 'A', α: 'a', Β: 'B', β: 'b', Ε: 'E', ε: 'e', Ζ: 'Z', Η: 'H', η: 'n', Ι: 'I', ι: 'i', Κ: 'K', κ: 'k', Μ: 'M', μ: 'u', Ν: 'N', ν: 'v',
  Ο: 'O', ο: 'o', Ρ: 'P', ρ: 'p', Τ: 'T', τ: 't', Υ: 'Y', υ: 'u', Χ: 'X', χ: 'x', ϲ: 'c', Ϲ: 'C', ϳ: 'j', γ: 'y', ω: 'w',
  // Armenian
  օ: 'o', ս: 'u', հ: 'h', ո: 'n',
  // Latin letters without a decomposition
  ß: 'ss', æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', ı: 'i', ȷ: 'j', ɑ: 'a', ɡ: 'g', ɩ: 'i', ʏ: 'y',
};
const CONFUSABLE = new RegExp(`[${Object.keys(CONFUSABLES).join('')}]`, 'gu');
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;
const MARK = /\p{M}/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/u;
const NOT_WORD_ALL = /[^\p{L}\p{N}]+/gu;

const strip = (s) => s.normalize('NFKD').replace(INVISIBLE, '').replace(MARK, '').replace(CONFUSABLE, (c) => CONFUSABLES[c]);

/** The text as the check compares it (see the header). */
export function normalise(text) {
  return strip(strip(String(text)).toLowerCase());
}

/** The letter/digit tokens of a text, normalised. */
export function tokens(text) {
  return normalise(text).split(NOT_WORD).filter(Boolean);
}

let lastText = null;
let lastSaid = null;
/** Every string the statement says: its tokens, glued words, letter runs and neighbour pairs. */
function said(text) {
  const key = String(text);
  if (key === lastText) return lastSaid;
  const norm = normalise(key);
  const toks = norm.split(NOT_WORD).filter(Boolean);
  const out = new Set(toks);
  for (const chunk of norm.split(/\s+/u)) {
    const glued = chunk.replace(NOT_WORD_ALL, '');
    if (glued) out.add(glued);
  }
  let run = '';
  for (const t of [...toks, '']) {
    if (t.length === 1 && /\p{L}/u.test(t)) run += t;
    else {
      if (run.length >= 3) out.add(run);
      run = '';
    }
  }
  for (let i = 1; i < toks.length; i++) if (toks[i - 1].length >= 3 && toks[i].length >= 3) out.add(toks[i - 1] + toks[i]);
  lastText = key;
  lastSaid = out;
  return out;
}

/** Forms no rule generates: irregular plurals, irregular verb forms, adjectives' degrees. */
const IRREGULAR = {
  mouse: ['mice'], louse: ['lice'], goose: ['geese'], foot: ['feet'], tooth: ['teeth'], child: ['children'], person: ['people', 'persons'],
  man: ['men'], woman: ['women'], ox: ['oxen'], penny: ['pence'],
  knife: ['knives'], wife: ['wives'], life: ['lives'], leaf: ['leaves'], loaf: ['loaves'], wolf: ['wolves'], calf: ['calves'], half: ['halves'],
  elf: ['elves'], shelf: ['shelves'], self: ['selves'], thief: ['thieves'], sheaf: ['sheaves'], scarf: ['scarves'], hoof: ['hooves'],
  wharf: ['wharves'], dwarf: ['dwarves'],
  criterion: ['criteria'], phenomenon: ['phenomena'], index: ['indices'], appendix: ['appendices'], matrix: ['matrices'], vertex: ['vertices'],
  larva: ['larvae'], antenna: ['antennae'], formula: ['formulae'],
  // The verbs of ING_VERBS (dive: dived only; its "dove" is first of all the bird).
  swim: ['swam', 'swum'], run: ['ran'], meet: ['met'],
  eye: ['eying'], calm: ['calmer', 'calmest'],
};
const LEMMA = new Map(Object.entries(IRREGULAR).flatMap(([lemma, forms]) => forms.map((f) => [f, lemma])));

/** -ing words made from a verb: the verb's forms name them too. */
const ING_VERBS = {
  swimming: 'swim', running: 'run', diving: 'dive', jogging: 'jog', cycling: 'cycle', skating: 'skate', skiing: 'ski',
  snowboarding: 'snowboard', boxing: 'box', wrestling: 'wrestle', fencing: 'fence', surfing: 'surf', sailing: 'sail', rowing: 'row',
  canoeing: 'canoe', bowling: 'bowl', climbing: 'climb', hiking: 'hike', fishing: 'fish', hunting: 'hunt', washing: 'wash', wedding: 'wed',
  meeting: 'meet',
};
/** Verbs of ING_VERBS whose bare forms (base, -s) are first of all an unrelated noun: a box, a bowl, a row, a fence. */
const HOMONYMS = ['box', 'bowl', 'row', 'fence'];
/** -ing words that are nouns, not a verb's -ing form. */
const NOT_VERBAL = ['ring', 'king', 'dumpling', 'lightning', 'spring', 'morning', 'evening', 'thanksgiving', 'stocking'];
/** Words ending in -s that are no plurals, or whose singular is first of all another word. */
const NOT_PLURAL = ['shorts', 'glasses', 'blues', 'pilates', 'christmas', 'news', 'series', 'species', 'means'];

/** The check's word tables, for tests and for curious bots. */
export const LEXICON = { irregular: IRREGULAR, ingVerbs: ING_VERBS, homonyms: HOMONYMS, notVerbal: NOT_VERBAL, notPlural: NOT_PLURAL };

const CONSONANT = /[b-df-hj-np-tv-z]/;
const syllables = (w) => (w.replace(/^y/, '').replace(/qu/g, 'q').match(/[aeiouy]+/g) ?? []).length;

/** The regular inflections of a word used as a noun, a verb or both. */
function inflect(w) {
  const out = new Set([w]);
  const add = (...xs) => xs.forEach((x) => out.add(x));
  const q = w.replace(/qu/g, 'q');
  // Plural, third person.
  if (/(s|x|z|ch|sh)$/.test(w)) add(`${w}es`);
  else if (/[^aeiou]y$/.test(w)) add(`${w.slice(0, -1)}ies`);
  else add(`${w}s`);
  if (/o$/.test(w)) add(`${w}es`);
  if (/[^s]s$|[^z]z$/.test(w) && /[aeiou][sz]$/.test(q) && syllables(w) === 1) add(`${w}${w.at(-1)}es`); // quizzes, busses
  if (w.length >= 5 && /us$/.test(w)) add(`${w.slice(0, -2)}i`);
  if (w.length >= 6 && /um$/.test(w)) add(`${w.slice(0, -2)}a`);
  if (w.length >= 4 && /is$/.test(w)) add(`${w.slice(0, -2)}es`);
  if (/man$/.test(w)) add(`${w.slice(0, -3)}men`);
  // Past, participles.
  if (/ie$/.test(w)) add(`${w}d`, `${w.slice(0, -2)}ying`);
  else if (/(ee|oe|ye)$/.test(w)) add(`${w}d`, `${w}ing`); // seeing, canoeing, eyeing (never bee → being)
  else if (/e$/.test(w)) add(`${w}d`, `${w.slice(0, -1)}ing`);
  else if (/[^aeiou]y$/.test(w)) add(`${w.slice(0, -1)}ied`, `${w}ing`);
  else if (/ic$/.test(w)) add(`${w}ked`, `${w}king`, `${w}ed`, `${w}ing`);
  else {
    const doubles = CONSONANT.test(w.at(-1)) && !/[wxy]$/.test(w) && /(^|[^aeiou])[aeiou][^aeiou]$/.test(q);
    if (doubles) add(`${w}${w.at(-1)}ed`, `${w}${w.at(-1)}ing`);
    if (!doubles || syllables(w) > 1) add(`${w}ed`, `${w}ing`);
  }
  return out;
}

/** The singulars a plural word names: -s, -es, -ies dropped, or the irregular table's. */
function singulars(w) {
  const out = [w.slice(0, -1)];
  if (/ies$/.test(w)) out.push(`${w.slice(0, -3)}y`);
  if (/(s|x|z|ch|sh|o)es$/.test(w)) out.push(w.slice(0, -2));
  return out;
}

const FORMS = new Map();
/** The forms of one token (see the header), cached. */
function formsOf(w) {
  let forms = FORMS.get(w);
  if (forms) return forms;
  forms = new Set([w]);
  const lemma = LEMMA.get(w);
  if (lemma) for (const f of [lemma, ...IRREGULAR[lemma]]) forms.add(f); // mice → mouse; people → person, persons
  if (/[^sui]s$/.test(w) && !NOT_PLURAL.includes(w)) {
    for (const s of singulars(w)) forms.add(s);
  } else {
    for (const f of inflect(w)) forms.add(f);
    for (const f of IRREGULAR[w] ?? []) forms.add(f);
  }
  const verb = ING_VERBS[w];
  if (verb) {
    const bare = HOMONYMS.includes(verb) ? new Set([verb, `${verb}s`, `${verb}es`]) : new Set();
    for (const f of [...inflect(verb), ...(IRREGULAR[verb] ?? [])]) if (!bare.has(f)) forms.add(f);
  }
  FORMS.set(w, forms);
  return forms;
}

/**
 * The forms a single token must take to name `word`: its own for a one-token word, those of its
 * tokens written together for a longer one (post office → postoffice, postoffices).
 */
export function wordForms(word) {
  const parts = tokens(word);
  return parts.length ? [...formsOf(parts.join(''))].sort() : [];
}

const PARTS = new Map();
/** The tokens of a word, cached. */
function partsOf(word) {
  const key = String(word);
  let parts = PARTS.get(key);
  if (!parts) PARTS.set(key, (parts = tokens(key)));
  return parts;
}

/** True when `text` says `word` or one of its forms. */
export function namesWord(text, word) {
  const parts = partsOf(word);
  if (!parts.length) return false;
  const heard = said(text);
  const named = (w) => {
    for (const f of formsOf(w)) if (heard.has(f)) return true;
    return false;
  };
  if (parts.length === 1) return named(parts[0]);
  return parts.every(named) || named(parts.join(''));
}

/** True when two statements have the same set of tokens (and have tokens at all). */
export function sameStatement(a, b) {
  const x = new Set(tokens(a));
  const y = new Set(tokens(b));
  return x.size > 0 && x.size === y.size && [...x].every((t) => y.has(t));
}

/**
 * The statements a new one must not repeat. `context` is what a /speak body carries: the speaker's
 * `seat`, the `round` and every `statements` entry so far ({round, seat, statement, eliminated?});
 * kept are the other seats' statements of earlier rounds that passed the check. Without a seat or
 * round that filter is skipped; a bare array of strings counts every string.
 */
export function repeatable(context = {}) {
  if (Array.isArray(context)) return context.filter((s) => typeof s === 'string');
  const { seat, round } = context ?? {};
  const list = Array.isArray(context?.statements) ? context.statements : [];
  return list.flatMap((s) => {
    if (typeof s === 'string') return [s];
    if (!s || typeof s.statement !== 'string' || s.eliminated) return [];
    if (seat !== undefined && seat !== null && s.seat === seat) return [];
    if (typeof round === 'number' && !(s.round < round)) return [];
    return [s.statement];
  });
}

/**
 * Why a statement fails, or null when it passes: 'empty', 'too_long', 'names_word', 'repeat'.
 * `context`: the speaker's seat, the round and the statements so far (see repeatable).
 */
export function statementFault(text, word, context = {}) {
  if (typeof text !== 'string' || !tokens(text).length) return 'empty';
  if (text.length > MAX_STATEMENT_CHARS) return 'too_long';
  if (namesWord(text, word)) return 'names_word';
  if (repeatable(context).some((e) => sameStatement(text, e))) return 'repeat';
  return null;
}
