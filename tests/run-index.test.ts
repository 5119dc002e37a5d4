// The run index and --reuse, in-process: finished runs are indexed (a torn line from a kill does
// not hide later runs), history reads them, and a second run with --reuse copies only the games
// whose code and settings are unchanged and that no crash decided.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatHistory, historyRows } from '../orchestrator/run/history.ts';
import { renderHistoryHtml } from '../reports/html/history-html.ts';
import type { RunIndexEntry } from '../records/tourney.ts';
import { INDEX_FILE } from '../orchestrator/run/run-dir.ts';
import { readIndexFile } from '../orchestrator/run/run-index.ts';
import { readRepeats } from '../orchestrator/tourney/combine.ts';
import { compareAgents } from '../reports/compare.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import type { MatchResult } from '../records/match.ts';
import { misbehavingBot, shallowHeuristic, tempDir } from './helpers/bots.ts';

const journalOf = (runDir: string): MatchResult[] =>
  fs
    .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('run index and --reuse', () => {
  it('indexes runs, shows history, and reuses unchanged games except those a crash decided', async () => {
    const out = tempDir();
    // The heuristic searching 1 ply (same code for both): its games take milliseconds of CPU,
    // not up to 1.5 s a move, and what is checked is which games are copied, not how they went.
    const heuristic = shallowHeuristic(1);
    const agents = [`dir:${heuristic}#steady`, `dir:${misbehavingBot('die_after_3')}#crasher`, `dir:${heuristic}#twin`];
    const input = {
      games: ['gomoku'],
      rounds: 1,
      variants: ['standard' as const],
      agents,
      concurrency: 2,
      bootstrapSamples: 50,
      reuse: true,
    };
    const first = await runTourney({ config: resolveConfig(input), runDir: path.join(out, 'first') });
    // A kill mid-write leaves a torn line; the next run's entry must still be read.
    fs.appendFileSync(path.join(out, INDEX_FILE), '{"runId":"torn');
    const second = await runTourney({ config: resolveConfig(input), runDir: path.join(out, 'second') });

    const entries = await readIndexFile(path.join(out, INDEX_FILE));
    expect(entries.map((e) => e.runId)).toEqual(['first', 'second']);
    const journal = journalOf(second.runDir);
    expect(journal).toHaveLength(6);
    // steady vs twin (both colours) is reused; every game with the crashing bot is played again.
    const reused = journal.filter((r) => r.reusedFrom);
    expect(reused.map((r) => [...r.spec.seats].sort().join('+'))).toEqual(['steady@r1+twin@r1', 'steady@r1+twin@r1']);
    expect(reused.every((r) => r.reusedFrom === 'first')).toBe(true);
    expect(journal.filter((r) => !r.reusedFrom).every((r) => r.spec.seats.includes('crasher@r1'))).toBe(true);
    expect(entries[1]).toMatchObject({ matches: 6, reused: 2 });
    expect(first.tracks[0]!.W.W).toEqual(second.tracks[0]!.W.W);

    const history = historyRows(entries);
    expect(history.map((r) => r.runId)).toEqual(['first', 'second']);
    const table = formatHistory(history);
    expect(table).toMatch(/crasher S \/ L/);
    expect(table.split('\n')[2]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d\s+finished\s+first\s+6\s+0\s/);
    expect(formatHistory(historyRows(entries, 'steady'))).not.toMatch(/crasher/);
    expect(entries.map((e) => e.rules)).toEqual([{ gomoku: 'v1' }, { gomoku: 'v1' }]);

    // Each run indexes every pair's paired comparison: catarena compare's "all tracks" rows for that run.
    const names = [...second.tracks[0]!.agents].sort();
    expect(entries[1]!.pairwise!.map((p) => [p.a, p.b])).toEqual([
      [names[0], names[1]],
      [names[0], names[2]],
      [names[1], names[2]],
    ]);
    const { repeats } = await readRepeats([second.runDir]);
    const [a, b] = [names[0]!, names[2]!];
    const rows = compareAgents(repeats, a, b, { seed: repeats[0]!.seed });
    const all = (m: 'S' | 'L') => {
      const row = rows.find((r) => r.track === 'all tracks' && r.metric === m);
      return row ? { diff: row.diff, lo: row.lo, hi: row.hi, p: row.p, pBetter: row.pBetter } : null; // no L in a one-round run
    };
    expect(entries[1]!.pairwise![1]).toEqual({ a, b, repeats: 1, S: all('S'), L: all('L') });
    expect(all('S')!.lo).not.toBeNull();
    const page = fs.readFileSync(path.join(out, 'index.html'), 'utf8');
    expect(page).toContain('<h2>Pairwise over time</h2>');
    expect(page.match(/<section class="pair"/g)).toHaveLength(3);

    // Games played under other rules (here: the index says those runs played gomoku's version 0)
    // are never copied, and history says where the rules changed.
    const indexFile = path.join(out, INDEX_FILE);
    const lines = fs
      .readFileSync(indexFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{"runId":"first"') || l.startsWith('{"runId":"second"'));
    fs.writeFileSync(
      indexFile,
      `${lines.map((l) => JSON.stringify({ ...JSON.parse(l), rules: { gomoku: 'v0' } })).join('\n')}\n`,
    );
    const third = await runTourney({ config: resolveConfig(input), runDir: path.join(out, 'third') });
    expect(journalOf(third.runDir).filter((r) => r.reusedFrom)).toEqual([]);
    const after = historyRows(await readIndexFile(indexFile));
    expect(after.map((r) => r.rulesChanged)).toEqual([[], [], ['gomoku v0 → v1']]);
    expect(formatHistory(after)).toMatch(/rules changed in third: gomoku v0 → v1/);
  }, 180_000);

  it('flags runs indexed before rules were recorded as version 1 of each game', () => {
    const entry = (runId: string, finishedAt: string, rules?: Record<string, string>) => ({
      runId,
      runDir: `/r/${runId}`,
      finishedAt,
      games: ['gomoku', 'chess'],
      rounds: 1,
      matches: 4,
      reused: 0,
      leaderboard: [],
      ...(rules ? { rules } : {}),
    });
    const rows = historyRows([
      entry('old', '2025-01-01T00:00:00Z'),
      entry('new', '2025-02-01T00:00:00Z', { gomoku: 'v1', chess: 'v2' }),
      entry('engine', '2025-03-01T00:00:00Z', { gomoku: 'v1', chess: 'v2 adjudication=engine' }),
    ]);
    expect(rows.map((r) => r.rulesChanged)).toEqual([[], ['chess v1 → v2'], ['chess v2 → v2 adjudication=engine']]);
    const page = renderHistoryHtml(
      [entry('old', '2025-01-01T00:00:00Z'), entry('new', '2025-02-01T00:00:00Z', { gomoku: 'v1', chess: 'v2' })],
      '/r',
    );
    expect(page).toContain('gomoku v1, chess v2 <strong title="changed: chess v1 → v2">(changed)</strong>');
  });

  it('charts each pair of agents over the runs: the S difference with its interval band and P(A better)', () => {
    const d = (diff: number, pBetter: number) => ({ diff, lo: diff - 0.2, hi: diff + 0.2, p: 1, pBetter });
    const entry = (runId: string, finishedAt: string, pairwise?: RunIndexEntry['pairwise']) => ({
      runId,
      runDir: `/r/${runId}`,
      finishedAt,
      games: ['gomoku'],
      rounds: 1,
      matches: 4,
      reused: 0,
      leaderboard: [],
      ...(pairwise ? { pairwise } : {}),
    });
    const page = renderHistoryHtml(
      [
        entry('old', '2025-01-01T00:00:00Z'), // indexed before pairwise comparisons: a gap
        entry('one', '2025-02-01T00:00:00Z', [{ a: 'v1', b: 'v2', repeats: 1, S: d(-0.1, 0.3), L: d(0, 0.5) }]),
        entry('two', '2025-03-01T00:00:00Z', [{ a: 'v1', b: 'v2', repeats: 3, S: d(-0.3, 0.05), L: null }]),
      ],
      '/r',
    );
    expect(page).toContain('<h2>Pairwise over time</h2>');
    const section = page.slice(page.indexOf('<section class="pair" data-a="v1" data-b="v2">'));
    expect([...section.matchAll(/data-id="pair-0-S".*?<\/svg>/gs)][0]![0].match(/data-value="[^"]*"/g)).toEqual([
      'data-value="-0.1"',
      'data-value="-0.3"',
    ]);
    expect(section).toMatch(/<polygon class="band"/); // the interval of the two runs as one band
    expect(section).toContain(
      'latest (two, 3 repeats): S v1 − v2 = -0.300 [-0.500, -0.100], p = 1.000, P(v1 better) = 0.05',
    );
    expect(renderHistoryHtml([entry('old', '2025-01-01T00:00:00Z')], '/r')).not.toContain('Pairwise over time');
  });
});
