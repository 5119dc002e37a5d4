// What the report and `catarena serve`'s live page share, so they cannot disagree: how a strategy
// is named (agent@<round>), the colour of a score in W, and the leaderboard's one ordering rule
// (docs/metrics.md "Ranks and the leaderboard"), with the sentence that states it on both pages.
// The live page computes in the browser, so the code is one source text: run here through
// `new Function` for the reports, and sent as is to the browser (`boardRuleScript`, served by
// `catarena serve` as /assets/shared.js, where it is window.catarenaBoard).
export const BOARD_RULE_SOURCE = String.raw`
'use strict';
var TIE = 1e-12;
/** A strategy id (agent@r<round>, records/tourney.ts strategyId) as every page names it: agent@<round>. */
function strategyLabel(id) {
  var m = /^(.*)@r(\d+)$/.exec(String(id));
  return m ? m[1] + '@' + m[2] : String(id);
}
/** The agent and round of a strategy id; a bot of play or arena (no @r) is its own agent, round 1. */
function strategyOf(id) {
  var m = /^(.*)@r(\d+)$/.exec(String(id));
  return m ? { agent: m[1], round: Number(m[2]) } : { agent: String(id), round: 1 };
}
/** A score in [0, 1] as W draws it: red (0), white (0.5), blue (1). */
function scoreColour(v) {
  var t = Math.max(0, Math.min(1, v));
  var mix = function (a, b, u) { return Math.round(a + (b - a) * u); };
  var c = t < 0.5
    ? [mix(0xd7, 0xf7, t * 2), mix(0x30, 0xf7, t * 2), mix(0x27, 0xf7, t * 2)]
    : [mix(0xf7, 0x45, (t - 0.5) * 2), mix(0xf7, 0x75, (t - 0.5) * 2), mix(0xf7, 0xb4, (t - 0.5) * 2)];
  return 'rgb(' + c[0] + ',' + c[1] + ',' + c[2] + ')';
}
var LEADERBOARD_RULE =
  'Order: by the mean of two ranks, the agent\'s mean rank by S (strategy coding: its first-round bot\'s mean score against the others\' first-round bots) and its mean rank by L (global learning: how much its later bots gain over its first), over the tracks; ties by name. So an agent can stand above one with a higher mean S when it learned more.';
function meanOf(values) {
  var sum = 0, n = 0;
  for (var i = 0; i < values.length; i++) if (values[i] !== null && values[i] !== undefined) { sum += values[i]; n++; }
  return n ? sum / n : null;
}
/** Ranks, 1 = best; ties (within 1e-12) share the mean of their ranks; null gets none. */
function ranks(values) {
  var keys = Object.keys(values);
  var order = keys.filter(function (k) { return values[k] !== null && values[k] !== undefined && !Number.isNaN(values[k]); });
  order.sort(function (x, y) { return values[y] - values[x]; });
  var out = {};
  keys.forEach(function (k) { out[k] = null; });
  for (var start = 0; start < order.length; ) {
    var end = start + 1;
    while (end < order.length && Math.abs(values[order[end]] - values[order[start]]) <= TIE) end++;
    for (var k = start; k < end; k++) out[order[k]] = (start + 1 + end) / 2;
    start = end;
  }
  return out;
}
/** The board's order, best first: the mean of the mean ranks by S and by L (no rank: last), then the agent. */
function boardKey(e) {
  var m = meanOf([e.meanRankS, e.meanRankL]);
  return m === null ? Infinity : m;
}
function boardOrder(entries) {
  return entries.slice().sort(function (a, b) { return boardKey(a) - boardKey(b) || a.agent.localeCompare(b.agent); });
}
/** S and L per agent of one track's W (cell(a, b): strategy a's mean score against b, or null). */
function trackMetrics(ids, cell) {
  var by = {};
  ids.forEach(function (id) { var s = strategyOf(id); (by[s.agent] = by[s.agent] || {})[s.round] = id; });
  var agents = Object.keys(by);
  var G = function (id) { return meanOf(ids.filter(function (t) { return t !== id; }).map(function (t) { return cell(id, t); })); };
  var out = {};
  agents.forEach(function (a) {
    var first = by[a][1];
    var S = first === undefined ? null : meanOf(agents.filter(function (b) { return b !== a && by[b][1] !== undefined; }).map(function (b) { return cell(first, by[b][1]); }));
    var g1 = first === undefined ? null : G(first);
    var gains = Object.keys(by[a]).map(Number).filter(function (n) { return n >= 2; }).map(function (n) { var g = G(by[a][n]); return g === null || g1 === null ? null : g - g1; });
    out[a] = { S: S, L: meanOf(gains) };
  });
  return out;
}
/** The leaderboard of tracks' S and L ({agents, S: {agent: value}, L: {…}}), in the board's order. */
function leaderboard(tracks) {
  var rankS = {}, rankL = {}, valS = {}, valL = {};
  tracks.forEach(function (t) {
    var rs = ranks(t.S), rl = ranks(t.L);
    t.agents.forEach(function (a) {
      (rankS[a] = rankS[a] || []).push(rs[a] === undefined ? null : rs[a]);
      (rankL[a] = rankL[a] || []).push(rl[a] === undefined ? null : rl[a]);
      (valS[a] = valS[a] || []).push(t.S[a] === undefined ? null : t.S[a]);
      (valL[a] = valL[a] || []).push(t.L[a] === undefined ? null : t.L[a]);
    });
  });
  var agents = [];
  tracks.forEach(function (t) { t.agents.forEach(function (a) { if (agents.indexOf(a) < 0) agents.push(a); }); });
  return boardOrder(agents.map(function (a) {
    return { agent: a, meanRankS: meanOf(rankS[a] || []), meanRankL: meanOf(rankL[a] || []), meanS: meanOf(valS[a] || []), meanL: meanOf(valL[a] || []) };
  }));
}
return { strategyLabel: strategyLabel, strategyOf: strategyOf, scoreColour: scoreColour, LEADERBOARD_RULE: LEADERBOARD_RULE, ranks: ranks, boardKey: boardKey, boardOrder: boardOrder, trackMetrics: trackMetrics, leaderboard: leaderboard };
`;

export interface BoardEntry {
  agent: string;
  meanRankS: number | null;
  meanRankL: number | null;
  meanS: number | null;
  meanL: number | null;
}

interface BoardRule {
  strategyLabel(id: string): string;
  strategyOf(id: string): { agent: string; round: number };
  scoreColour(v: number): string;
  LEADERBOARD_RULE: string;
  ranks(values: Record<string, number | null>): Record<string, number | null>;
  boardKey(entry: { meanRankS: number | null; meanRankL: number | null }): number;
  boardOrder<E extends { agent: string; meanRankS: number | null; meanRankL: number | null }>(entries: E[]): E[];
  trackMetrics(
    ids: string[],
    cell: (a: string, b: string) => number | null,
  ): Record<string, { S: number | null; L: number | null }>;
  leaderboard(
    tracks: Array<{
      agents: readonly string[];
      S: Record<string, number | null>;
      L: Record<string, number | null>;
    }>,
  ): BoardEntry[];
}

const rule = new Function(BOARD_RULE_SOURCE)() as BoardRule;

export const { strategyLabel, strategyOf, scoreColour, LEADERBOARD_RULE, boardKey, boardOrder, trackMetrics } = rule;
export const boardRanks = rule.ranks;
export const boardOf = rule.leaderboard;

/** The browser's copy: window.catarenaBoard, the same functions. */
export const boardRuleScript = (): string => `window.catarenaBoard = (function () {${BOARD_RULE_SOURCE}})();\n`;
