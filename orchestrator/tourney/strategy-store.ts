// Strategies as stored in the run directory: the bot folder copied out of the agent's workspace,
// content-hashed, with its record (build status, validation, cost) beside it.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { StrategyRecord } from './types.ts';

/** sha256 over every file's relative path and bytes, in sorted order. */
export async function hashDir(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const files = (await listFiles(dir)).sort();
  for (const rel of files) {
    hash.update(rel).update('\u0000');
    hash.update(await fs.readFile(path.join(dir, rel))).update('\u0000');
  }
  return hash.digest('hex');
}

/** Whether a file or folder exists (any error reading it counts as no). */
export async function pathExists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

export async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await fs.readdir(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(dir, rel)));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}

export function recordPath(strategyDir: string): string {
  return `${strategyDir}.strategy.json`;
}

export async function saveRecord(record: StrategyRecord): Promise<void> {
  await fs.writeFile(recordPath(record.dir), `${JSON.stringify(record, null, 2)}\n`);
  await fs.writeFile(`${record.dir}.build.log`, record.buildLog);
}

export async function loadRecord(strategyDir: string): Promise<StrategyRecord | null> {
  try {
    return JSON.parse(await fs.readFile(recordPath(strategyDir), 'utf8')) as StrategyRecord;
  } catch {
    return null;
  }
}
