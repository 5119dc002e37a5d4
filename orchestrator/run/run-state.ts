// Whether a run is running, finished, interrupted, failed, moved or killed: its status.json, checked
// against its process (a run whose process is gone without saying so was killed). `catarena serve`
// and `catarena history` read it (moved here from orchestrator/serve/runs.ts so both can).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isProcessGone, startTimeOf } from '../../util/procfs.mjs';
import type { RunStatus } from './run-dir.ts';
import { RUN_FILES } from '../../records/run-layout.ts';

/** `moved`: a scheduled night continued on another machine (status.json's movedTo names where). */
export type RunState = 'running' | 'finished' | 'interrupted' | 'failed' | 'moved' | 'killed' | 'unknown';

export function runState(dir: string): { state: RunState; status?: RunStatus } {
  let status: RunStatus | undefined;
  try {
    status = JSON.parse(fs.readFileSync(path.join(dir, RUN_FILES.status), 'utf8')) as RunStatus;
  } catch {
    status = undefined;
  }
  if (!status) {
    const done = [RUN_FILES.reportHtml, RUN_FILES.results].some((f) => fs.existsSync(path.join(dir, f)));
    return { state: done ? 'finished' : 'unknown' };
  }
  if (status.state !== 'running') return { state: status.state, status };
  if (status.host !== os.hostname()) return { state: 'running', status }; // another machine's: its word
  const alive = !isProcessGone(status.pid) && (status.pidStart === null || startTimeOf(status.pid) === status.pidStart);
  return { state: alive ? 'running' : 'killed', status };
}
