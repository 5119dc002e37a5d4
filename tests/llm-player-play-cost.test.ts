// An LLM-player's play-time tokens read from its bot logs: each decision line's tokens={...}
// summed by kind per strategy round and costed; a log cut at the sandbox's cap makes the report's
// figures a lower bound, and says so; an LLM-player whose every answer was billed but gave no move
// (all thinking, cut at max_tokens) is not said to have had no call succeed.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { costRoundRows } from '../reports/cost-by-round.ts';
import { decisionTokens, fallbackAlarmLines, llmPlayerUse } from '../reports/llm-player-use.ts';
import { tempDir } from './helpers/bots.ts';

const line = (kind: 'answered' | 'fallback', t: object, rest = '') =>
  `[llm-player] ${kind} game=g1 after 1 attempt(s) tokens=${JSON.stringify(t)}${rest}`;

describe('play-time tokens from the bot logs', () => {
  it('sums each decision line by kind per strategy round, costs it, and marks a cut log', async () => {
    const dir = tempDir();
    const t = { input: 600, cacheRead: 400, cacheWrite: 0, output: 30 };
    fs.writeFileSync(
      path.join(dir, 'p@r1.log'),
      [line('answered', t), line('fallback', t, ': answer "x" {not json}; playing a random legal action: a1'), ''].join(
        '\n',
      ),
    );
    fs.writeFileSync(
      path.join(dir, 'p@r2.log'),
      [line('answered', t), '[catarena] output truncated at 1048576 bytes; the rest was discarded', ''].join('\n'),
    );
    const strategies = [
      { id: 'p@r1', agent: 'p', round: 1, agentKind: 'llm-player:openai/my-model' },
      { id: 'p@r2', agent: 'p', round: 2, agentKind: 'llm-player:openai/my-model' },
    ];
    const use = await llmPlayerUse(dir, strategies, { 'my-model': { input: 10, cacheRead: 1, output: 20 } });
    expect(use.p).toMatchObject({ decisions: 3, fallbacks: 1, truncated: true });
    expect(use.p!.play!['1']!.tokens).toEqual({ input: 1200, cacheRead: 800, cacheWrite: 0, output: 60 });
    expect(use.p!.play!['1']!.costUsd).toBeCloseTo((2 * (6000 + 400 + 600)) / 1e6, 12);
    const rows = costRoundRows([
      { strategies: strategies.map((s) => ({ ...s, status: 'ok' }) as never), llmPlayers: use },
    ]);
    expect(rows.map((r) => r.slice(8))).toEqual([
      ['1200', '800', '60', '$0.01 (at least: a bot log was cut)'],
      ['600', '400', '30', '$0.0070 (at least: a bot log was cut)'],
    ]);
  });

  it('a line without tokens (an older bot) counts its decision and no tokens', () => {
    expect(decisionTokens('[llm-player] answered game=g1 after 1 attempt(s)')).toEqual({
      input: 0,
      cacheRead: 0,
      cacheWrite: 0,
      output: 0,
    });
  });

  it('every decision a fallback: "no call succeeded" only where no answer was billed; answers cut at max_tokens are said as such', async () => {
    const dir = tempDir();
    const cut = (n: number) =>
      line(
        'fallback',
        { input: 300, cacheRead: 0, cacheWrite: 0, output: 256 },
        ` stop=max_tokens: answer "" {no move}; playing a random legal action: a${n}`,
      );
    const refused = (n: number) =>
      line('fallback', {}, ` stop=http_401: HTTP 401 Incorrect API key provided; playing a random legal action: a${n}`);
    fs.writeFileSync(path.join(dir, 'thinker@r1.log'), [cut(1), cut(2), cut(3), ''].join('\n'));
    fs.writeFileSync(path.join(dir, 'locked@r1.log'), [refused(1), refused(2), ''].join('\n'));
    const use = await llmPlayerUse(dir, [
      { id: 'thinker@r1', agent: 'thinker', round: 1, agentKind: 'llm-player:anthropic/claude-sonnet-5' },
      { id: 'locked@r1', agent: 'locked', round: 1, agentKind: 'llm-player:openai/gpt-5.5' },
    ]);
    const [thinker, locked] = fallbackAlarmLines([{ llmPlayers: use }]);
    expect(thinker).toMatch(
      /^Every decision of LLM-player thinker was a random fallback \(3 of 3\): its model answered \(768 output tokens billed\) but no answer gave a move/,
    );
    expect(thinker).not.toContain('no call to its model succeeded');
    expect(locked).toMatch(
      /^Every decision of LLM-player locked was a random fallback \(2 of 2\): no call to its model succeeded/,
    );
  });
});
