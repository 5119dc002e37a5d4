// Tourneys that several test files only read, played once per test run and copied for each file.
// The two vitest workers share a folder made by tests/global-setup.ts: the first file to ask
// plays the run (holding a lock directory with its pid), the others wait for it, or fail at once
// if that worker is gone. Each file gets its own copy (hard links kept), with the reports rebuilt there
// (summarizeRun, as at the end of every tourney), so nothing one file writes reaches another.
// Without the global setup (another config), each worker plays its own.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { resolveConfig, type TourneyConfigInput } from '../../orchestrator/config/tourney-config.ts';
import { summarizeRun } from '../../orchestrator/tourney/summarize.ts';
import { runTourney } from '../../orchestrator/tourney/tourney.ts';
import type { TourneySummary } from '../../records/tourney.ts';
import { isProcessGone } from '../../util/procfs.mjs';
import { tempDir } from './bots.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    sharedRunsDir: string;
  }
}

/** 3 offline agents × 2 rounds × both Gomoku rule sets: 60 games (tourney.test, report-html.test). */
export const GOMOKU_TWO_ROUNDS: TourneyConfigInput = {
  games: ['gomoku'],
  rounds: 2,
  concurrency: 2,
  bootstrapSamples: 200,
};

let localDir: string | undefined;
/** The folder shared runs live in: the global setup's, or this worker's own without it. */
export const sharedDir = (): string => inject('sharedRunsDir') ?? (localDir ??= tempDir('catarena-shared-runs-'));

const WAIT_MS = 300_000;

/**
 * Plays `input` into <shared>/<name>/run unless a file did already; resolves to that folder once it
 * is there. For readers only: a file that writes into a run takes a copy (sharedRun).
 */
export async function sharedRunDir(name: string, input: TourneyConfigInput): Promise<string> {
  const home = path.join(sharedDir(), name);
  const run = path.join(home, 'run');
  const done = path.join(home, 'done');
  const failed = path.join(home, 'failed');
  const owner = path.join(home, 'owner');
  fs.mkdirSync(sharedDir(), { recursive: true });
  let mine = false;
  try {
    fs.mkdirSync(home); // the lock: whoever makes the folder plays the run
    mine = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if (mine) {
    fs.writeFileSync(owner, String(process.pid));
    try {
      await runTourney({ config: resolveConfig(input), runDir: run });
      fs.writeFileSync(done, '');
    } catch (err) {
      fs.writeFileSync(failed, String((err as Error).stack ?? err));
      throw err;
    }
    return run;
  }
  const deadline = Date.now() + WAIT_MS;
  while (!fs.existsSync(done)) {
    if (fs.existsSync(failed))
      throw new Error(`the shared run ${name} failed in another test file:\n${fs.readFileSync(failed, 'utf8')}`);
    // A worker that died while playing leaves neither file: say so now, not at the deadline.
    const pid = ownerPid(owner);
    if (pid !== undefined && isProcessGone(pid) && !fs.existsSync(done)) {
      throw new Error(
        `the shared run ${name} (${home}) was being played by test worker ${pid}, which is gone; rerun the tests`,
      );
    }
    if (Date.now() > deadline)
      throw new Error(`the shared run ${name} (${home}) was not played within ${WAIT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return run;
}

function ownerPid(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8'));
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined; // not written yet
  }
}

/**
 * A copy of the shared run `name` (played from `input` once per test run) at `runDir`, and its
 * summary as runTourney returns it. The copy's reports are rebuilt in the copy.
 */
export async function sharedRun(name: string, input: TourneyConfigInput, runDir: string): Promise<TourneySummary> {
  const source = await sharedRunDir(name, input);
  fs.mkdirSync(runDir, { recursive: true });
  // cp -a, not fs.cpSync: the copy keeps the run's hard links (workspace and log files stored
  // once in store/), modes and mtimes, as the run left them (tests/run-dir-compact.test.ts checks them).
  execFileSync('cp', ['-a', `${source}/.`, runDir]);
  return summarizeRun(runDir);
}
