// What a round n > 1 workspace shows of an agent's rivals (config opponentCode,
// records/opponent-code.ts). Rivals' code is left out by not copying their folders; the one place
// the round's logs quote a bot's own output is round_report.json's build failures and entry-check
// warnings (a bot that did not start shows its log tail there, e.g. a Python traceback quoting its
// source), so under logs-only and hidden a rival's entry keeps its status and failure reason only.
import fs from 'node:fs/promises';
import path from 'node:path';
import { showsRivalCode, type OpponentCode } from '../../records/opponent-code.ts';
import type { RoundReport } from '../../records/tourney.ts';
import { FAILURE_WORDS, type BuildFailureReason } from './failure.ts';
import { RUN_FILES } from '../../records/run-layout.ts';

/** The previous round's bots a workspace holds: every agent's (visible), else the agent's own only. */
export function botsShown<B extends { agent: string }>(
  bots: readonly B[],
  agentId: string,
  setting: OpponentCode | undefined,
): B[] {
  return showsRivalCode(setting) ? [...bots] : bots.filter((b) => b.agent === agentId);
}

/** A failure's reason and its words ("invalid_bot: the bot failed the entry check"), without the detail that quotes the bot. */
export function failureReasonOnly(failure: string): string {
  const reason = failure.slice(0, failure.indexOf(':')) as BuildFailureReason;
  return Object.hasOwn(FAILURE_WORDS, reason) ? `${reason}: ${FAILURE_WORDS[reason]}` : 'failed';
}

/**
 * Rewrites the workspace's round_report.json (if any) so that no rival's entry quotes its bot's
 * output: failure reduced to its reason, warnings left out. The agent's own entries are kept.
 * Returns whether anything was removed.
 */
export async function dropRivalOutput(logsDir: string, agentId: string): Promise<boolean> {
  const file = path.join(logsDir, RUN_FILES.roundReport);
  let report: RoundReport;
  try {
    report = JSON.parse(await fs.readFile(file, 'utf8')) as RoundReport;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new Error(`cannot read ${file} to hide rivals' build output: ${(err as Error).message}`);
  }
  let changed = false;
  report.strategies = report.strategies.map((s) => {
    if (s.agent === agentId || (s.failure === undefined && s.warnings === undefined)) return s;
    const { failure, warnings: _, ...rest } = s;
    changed = true;
    return failure === undefined ? rest : { ...rest, failure: failureReasonOnly(failure) };
  });
  if (!changed) return false;
  await fs.rm(file); // a finished run's logs are read-only hard links into its store: never write through one
  await fs.writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  return true;
}
