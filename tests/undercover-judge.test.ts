// The optional LLM judge of Undercover statements (games/undercover/reports/judge.ts): the rubric's
// 0–1 grid in steps of 0.2, and a judged run through catarena's egress proxy to a scripted
// OpenAI-compatible server that insists on the key (which only the proxy adds).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { initSetup } from '../games/core/game.ts';
import { createRng } from '../util/rng.ts';
import { judgeRun, parseJudgement } from '../games/undercover/reports/judge.ts';
import { undercover, type UndercoverAction } from '../games/undercover/rules.ts';
import { DEFAULT_LIMITS, type MatchSpec, type MoveRecord } from '../records/match.ts';
import { startScriptedLlm } from './helpers/scripted-llm.ts';
import { tempDir } from './helpers/bots.ts';

describe('the judge', () => {
  it('accepts two scores on the grid 0, 0.2, …, 1 and nothing else', () => {
    expect(parseJudgement('{"novelty": 0.6, "reasonableness": 1}')).toEqual({ novelty: 0.6, reasonableness: 1 });
    expect(parseJudgement('Sure! {"novelty": 0, "reasonableness": 0.4} done')).toEqual({
      novelty: 0,
      reasonableness: 0.4,
    });
    expect(parseJudgement('{"novelty": 0.5, "reasonableness": 1}')).toBeNull();
    expect(parseJudgement('{"novelty": 1.2, "reasonableness": 1}')).toBeNull();
    expect(parseJudgement('{"novelty": "high", "reasonableness": 1}')).toBeNull();
    expect(parseJudgement('no idea')).toBeNull();
  });

  it('judges every statement of a run through the egress proxy, which adds the key', async () => {
    // A run directory with one played game: six seats, two rounds of speaking.
    const spec: MatchSpec = {
      game: 'undercover',
      variant: 'standard',
      seats: ['a', 'b', 'c', 'd', 'e', 'f'],
      seed: 9,
      limits: DEFAULT_LIMITS,
      policy: 'strict',
    };
    let s = undercover.init('standard', createRng(spec.seed), initSetup(spec));
    const moves: MoveRecord[] = [];
    const clues = [
      'Small and common',
      'Found in many homes',
      'People talk about it',
      'Older than it looks',
      'Not very expensive',
      'Useful every week',
    ];
    let k = 0;
    while (undercover.toMove(s) !== null) {
      const seat = undercover.toMove(s)!;
      const action: UndercoverAction =
        s.phase === 'speak'
          ? { kind: 'speak', statement: `${clues[k % 6]} ${k++}` }
          : undercover.legalActions(s, seat)[0]!;
      s = undercover.apply(s, seat, action);
      moves.push({ ply: moves.length, seat, action, latencyMs: 1 });
    }
    const runDir = tempDir('catarena-uc-judge-');
    fs.mkdirSync(path.join(runDir, 'replays'));
    fs.writeFileSync(
      path.join(runDir, 'replays', 'g.json'),
      JSON.stringify({ result: { spec, serverGameId: 'undercover_g' }, setup: null, moves }),
    );
    const spoken = s.statements.filter((x) => x.text !== null).length;

    let n = 0;
    const llm = await startScriptedLlm(
      () => ({ text: n++ % 3 === 2 ? 'about 0.5 each' : '{"novelty": 0.8, "reasonableness": 0.6}' }),
      { key: 'sk-judge' },
    );
    try {
      const r = await judgeRun(runDir, { upstream: llm.baseURL, apiKey: 'sk-judge', model: 'judge-model' });
      expect(llm.requests).toHaveLength(spoken);
      expect(llm.requests.every((q) => q.authorization === 'Bearer sk-judge' && q.model === 'judge-model')).toBe(true);
      expect(String(llm.requests[0]!.messages[0]!.content)).toMatch(/0, 0\.2, 0\.4, 0\.6, 0\.8, 1/);
      expect(String(llm.requests[1]!.messages[1]!.content)).toContain(s.statements[0]!.text!);
      const unjudged = Math.floor(spoken / 3);
      expect(r).toMatchObject({ judged: spoken - unjudged, unjudged });
      const out = JSON.parse(fs.readFileSync(r.file, 'utf8'));
      expect(out.statements).toHaveLength(spoken);
      for (const st of Object.values(out.strategies) as Array<{ novelty: number; reasonableness: number }>)
        expect(st).toMatchObject({ novelty: 0.8, reasonableness: 0.6 });
    } finally {
      await llm.close();
    }
  });
});
