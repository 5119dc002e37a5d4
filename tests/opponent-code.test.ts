// opponentCode around the runs: its default and its errors, old runs read as visible, `catarena
// combine` (the real CLI) and `compare` refuse runs that differ in it, naming the difference,
// `history` and its page flag a run whose setting differs from the run before it, and the run
// index records it. A rival's build output is cut from round_report.json to its reason.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dropRivalOutput, failureReasonOnly } from '../agents/core/opponent-view.ts';
import { ConfigError, resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { formatHistory, historyRows } from '../orchestrator/run/history.ts';
import { RunDir } from '../orchestrator/run/run-dir.ts';
import { indexEntry } from '../orchestrator/run/run-index.ts';
import { combineRuns, expandRepeats, readRepeats } from '../orchestrator/tourney/combine.ts';
import type { RunIndexEntry, TourneySummary } from '../records/tourney.ts';
import { renderHistoryHtml } from '../reports/html/history-html.ts';
import { catarena } from './helpers/cli.ts';
import { tempDir } from './helpers/bots.ts';

/** A finished run with no tracks: enough for combine and compare to read its config and summary. */
function finishedRun(root: string, name: string, config: Record<string, unknown>): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));
  fs.writeFileSync(path.join(dir, 'metrics.json'), JSON.stringify({ runId: name, runDir: dir, tracks: [] }));
  fs.writeFileSync(path.join(dir, 'journal.jsonl'), '');
  return dir;
}

const entry = (runId: string, month: number, opponentCode?: RunIndexEntry['opponentCode']): RunIndexEntry => ({
  runId,
  runDir: `/r/${runId}`,
  finishedAt: `2026-0${month}-01T00:00:00Z`,
  games: ['gomoku'],
  rounds: 2,
  matches: 4,
  reused: 0,
  leaderboard: [],
  ...(opponentCode ? { opponentCode } : {}),
});

describe('opponentCode', () => {
  it('defaults to visible; another value is refused naming the field and the choices', () => {
    expect(resolveConfig({}).opponentCode).toBe('visible');
    expect(resolveConfig({ opponentCode: 'hidden' }).opponentCode).toBe('hidden');
    expect(() => resolveConfig({ opponentCode: 'secret' as 'hidden' })).toThrow(ConfigError);
    expect(() => resolveConfig({ opponentCode: 'secret' as 'hidden' })).toThrow(
      /opponentCode: .*"visible"\|"logs-only"\|"hidden"/,
    );
  });

  it('combine and compare refuse runs that differ in it; a run written before the setting reads as visible', async () => {
    const root = tempDir();
    const { opponentCode: _, ...old } = resolveConfig({ games: ['gomoku'] });
    const before = finishedRun(root, 'before', old); // config.json without the field
    const visible = finishedRun(root, 'visible', resolveConfig({ games: ['gomoku'] }));
    const hidden = finishedRun(root, 'hidden', resolveConfig({ games: ['gomoku'], opponentCode: 'hidden' }));
    expect((await new RunDir(before).readConfig()).opponentCode).toBe('visible');

    const out = path.join(root, 'combined');
    const mixed = await catarena('combine', before, hidden, '-o', out);
    expect(mixed.code).not.toBe(0);
    expect(mixed.stderr).toMatch(/is not a repeat of .*before: they differ in opponentCode: "visible" vs "hidden"/);
    // compare reads the runs as combine does (orchestrator/cli/tourney-commands.ts).
    await expect(readRepeats(await expandRepeats([visible, hidden]))).rejects.toThrow(
      /they differ in opponentCode: "visible" vs "hidden"/,
    );
    await combineRuns([before, visible], out);
    expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(/^- Opponents' code: visible \(/m);
    expect(fs.readFileSync(path.join(out, 'report.html'), 'utf8')).toMatch(/<li>Opponents&#39;? code: visible \(/);
  }, 30_000);

  it('history flags a run whose setting differs from the run before it; the index records it', () => {
    const rows = historyRows([entry('old', 1), entry('visible', 2, 'visible'), entry('hidden', 3, 'hidden')]);
    expect(rows.map((r) => [r.opponentCode, r.opponentCodeChanged])).toEqual([
      ['visible', undefined],
      ['visible', undefined],
      ['hidden', 'visible → hidden'],
    ]);
    expect(formatHistory(rows)).toMatch(
      /opponents' code changed in hidden: visible → hidden \(what agents saw of rivals differs: its learning scores do not compare/,
    );
    expect(renderHistoryHtml([entry('old', 1), entry('hidden', 3, 'hidden')], '/r')).toContain(
      'hidden <strong title="changed: visible → hidden">(changed)</strong>',
    );
    const summary = {
      runId: 'x',
      runDir: '/r/x',
      tracks: [],
      leaderboard: [],
      config: resolveConfig({ opponentCode: 'logs-only' }),
    } as unknown as TourneySummary;
    expect(indexEntry(summary, { reused: 0, games: ['gomoku'], rounds: 2 }).opponentCode).toBe('logs-only');
  });

  it("a rival's failure in round_report.json keeps its reason only; the agent's own entry is kept whole", async () => {
    const logs = tempDir();
    const tail = (book: string) => `validation failed: the bot did not start: exited 1\n--- log tail ---\n${book} = 1`;
    const report = {
      strategies: [
        { id: 'me@r1', agent: 'me', round: 1, status: 'failed', failure: `invalid_bot: mine — ${tail('MY_BOOK')}` },
        {
          id: 'rival@r1',
          agent: 'rival',
          round: 1,
          status: 'failed',
          failure: `invalid_bot: the bot — ${tail('RIVAL_BOOK')}`,
        },
        { id: 'other@r1', agent: 'other', round: 1, status: 'ok', warnings: ['p1: HTTP 500: OTHER_BOOK'] },
      ],
    };
    const file = path.join(logs, 'round_report.json');
    fs.writeFileSync(file, JSON.stringify(report));
    fs.chmodSync(file, 0o444); // a finished run's logs are read-only links into its store
    expect(await dropRivalOutput(logs, 'me')).toBe(true);
    const after = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(after.strategies).toEqual([
      report.strategies[0],
      { id: 'rival@r1', agent: 'rival', round: 1, status: 'failed', failure: failureReasonOnly('invalid_bot: x') },
      { id: 'other@r1', agent: 'other', round: 1, status: 'ok' },
    ]);
    expect(fs.readFileSync(file, 'utf8')).not.toMatch(/RIVAL_BOOK|OTHER_BOOK/);
    expect(failureReasonOnly('invalid_bot: anything — detail')).toBe('invalid_bot: the bot failed the entry check');
    expect(failureReasonOnly('made up: detail')).toBe('failed');
  });
});
