// The run index and --reuse, in-process: finished runs are indexed (a torn line from a kill does
// not hide later runs), history reads them, and a second run with --reuse copies only the games
// whose code and settings are unchanged and that no crash decided.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatHistory, historyRows } from '../orchestrator/run/history.ts';
import { renderHistoryHtml } from '../reports/html/history-html.ts';
import { INDEX_FILE } from '../orchestrator/run/run-dir.ts';
import { readIndexFile } from '../orchestrator/run/run-index.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import type { MatchResult } from '../model/match.ts';
import { BUILTIN, misbehavingBot, tempDir } from './helpers/bots.ts';

const journalOf = (runDir: string): MatchResult[] => fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('run index and --reuse', () => {
  it('indexes runs, shows history, and reuses unchanged games except those a crash decided', async () => {
    const out = tempDir();
    const agents = [`dir:${BUILTIN('heuristic')}#steady`, `dir:${misbehavingBot('die_after_3')}#crasher`, `dir:${BUILTIN('heuristic')}#twin`];
    const input = { games: ['gomoku'], rounds: 1, variants: ['standard' as const], agents, concurrency: 2, bootstrapSamples: 50, reuse: true };
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

    const rows = historyRows(entries);
    expect(rows.map((r) => r.runId)).toEqual(['first', 'second']);
    const table = formatHistory(rows);
    expect(table).toMatch(/crasher S \/ L/);
    expect(table.split('\n')[2]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d\s+first\s+6\s+0\s/);
    expect(formatHistory(historyRows(entries, 'steady'))).not.toMatch(/crasher/);
    expect(entries.map((e) => e.rules)).toEqual([{ gomoku: 'v1' }, { gomoku: 'v1' }]);

    // Games played under other rules (here: the index says those runs played gomoku's version 0)
    // are never copied, and history says where the rules changed.
    const indexFile = path.join(out, INDEX_FILE);
    const lines = fs.readFileSync(indexFile, 'utf8').split('\n').filter((l) => l.startsWith('{"runId":"first"') || l.startsWith('{"runId":"second"'));
    fs.writeFileSync(indexFile, `${lines.map((l) => JSON.stringify({ ...JSON.parse(l), rules: { gomoku: 'v0' } })).join('\n')}\n`);
    const third = await runTourney({ config: resolveConfig(input), runDir: path.join(out, 'third') });
    expect(journalOf(third.runDir).filter((r) => r.reusedFrom)).toEqual([]);
    const after = historyRows(await readIndexFile(indexFile));
    expect(after.map((r) => r.rulesChanged)).toEqual([[], [], ['gomoku v0 → v1']]);
    expect(formatHistory(after)).toMatch(/rules changed in third: gomoku v0 → v1/);
  }, 180_000);

  it('flags runs indexed before rules were recorded as version 1 of each game', () => {
    const entry = (runId: string, finishedAt: string, rules?: Record<string, string>) => ({ runId, runDir: `/r/${runId}`, finishedAt, games: ['gomoku', 'chess'], rounds: 1, matches: 4, reused: 0, leaderboard: [], ...(rules ? { rules } : {}) });
    const rows = historyRows([entry('old', '2025-01-01T00:00:00Z'), entry('new', '2025-02-01T00:00:00Z', { gomoku: 'v1', chess: 'v2' }), entry('engine', '2025-03-01T00:00:00Z', { gomoku: 'v1', chess: 'v2 adjudication=engine' })]);
    expect(rows.map((r) => r.rulesChanged)).toEqual([[], ['chess v1 → v2'], ['chess v2 → v2 adjudication=engine']]);
    const page = renderHistoryHtml([entry('old', '2025-01-01T00:00:00Z'), entry('new', '2025-02-01T00:00:00Z', { gomoku: 'v1', chess: 'v2' })], '/r');
    expect(page).toContain('gomoku v1, chess v2 <strong title="changed: chess v1 → v2">(changed)</strong>');
  });
});
