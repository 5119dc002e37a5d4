// The journal shows tampering (docs/architecture.md "The run directory"): each line of a finished
// run's journal.jsonl is chained under the run's key, so a cheater's rewrite (a flipped winner, a
// deleted line, a forged line with a guessed chain, the key removed) makes `catarena report` and
// `catarena resume` refuse the run with the line; --accept-tampered rebuilds with a warning at the
// top of the reports; a torn last line is not tampering; a run written before chains reads as
// unverified; `catarena serve` names the line and leaves the results after it out.
import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { ServeServer } from '../orchestrator/serve/server.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { summarizeRun } from '../orchestrator/tourney/summarize.ts';
import type { MatchResult } from '../records/match.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { catarena } from './helpers/cli.ts';

const FIXTURE = path.resolve(import.meta.dirname, 'fixtures/runs/tourney-6d841b9.tgz');
const FIXTURE_RUN = 'tourney-20261126-164850-066f';

/** A random bot against a heuristic one, two game pairs: 4 games, the random bot loses them. */
const INPUT = {
  games: ['gomoku'],
  rounds: 1,
  variants: ['standard' as const],
  agents: [`dir:${BUILTIN('random')}#rnd`, `dir:${BUILTIN('heuristic')}#steady`],
  reps: 2,
  concurrency: 2,
  bootstrapSamples: 50,
};

let tmp: string;
let base: string;
beforeAll(async () => {
  tmp = tempDir('catarena-chain-');
  base = path.join(tmp, 'base', 'run');
  await runTourney({ config: resolveConfig(INPUT), runDir: base, index: false });
}, 60_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A copy of the finished run, as a cheater would find it. */
function copyRun(name: string): { runDir: string; journal: string; lines: string[] } {
  const runDir = path.join(tmp, name);
  fs.cpSync(base, runDir, { recursive: true, verbatimSymlinks: true });
  const journal = path.join(runDir, 'journal.jsonl');
  return { runDir, journal, lines: fs.readFileSync(journal, 'utf8').trim().split('\n') };
}

/** What a cheating bot writes: the game `line` with rnd as its winner (every other field, the chain too, kept). */
function rndWins(line: string): string {
  const r = JSON.parse(line) as MatchResult & { chain?: string };
  const seat = r.spec.seats.findIndex((s) => s.startsWith('rnd@'));
  r.scores = r.scores.map((_, i) => (i === seat ? 1 : 0));
  r.winner = seat;
  return JSON.stringify(r); // key order kept: "chain" stays last
}

/** rnd's score in the game of a journal line. */
function rndScore(line: string): number {
  const r = JSON.parse(line) as MatchResult;
  return r.scores[r.spec.seats.findIndex((s) => s.startsWith('rnd@'))]!;
}

const writeLines = (file: string, lines: string[]) => fs.writeFileSync(file, `${lines.join('\n')}\n`);
const read = (file: string) => fs.readFileSync(file, 'utf8');
/** The first line of the report's header list (the journal's line). */
const headerLine = (runDir: string) => read(path.join(runDir, 'report.md')).split('\n')[2]!;

describe('a finished run whose journal a cheater rewrote', () => {
  it('a flipped winner: report refuses with the line; --accept-tampered rebuilds with the warning at the top', async () => {
    const { runDir, journal, lines } = copyRun('flipped');
    expect(lines).toHaveLength(4);
    const lost = lines.findIndex((l) => rndScore(l) < 1);
    expect(lost).toBeGreaterThanOrEqual(0);
    const before = read(path.join(runDir, 'report.md'));
    lines[lost] = rndWins(lines[lost]!);
    writeLines(journal, lines);

    const refused = await catarena('report', runDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`journal.jsonl:${lost + 1}: the journal's chain breaks here`);
    expect(refused.stderr).toMatch(/--accept-tampered/);
    expect(read(path.join(runDir, 'report.md'))).toBe(before); // nothing rebuilt from it

    const accepted = await summarizeRun(runDir, { acceptTampered: true }); // catarena report --accept-tampered
    expect(accepted.journal).toMatchObject({ state: 'tampered', line: lost + 1 });
    expect(headerLine(runDir)).toMatch(
      new RegExp(`^- \\*\\*WARNING: journal.jsonl was tampered with at line ${lost + 1} .*may be forged`),
    );
    expect(read(path.join(runDir, 'report.html'))).toContain(`tampered with at line ${lost + 1}`);
    // It did rebuild from the rewritten journal: rnd now has a win.
    const W = (dir: string) => read(path.join(dir, 'tracks', 'gomoku-standard', 'W.json'));
    expect(W(runDir)).not.toBe(W(base));
  }, 30_000);

  it('a deleted line, a forged line with a guessed chain and a removed key are refused at their line; --accept-tampered rebuilds', async () => {
    const deleted = copyRun('deleted');
    writeLines(deleted.journal, [deleted.lines[0]!, ...deleted.lines.slice(2)]);
    const forged = copyRun('forged');
    // The cheater re-appends a game with rnd winning (the last line for an id wins on load) and
    // chains it as catarena would, with a key it had to guess.
    const content = rndWins(forged.lines[0]!).replace(/,"chain":"[0-9a-f]{64}"\}$/, '}');
    const prev = (JSON.parse(forged.lines.at(-1)!).chain as string | undefined) ?? 'catarena-journal-v1';
    const guess = createHmac('sha256', randomBytes(32)).update(prev).update('\n').update(content).digest('hex');
    writeLines(forged.journal, [...forged.lines, `${content.slice(0, -1)},"chain":"${guess}"}`]);
    const keyless = copyRun('keyless'); // the key removed, so the chain cannot be checked: refused, not "unverified"
    fs.rmSync(path.join(keyless.runDir, 'journal.key'));

    const rebuilt = copyRun('deleted-accepted');
    writeLines(rebuilt.journal, [rebuilt.lines[0]!, ...rebuilt.lines.slice(2)]);

    const [d, f, k, a] = await Promise.all([
      ...[deleted, forged, keyless].map((c) => catarena('report', c.runDir)),
      catarena('report', rebuilt.runDir, '--accept-tampered'),
    ]);
    expect(a!.code, a!.stderr).toBe(0);
    expect(a!.stderr).toMatch(/!!! WARNING: journal.jsonl was tampered with at line 2/);
    expect(headerLine(rebuilt.runDir)).toMatch(/^- \*\*WARNING: journal.jsonl was tampered with at line 2 /);
    expect(d!.code).toBe(1);
    expect(d!.stderr).toContain("journal.jsonl:2: the journal's chain breaks here");
    expect(f!.code).toBe(1);
    expect(f!.stderr).toContain("journal.jsonl:5: the journal's chain breaks here");
    expect(k!.code).toBe(1);
    expect(k!.stderr).toMatch(/journal\.jsonl:1: .*journal\.key is missing/);
  }, 30_000);

  it('resume refuses a broken chain and plays nothing; --accept-tampered resumes with the warning', async () => {
    const { runDir, journal, lines } = copyRun('resume');
    lines[1] = rndWins(lines[1]!);
    writeLines(journal, lines);
    const tampered = read(journal);
    const refused = await catarena('resume', runDir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("journal.jsonl:2: the journal's chain breaks here");
    expect(read(journal)).toBe(tampered);
    // catarena resume --accept-tampered
    const config = JSON.parse(read(path.join(runDir, 'config.json')));
    await runTourney({ config, runDir, index: false, acceptTampered: true });
    expect(read(journal)).toBe(tampered); // every game was in it: nothing played, nothing re-chained
    expect(headerLine(runDir)).toMatch(
      /WARNING: journal.jsonl was tampered with at line 2 .*may be forged \(rebuilt with --accept-tampered\)/,
    );
  }, 30_000);
});

describe('journals that are not tampered with', () => {
  it('a torn last line from a kill is cut off, not tampering; the report says verified', async () => {
    const { runDir, journal, lines } = copyRun('torn');
    fs.appendFileSync(journal, '{"id":"torn');
    expect((await summarizeRun(runDir)).journal).toEqual({ state: 'verified', lines: 4 }); // catarena report
    expect(headerLine(runDir)).toBe(
      "- Journal: verified (4 lines, each chained to the one before under the run's key)",
    );
    expect(read(journal)).toBe(`${lines.join('\n')}\n`);
    expect(fs.statSync(path.join(runDir, 'journal.key')).mode & 0o777).toBe(0o600);
  }, 30_000);

  it('a run written before chains (the 6d841b9 fixture) reads as unverified, in report.md and report.html', async () => {
    const out = path.join(tmp, 'fixture');
    fs.mkdirSync(out);
    execFileSync('tar', ['xzf', FIXTURE, '-C', out]);
    const runDir = path.join(out, FIXTURE_RUN);
    expect((await summarizeRun(runDir)).journal).toEqual({ state: 'unverified', lines: 12 }); // catarena report
    expect(headerLine(runDir)).toMatch(/^- Journal: unverified \(written before catarena chained its lines/);
    expect(read(path.join(runDir, 'report.html'))).toMatch(/data-testid="journal-integrity">Journal: unverified/);
    expect(fs.existsSync(path.join(runDir, 'journal.key'))).toBe(false);
  }, 30_000);
});

describe('catarena serve', () => {
  it('marks a tampered run in the run list and names the line on its page, leaving later results out', async () => {
    const out = path.join(tmp, 'serve');
    fs.mkdirSync(out);
    fs.cpSync(base, path.join(out, 'honest'), { recursive: true, verbatimSymlinks: true });
    fs.cpSync(base, path.join(out, 'cheated'), { recursive: true, verbatimSymlinks: true });
    const journal = path.join(out, 'cheated', 'journal.jsonl');
    const lines = read(journal).trim().split('\n');
    lines[2] = rndWins(lines[2]!);
    writeLines(journal, lines);
    const server = new ServeServer({ out, port: 0 });
    await server.start();
    try {
      const base = `http://127.0.0.1:${server.port}`;
      const runs = (await (await fetch(`${base}/api/runs`)).json()) as Array<{
        name: string;
        journal?: { state: string; line?: number };
      }>;
      expect(runs.find((r) => r.name === 'honest')!.journal).toMatchObject({ state: 'verified', lines: 4 });
      expect(runs.find((r) => r.name === 'cheated')!.journal).toMatchObject({ state: 'tampered', line: 3 });
      const snapshot = await firstEvent(`${base}/run/cheated/events`);
      expect(snapshot.warnings.join('\n')).toContain('journal.jsonl was tampered with at line 3');
      expect(snapshot.results).toHaveLength(2); // the lines before the break
    } finally {
      await server.close();
    }
  }, 30_000);
});

/** The first message of a server-sent event stream. */
async function firstEvent(url: string): Promise<{ warnings: string[]; results: unknown[] }> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  const reader = res.body!.getReader();
  let text = '';
  while (!/\ndata: .*\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
  controller.abort();
  return JSON.parse(/\ndata: (.*)\n/.exec(text)![1]!);
}
