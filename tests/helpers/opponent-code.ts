// Shared by tests/opponent-code-*.test.ts: a small gomoku tourney (2 rounds, two offline agents
// and a leaking rival) and readers of an agent's round-2 workspace. The rival "leaker" is a dir:
// agent whose bot prints its own source and exits: its failed build quotes that source in the
// round's round_report.json (as a crashing bot's traceback would), so the source can reach a
// rival's workspace through the logs as well as through last_round/.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { TourneyConfigInput } from '../../orchestrator/config/tourney-config.ts';
import { tempDir } from './bots.ts';

/** Only the leaker's code holds this string. */
export const MARKER = 'LEAKER_OPENING_BOOK_7c1e';

export function leakerDir(): string {
  const dir = path.join(tempDir(), 'leaker');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'strategy.py'), `OPENING_BOOK = "${MARKER}"\n`);
  // Fails its entry check with its source in the log tail, as a crashing bot's traceback would.
  fs.writeFileSync(path.join(dir, 'start_ai.sh'), '#!/bin/bash\ncat "$(dirname "$0")/strategy.py" >&2\nexit 1\n');
  return dir;
}

export const config = (leaker: string): TourneyConfigInput => ({
  games: ['gomoku'],
  variants: ['standard'],
  rounds: 2,
  agents: ['offline:cautious', 'offline:aggressive', `dir:${leaker}#leaker`],
  concurrency: 2,
  bootstrapSamples: 20,
  startTimeoutMs: 5_000,
});

export const round2 = (runDir: string, agent: string, track = 'gomoku-standard') =>
  path.join(runDir, 'tracks', track, 'round_2', 'workspaces', agent);

/** Every file of a folder (a finished run's logs may be stored as <name>.gz), as text. */
export function filesText(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, rel);
    if (!fs.statSync(file).isFile()) continue;
    const bytes = fs.readFileSync(file);
    out.set(rel.replace(/\.gz$/, ''), (rel.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes).toString('utf8'));
  }
  return out;
}

export const leaks = (dir: string) => [...filesText(dir)].filter(([, text]) => text.includes(MARKER)).map(([f]) => f);

export function roundReport(workspace: string) {
  return JSON.parse(filesText(path.join(workspace, 'logs')).get('round_report.json')!) as {
    games: number;
    strategies: Array<{ agent: string; failure?: string }>;
    pairwise: Record<string, Record<string, unknown>>;
  };
}
