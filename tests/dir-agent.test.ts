// dir:<path> agents: a fixed bot folder or one folder per round, entered into a real tourney.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agents/registry.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { BUILTIN, shallowHeuristic, tempDir } from './helpers/bots.ts';

describe('dir agents', () => {
  it('enter a fixed bot every round, or the latest round_<n> folder at or before the round', async () => {
    // The heuristic's code searching 1 ply (shallowHeuristic): which folder is entered is under
    // test, not the games (30 of them, 20 between heuristics: about half the test's CPU at depth 4).
    const heuristic = shallowHeuristic();
    const perRound = path.join(tempDir(), 'versions');
    fs.cpSync(BUILTIN('random'), path.join(perRound, 'round_1'), { recursive: true });
    fs.cpSync(heuristic, path.join(perRound, 'round_2'), { recursive: true });
    const runDir = path.join(tempDir(), 'run');
    const config = resolveConfig({
      games: ['gomoku'],
      rounds: 3,
      variants: ['standard'],
      agents: [`dir:${heuristic}#fixed`, `dir:${perRound}`],
      concurrency: 2,
      bootstrapSamples: 50,
    });
    const summary = await runTourney({ config, runDir });
    expect(summary.tracks[0]!.agents).toEqual(['fixed', 'versions']);
    const strat = (agent: string, round: number) =>
      path.join(runDir, 'tracks', 'gomoku-standard', `round_${round}`, 'strategies', agent);
    expect(fs.existsSync(path.join(strat('versions', 1), 'bot.mjs'))).toBe(true);
    expect(fs.readFileSync(path.join(strat('versions', 1), 'bot.mjs'), 'utf8')).toBe(
      fs.readFileSync(path.join(BUILTIN('random'), 'bot.mjs'), 'utf8'),
    );
    // Round 3 has no folder: round 2's is entered again.
    expect(fs.readFileSync(path.join(strat('versions', 3), 'bot.mjs'), 'utf8')).toBe(
      fs.readFileSync(path.join(BUILTIN('heuristic'), 'bot.mjs'), 'utf8'),
    );
    expect(fs.readFileSync(`${strat('versions', 3)}.build.log`, 'utf8')).toMatch(/round_2 \(no round_3/);
    for (const s of summary.tracks[0]!.strategies) expect(s.status).toBe('ok');
    const record = JSON.parse(fs.readFileSync(`${strat('fixed', 1)}.strategy.json`, 'utf8'));
    expect(record.cost.linesOfCode).toBeGreaterThan(100);
    expect(record.cost.tokens).toBeNull();
  }, 180_000);

  it('follow a symlinked folder (and symlinked round folders): the bot is copied, not the link', async () => {
    const root = tempDir();
    const link = path.join(root, 'linked-bot');
    fs.symlinkSync(BUILTIN('random'), link);
    const rounds = path.join(root, 'rounds');
    fs.mkdirSync(rounds);
    fs.symlinkSync(BUILTIN('heuristic'), path.join(rounds, 'round_1'));
    const runDir = path.join(tempDir(), 'run');
    const config = resolveConfig({
      games: ['gomoku'],
      rounds: 1,
      variants: ['standard'],
      agents: [`dir:${link}`, `dir:${rounds}#versions`],
      concurrency: 2,
      bootstrapSamples: 50,
    });
    const summary = await runTourney({ config, runDir });
    expect(summary.tracks[0]!.agents).toEqual(['linked-bot', 'versions']);
    for (const s of summary.tracks[0]!.strategies) expect(s.status, s.failure).toBe('ok');
    const strat = (agent: string) => path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'strategies', agent);
    expect(fs.lstatSync(strat('linked-bot')).isDirectory()).toBe(true);
    expect(fs.readFileSync(path.join(strat('linked-bot'), 'bot.mjs'), 'utf8')).toBe(
      fs.readFileSync(path.join(BUILTIN('random'), 'bot.mjs'), 'utf8'),
    );
    expect(fs.readFileSync(path.join(strat('versions'), 'bot.mjs'), 'utf8')).toBe(
      fs.readFileSync(path.join(BUILTIN('heuristic'), 'bot.mjs'), 'utf8'),
    );
    for (const g of fs
      .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)))
      expect(g.termination).toBe('normal');
  }, 120_000);

  it('reject a missing folder or one without a bot, and name the agent kinds for a bad spec', () => {
    expect(() => createAgent('dir:/nonexistent/bot', 1)).toThrow(/is not a folder/);
    expect(() => createAgent(`dir:${tempDir()}`, 1)).toThrow(/neither start_ai.sh nor round_<n>/);
    expect(() => createAgent('wizard:merlin', 1)).toThrow(
      /offline:<character>.*dir:<path>.*builtin:<provider>\/<model>/,
    );
  });
});
