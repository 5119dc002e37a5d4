// An agent kind is its record (agents/kinds.ts): outside agents/ (and the entry points bench/,
// scripts/ and tests/) no source decides by an agent-kind name. A kind's name written as the start
// of a string ('builtin:', `llm-player:${…}`), as a whole string ('llm-player'), in a regular
// expression (/^(builtin|cli):/), or a CLI's name as an object key, is a per-kind table a new
// kind would have to be added to by hand; the code asks the record instead
// (docs/architecture.md, "Agent kinds").
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENT_KINDS, agentKindOf, agentKindOfSpec, modelOfKind } from '../agents/kinds.ts';
import { AGENT_CLIS } from '../records/agent-clis.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const EXEMPT = ['agents', 'bench', 'scripts', 'tests', 'node_modules', '.build', 'runs', 'docs'];
/** The CLIs' image record (records/ so that docker/ may read it). */
const EXEMPT_FILES = ['records/agent-clis.ts'];
/** Literals that look like an agent kind and are not one, each with why. */
const NOT_AGENT_KINDS: Record<string, string> = {
  // `catarena play builtin:random …`: a game's reference bot, not the built-in agent.
  'orchestrator/cli/options.ts: ^builtin': 'a reference bot argument',
  // <h2 id="llm-player">: the report section's anchor, a link target, not a decision.
  'reports/sections/header.ts: "llm-player"': 'an HTML anchor',
};

function sources(dir = ''): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return dir === '' && (EXEMPT.includes(e.name) || e.name.startsWith('.')) ? [] : sources(rel);
    return /\.(ts|mts|mjs|js)$/.test(e.name) && !EXEMPT_FILES.includes(rel) ? [rel] : [];
  });
}

/** Comments out, so prose may still name a kind. */
const code = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, '')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

const esc = (s: string) => s.replace(/[-\\^$*+?.()|[\]{}]/g, '\\$&');
const KINDS = Object.values(AGENT_KINDS).map((k) => esc(k.name));
const CLIS = AGENT_CLIS.map((c) => esc(c.name));
/** Names distinct enough to refuse as a whole string too ('dir', 'builtin' and 'cli' are also plain words). */
const WHOLE = [esc(AGENT_KINDS.llmPlayer.name), esc(AGENT_KINDS.offline.name), ...CLIS];

/** What a per-kind decision looks like in one line of code. */
const PATTERNS: RegExp[] = [
  // A string or template starting with a kind's prefix: 'builtin:', `llm-player:${spec}`.
  new RegExp(`(['"\`])(?:${[...KINDS, ...CLIS].join('|')}):`, 'g'),
  // A whole string: 'llm-player', 'codex'.
  new RegExp(`(['"\`])(?:${WHOLE.join('|')})\\1`, 'g'),
  // A regular expression anchored on a kind: /^builtin:/, /^\s*dir:/, /^(builtin|cli):/, /^(?:offline|llm-player)/.
  new RegExp(`\\^(?:\\\\s\\*)?\\(?(?:\\?:)?(?:${[...KINDS, ...CLIS].join('|')})\\b`, 'g'),
  // An alternation of kinds: (builtin|cli), |llm-player).
  new RegExp(`[(|](?:${KINDS.join('|')})\\|(?:${KINDS.join('|')})[|)]`, 'g'),
  // A CLI's name as an object key: codex: …, 'gemini-cli': … (a per-CLI table).
  new RegExp(`(?:^|[{,])\\s*['"]?(?:${CLIS.join('|')})['"]?\\s*:\\s`, 'g'),
];

function kindLiterals(rel: string, text: string): string[] {
  return code(text)
    .split('\n')
    .flatMap((line, i) =>
      PATTERNS.flatMap((re) => [...line.matchAll(re)].map((m) => `${rel}:${i + 1}: ${m[0].trim()}`)),
    )
    .filter((hit) => !Object.keys(NOT_AGENT_KINDS).some((allowed) => hit.replace(/:\d+:/, ':').startsWith(allowed)));
}

describe('agent kinds', () => {
  it('no source outside agents/ names an agent kind in a literal, a regular expression or a key', () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((rel) => kindLiterals(rel, fs.readFileSync(path.join(ROOT, rel), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the guard catches each way main decided by kind before the records (a guard that cannot fail is none)', () => {
    // The lines this change replaced, as they were.
    const before = [
      'const metered = /^(builtin|cli):/.test(agent.kind);',
      'const SPENDS = /^(builtin|cli|llm-player):/;',
      'export const isDirSpec = (spec: string) => /^\\s*dir:/.test(spec);',
      "moveTimeoutMs: agent.kind.startsWith('llm-player:')",
      ".filter((r) => r.agentKind?.startsWith('llm-player:'))",
      'return /^(offline|llm-player)(:|#|$)/.test(agentKindOrSpec.trim());',
      "agents: z.array(z.string()).min(1).default(['offline:cautious', 'offline:aggressive', 'offline:imitator']),",
      "subjects.push({ id: bot.id, kind: 'llm-player', agent: agent.id, round: null });",
      'spec: `dir:${await artifacts.fetch(d.agent.folder, options.artifactDir)}#${d.agentId}`,',
      "if (kind.startsWith('cli:')) {",
      "  'claude-code': 'Claude Code stream-json',",
      "  codex: 'Codex JSON',",
      "  if (cli === 'gemini-cli') {",
      "  '@openai/codex': 'codex',",
    ];
    for (const line of before) expect(kindLiterals('x.ts', line), line).not.toEqual([]);
    // Plain words that are not kinds stay allowed.
    for (const line of ["const LIST = new Set(['ls', 'dir', 'tree']);", "'dir' in c ? c.dir : ''", "exec: 'builtin'"])
      expect(kindLiterals('x.ts', line), line).toEqual([]);
  });

  it('each kind says what the code used to decide by its name', () => {
    const kind = (k: string) => agentKindOf(k)!;
    expect(kind('builtin:openai/gpt-5').developmentCallsModel).toBe(true);
    expect(kind('cli:codex/gpt-5').developmentCallsModel).toBe(true);
    expect(kind('llm-player:openai/gpt-5').developmentCallsModel).toBe(false);
    expect(kind('llm-player:openai/gpt-5').playCallsModel && kind('llm-player:openai/gpt-5').ownPlaySettings).toBe(
      true,
    );
    expect(kind('offline:cautious').catarenasOwnBots && !kind('dir:/x').catarenasOwnBots).toBe(true);
    expect(agentKindOf('test:fake')).toBeUndefined();
    expect(agentKindOfSpec('claude-code:opus#v2')).toBe(AGENT_KINDS.cli);
    expect(agentKindOfSpec(' offline#2')).toBe(AGENT_KINDS.offline);
    expect(agentKindOfSpec('offlinex')).toBeUndefined();
    // The model lookup as the one regular expression gave it.
    expect(modelOfKind('builtin:anthropic/claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
    expect(modelOfKind('builtin:openai-compatible/qwen3')).toBe('qwen3');
    expect(modelOfKind('llm-player:google/models/gemini-2.5-pro')).toBe('gemini-2.5-pro');
    expect(modelOfKind('cli:qwen-code/openai/qwen3-coder')).toBe('qwen3-coder');
    expect(modelOfKind('cli:codex')).toBeUndefined();
    expect(modelOfKind('offline:cautious')).toBeUndefined();
    expect(modelOfKind('dir:/x')).toBeUndefined();
  });
});
