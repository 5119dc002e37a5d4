// Linking a finished run's files into the store (orchestrator/run/file-store.ts) takes memory that
// does not grow with the files (issue 34): a round's log files grow with its games, and they are
// hashed and gzip-compressed in pieces, never read whole.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const MB = 1 << 20;

describe('linkIntoStore on a large log file', () => {
  let dir: string;
  let key: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-store-rss-'));
    fs.mkdirSync(path.join(dir, 'logs'));
    // 96 MB of log-like JSON lines (compressible, as round logs are, but not trivially).
    let piece = '';
    for (let i = 0; piece.length < MB; i++)
      piece += `${JSON.stringify({ game: i, move: [(i * 7) % 15, (i * 11) % 15], ms: (i * 37) % 1000 })}\n`;
    const out = fs.openSync(path.join(dir, 'logs', 'tournament_report.json'), 'w');
    const hash = createHash('sha256');
    for (let i = 0; i < 96; i++) {
      const block = `${i}:${piece}`;
      fs.writeSync(out, block);
      hash.update(block);
    }
    fs.closeSync(out);
    key = hash.digest('hex');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stores it gzip-compressed under its content hash with the peak RSS growing far less than the file', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'helpers', 'store-link-rss.ts')],
      { env: { ...process.env, STORE_LINK_DIR: dir }, timeout: 120_000 },
    );
    const { stats, grownKb } = JSON.parse(stdout) as { stats: { compressed: number }; grownKb: number };
    expect(stats.compressed).toBe(1);
    const placed = path.join(dir, 'logs', 'tournament_report.json.gz');
    expect(fs.existsSync(path.join(dir, 'logs', 'tournament_report.json'))).toBe(false);
    const [stored] = fs.readdirSync(path.join(dir, 'store'));
    const plain = zlib.gunzipSync(fs.readFileSync(placed));
    expect(plain.length).toBeGreaterThan(96 * MB);
    // The store file is named by the sha256 of the uncompressed content, and holds it.
    expect(stored).toBe(`${key}.gz`);
    expect(fs.statSync(placed).ino).toBe(fs.statSync(path.join(dir, 'store', stored!)).ino);
    // Read whole, the file alone would add 96 MB (and its compressed copy more).
    expect(grownKb / 1024).toBeLessThan(32);
  }, 150_000);
});
