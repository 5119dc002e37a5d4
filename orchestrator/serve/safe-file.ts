// Opening a run's file for `catarena serve` without following a link out of the run. Agents leave
// files (and could leave links: `rootdir -> /`) in their workspaces, which live in the run
// directory; a path that reads as inside the run may lead anywhere once links are followed.
import fs from 'node:fs';
import path from 'node:path';

export interface OpenedFile {
  fd: number;
  stat: fs.Stats;
}

/** Why a file was not opened: not there, not a regular file, or somewhere outside the run. */
export type Refusal = 'missing' | 'not a file' | 'outside';

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/**
 * Opens `file` for reading when it is a regular file whose real place is inside `root`: its path
 * resolved (realpath) and checked, opened without following a link in its last part (O_NOFOLLOW)
 * nor waiting on a FIFO (O_NONBLOCK), and the file opened asked where it really is
 * (/proc/self/fd): a folder on the way swapped for a link between the check and the open is seen
 * there. The caller closes the descriptor.
 */
export function openInside(root: string, file: string): OpenedFile | Refusal {
  let realRoot: string;
  let real: string;
  try {
    realRoot = fs.realpathSync(root);
    real = fs.realpathSync(file);
  } catch {
    return 'missing';
  }
  if (!inside(realRoot, real)) return 'outside';
  let fd: number;
  try {
    fd = fs.openSync(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ELOOP' ? 'outside' : 'missing';
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new Refused('not a file');
    if (!inside(realRoot, openedPath(fd) ?? real)) throw new Refused('outside');
    return { fd, stat };
  } catch (err) {
    fs.closeSync(fd);
    if (err instanceof Refused) return err.reason;
    throw err;
  }
}

class Refused extends Error {
  constructor(readonly reason: Refusal) {
    super(reason);
  }
}

const inside = (root: string, file: string) => file.startsWith(root === '/' ? '/' : `${root}${path.sep}`);

/** Where an open file really is (Linux's /proc/self/fd); null where /proc is not there. */
function openedPath(fd: number): string | null {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

/** The last `bytes` of a file inside `root` ('' when there is none, or it is not a file inside). */
export function tailInside(root: string, file: string | null, bytes = 2_000): string {
  if (!file) return '';
  const opened = openInside(root, file);
  if (typeof opened === 'string') return '';
  try {
    const size = opened.stat.size;
    const buf = Buffer.alloc(Math.min(bytes, size));
    const n = fs.readSync(opened.fd, buf, 0, buf.length, size - buf.length);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return '';
  } finally {
    fs.closeSync(opened.fd);
  }
}
