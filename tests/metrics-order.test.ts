// metrics.json must not depend on the order games finished in: with overlapping tracks or
// `--concurrency auto` the journal interleaves games differently from run to run, and the
// bootstrap's samples would follow that order. The same run's journal reversed must report the
// same W and metrics (the 6d841b9 fixture run: 2 rounds of Gomoku, two offline agents).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catarena } from './helpers/cli.ts';

const FIXTURE = path.resolve(import.meta.dirname, 'fixtures/runs/tourney-6d841b9.tgz');
const FIXTURE_RUN = 'tourney-20261126-164850-066f';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-order-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function reported(name: string, reorder: (lines: string[]) => string[]) {
  const out = path.join(tmp, name);
  fs.mkdirSync(out);
  execFileSync('tar', ['xzf', FIXTURE, '-C', out]);
  const runDir = path.join(out, FIXTURE_RUN);
  const journal = path.join(runDir, 'journal.jsonl');
  const lines = fs.readFileSync(journal, 'utf8').trim().split('\n');
  fs.writeFileSync(journal, `${reorder(lines).join('\n')}\n`);
  const r = await catarena('report', runDir);
  expect(r.code, r.stderr).toBe(0);
  const track = path.join(runDir, 'tracks', 'gomoku-standard');
  return {
    games: lines.length,
    W: fs.readFileSync(path.join(track, 'W.json'), 'utf8'),
    metrics: fs.readFileSync(path.join(track, 'metrics.json'), 'utf8'),
  };
}

describe('reports do not depend on the journal order', () => {
  it('the journal reversed gives the same W.json and metrics.json', async () => {
    const inOrder = await reported('in-order', (l) => l);
    const reversed = await reported('reversed', (l) => [...l].reverse());
    expect(inOrder.games).toBeGreaterThan(10);
    expect(JSON.parse(inOrder.metrics).bootstrap).toBeDefined();
    expect(reversed.W).toBe(inOrder.W);
    expect(reversed.metrics).toBe(inOrder.metrics);
  }, 180_000);
});
