// Whether an attempt of an LLM agent left a runnable bot: the judgement behind retries and the
// fallback model (the paper's rule: three failed attempts, then the fallback).
import fs from 'node:fs';
import path from 'node:path';
import type { BuildFailureReason } from './failure.ts';
import type { Workspace } from './types.ts';
import { oneLine } from './one-line.ts';

/**
 * start_ai.sh exists in the output folder and, when the orchestrator provides a check, it passes;
 * `reason` names a failure (no bot written, or one that failed the check).
 */
export async function runnableBot(
  ws: Workspace,
): Promise<{ ok: true; why: string } | { ok: false; why: string; reason: BuildFailureReason }> {
  if (!fs.existsSync(path.join(ws.outputDir, 'start_ai.sh')))
    return { ok: false, why: 'no start_ai.sh in the output folder', reason: 'no_bot' };
  if (!ws.check) return { ok: true, why: 'start_ai.sh written (no arena check available)' };
  try {
    const r = await ws.check();
    return r.ok
      ? { ok: true, why: 'the arena check passed' }
      : { ok: false, why: `the arena check failed: ${oneLine(r.report, 400)}`, reason: 'invalid_bot' };
  } catch (err) {
    return {
      ok: false,
      why: `the arena check could not run: ${oneLine((err as Error).message ?? String(err), 300)}`,
      reason: 'invalid_bot',
    };
  }
}
