// The run directory's format version (orchestrator/run/run-format.ts): a new run records format 1;
// a run from before format.json (the committed 6d841b9 fixture) is read as format 0 and reported
// as before; a run in a newer format, or with a damaged format.json, is refused by `report` and
// `resume` with what to do, and marked in `serve`'s run list; nothing of it is written over.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { FORMAT_FILE, readRunFormat, RUN_FORMAT } from '../orchestrator/run/run-format.ts';
import { ServeServer } from '../orchestrator/serve/server.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { CATARENA_VERSION } from '../util/version.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { catarena } from './helpers/cli.ts';

const FIXTURE = path.resolve(import.meta.dirname, 'fixtures/runs/tourney-6d841b9.tgz');
const FIXTURE_RUN = 'tourney-20261126-164850-066f';

let tmp: string;
let fresh: string;
beforeAll(async () => {
  tmp = tempDir('catarena-format-');
  fresh = path.join(tmp, 'runs', 'fresh');
  const config = resolveConfig({
    games: ['gomoku'],
    rounds: 1,
    variants: ['standard'],
    agents: [`dir:${BUILTIN('random')}#rnd`, `dir:${BUILTIN('heuristic')}#steady`],
    reps: 1,
    bootstrapSamples: 20,
  });
  await runTourney({ config, runDir: fresh, index: false });
}, 60_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A copy of the fresh run whose format.json says `text`. */
function copyWithFormat(name: string, text: string): string {
  const dir = path.join(tmp, 'runs', name);
  fs.cpSync(fresh, dir, { recursive: true, verbatimSymlinks: true });
  fs.writeFileSync(path.join(dir, FORMAT_FILE), text);
  return dir;
}

describe('the run format version', () => {
  it('a new run records the current format and the release that wrote it', async () => {
    expect(JSON.parse(fs.readFileSync(path.join(fresh, FORMAT_FILE), 'utf8'))).toEqual({
      format: RUN_FORMAT,
      writer: CATARENA_VERSION,
    });
    expect(await readRunFormat(fresh)).toBe(1);
    expect(JSON.parse(fs.readFileSync('package.json', 'utf8')).version).toBe(CATARENA_VERSION);
  });

  it('an older run (no format.json) is read as format 0 and reported; nothing stamps it', async () => {
    const out = path.join(tmp, 'old');
    fs.mkdirSync(out);
    execFileSync('tar', ['xzf', FIXTURE, '-C', out]);
    const runDir = path.join(out, FIXTURE_RUN);
    expect(await readRunFormat(runDir)).toBe(0);
    const report = await catarena('report', runDir);
    expect(report.code, report.stderr).toBe(0);
    expect(fs.existsSync(path.join(runDir, FORMAT_FILE))).toBe(false);
  }, 30_000);

  it('a newer format, or a damaged format.json, is refused by report and resume, files untouched', async () => {
    const newer = copyWithFormat('newer', '{"format": 7, "writer": "9.0.0"}\n');
    const damaged = copyWithFormat('damaged', 'not json');
    for (const [dir, message] of [
      [newer, /written by a newer catarena \(run format 7; this one reads formats 0 to 1\): update catarena/],
      [damaged, /format\.json is not a run format record/],
    ] as const) {
      const before = fs.readFileSync(path.join(dir, 'report.md'), 'utf8');
      for (const command of ['report', 'resume']) {
        const result = await catarena(command, dir);
        expect(result.code, `${command}: ${result.stdout}`).not.toBe(0);
        expect(result.stderr).toMatch(message);
        expect(result.stderr).not.toMatch(/\n\s+at /);
      }
      expect(fs.readFileSync(path.join(dir, 'report.md'), 'utf8')).toBe(before);
    }
    const server = new ServeServer({ out: path.join(tmp, 'runs'), port: 0 });
    await server.start();
    try {
      const runs = (await (await fetch(`http://127.0.0.1:${server.port}/api/runs`)).json()) as Array<{
        name: string;
        message?: string;
      }>;
      expect(runs.find((r) => r.name === 'newer')!.message).toMatch(/newer catarena \(run format 7/);
      expect(runs.find((r) => r.name === 'fresh')!.message).toBeUndefined();
    } finally {
      await server.close();
    }
  }, 60_000);
});
