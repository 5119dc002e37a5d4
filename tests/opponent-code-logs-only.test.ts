// --opponent-code logs-only in a real tourney: an agent's round-2 workspace holds its own round-1
// bot and the logs of all games, but no rival's code — not its folder, and not its source quoted
// by its failed build in round_report.json (the leaking rival; with visible both reach it).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { tempDir } from './helpers/bots.ts';
import { config, filesText, leakerDir, leaks, round2, roundReport } from './helpers/opponent-code.ts';

describe('tourney --opponent-code logs-only', () => {
  it('its own bot, the logs of all games, no rival code (folder or quoted in the logs)', async () => {
    const runDir = path.join(tempDir(), 'logs-only');
    await runTourney({ config: resolveConfig(config(leakerDir()), { opponentCode: 'logs-only' }), runDir });

    const ws = round2(runDir, 'cautious');
    expect(fs.readdirSync(path.join(ws, 'last_round'))).toEqual(['cautious']);
    expect(leaks(ws)).toEqual([]);
    // The logs of all games: the round's CATArena files as written, round_report.json with every game.
    const all = filesText(path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'logs'));
    const mine = filesText(path.join(ws, 'logs'));
    expect([...mine.keys()].sort()).toEqual([...all.keys()].sort());
    for (const [file, text] of all) if (file !== 'round_report.json') expect(mine.get(file), file).toBe(text);
    const report = roundReport(ws);
    expect(report.games).toBe(6); // 3 pairings × a colour-swapped pair
    expect(report.strategies.find((s) => s.agent === 'leaker')!.failure).toBe(
      'invalid_bot: the bot failed the entry check',
    );
    const task = fs.readFileSync(path.join(ws, 'TASK.md'), 'utf8');
    expect(task).toMatch(/reports of all games are in `\.\/logs`/);
    expect(task).toMatch(
      /Your own previous round's code is in `\.\/last_round\/cautious`\. The other agents' code is not shown/,
    );
    expect(task).not.toMatch(/code of every agent/);
    // The leaker still sees its own code and its own failure in full.
    expect(leaks(round2(runDir, 'leaker')).sort()).toEqual([
      'develop_ai/strategy.py',
      'last_round/leaker/strategy.py',
      'logs/round_report.json',
    ]);

    expect(JSON.parse(fs.readFileSync(path.join(runDir, 'config.json'), 'utf8')).opponentCode).toBe('logs-only');
    expect(fs.readFileSync(path.join(runDir, 'report.md'), 'utf8')).toMatch(/^- Opponents' code: logs-only \(/m);
    expect(fs.readFileSync(path.join(runDir, 'report.html'), 'utf8')).toMatch(/<li>Opponents&#39;? code: logs-only \(/);
  }, 60_000);
});
