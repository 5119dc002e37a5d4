// The heuristic Undercover player's decisions (plain JavaScript, no dependencies), from an
// embedded association list: words.json, the game's word pairs by category (a copy of
// games/undercover/words.json). For its word it knows the category, the counterpart word of its
// pair and the other words of the category ("siblings").
//
// Speaking: `depth` clue facts in one sentence, each a category clue ("a kind of food") or, with
// probability 1 − vagueness, a sibling relation ("closer to plum than to soup"). With probability
// `boldness` a player that believes it is a civilian also names the counterpart word: holding it
// would eliminate it, so saying it proves holding the other word (an undercover player never does).
// Every statement is checked with statement-check.mjs before it is said.
//
// Voting: evidence per alive player from their statements: naming my word proves a different word
// (+3), naming my counterpart proves mine (−3), and token overlap with my own statements counts a
// little toward "same". Both teams vote for the player most likely to hold the other word (a
// civilian to find the undercover, an undercover player to remove a civilian); `bandwagon` adds
// the votes of the last closed ballot, `randomness` noise. The audience (no word) votes for the
// player whose statements share the fewest tokens with everybody else's.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { namesWord, statementFault, tokens } from './statement-check.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DATA = JSON.parse(fs.readFileSync(path.join(HERE, 'words.json'), 'utf8'));

/** word → {category, counterpart, siblings} */
const INDEX = new Map();
for (const [category, pairs] of Object.entries(DATA.categories)) {
  const all = pairs.flat();
  for (const [a, b] of pairs) {
    INDEX.set(a, { category, counterpart: b, siblings: all.filter((w) => w !== a && w !== b) });
    INDEX.set(b, { category, counterpart: a, siblings: all.filter((w) => w !== a && w !== b) });
  }
}

export function associations(word) {
  return INDEX.get(String(word).toLowerCase()) ?? null;
}

export const DEFAULTS = { vagueness: 0.5, boldness: 0.3, bandwagon: 0.3, depth: 2, timeBudgetMs: 50, randomness: 0.1 };

/** Knobs from params.json, clamped. */
export function knobsFrom(raw) {
  const k = { ...DEFAULTS };
  for (const name of Object.keys(DEFAULTS)) {
    const v = Number(raw?.[name]);
    if (raw?.[name] !== undefined && raw?.[name] !== null && Number.isFinite(v)) k[name] = v;
  }
  for (const name of ['vagueness', 'boldness', 'bandwagon', 'randomness']) k[name] = Math.min(1, Math.max(0, k[name]));
  k.depth = Math.min(3, Math.max(1, Math.round(k.depth)));
  return k;
}

const statementsOf = (body) => (Array.isArray(body.statements) ? body.statements.filter((s) => s && typeof s.statement === 'string') : []);

const CATEGORY_CLUES = [(c) => `it is a kind of ${c}`, (c) => `you would file it under ${c}`, (c) => `people who like ${c} know it`];
const SIBLING_CLUES = [(s) => `it is closer to ${s} than you might think`, (s) => `it often comes up next to ${s}`, (s) => `picture it beside ${s}`];

/** Am I (probably) a civilian? The variant says; otherwise the majority of evidence decides. */
function believeCivilian(body, evidence) {
  if (body.role === 'civilian') return true;
  if (body.role === 'undercover') return false;
  const values = [...evidence.values()];
  const same = values.filter((v) => v < 0).length;
  const different = values.filter((v) => v > 0).length;
  return same >= different;
}

/** Per alive other seat: > 0 a different word than mine, < 0 the same. */
export function evidenceOf(body, word) {
  const info = associations(word);
  const mine = statementsOf(body).filter((s) => s.seat === body.seat).flatMap((s) => tokens(s.statement));
  const evidence = new Map();
  for (const seat of body.alive ?? []) if (seat !== body.seat) evidence.set(seat, 0);
  for (const s of statementsOf(body)) {
    if (!evidence.has(s.seat)) continue;
    let e = evidence.get(s.seat);
    if (namesWord(s.statement, word)) e += 3;
    if (info && namesWord(s.statement, info.counterpart)) e -= 3;
    const overlap = tokens(s.statement).filter((t) => t.length > 3 && mine.includes(t)).length;
    e -= 0.2 * overlap;
    evidence.set(s.seat, e);
  }
  return evidence;
}

export function speak(body, knobs, random) {
  const word = String(body.word ?? '');
  const info = associations(word);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const civilian = believeCivilian(body, evidenceOf(body, word));
  for (let attempt = 0; attempt < 30; attempt++) {
    const facts = [];
    for (let i = 0; i < knobs.depth; i++) {
      if (info && random() >= knobs.vagueness && info.siblings.length) facts.push(pick(SIBLING_CLUES)(pick(info.siblings)));
      else facts.push(pick(CATEGORY_CLUES)(info?.category ?? body.category ?? 'everyday things'));
    }
    if (info && civilian && body.role !== 'undercover' && random() < knobs.boldness) facts.push(`and it is not ${info.counterpart}`);
    const statement = `${facts.join(', ')}.`.replace(/^./, (c) => c.toUpperCase());
    if (statementFault(statement, word, body) === null) return statement;
  }
  return `Round ${body.round ?? 0}, seat ${body.seat ?? 0}: ${Math.floor(random() * 1e9)} reasons to like it.`;
}

/** Audience: the player whose statements share the fewest tokens with the others'. */
function outlier(body, candidates) {
  const bySeat = new Map(candidates.map((c) => [c, new Set()]));
  for (const s of statementsOf(body)) if (bySeat.has(s.seat)) for (const t of tokens(s.statement)) if (t.length > 3) bySeat.get(s.seat).add(t);
  const score = new Map();
  for (const [seat, mine] of bySeat) {
    let shared = 0;
    for (const [other, theirs] of bySeat) if (other !== seat) for (const t of mine) if (theirs.has(t)) shared++;
    score.set(seat, -shared);
  }
  return score;
}

export function vote(body, knobs, random) {
  const candidates = (body.candidates ?? []).filter(Number.isInteger);
  if (!candidates.length) return null;
  const score = body.word ? evidenceOf(body, String(body.word)) : outlier(body, candidates);
  const votes = Array.isArray(body.votes) ? body.votes : [];
  const last = votes.length ? votes.filter((v) => v.round === votes.at(-1).round && v.revote === votes.at(-1).revote) : [];
  let best = candidates[0];
  let bestValue = -Infinity;
  for (const c of candidates) {
    const bandwagon = last.filter((v) => v.target === c).length;
    const value = (score.get(c) ?? 0) + knobs.bandwagon * bandwagon + knobs.randomness * 2 * (random() - 0.5) + 1e-6 * random();
    if (value > bestValue) [best, bestValue] = [c, value];
  }
  return best;
}
