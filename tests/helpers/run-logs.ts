// Reading a finished run's round logs in tests: its log files of 8 KiB or more are <name>.gz
// (orchestrator/run/file-store.ts).
import fs from 'node:fs';
import zlib from 'node:zlib';

/** A logs folder's file names as the round wrote them (<name>.gz listed as <name>). */
export const logNames = (dir: string): string[] => fs.readdirSync(dir).map((f) => f.replace(/\.gz$/, ''));

/** A log file's text, from <file> or <file>.gz. */
export const readLogSync = (file: string): string =>
  fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).toString('utf8');
