// Reading a run's replays in tests: replays/<id>.json.gz (records/replay-files.ts).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Replay } from '../../records/match.ts';
import { REPLAY_EXT } from '../../records/replay-files.ts';

/** One game's replay of a run directory. */
export const readReplaySync = (runDir: string, id: string): Replay =>
  JSON.parse(
    zlib.gunzipSync(fs.readFileSync(path.join(runDir, 'replays', `${id}${REPLAY_EXT}`))).toString('utf8'),
  ) as Replay;

/** Every replay in a replays folder. */
export const replaysIn = (replaysDir: string): Replay[] =>
  fs
    .readdirSync(replaysDir)
    .filter((f) => f.endsWith(REPLAY_EXT))
    .map((f) => JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(replaysDir, f))).toString('utf8')) as Replay);

/** A game's viewer data as the shared replay page gets it (replays/<id>.view.js: gzip in base64), as JSON text. */
export const viewDataSync = (runDir: string, id: string): string => {
  const script = fs.readFileSync(path.join(runDir, 'replays', `${id}.view.js`), 'utf8');
  return zlib
    .gunzipSync(Buffer.from(JSON.parse(/^catarenaReplayData\((".*")\);\s*$/s.exec(script)![1]!) as string, 'base64'))
    .toString('utf8');
};
