// Language-aware tokens for code fingerprints (./similarity.ts), normalised as plagiarism
// detectors do so that renaming and re-styling change nothing: every identifier becomes `I`,
// every number `N`, every string `S` (a template literal too), every regular expression `R`;
// keywords and punctuation stay themselves; comments and whitespace go. Python keeps its
// structure as NL (end of a logical line), IN and DE (indent, dedent) tokens. Python, JavaScript
// and TypeScript, Go, the C family (C, C++, Java, Rust, C#) and shell are known; docs/evolution.md
// lists what each keeps.
import type { Language } from './bot-files.ts';

const words = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

const PYTHON =
  words(`False None True and as assert async await break class continue def del elif else except finally for from
  global if import in is lambda nonlocal not or pass raise return try while with yield`);
const JAVASCRIPT =
  words(`break case catch class const continue debugger default delete do else export extends finally for function
  if import in instanceof let new return super switch this throw try typeof var void while with yield async await of static get set
  null undefined true false`);
const TYPESCRIPT = new Set([
  ...JAVASCRIPT,
  ...words(
    'interface type enum implements private public protected readonly abstract declare namespace as is keyof infer never unknown any number string boolean',
  ),
]);
const GO =
  words(`break case chan const continue default defer else fallthrough for func go goto if import interface map package range
  return select struct switch type var true false nil iota`);
const C_FAMILY =
  words(`auto break case catch char class const continue default delete do double else enum extends extern final finally float for
  fn goto if impl import int interface let long loop match mod mut namespace new null nullptr package private protected pub public
  return self short signed sizeof static struct super switch template this throw throws trait true false try typedef typename union
  unsigned use using var virtual void volatile where while boolean byte string bool`);
const SHELL = words('if then else elif fi for while until do done case esac function in return local export set exit');

/** Longest first, so `===` wins over `==` and `=`. */
const OPERATORS = [
  '>>>=',
  '===',
  '!==',
  '**=',
  '<<=',
  '>>=',
  '>>>',
  '...',
  '//=',
  '&&=',
  '||=',
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '<<',
  '>>',
  '->',
  '::',
  ':=',
  '<-',
  '**',
  '//',
  '&^',
];

/** Operators by their first character, longest first. */
const OPERATORS_BY_FIRST = new Map<string, string[]>();
for (const op of OPERATORS) OPERATORS_BY_FIRST.set(op[0]!, [...(OPERATORS_BY_FIRST.get(op[0]!) ?? []), op]);

interface Syntax {
  keywords: Set<string>;
  /** Line comment openers. */
  line: string[];
  block: Array<[string, string]>;
  /** Characters that open a string closed by the same character. */
  quotes: string;
  /** A backtick string: a template literal (JS, `${…}` inside) or a raw string (Go). */
  backtick: 'template' | 'raw' | 'none';
  regex: boolean;
  python: boolean;
}

/** C, C++, Java and C#: line and block comments, single- and double-quoted literals. */
const C_LIKE: Syntax = {
  keywords: C_FAMILY,
  line: ['//'],
  block: [['/*', '*/']],
  quotes: `'"`,
  backtick: 'none',
  regex: false,
  python: false,
};
/** JavaScript and TypeScript: C's comments, template literals and regular expressions. */
const JS_LIKE = (keywords: Set<string>): Syntax => ({ ...C_LIKE, keywords, backtick: 'template', regex: true });

const SYNTAX: Record<Language, Syntax> = {
  python: { keywords: PYTHON, line: ['#'], block: [], quotes: `'"`, backtick: 'none', regex: false, python: true },
  javascript: JS_LIKE(JAVASCRIPT),
  typescript: JS_LIKE(TYPESCRIPT),
  go: { ...C_LIKE, keywords: GO, backtick: 'raw' },
  c: C_LIKE,
  cpp: C_LIKE,
  java: C_LIKE,
  rust: { ...C_LIKE, quotes: `"` },
  csharp: C_LIKE,
  shell: { keywords: SHELL, line: ['#'], block: [], quotes: `'"`, backtick: 'none', regex: false, python: false },
};

const isIdStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c > 127;
const isIdPart = (c: number) => isIdStart(c) || (c >= 48 && c <= 57);
const isDigit = (c: number) => c >= 48 && c <= 57;

/** Tokens after which `/` starts a regular expression rather than dividing (JavaScript). */
const BEFORE_REGEX = new Set([
  '(',
  ',',
  '=',
  ':',
  '[',
  '!',
  '&',
  '|',
  '?',
  '{',
  '}',
  ';',
  '+',
  '-',
  '*',
  '%',
  '<',
  '>',
  '~',
  '^',
  '=>',
  '==',
  '===',
  '!=',
  '!==',
  '&&',
  '||',
  '??',
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'yield',
  'await',
]);

/** The tokenizer's place in a text, and Python's line structure so far. */
interface Scan {
  text: string;
  n: number;
  i: number;
  lang: Language;
  syn: Syntax;
  out: string[];
  /** Python: brackets open (newlines inside do not end a line), the indent stack, line start. */
  depth: number;
  indents: number[];
  atLineStart: boolean;
  lineHasTokens: boolean;
}

const push = (s: Scan, t: string) => {
  s.out.push(t);
  s.lineHasTokens = true;
};

/** The normalised tokens of a source text. */
export function tokenize(text: string, lang: Language): string[] {
  const syn = SYNTAX[lang];
  const s: Scan = {
    text,
    n: text.length,
    i: 0,
    lang,
    syn,
    out: [],
    depth: 0,
    indents: [0],
    atLineStart: true,
    lineHasTokens: false,
  };
  while (s.i < s.n) {
    const c = text.charCodeAt(s.i);
    if (syn.python && s.atLineStart) pythonIndent(s);
    else if (!(skipBlank(s, c) || skipComment(s, c) || readString(s, c) || readWordOrNumber(s, c) || readRegex(s, c)))
      readOperator(s);
  }
  if (syn.python) {
    if (s.lineHasTokens) s.out.push('NL');
    for (let k = s.indents.length - 1; k > 0; k--) s.out.push('DE');
  }
  return s.out;
}

/** Python, at a line's start: IN or DE tokens from the indent of a line that holds code (blank and comment-only lines do not count). */
function pythonIndent(s: Scan): void {
  const { text, n, indents } = s;
  let j = s.i;
  let col = 0;
  while (j < n && (text[j] === ' ' || text[j] === '\t')) {
    col += text[j] === '\t' ? 8 - (col % 8) : 1;
    j++;
  }
  if (j >= n || text[j] === '\n' || text[j] === '\r' || text[j] === '#') {
    s.i = j;
    s.atLineStart = false;
    return;
  }
  if (col > indents[indents.length - 1]!) {
    indents.push(col);
    s.out.push('IN');
  } else {
    while (col < indents[indents.length - 1]!) {
      indents.pop();
      s.out.push('DE');
    }
  }
  s.i = j;
  s.atLineStart = false;
}

/** Newlines (Python: NL at the end of a logical line), other whitespace, Python's line continuation. */
function skipBlank(s: Scan, c: number): boolean {
  if (c === 10) {
    if (s.syn.python && s.depth === 0) {
      if (s.lineHasTokens) s.out.push('NL');
      s.lineHasTokens = false;
      s.atLineStart = true;
    }
    s.i++;
    return true;
  }
  if (c === 32 || c === 9 || c === 13 || c === 12) {
    s.i++;
    return true;
  }
  if (s.syn.python && c === 92 && s.text[s.i + 1] === '\n') {
    s.i += 2; // explicit line continuation
    return true;
  }
  return false;
}

/** Comments (all open with / or #); in shell a # only after whitespace. */
function skipComment(s: Scan, c: number): boolean {
  if (c !== 47 && c !== 35) return false;
  const { text, n, syn } = s;
  const startsWith = (t: string) => text.startsWith(t, s.i);
  const line = syn.line.find(startsWith);
  if (line && !(s.lang === 'shell' && s.i > 0 && !/\s/.test(text[s.i - 1]!))) {
    while (s.i < n && text.charCodeAt(s.i) !== 10) s.i++;
    return true;
  }
  const block = syn.block.find(([open]) => startsWith(open));
  if (block) {
    const end = text.indexOf(block[1], s.i + block[0].length);
    s.i = end < 0 ? n : end + block[1].length;
    return true;
  }
  return false;
}

/** Strings as S (Python: with prefixes and triple quotes; backticks: templates or raw strings). */
function readString(s: Scan, c: number): boolean {
  const { text, syn, i } = s;
  if (
    syn.python &&
    isIdStart(c) &&
    (text[i + 1] === "'" || text[i + 1] === '"' || text[i + 2] === "'" || text[i + 2] === '"')
  ) {
    const m = /^([rRbBuUfF]{1,2})(['"])/.exec(text.slice(i, i + 3));
    if (m) {
      s.i = skipPythonString(text, i + m[1]!.length);
      push(s, 'S');
      return true;
    }
  }
  if (syn.quotes.includes(text[i]!)) {
    s.i = syn.python ? skipPythonString(text, i) : skipQuoted(text, i, text[i]!);
    push(s, 'S');
    return true;
  }
  if (c === 96 && syn.backtick !== 'none') {
    s.i = syn.backtick === 'template' ? skipTemplate(text, i) : skipRaw(text, i);
    push(s, 'S');
    return true;
  }
  return false;
}

/** A keyword as itself, another identifier as I, a number as N. */
function readWordOrNumber(s: Scan, c: number): boolean {
  const { text, n, i } = s;
  if (isIdStart(c)) {
    let j = i + 1;
    while (j < n && isIdPart(text.charCodeAt(j))) j++;
    const word = text.slice(i, j);
    push(s, s.syn.keywords.has(word) ? word : 'I');
    s.i = j;
    return true;
  }
  if (isDigit(c) || (c === 46 && isDigit(text.charCodeAt(i + 1)))) {
    let j = i + 1;
    while (j < n) {
      const d = text.charCodeAt(j);
      if (isIdPart(d) || d === 46) j++;
      else if ((d === 43 || d === 45) && /[eE]/.test(text[j - 1]!) && !/^0[xX]/.test(text.slice(i, j))) j++;
      else break;
    }
    push(s, 'N');
    s.i = j;
    return true;
  }
  return false;
}

/** A JavaScript regular expression as R, where a `/` cannot divide. */
function readRegex(s: Scan, c: number): boolean {
  const { out } = s;
  if (c === 47 && s.syn.regex && (out.length === 0 || BEFORE_REGEX.has(out[out.length - 1]!))) {
    const end = skipRegex(s.text, s.i);
    if (end > 0) {
      push(s, 'R');
      s.i = end;
      return true;
    }
  }
  return false;
}

/** An operator (the longest that matches) or any other character, as itself; brackets counted for Python. */
function readOperator(s: Scan): void {
  const { text } = s;
  const op = OPERATORS_BY_FIRST.get(text[s.i]!)?.find((t) => text.startsWith(t, s.i));
  const tok = op ?? text[s.i]!;
  if (tok === '(' || tok === '[' || tok === '{') s.depth++;
  else if ((tok === ')' || tok === ']' || tok === '}') && s.depth > 0) s.depth--;
  push(s, tok);
  s.i += tok.length;
}

function skipQuoted(text: string, i: number, quote: string): number {
  let j = i + 1;
  while (j < text.length) {
    const ch = text[j]!;
    if (ch === '\\') j += 2;
    else if (ch === quote) return j + 1;
    else if (ch === '\n')
      return j; // an unterminated string ends at the line
    else j++;
  }
  return j;
}

function skipPythonString(text: string, i: number): number {
  const q = text[i]!;
  const triple = q.repeat(3);
  if (text.startsWith(triple, i)) {
    let j = i + 3;
    while (j < text.length) {
      if (text[j] === '\\') j += 2;
      else if (text.startsWith(triple, j)) return j + 3;
      else j++;
    }
    return text.length;
  }
  return skipQuoted(text, i, q);
}

/** A JavaScript template literal, `${…}` substitutions (nested ones too) included. */
function skipTemplate(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length) {
    const ch = text[j]!;
    if (ch === '\\') j += 2;
    else if (ch === '`') return j + 1;
    else if (ch === '$' && text[j + 1] === '{') {
      let depth = 1;
      j += 2;
      while (j < text.length && depth > 0) {
        const d = text[j]!;
        if (d === '{') depth++;
        else if (d === '}') depth--;
        else if (d === '`') {
          j = skipTemplate(text, j);
          continue;
        } else if (d === '"' || d === "'") {
          j = skipQuoted(text, j, d);
          continue;
        }
        j++;
      }
    } else j++;
  }
  return j;
}

function skipRaw(text: string, i: number): number {
  const end = text.indexOf('`', i + 1);
  return end < 0 ? text.length : end + 1;
}

/** The end of a regular expression literal starting at i, or -1 when it is none (no closing / on the line). */
function skipRegex(text: string, i: number): number {
  let j = i + 1;
  let inClass = false;
  if (text[j] === '/' || text[j] === '*') return -1;
  while (j < text.length) {
    const ch = text[j]!;
    if (ch === '\n') return -1;
    if (ch === '\\') j += 2;
    else if (ch === '[') (inClass = true), j++;
    else if (ch === ']') (inClass = false), j++;
    else if (ch === '/' && !inClass) {
      j++;
      while (j < text.length && isIdPart(text.charCodeAt(j))) j++;
      return j;
    } else j++;
  }
  return -1;
}
