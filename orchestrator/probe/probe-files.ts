// The probe's files in the run directory (docs/probe.md): per track probe/<game>-<variant>/
// consistency.json (the result), consistency.csv (the matrix), consistency.svg (its heatmap) and
// actions.json (every state and answer). Reports read the results back from here.
import fs from 'node:fs/promises';
import path from 'node:path';
import { consistencyCsv, type ProbeActions, type ProbeTrackResult } from '../../reports/probe-consistency.ts';
import { consistencyHeatmap } from '../../reports/html/probe-html.ts';
import type { RunDir } from '../run/run-dir.ts';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export async function writeProbeTrack(run: RunDir, result: ProbeTrackResult, actions: ProbeActions): Promise<string> {
  const dir = run.probeDir(result.track);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'actions.json'), json(actions));
  await fs.writeFile(path.join(dir, 'consistency.csv'), consistencyCsv(result.matrix));
  await fs.writeFile(path.join(dir, 'consistency.svg'), `${consistencyHeatmap(result)}\n`);
  // The result last: a track is probed when its consistency.json exists.
  await fs.writeFile(path.join(dir, 'consistency.json'), json(result));
  return dir;
}

/** Every probed track of the run (empty when it was never probed), by track name. */
export async function readProbeResults(run: RunDir): Promise<ProbeTrackResult[]> {
  const tracks = await fs.readdir(run.probeDir()).catch(() => [] as string[]);
  const out: ProbeTrackResult[] = [];
  for (const t of tracks.sort()) {
    try {
      out.push(
        JSON.parse(await fs.readFile(path.join(run.probeDir(t), 'consistency.json'), 'utf8')) as ProbeTrackResult,
      );
    } catch {
      // not a probed track (a probe killed before it finished this one)
    }
  }
  return out;
}
