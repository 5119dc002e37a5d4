// Which files a shell command reads, searches, lists, runs, copies or writes, from its text: the
// command line is split into words as bash would (quotes, escapes, operators, redirections,
// here-documents, `cd` changing the folder for what follows, `bash -c '…'` and `$(…)` read as the
// commands inside), and each simple command's arguments are read by what its program does with
// them (cat reads its files, grep searches the paths after its pattern, cp copies all but its last
// argument into the last). Agents look at the workspace mostly through such commands (Codex has
// no other tool; Claude Code 2.1 has no grep tool), so this is what item 4 of the evolution report
// rests on. It is a reading of the text, not a trace: a path built in a variable is not seen.
import path from 'node:path';

export type Action = 'read' | 'search' | 'list' | 'run' | 'copy' | 'write';

export interface PathUse {
  action: Action;
  /** As written, joined to the command's folder (absolute when either is). */
  path: string;
}

type Word = { text: string; literal: boolean };
type Item = { kind: 'word'; word: Word } | { kind: 'op'; op: string };

const READ = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'nl',
  'wc',
  'sort',
  'uniq',
  'cut',
  'tac',
  'od',
  'xxd',
  'hexdump',
  'strings',
  'md5sum',
  'sha1sum',
  'sha256sum',
  'file',
  'jq',
  'bat',
  'batcat',
  'diff',
  'cmp',
  'column',
  'view',
  'vim',
  'vi',
  'nano',
]);
const SCRIPTED = new Set(['sed', 'awk', 'gawk', 'mawk', 'perl']);
const SEARCH = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack']);
const LIST = new Set(['ls', 'll', 'dir', 'tree', 'du', 'stat', 'find', 'realpath']);
const INTERPRETERS = new Set([
  'python',
  'python3',
  'python2',
  'node',
  'deno',
  'bun',
  'ruby',
  'php',
  'bash',
  'sh',
  'zsh',
  'dash',
  'source',
  '.',
]);
const WRAPPERS = new Set(['sudo', 'nohup', 'time', 'exec', 'command', 'builtin', 'stdbuf', 'xargs']);
/** Options that take a value as the next word, per program family. */
const VALUE_OPTIONS: Record<string, Set<string>> = {
  head: new Set(['-n', '-c']),
  tail: new Set(['-n', '-c', '-s']),
  grep: new Set(['-e', '-f', '-m', '-A', '-B', '-C', '-d', '-D']),
  rg: new Set(['-e', '-f', '-g', '-t', '-T', '-m', '-A', '-B', '-C', '-M', '-j', '--glob', '--type', '--max-count']),
  sed: new Set(['-e', '-f', '-l']),
  awk: new Set(['-f', '-v', '-F']),
  cut: new Set(['-d', '-f', '-c', '-b']),
  sort: new Set(['-k', '-t', '-o']),
  jq: new Set(['--arg', '--argjson']),
  find: new Set([]),
  tree: new Set(['-L', '-I', '-P']),
  timeout: new Set(['-s', '-k']),
};

/** The file uses of a shell command run in folder `cwd` ('.' = the workspace root). */
export function shellPathUses(command: string, cwd = '.'): PathUse[] {
  const out: PathUse[] = [];
  const state = { cwd };
  runScript(command, state, out, 0);
  return out;
}

function runScript(script: string, state: { cwd: string }, out: PathUse[], depth: number): void {
  if (depth > 4) return;
  const items = lex(script, (inner) => runScript(inner, { cwd: state.cwd }, out, depth + 1));
  let words: Word[] = [];
  const redirects: Array<{ op: string; target: Word }> = [];
  const flush = () => {
    if (words.length || redirects.length) simpleCommand(words, redirects, state, out, depth);
    words = [];
    redirects.length = 0;
  };
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    if (it.kind === 'word') {
      words.push(it.word);
      continue;
    }
    if (/^(\d*>>?|&>>?|\d*<|>\||<>)$/.test(it.op)) {
      const next = items[i + 1];
      if (next?.kind === 'word') {
        redirects.push({ op: it.op, target: next.word });
        i++;
      }
      continue;
    }
    if (/^\d*>&\d*-?$|^<&\d*$/.test(it.op)) continue; // 2>&1: no file
    flush();
  }
  flush();
}

function simpleCommand(
  all: Word[],
  redirects: Array<{ op: string; target: Word }>,
  state: { cwd: string },
  out: PathUse[],
  depth: number,
): void {
  const at = (w: Word) => join(state.cwd, w.text);
  for (const r of redirects) {
    if (!isPath(r.target)) continue;
    if (r.target.text === '/dev/null' || r.target.text.startsWith('/dev/')) continue;
    out.push({ action: r.op.includes('<') && !r.op.includes('>') ? 'read' : 'write', path: at(r.target) });
  }
  const words = withoutWrappers(all);
  if (!words.length) return;
  const program = path.posix.basename(words[0]!.text);
  const args = words.slice(1);
  if (program === 'cd' || program === 'pushd') {
    const dest = args.find((a) => !a.text.startsWith('-'));
    if (dest && isPath(dest)) state.cwd = at(dest);
    return;
  }
  if (
    (program === 'bash' || program === 'sh' || program === 'zsh') &&
    args.some((a) => /^-[a-z]*c[a-z]*$/.test(a.text))
  ) {
    const k = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a.text));
    const script = args[k + 1];
    if (script) runScript(script.text, { cwd: state.cwd }, out, depth + 1);
    return;
  }
  const family =
    program === 'egrep' || program === 'fgrep' ? 'grep' : program === 'gawk' || program === 'mawk' ? 'awk' : program;
  const { operands, explicit } = splitOptions(args, family);
  const use = (action: Action, ws: Word[]) => out.push(...ws.filter(isPath).map((w) => ({ action, path: at(w) })));
  programUses({ program, words, args, operands, explicit, cwd: state.cwd, out, use });
}

/** A command's words past its leading assignments and wrappers (sudo, nohup, timeout 30, env A=1 …). */
function withoutWrappers(all: Word[]): Word[] {
  let words = all;
  for (;;) {
    if (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!.text)) words = words.slice(1);
    else if (words.length && WRAPPERS.has(words[0]!.text)) words = words.slice(1);
    else if (words.length && words[0]!.text === 'env') words = words.slice(1);
    else if (words.length && (words[0]!.text === 'timeout' || words[0]!.text === 'nice')) {
      words = words.slice(1);
      while (words.length && words[0]!.text.startsWith('-'))
        words = words.slice(VALUE_OPTIONS.timeout!.has(words[0]!.text) ? 2 : 1);
      if (words.length && /^\d/.test(words[0]!.text)) words = words.slice(1);
    } else break;
  }
  return words;
}

/**
 * A program's arguments split into operands and the options that give a pattern or script
 * explicitly (-e PATTERN / -f FILE: then no operand is the pattern); options taking a value skip it.
 */
function splitOptions(args: Word[], family: string): { operands: Word[]; explicit: string[] } {
  const values = VALUE_OPTIONS[family] ?? new Set<string>();
  const operands: Word[] = [];
  const explicit: string[] = []; // -e PATTERN / -f FILE given: no pattern operand
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.text === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.text.startsWith('-') && a.text.length > 1) {
      if (values.has(a.text)) {
        explicit.push(a.text);
        i++;
      } else if (/^-[A-Za-z]*[ef]$/.test(a.text) && (family === 'grep' || family === 'sed' || family === 'rg')) {
        explicit.push(a.text);
        i++;
      } else if (/^--(regexp|file|expression)=/.test(a.text)) explicit.push(a.text);
      continue;
    }
    operands.push(a);
  }
  return { operands, explicit };
}

/** Options of grep and rg that take a value but give no pattern (-m 3, -A 2, -g '*.py' …). */
const NOT_A_PATTERN = new Set([
  '-m',
  '-A',
  '-B',
  '-C',
  '-g',
  '--glob',
  '-t',
  '-T',
  '--type',
  '-M',
  '-j',
  '--max-count',
  '-d',
  '-D',
]);

/** A simple command's program, its arguments split, and where its path uses go. */
interface ProgramCall {
  program: string;
  words: Word[];
  args: Word[];
  operands: Word[];
  explicit: string[];
  cwd: string;
  out: PathUse[];
  /** Records the path-like words as uses of one kind. */
  use: (action: Action, ws: Word[]) => void;
}

/** The path uses of a program by what it does with its operands (cat reads, grep searches, cp copies …). */
function programUses(p: ProgramCall): void {
  const { program, words, args, operands, explicit, cwd, out, use } = p;
  if (READ.has(program)) use('read', operands);
  else if (SCRIPTED.has(program)) {
    const inPlace = args.some((a) => /^-[a-zA-Z]*i/.test(a.text) || a.text.startsWith('--in-place'));
    use(inPlace ? 'write' : 'read', explicit.length ? operands : operands.slice(1));
  } else if (SEARCH.has(program)) {
    const targets = explicit.some((e) => !NOT_A_PATTERN.has(e)) ? operands : operands.slice(1);
    if (targets.length) use('search', targets);
    else out.push({ action: 'search', path: cwd });
  } else if (program === 'git' && args[0]?.text === 'grep') {
    out.push({ action: 'search', path: cwd });
  } else if (LIST.has(program)) {
    // find's paths come before its expression (-name, !, \( …).
    const targets = program === 'find' ? takeWhile(args, (w) => !/^[-(!]/.test(w.text)) : operands;
    if (targets.length) use('list', targets);
    else out.push({ action: 'list', path: cwd });
  } else if (program === 'cp' || program === 'mv' || program === 'rsync' || program === 'install') {
    if (operands.length >= 2) {
      use('copy', operands.slice(0, -1));
      use('write', operands.slice(-1));
    }
  } else if (program === 'tee' || program === 'touch') use('write', operands);
  else if (INTERPRETERS.has(program)) {
    // python -c CODE / -m MODULE and node -e CODE run no file; otherwise the first operand is the script.
    const inline = args.some((a) => a.text === '-c' || a.text === '-m' || a.text === '-e' || a.text === '--eval');
    if (!inline && operands.length) use('run', operands.slice(0, 1));
  } else if (program === 'go' && (args[0]?.text === 'run' || args[0]?.text === 'build' || args[0]?.text === 'vet')) {
    use(
      'run',
      operands.slice(1).filter((w) => w.text.endsWith('.go') || w.text === '.'),
    );
  } else if (words[0]!.text.includes('/') && isPath(words[0]!)) {
    out.push({ action: 'run', path: join(cwd, words[0]!.text) });
  }
}

function takeWhile<T>(xs: T[], ok: (x: T) => boolean): T[] {
  const out: T[] = [];
  for (const x of xs) {
    if (!ok(x)) break;
    out.push(x);
  }
  return out;
}

/** A word that can name a file: no expansion left in it, not a URL or a number. */
function isPath(w: Word): boolean {
  const t = w.text;
  return (
    w.literal &&
    t.length > 0 &&
    !t.includes('://') &&
    !/^[-+]?\d+([.,:]\d+)*$/.test(t) &&
    !/^[a-z]+:\d+$/i.test(t) &&
    t !== '{}' &&
    t !== ';'
  );
}

function join(cwd: string, p: string): string {
  const home = p === '~' || p.startsWith('~/');
  if (home) return p;
  const joined = path.posix.normalize(p.startsWith('/') ? p : path.posix.join(cwd, p));
  return joined.length > 1 ? joined.replace(/\/+$/, '') : joined;
}

/** The lexer's place in a shell text and the word it is building. */
interface Lexer {
  s: string;
  i: number;
  cur: string;
  inWord: boolean;
  literal: boolean;
  /** Here-documents opened on the current line: their bodies follow its end. */
  heredocs: string[];
  items: Item[];
  nested: (inner: string) => void;
}

/** Ends the word being built, if any. */
function endWord(L: Lexer): void {
  if (L.inWord) L.items.push({ kind: 'word', word: { text: L.cur, literal: L.literal } });
  L.cur = '';
  L.inWord = false;
  L.literal = true;
}

/**
 * Words and operators of a shell text. A word with an expansion ($VAR, $(…), `…`) is not literal;
 * the commands inside $(…) and `…` are handed to `nested`. Here-document bodies are skipped.
 */
function lex(s: string, nested: (inner: string) => void): Item[] {
  const L: Lexer = { s, i: 0, cur: '', inWord: false, literal: true, heredocs: [], items: [], nested };
  while (L.i < s.length) {
    const c = s[L.i]!;
    if (c === '\n') lexNewline(L);
    else if (c === ' ' || c === '\t' || c === '\r') {
      endWord(L);
      L.i++;
    } else if (c === '#' && !L.inWord) {
      while (L.i < s.length && s[L.i] !== '\n') L.i++;
    } else if (!lexQuoted(L, c) && !lexOperator(L)) {
      L.cur += c;
      L.inWord = true;
      L.i++;
    }
  }
  endWord(L);
  return L.items;
}

/** A newline: ends the command, then skips the bodies of here-documents opened on the line just ended. */
function lexNewline(L: Lexer): void {
  const { s } = L;
  endWord(L);
  L.items.push({ kind: 'op', op: ';' });
  L.i++;
  for (const tag of L.heredocs.splice(0)) {
    const re = new RegExp(`^\\s*${tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`, 'm');
    const rest = s.slice(L.i);
    const m = re.exec(rest);
    L.i = m ? L.i + m.index + m[0].length : s.length;
  }
}

/** A backslash escape, a quoted string or an expansion, added to the word; false when c opens none. */
function lexQuoted(L: Lexer, c: string): boolean {
  const { s } = L;
  if (c === '\\') {
    if (s[L.i + 1] === '\n') {
      L.i += 2;
      return true;
    }
    L.cur += s[L.i + 1] ?? '';
    L.inWord = true;
    L.i += 2;
    return true;
  }
  if (c === "'") {
    const close = s.indexOf("'", L.i + 1);
    const stop = close < 0 ? s.length : close;
    L.cur += s.slice(L.i + 1, stop);
    L.inWord = true;
    L.i = stop + 1;
    return true;
  }
  if (c === '"') {
    L.inWord = true;
    L.i++;
    while (L.i < s.length && s[L.i] !== '"') {
      if (s[L.i] === '\\' && L.i + 1 < s.length) {
        L.cur += s[L.i + 1];
        L.i += 2;
      } else if (s[L.i] === '$' || s[L.i] === '`') {
        const stop = expansion(s, L.i, L.nested);
        L.literal = false;
        L.cur += s.slice(L.i, stop);
        L.i = stop;
      } else L.cur += s[L.i++];
    }
    L.i++;
    return true;
  }
  if (c === '$' || c === '`') {
    const stop = expansion(s, L.i, L.nested);
    L.literal = false;
    L.inWord = true;
    L.cur += s.slice(L.i, stop);
    L.i = stop;
    return true;
  }
  return false;
}

/** Operators: here-documents first, then redirections and separators; false when none starts here. */
function lexOperator(L: Lexer): boolean {
  const { s } = L;
  const here = /^<<(-?)\s*(['"]?)([A-Za-z_][\w-]*)\2/.exec(s.slice(L.i));
  if (here && !L.inWord) {
    L.heredocs.push(here[3]!);
    L.i += here[0].length;
    return true;
  }
  const op = /^(<<<|&>>|&>|\d*>>|\d*>&\d*-?|<&\d*|\d*>\||\d*>|\d*<|&&|\|\||;;|\|&|[|&;()]|\{(?=\s)|\}(?=[\s;]|$))/.exec(
    s.slice(L.i),
  );
  if (!op) return false;
  // Bash ends a word at an operator; digits right before a redirection name a descriptor.
  if (L.inWord && /^\d+$/.test(L.cur) && /^[<>]/.test(op[0])) {
    L.cur = '';
    L.inWord = false;
  }
  endWord(L);
  L.i += op[0].length;
  if (op[0] === '<<<') {
    // A here-string: its word is data, not a file.
    while (s[L.i] === ' ') L.i++;
    if (s[L.i] === "'" || s[L.i] === '"') {
      const close = s.indexOf(s[L.i]!, L.i + 1);
      L.i = close < 0 ? s.length : close + 1;
    } else while (L.i < s.length && !/\s/.test(s[L.i]!)) L.i++;
    return true;
  }
  L.items.push({ kind: 'op', op: op[0] });
  return true;
}

/** The end of a $VAR, ${…}, $(…), $((…)) or `…` expansion at i; command substitutions go to `nested`. */
function expansion(s: string, i: number, nested: (inner: string) => void): number {
  if (s[i] === '`') {
    const close = s.indexOf('`', i + 1);
    const stop = close < 0 ? s.length : close;
    nested(s.slice(i + 1, stop));
    return stop + 1;
  }
  const open = s[i + 1];
  if (open === '(' || open === '{') {
    const closeCh = open === '(' ? ')' : '}';
    let depth = 0;
    let j = i + 1;
    for (; j < s.length; j++) {
      if (s[j] === open) depth++;
      else if (s[j] === closeCh && --depth === 0) break;
    }
    if (open === '(' && s[i + 2] !== '(') nested(s.slice(i + 2, j));
    return Math.min(s.length, j + 1);
  }
  let j = i + 1;
  if (/[@*#?$!0-9-]/.test(s[j] ?? '')) return j + 1;
  while (j < s.length && /\w/.test(s[j]!)) j++;
  return j;
}
