// The journal's chain seen from the runs around it: a cheating bot that rewrites journal.jsonl
// while its tourney plays (the attack of issue 42) is named in that run's own report and refused
// by `catarena report`; the run index's seal shows lines dropped from a journal's end and an
// edited index entry, and a key and chain removed together (`catarena report`, `catarena
// history`); `--reuse` refuses to copy games from an earlier run whose chain breaks; a journal
// re-chained under a key written over journal.key is seen by the run that holds the first key.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { INDEX_FILE } from '../orchestrator/run/run-dir.ts';
import { Journal } from '../orchestrator/run/journal.ts';
import {
  CHAIN_GENESIS,
  chainValue,
  splitChain,
  verifyJournalFile,
  withChain,
} from '../orchestrator/run/journal-chain.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import type { MatchResult } from '../records/match.ts';
import { BUILTIN, botDir, tempDir } from './helpers/bots.ts';
import { catarena } from './helpers/cli.ts';

const INPUT = {
  games: ['gomoku'],
  rounds: 1,
  variants: ['standard' as const],
  agents: [`dir:${BUILTIN('random')}#rnd`, `dir:${BUILTIN('heuristic')}#steady`],
  reps: 2,
  concurrency: 2,
  bootstrapSamples: 50,
};

/**
 * The random bot, plus a process that walks up from its folder to journal.jsonl and rewrites
 * every game its agent lost into a win (the chain field kept), leaving `rewrote-journal` in its
 * folder when it managed to.
 */
function journalRewriter(): string {
  const random = BUILTIN('random');
  return botDir('rewriter', '#!/bin/bash\ncd "$(dirname "$0")"\nnode rewrite.mjs &\nexec node bot.mjs "$1"\n', {
    'bot.mjs': fs.readFileSync(path.join(random, 'bot.mjs'), 'utf8'),
    'bot-http.mjs': fs.readFileSync(path.join(random, 'bot-http.mjs'), 'utf8'),
    'rewrite.mjs': `
import fs from 'node:fs';
import path from 'node:path';
function journal() {
  for (let d = process.cwd(); d !== path.dirname(d); d = path.dirname(d)) {
    const f = path.join(d, 'journal.jsonl');
    if (fs.existsSync(f)) return f;
  }
  return null;
}
setInterval(() => {
  const file = journal();
  if (!file) return;
  let changed = false;
  const lines = fs.readFileSync(file, 'utf8').split('\\n').map((line) => {
    try {
      const r = JSON.parse(line);
      const seat = r.spec.seats.findIndex((s) => s.startsWith('cheater@'));
      if (seat < 0 || r.scores[seat] === 1) return line;
      r.scores = r.scores.map((_, i) => (i === seat ? 1 : 0));
      r.winner = seat;
      changed = true;
      return JSON.stringify(r);
    } catch {
      return line;
    }
  });
  if (!changed) return;
  fs.writeFileSync(file, lines.join('\\n'));
  fs.writeFileSync('rewrote-journal', file);
}, 20);
`,
  });
}

let tmp: string;
beforeAll(() => {
  tmp = tempDir('catarena-seal-');
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const read = (file: string) => fs.readFileSync(file, 'utf8');
const journalLines = (runDir: string) => read(path.join(runDir, 'journal.jsonl')).trim().split('\n');

describe('a bot that rewrites the journal while its tourney plays', () => {
  it("is named in the run's own report, and catarena report refuses the journal", async () => {
    const runDir = path.join(tmp, 'cheated');
    const agents = [`dir:${journalRewriter()}#cheater`, `dir:${BUILTIN('heuristic')}#steady`];
    const summary = await runTourney({ config: resolveConfig({ ...INPUT, agents }), runDir, index: false });
    const marker = path.join(
      runDir,
      'tracks',
      'gomoku-standard',
      'round_1',
      'strategies',
      'cheater',
      'rewrote-journal',
    );
    if (!fs.existsSync(marker)) {
      // A sandbox that hides the run directory from bots stops the rewrite itself.
      expect(summary.journal).toMatchObject({ state: 'verified' });
      return;
    }
    expect(summary.journal).toMatchObject({ state: 'tampered' });
    const header = read(path.join(runDir, 'report.md')).split('\n')[2]!;
    expect(header).toMatch(/WARNING: journal.jsonl was tampered with at line \d+ .*changed while the run played/);
    // The report is from the games as played: the cheater won nothing against the heuristic bot.
    const played = summary.tracks[0]!.W;
    expect(played.W[played.agents.indexOf('cheater')]![played.agents.indexOf('steady')]).toBeLessThan(0.5);
    const r = await catarena('report', runDir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/journal\.jsonl:\d+: the journal's chain breaks here/);
  }, 60_000);
});

describe('a key of its own written over journal.key', () => {
  it('re-chains a journal that verifies by itself, but not against the key the run holds', async () => {
    const file = path.join(tmp, 'rekeyed', 'journal.jsonl');
    const journal = await Journal.open(file);
    const game = (id: string) =>
      ({
        id,
        spec: { game: 'gomoku', variant: 'standard', seats: ['a@r1', 'b@r1'] },
        scores: [0, 1],
        winner: 1,
      }) as unknown as MatchResult;
    await journal.append(game('g1'));
    await journal.append(game('g2'));
    const key = randomBytes(32);
    fs.writeFileSync(path.join(path.dirname(file), 'journal.key'), `${key.toString('hex')}\n`);
    let head = CHAIN_GENESIS;
    const forged = read(file)
      .trim()
      .split('\n')
      .map((line) => {
        const content = splitChain(line)!.content.replace('"scores":[0,1],"winner":1', '"scores":[1,0],"winner":0');
        head = chainValue(key, head, content);
        return withChain(content, head);
      });
    fs.writeFileSync(file, `${forged.join('\n')}\n`);
    expect(await verifyJournalFile(file)).toEqual({ state: 'verified', lines: 2 }); // the files alone cannot tell
    expect(await journal.recheck()).toMatchObject({ state: 'tampered', reason: 'journal.key was replaced or removed' });
  });
});

describe('the run index seal, history and --reuse', () => {
  let out: string;
  let first: string;
  let journal: string;
  let honest: string;
  beforeAll(async () => {
    out = path.join(tmp, 'runs');
    first = path.join(out, 'first');
    await runTourney({ config: resolveConfig(INPUT), runDir: first });
    journal = path.join(first, 'journal.jsonl');
    honest = read(journal);
  }, 60_000);

  it('history shows the sealed run; a journal cut short or an edited index entry is refused by report and history', async () => {
    const ok = await catarena('history', '--out', out, '--json');
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).map((r: { runId: string }) => r.runId)).toEqual(['first']);
    const entry = JSON.parse(read(path.join(out, INDEX_FILE)).trim().split('\n').at(-1)!);
    expect(entry.seal).toMatchObject({ lines: 4 });

    // The last game (a loss) dropped: the chain alone cannot see it; the seal can.
    fs.writeFileSync(journal, `${journalLines(first).slice(0, -1).join('\n')}\n`);
    const [report, history] = await Promise.all([
      catarena('report', first),
      catarena('history', '--out', out, '--json'),
    ]);
    expect(report.code).toBe(1);
    expect(report.stderr).toMatch(/journal\.jsonl:4: .*finished with 4 lines .* now ends after 3/);
    expect(JSON.parse(history.stdout)).toEqual([]);
    expect(history.stderr).toMatch(/left out: first: .*journal\.jsonl:4: .*--accept-tampered shows it/);
    const shown = await catarena('history', '--out', out, '--json', '--accept-tampered');
    expect(JSON.parse(shown.stdout)).toHaveLength(1);
    expect(shown.stderr).toMatch(/shown though tampered: first/);
    fs.writeFileSync(journal, honest);

    // The index entry's scores edited (the leaderboard history shows).
    const index = path.join(out, INDEX_FILE);
    const indexed = read(index);
    entry.leaderboard = [...entry.leaderboard].reverse();
    fs.appendFileSync(index, `${JSON.stringify(entry)}\n`);
    const edited = await catarena('history', '--out', out);
    expect(edited.stderr).toMatch(/left out: first: .*run index entry \(its scores or seal\) was changed/);
    fs.writeFileSync(index, indexed);

    // The key and every chain value removed, to pass as a run written before chains: the seal shows it.
    const keyFile = path.join(first, 'journal.key');
    const key = fs.readFileSync(keyFile);
    fs.rmSync(keyFile);
    fs.writeFileSync(journal, honest.replace(/,"chain":"[0-9a-f]{64}"\}/g, '}'));
    const downgraded = await catarena('report', first);
    expect(downgraded.code).toBe(1);
    expect(downgraded.stderr).toMatch(/journal\.jsonl:1: .*sealed but journal\.key is missing/);
    fs.writeFileSync(keyFile, key, { mode: 0o600 });
    fs.writeFileSync(journal, honest);
  }, 90_000);

  it('--reuse refuses to copy games from an earlier run whose chain breaks', async () => {
    const lines = journalLines(first);
    const r = JSON.parse(lines[0]!) as MatchResult;
    r.scores = [...r.scores].reverse();
    lines[0] = JSON.stringify(r);
    fs.writeFileSync(journal, `${lines.join('\n')}\n`);
    try {
      await expect(
        runTourney({ config: resolveConfig({ ...INPUT, reuse: true }), runDir: path.join(out, 'second') }),
      ).rejects.toThrow(
        /--reuse copies games from .*first[/]journal\.jsonl:1: the journal's chain breaks here.*Run without --reuse/,
      );
    } finally {
      fs.writeFileSync(journal, honest);
    }
  }, 60_000);
});
