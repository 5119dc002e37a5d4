// A round's logs are written in memory that does not grow with its games (issue 34): the writers
// read replays one at a time and write the files in pieces, with the bytes of the whole-text form.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonArraySpool, LogFile, Spool } from '../reports/catarena/log-files.ts';

const run = promisify(execFile);
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe('LogFile.writeJson with spooled arrays', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catarena-logfile-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes the bytes of JSON.stringify(value, null, 2) at any depth, empty arrays included', async () => {
    const games = [{ id: 'a', board: [[0, 1], [2]], note: 'x\ny', none: null }, { id: 'b', moves: [] }, 7, 'z'];
    const deep = [{ k: [1, { q: 'r' }] }];
    const value = { head: { n: 1 }, games, outer: { inner: deep, empty: [] }, tail: 'end' };
    const spooled = async (items: unknown[], name: string, depth: number) => {
      const a = new JsonArraySpool(new Spool(join(dir, name)), depth);
      for (const item of items) await a.push(item);
      return a;
    };
    const a = await spooled(games, 'a.part', 1);
    const b = await spooled(deep, 'b.part', 2);
    const c = await spooled([], 'c.part', 2);
    const file = await LogFile.open(join(dir, 'sub', 'report.json'));
    await file.writeJson({ head: { n: 1 }, games: a, outer: { inner: b, empty: c }, tail: 'end' }, [a, b, c]);
    await file.close();
    expect(await readFile(join(dir, 'sub', 'report.json'), 'utf8')).toBe(json(value));
    expect(await readdir(join(dir, 'sub'))).toEqual(['report.json']); // written as .tmp, renamed on close
  });
});

describe('writeRoundLogs in bounded memory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catarena-round-logs-heap-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('writes a 1,500-game Gomoku round (about 65 MB of logs) within a 64 MB heap', async () => {
    // Holding the round's replays or its report texts whole needs well over 64 MB here.
    const out = join(dir, 'logs');
    const child = await run(
      process.execPath,
      ['--max-old-space-size=64', '--import', 'tsx', join(import.meta.dirname, 'helpers', 'round-logs-heap.ts')],
      { env: { ...process.env, ROUND_LOGS_GAMES: '1500', ROUND_LOGS_OUT: out }, timeout: 120_000 },
    ).then(
      (r) => ({ ...r, exit: 0 as number | string }),
      (err: { code?: number; signal?: string; stderr?: string }) => ({
        stdout: '',
        stderr: err.stderr ?? '',
        exit: err.code ?? err.signal ?? 'error',
      }),
    );
    expect(child.exit, child.stderr.slice(-800)).toBe(0);
    expect(JSON.parse(child.stdout).written).toBe(6);
    const files = (await readdir(out)).sort();
    const report = files.find((f) => /^tournament_report_tournament_\d+\.json$/.test(f))!;
    const history = files.find((f) => f.startsWith('tournament_report_history_'))!;
    for (const name of [report, history]) {
      const text = await readFile(join(out, name), 'utf8');
      const parsed = JSON.parse(text);
      expect(parsed.results ?? parsed.detailed_results).toHaveLength(1500);
      expect(text).toBe(json(parsed)); // the spliced games are indented as JSON.stringify indents them
    }
    const parsed = JSON.parse(await readFile(join(out, report), 'utf8'));
    expect(parsed.results[1499].game_history.moves).toHaveLength(100);
    expect(parsed.ai_stats['alpha@r2'].total_moves).toBe(1000 * 50);
    const txt = await readFile(join(out, files.find((f) => f.endsWith('.txt'))!), 'utf8');
    expect(txt.trimEnd().split('\n').at(-1)).toMatch(/^1500\. gomoku_game1499 - /);
  }, 150_000);
});
