// Replay files: gzip JSON (replays/<id>.json.gz), a fraction of the JSON's size; runs written
// before replays were compressed hold replays/<id>.json, which every reader still takes.
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Replay } from './match.ts';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

export const REPLAY_EXT = '.json.gz';
/** The replay file of a game in a replays folder (the compressed name, whether or not it exists). */
export const replayFile = (replaysDir: string, matchId: string) => path.join(replaysDir, `${matchId}${REPLAY_EXT}`);

export async function writeReplayFile(replaysDir: string, replay: Replay): Promise<void> {
  await fs.writeFile(replayFile(replaysDir, replay.result.id), await gzip(JSON.stringify(replay)));
}

export async function readReplayFile(replaysDir: string, matchId: string): Promise<Replay> {
  let text: string;
  try {
    text = (await gunzip(await fs.readFile(replayFile(replaysDir, matchId)))).toString('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    text = await fs.readFile(path.join(replaysDir, `${matchId}.json`), 'utf8');
  }
  return JSON.parse(text) as Replay;
}

/** When a game's replay was written (either layout), or null when it has none. */
export async function replayMtime(replaysDir: string, matchId: string): Promise<number | null> {
  for (const file of [replayFile(replaysDir, matchId), path.join(replaysDir, `${matchId}.json`)]) {
    const stat = await fs.stat(file).catch(() => null);
    if (stat) return stat.mtimeMs;
  }
  return null;
}
