// The run directory's format version: format.json at a run's root, written when the run starts.
// Readers (every command that opens a run's journal) read an older format as it was written and
// refuse a newer one, naming what to do, instead of misreading files whose meaning moved.
// Formats:
//   0  runs from before format.json (up to 2026-12): the layout run-dir.ts describes
//   1  the same layout with format.json
// A change that makes a reader misread a run (a file renamed, moved or given another meaning) takes
// the next number, a line above, and a branch in the readers that meet it.
import path from 'node:path';
import { writeFileAtomic, readTextIfExists } from '../../util/fs.ts';
import { RUN_FILES } from '../../records/run-layout.ts';

export const RUN_FORMAT = 1;
export const FORMAT_FILE = RUN_FILES.format;

export interface RunFormat {
  format: number;
  /** The catarena release that started the run. */
  writer: string;
}

export class RunFormatError extends Error {
  override name = 'RunFormatError';
}

/** The run's format: 0 for a run from before format.json; throws on an unreadable file. */
export async function readRunFormat(root: string): Promise<number> {
  const file = path.join(root, FORMAT_FILE);
  const text = await readTextIfExists(file);
  if (text === undefined) return 0;
  let format: unknown;
  try {
    format = (JSON.parse(text) as Partial<RunFormat>).format;
  } catch {
    format = undefined;
  }
  if (!Number.isInteger(format) || (format as number) < 1)
    throw new RunFormatError(
      `${file} is not a run format record ({"format": <n>, …}); restore it from a copy of the run, or delete it if the run is older than format.json`,
    );
  return format as number;
}

/** Refuses a run written in a format newer than this catarena reads. */
export async function checkRunFormat(root: string): Promise<number> {
  const format = await readRunFormat(root);
  if (format > RUN_FORMAT)
    throw new RunFormatError(
      `${root} was written by a newer catarena (run format ${format}; this one reads formats 0 to ${RUN_FORMAT}): update catarena to read, resume or report it`,
    );
  return format;
}

/**
 * Before a run's journal is opened: a new run (no format.json, no journal) gets format.json; an
 * existing one is checked (a run from before format.json stays format 0, resumed in its own layout).
 */
export async function claimRunFormat(root: string, writer: string, hasJournal: boolean): Promise<number> {
  const format = await checkRunFormat(root);
  if (format > 0 || hasJournal) return format;
  const record: RunFormat = { format: RUN_FORMAT, writer };
  await writeFileAtomic(path.join(root, FORMAT_FILE), `${JSON.stringify(record)}\n`);
  return RUN_FORMAT;
}
