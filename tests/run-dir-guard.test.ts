// `play --run-dir` and `arena --run-dir` write a run (journal, results, cross-tables, status) into
// the folder they are given. A folder of someone's files, `/` or $HOME must be refused with every
// file byte-unchanged; a new or empty folder is fine, and so is this game's own run (a resume).
// About 30-40 s on a loaded machine: seven CLI starts, two of which play games (a resume needs a run).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from './helpers/bots.ts';
import { catarena } from './helpers/cli.ts';

/** Every file under `dir` with its bytes and mtime, and every folder: what "unchanged" means. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const stat = fs.statSync(file);
    out[path.relative(dir, file)] = entry.isFile() ? `${fs.readFileSync(file, 'base64')}@${stat.mtimeMs}` : 'dir';
  }
  return out;
}

/** Someone's folder that happens to use the names a run writes. */
function someonesFolder(): string {
  const dir = tempDir('someones-');
  const files: Record<string, string> = {
    'journal.jsonl': '{"my":"own log"}\n',
    'results.json': '{"quarterly":"numbers"}',
    'crosstable.csv': 'a,b\n1,2\n',
    'crosstable.txt': 'my table',
    'status.json': '{"state":"mine"}',
    'notes.txt': 'do not touch',
  };
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  fs.mkdirSync(path.join(dir, 'replays'));
  fs.writeFileSync(path.join(dir, 'replays', 'holiday.jpg'), 'jpeg');
  return dir;
}

const play = (...args: string[]) =>
  catarena('play', 'builtin:random', 'builtin:random', '--games', '2', '--sandbox', 'unsafe', ...args);

describe('--run-dir refuses folders that are not its run', () => {
  it('play and arena into a folder of other files: refused, every file unchanged, nothing added', async () => {
    const dir = someonesFolder();
    const before = snapshot(dir);
    const r = await play('--run-dir', dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is not a catarena run: it holds 7 other file\(s\).*nothing was written/);
    expect(snapshot(dir)).toEqual(before);
    const a = await catarena('arena', 'builtin:random', 'builtin:heuristic', '--sandbox', 'unsafe', '--run-dir', dir);
    expect(a.code).toBe(1);
    expect(snapshot(dir)).toEqual(before);
  }, 60_000);

  it('refuses / and a tourney run', async () => {
    const root = await play('--run-dir', '/');
    expect(root.code).toBe(1);
    expect(root.stderr).toMatch(/--run-dir \/ is the root folder/);

    const tourney = tempDir('tourney-run-');
    fs.writeFileSync(path.join(tourney, 'config.json'), '{"games":["gomoku"]}');
    const before = snapshot(tourney);
    const t = await play('--run-dir', tourney);
    expect(t.stderr).toMatch(/is a "catarena tourney" run.*catarena resume/);
    expect(snapshot(tourney)).toEqual(before);
  }, 60_000);

  it('an empty folder is fine; its own run again resumes, a run of another game is refused', async () => {
    const run = tempDir('empty-');
    const first = await play('--run-dir', run);
    expect(first.code, first.stderr).toBe(0);
    const played = snapshot(run);
    const chess = await catarena('play', 'builtin:random', 'builtin:random', '-g', 'chess', '--run-dir', run);
    expect(chess.code).toBe(1);
    expect(chess.stderr).toMatch(/is a gomoku\/standard run; this is chess\/standard/);
    expect(snapshot(run)).toEqual(played);
    const again = await play('--run-dir', run, '--games', '4');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/2 already in the journal/);
    // A run, but in the home folder (as / once held one after a stray test): refused whatever it holds.
    vi.stubEnv('HOME', run);
    const before = snapshot(run);
    const home = await play('--run-dir', run);
    expect(home.stderr).toMatch(/is your home folder/);
    expect(snapshot(run)).toEqual(before);
  }, 60_000);
});
