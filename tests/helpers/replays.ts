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

/** The bundle file that holds a game's viewer data (replays/views.js lists them), or null. */
export const viewFileSync = (replaysDir: string, id: string): string | null => {
  const index = path.join(replaysDir, 'views.js');
  if (!fs.existsSync(index)) return null;
  const files = JSON.parse(/^catarenaReplayIndex\((.*)\);\s*$/s.exec(fs.readFileSync(index, 'utf8'))![1]!) as Record<
    string,
    string[]
  >;
  const file = Object.keys(files).find((f) => files[f]!.includes(id));
  return file ? path.join(replaysDir, file) : null;
};

/** A game's viewer data as the shared replay page gets it (its bundle: gzip in base64), as JSON text. */
export const viewDataSync = (runDir: string, id: string): string => {
  const file = viewFileSync(path.join(runDir, 'replays'), id);
  if (!file) throw new Error(`no viewer data for ${id} in ${runDir}/replays/views.js`);
  const script = fs.readFileSync(file, 'utf8');
  const all = JSON.parse(
    zlib
      .gunzipSync(
        Buffer.from(JSON.parse(/^catarenaReplayBundle\((".*")\);\s*$/s.exec(script)![1]!) as string, 'base64'),
      )
      .toString('utf8'),
  ) as Record<string, unknown>;
  return JSON.stringify(all[id]);
};
