// Undercover's statement check (games/undercover/engine/statement-check.mjs) against the cases of
// issue 29, items 4–7: innocent statements it must let through (a token that merely contains the
// word or is contained in it, a derivation, a homonym), inflections and disguised spellings it
// must catch, what counts as a repeat, the word pairs, and every secret word against an ordinary
// English dictionary (Debian's wamerican, /usr/share/dict/words: `npm run setup` installs it).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as check from '../games/undercover/engine/statement-check.mjs';
import { wordPairs } from '../games/undercover/words.ts';

const { namesWord, statementFault } = check;
// New in issue 29: read through the namespace so each test fails on its own where they are missing.
const api = check as unknown as {
  normalise?: (text: string) => string;
  wordForms?: (word: string) => string[];
  sameStatement?: (a: string, b: string) => boolean;
  LEXICON?: { ingVerbs: Record<string, string>; notVerbal: string[]; notPlural: string[] };
};

/** [word, statement]: innocent, the statement does not name the word. */
const INNOCENT: Array<[string, string]> = [
  // Issue 29, item 4, verbatim.
  ['ring', 'It is worn during weddings'],
  ['king', 'People keep asking about it'],
  ['table', 'It is comfortable'],
  ['farmer', 'Works on a farm'],
  ['teacher', 'They teach children'],
  ['boxing', 'Comes in a box'],
  // A token that begins or ends with the word, or lies inside it, is another word.
  ['apple', 'Like a pineapple, but smaller'],
  ['apple', 'Applesauce is made from it'],
  ['ear', 'Wake up early'],
  ['ear', 'An earring hangs from it'],
  ['cat', 'They cater weddings'],
  ['car', 'Rolled out like a carpet'],
  ['tea', 'A team sport'],
  ['ant', 'Faster than an antelope'],
  ['owl', 'Soup in a bowl'],
  ['star', 'It starts at dawn'],
  ['pen', 'Sharpen a pencil'],
  ['market', 'A supermarket is bigger'],
  ['rain', 'Wear a raincoat'],
  // Derivations are other words: only inflections count.
  ['gardener', 'Works in a garden'],
  ['garden', 'A gardener works there'],
  ['laughter', 'It makes you laugh'],
  ['sadness', 'You feel sad'],
  ['calm', 'She answered calmly'],
  ['sailing', 'A sailor would know'],
  // Forward forms are generated with the spelling rules, not blindly: hat → hatted, cafe → cafes.
  ['hat', 'I hated it'],
  ['cafe', 'Bats live in caves'],
  // The bare verb of an -ing word that is first of all another noun; a singular that is another word.
  ['bowling', 'Soup in a bowl'],
  ['rowing', 'A row of seats'],
  ['fencing', 'A fence around the yard'],
  ['diving', 'A white dove'],
  ['blues', 'The sky is blue'],
  ['shorts', 'Short and sweet'],
  ['glasses', 'Made of glass and metal'],
  // Split words that read naturally are left alone: "is land" is not island.
  ['island', 'It is land all around'],
];

/** [word, statement]: the statement names the word (an inflection or a disguised spelling). */
const NAMING: Array<[string, string]> = [
  ['apple', 'I love Apples!'],
  ['apple', "The apple's skin"],
  ['apple', "Apples' cores"],
  // Irregular plurals.
  ['mouse', 'Three blind mice'],
  ['knife', 'Sharp knives'],
  ['child', 'Children love it'],
  ['foot', 'On your feet'],
  ['tooth', 'Brush your teeth'],
  ['goose', 'A flock of geese'],
  ['person', 'People like it'],
  ['wolf', 'A pack of wolves'],
  ['leaf', 'Autumn leaves'],
  ['thief', 'Thieves love it'],
  ['scarf', 'Knitted scarves'],
  ['cactus', 'Cacti need little water'],
  ['octopus', 'Octopuses are clever'],
  ['tomato', 'Tomatoes are red'],
  ['quiz', 'Quizzes at school'],
  ['aquarium', 'Aquaria hold fish'],
  // The singular of a plural word.
  ['noodles', 'A single noodle'],
  ['scissors', 'A scissor kick'],
  ['chopsticks', 'Hold one chopstick'],
  ['dominoes', 'Tip over a domino'],
  ['gloves', 'I lost a glove'],
  ['tears', 'A tear rolls down'],
  ['darts', 'Throw a dart'],
  // Base and past forms of -ing words.
  ['swimming', 'You swim in it'],
  ['swimming', 'I swam yesterday'],
  ['swimming', 'Have you swum today?'],
  ['running', 'People run for fun'],
  ['running', 'They ran a lot'],
  ['boxing', 'He boxed for years'],
  ['bowling', 'She bowled a strike'],
  ['diving', 'She dived in'],
  ['skiing', 'They skied down'],
  ['hiking', 'We hiked for hours'],
  ['jogging', 'People jog in the park'],
  ['cycling', 'You cycle to work'],
  ['meeting', 'We met at noon'],
  ['wedding', 'They wed in June'],
  ['canoeing', 'We canoed down the river'],
  // e-drop and other -ing and -ed spellings.
  ['love', 'I am loving it'],
  ['smile', 'Smiling faces'],
  ['hope', 'Hoping for the best'],
  ['tie', 'Tying a knot'],
  ['run', 'She was running'],
  ['drum', 'Drumming all night'],
  ['panic', 'They panicked'],
  ['picnic', 'We picnicked by the lake'],
  ['ice', 'Iced coffee'],
  // y → ies / ied.
  ['envy', 'She envies them'],
  ['envy', 'He envied her'],
  ['party', 'Parties at night'],
  ['cherry', 'Cherries in summer'],
  ['library', 'Libraries lend books'],
  ['fly', 'It flies'],
  ['calm', 'Calmer than ever'],
  // Words of several tokens; compounds written open or run together.
  ['post office', 'the office of the post'],
  ['post office', 'a postoffice nearby'],
  ['post office', 'Post-offices sell stamps'],
  ['washing machine', 'Washing machines spin'],
  ['firetruck', 'A red fire truck'],
  ['pineapple', 'A pine apple'],
  // Disguised spellings: look-alike letters of other scripts, fullwidth and styled letters,
  // accents, invisible format characters, spaced or punctuated letters.
  ['apple', 'I like \u0430pple'], // Cyrillic а
  ['apple', '\u0430\u0440\u0440l\u0435'], // Cyrillic а р р, Latin l, Cyrillic е
  ['coffee', 'Morning \u0441\u043e\u0066\u0066\u0435\u0435'], // Cyrillic с о е е
  ['nose', 'A n\u03bfse for it'], // Greek ο
  ['pear', 'A \u03c1ear'], // Greek ρ
  ['apple', 'THE \u0391PPLE'], // Greek capital Α
  ['apple', '\uff21\uff30\uff30\uff2c\uff25'], // fullwidth
  ['apple', '\u{1d41a}\u{1d429}\u{1d429}\u{1d425}\u{1d41e}'], // mathematical bold
  ['apple', '\u24d0\u24df\u24df\u24db\u24d4'], // circled
  ['apple', '\u00e0ppl\u00e9'], // accents
  ['apple', 'a\u0301pple'], // a combining accent
  ['cafe', 'A little caf\u00e9'],
  ['apple', 'ap\u200bple'], // zero-width space
  ['apple', 'ap\u200dple'], // zero-width joiner
  ['apple', 'ap\u200cple'], // zero-width non-joiner
  ['apple', 'ap\u00adple'], // soft hyphen
  ['apple', 'ap\u2060ple'], // word joiner
  ['apple', 'ap\ufeffple'], // zero-width no-break space
  ['apple', 'ap\u034fple'], // combining grapheme joiner
  ['apple', 'app\u3164le'], // Hangul filler
  ['apple', 'apple\ufe0f'], // variation selector
  ['apple', 'ap\u{e0041}ple'], // tag character
  ['apple', 'a p p l e'],
  ['apple', 'a. p. p. l. e.'],
  ['apple', 'a-p-p-l-e'],
  ['apple', 'ap-ple'],
  ['apple', 'ap_ple'],
];

describe('the statement check: naming the word', () => {
  it.each(INNOCENT)('%s: "%s" does not name it', (word, statement) => {
    expect(namesWord(statement, word)).toBe(false);
    expect(statementFault(statement, word)).toBeNull();
  });

  it.each(NAMING)('%s: "%s" names it', (word, statement) => {
    expect(namesWord(statement, word)).toBe(true);
    expect(statementFault(statement, word)).toBe('names_word');
  });

  it('a statement is empty only without a letter or digit of any script', () => {
    expect(statementFault('这是一种水果', 'apple')).toBeNull();
    expect(statementFault('Это фрукт', 'apple')).toBeNull();
    expect(statementFault('フルーツです', 'apple')).toBeNull();
    expect(statementFault('٣', 'apple')).toBeNull();
    expect(statementFault('😀🍎', 'apple')).toBe('empty');
    expect(statementFault('\u200b\u200d\u00ad', 'apple')).toBe('empty');
    expect(statementFault('   ', 'apple')).toBe('empty');
    expect(statementFault(42 as unknown as string, 'apple')).toBe('empty');
    expect(statementFault('x'.repeat(301), 'apple')).toBe('too_long');
  });

  it("lists a word's forms: the word and its inflections, nothing shorter", () => {
    expect(api.wordForms?.('boxing')).toEqual(expect.arrayContaining(['boxing', 'boxings', 'boxed']));
    expect(api.wordForms?.('boxing')).not.toContain('box');
    expect(api.wordForms?.('swimming')).toEqual(expect.arrayContaining(['swim', 'swims', 'swam', 'swum', 'swimming']));
    expect(api.wordForms?.('farmer')).not.toContain('farm');
    expect(api.wordForms?.('hat')).toEqual(expect.arrayContaining(['hats', 'hatted', 'hatting']));
    expect(api.wordForms?.('hat')).not.toContain('hated');
    expect(api.wordForms?.('post office')).toEqual(expect.arrayContaining(['postoffice', 'postoffices']));
  });
});

describe('the statement check: repeats', () => {
  // The /speak body carries exactly this context: the speaker's seat, the round and every statement.
  const history = (
    seat: number,
    round: number,
    statements: Array<{ round: number; seat: number; statement: string | null; eliminated?: string }>,
  ) => ({ seat, round, statements });

  it('a statement repeats only one another player made in an earlier round, word for word', () => {
    const earlier = [{ round: 1, seat: 1, statement: 'You can eat it' }];
    expect(statementFault('You can eat it raw', 'apple', history(2, 2, earlier))).toBeNull();
    expect(statementFault('you can EAT it!', 'apple', history(2, 2, earlier))).toBe('repeat');
    expect(statementFault('It you can eat', 'apple', history(2, 2, earlier))).toBe('repeat'); // the same words reordered
    expect(statementFault('You can e\u200bat it', 'apple', history(2, 2, earlier))).toBe('repeat');
  });

  it("the speaker's own statements, the current round's and failed ones do not count", () => {
    expect(
      statementFault('You can eat it', 'apple', history(1, 2, [{ round: 1, seat: 1, statement: 'You can eat it' }])),
    ).toBeNull();
    expect(
      statementFault('You can eat it', 'apple', history(2, 1, [{ round: 1, seat: 1, statement: 'You can eat it' }])),
    ).toBeNull();
    expect(
      statementFault(
        'It is red',
        'apple',
        history(2, 2, [{ round: 1, seat: 1, statement: 'It is red', eliminated: 'names_word' }]),
      ),
    ).toBeNull();
    expect(
      statementFault(
        'It is red',
        'apple',
        history(2, 2, [{ round: 1, seat: 1, statement: null, eliminated: 'silent' }]),
      ),
    ).toBeNull();
  });

  it('compares normalised token sets', () => {
    expect(api.sameStatement?.('It is red and round', 'round and red, it is!')).toBe(true);
    expect(api.sameStatement?.('It is red and round', 'It is red and round too')).toBe(false);
    expect(api.sameStatement?.('It is red', 'It is r\u0435d')).toBe(true); // Cyrillic е
  });
});

describe('the word pairs', () => {
  const pairs = wordPairs();

  it('keep 374 pairs, no word twice', () => {
    expect(pairs).toHaveLength(374);
    const words = pairs.flatMap((p) => p.words);
    expect(new Set(words).size).toBe(words.length);
  });

  it('never pair a word with one that contains it or shares a form with it', () => {
    const bad = pairs.filter(({ words: [a, b] }) => {
      const [x, y] = [a.replace(/\s+/g, ''), b.replace(/\s+/g, '')];
      if (x.includes(y) || y.includes(x) || namesWord(a, b) || namesWord(b, a)) return true;
      const fa = new Set(api.wordForms?.(a) ?? []);
      return (api.wordForms?.(b) ?? []).some((f) => fa.has(f));
    });
    expect(bad.map((p) => p.words.join('/'))).toEqual([]);
  });

  it('every -ing and plural-looking word has a decision in the check', () => {
    const lex = api.LEXICON;
    expect(lex).toBeDefined();
    const tokens = [...new Set(pairs.flatMap((p) => p.words.flatMap((w) => w.split(' '))))];
    const undecidedIng = tokens.filter(
      (t) => t.endsWith('ing') && !(t in lex!.ingVerbs) && !lex!.notVerbal.includes(t),
    );
    expect(undecidedIng).toEqual([]);
    // A word ending in -s (not -ss, -us, -is) is a plural whose singular counts unless it is listed.
    const plurals = tokens.filter((t) => /[^sui]s$/.test(t) && !lex!.notPlural.includes(t));
    for (const p of plurals) expect(api.wordForms?.(p)?.length, p).toBeGreaterThan(1);
  });
});

const DICT = '/usr/share/dict/words';

describe.skipIf(!fs.existsSync(DICT))('every secret word against an English dictionary', () => {
  it('flags no dictionary word that is not one of its forms', () => {
    const dict = [
      ...new Set(
        fs
          .readFileSync(DICT, 'utf8')
          .split('\n')
          .filter((w) => w && !w.includes("'"))
          .map((w) => w.toLowerCase()),
      ),
    ];
    const secrets = [...new Set(wordPairs().flatMap((p) => p.words))];
    // 25 words a statement: a statement that names nothing clears 25 words at once; one that names
    // the word is narrowed down word by word.
    const batches: string[][] = [];
    for (let i = 0; i < dict.length; i += 25) batches.push(dict.slice(i, i + 25));
    const texts = batches.map((b) => b.join(' '));
    const forms = new Map(secrets.map((w) => [w, new Set(api.wordForms?.(w) ?? [w])]));
    const wrong: Record<string, string[]> = {};
    texts.forEach((text, i) => {
      for (const word of secrets) {
        if (!namesWord(text, word)) continue;
        const extra = batches[i]!.filter((d) => !forms.get(word)!.has(api.normalise?.(d) ?? d) && namesWord(d, word));
        if (extra.length) (wrong[word] ??= []).push(...extra);
      }
    });
    expect(wrong).toEqual({});
  }, 120_000);
});
