// A finished game's replay for `catarena serve` (/run/<name>/replay?id=<id>): every run keeps its
// games in replays/<id>.json.gz, but only `catarena report` writes the replay pages beside them,
// so a `play` or `arena` run (which writes no report) had none a person could open. The server
// builds the game's viewer data from its replay file when asked, and never writes the run.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ViewerData } from '../../games/core/viewer.ts';
import { viewerDataOf } from '../../reports/html/replay-page.ts';
import { readReplayFile, REPLAY_EXT } from '../../records/replay-files.ts';
import { RUN_DIRS } from '../../records/run-layout.ts';

/** A match id as the journal writes it: anything else names no replay. */
const MATCH_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The viewer data of a game of the run, or why there is none (the page shows the reason). */
export async function replayViewerData(
  runDir: string,
  id: string,
): Promise<{ data: ViewerData } | { status: number; error: string }> {
  if (!MATCH_ID.test(id))
    return { status: 400, error: 'no game named: open a replay from the run page (?id=<match id>)' };
  const replays = path.join(runDir, RUN_DIRS.replays);
  // Regular files only: a link in replays/ is not followed (the run's own writer makes none).
  const kinds = await Promise.all(
    [`${id}${REPLAY_EXT}`, `${id}.json`].map((f) => fs.lstat(path.join(replays, f)).catch(() => null)),
  );
  if (kinds.some((st) => st && !st.isFile())) return { status: 403, error: `${id}'s replay is not a plain file` };
  if (!kinds.some((st) => st?.isFile())) return { status: 404, error: `no replay of ${id} in this run (yet)` };
  const data = await viewerDataOf(await readReplayFile(replays, id));
  if (!data) return { status: 404, error: `${id}'s game has no replay viewer` };
  return { data };
}
