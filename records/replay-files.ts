// Replay files: gzip JSON (replays/<id>.json.gz), a fraction of the JSON's size; runs written
// before replays were compressed hold replays/<id>.json, which every reader still takes.
// Read, written and compressed synchronously: a replay is a few kilobytes, and a promise per file
// operation (node:fs/promises, async zlib) is a hop to libuv's thread pool and back that on a
// 2-core VM cost several times the work itself (a tourney writes one per game, and its reports
// read each back).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Replay } from './match.ts';

export const REPLAY_EXT = '.json.gz';
/** The replay file of a game in a replays folder (the compressed name, whether or not it exists). */
export const replayFile = (replaysDir: string, matchId: string) => path.join(replaysDir, `${matchId}${REPLAY_EXT}`);

export async function writeReplayFile(replaysDir: string, replay: Replay): Promise<void> {
  fs.writeFileSync(replayFile(replaysDir, replay.result.id), zlib.gzipSync(JSON.stringify(replay)));
}

export async function readReplayFile(replaysDir: string, matchId: string): Promise<Replay> {
  let text: string;
  try {
    text = zlib.gunzipSync(fs.readFileSync(replayFile(replaysDir, matchId))).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    text = fs.readFileSync(path.join(replaysDir, `${matchId}.json`), 'utf8');
  }
  return JSON.parse(text) as Replay;
}

/** When a game's replay was written (either layout), or null when it has none. */
export async function replayMtime(replaysDir: string, matchId: string): Promise<number | null> {
  for (const file of [replayFile(replaysDir, matchId), path.join(replaysDir, `${matchId}.json`)]) {
    try {
      return fs.statSync(file).mtimeMs;
    } catch {}
  }
  return null;
}
