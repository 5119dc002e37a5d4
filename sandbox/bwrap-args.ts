// The bubblewrap command line of one isolated bot (sandbox/isolated.ts): what its world is made of.
// The root is empty but for read-only binds of the system (/usr, /etc, the /bin-/lib links or
// folders), the bot folder read-only at /bot, its socket folders (/io writable, /gs read-only),
// a private size-limited /tmp, a /proc of its own pid namespace and a minimal /dev. It shares no
// namespace with the host but the cgroup and time ones: no other process, no network but its own
// loopback, no System V IPC, its own hostname.
import fs from 'node:fs';

/** The unprivileged user and group a bot runs as (nobody, as in the Docker sandbox). */
export const BOT_UID = 65534;
export const BOT_GID = 65534;

/** The top-level system paths a bot may read, as binds (folders) or symlinks (merged /usr). */
const SYSTEM_PATHS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** Where a `python` link to python3 goes when the system has none (CATArena's examples call python). */
export const SHIM_DIR = '/opt/catarena-shims';

export interface BwrapLayout {
  /** The bot folder (host path), mounted read-only at /bot. */
  botDir: string;
  /** Host folder mounted writable at /io: the bot's port socket. */
  ioDir: string;
  /** Host folder mounted read-only at /gs: the sockets of the host ports it may call. */
  gsDir: string;
  /** Size of the private /tmp (bytes); unset where bwrap is older than 0.7 (no --size: the memory limit bounds it). */
  tmpBytes?: number;
  /**
   * True when bwrap runs as root: it then needs no user namespace, and the bot drops to nobody
   * through setpriv (the host sees uid 65534, not root). Otherwise a user namespace maps the bot
   * to nobody inside, the invoking user outside.
   */
  asRoot: boolean;
  /** Add a `python` (python3) in SHIM_DIR, on the bot's PATH. */
  pythonShim?: string;
}

/** The argv after `bwrap`: options, then `--` and the command that runs as the bot. */
export function bwrapArgs(layout: BwrapLayout, command: string[]): string[] {
  const args = [
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--hostname',
    'bot',
    '--die-with-parent',
    '--new-session',
    '--ro-bind',
    '/usr',
    '/usr',
    '--ro-bind',
    '/etc',
    '/etc',
  ];
  if (!layout.asRoot)
    args.unshift('--unshare-user', '--uid', String(BOT_UID), '--gid', String(BOT_GID), '--disable-userns');
  for (const p of SYSTEM_PATHS) {
    const link = readLink(p);
    if (link !== undefined) args.push('--symlink', link, p);
    else if (isDir(p)) args.push('--ro-bind', p, p);
  }
  args.push(
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--perms',
    '1777',
    ...(layout.tmpBytes ? ['--size', String(layout.tmpBytes)] : []),
    '--tmpfs',
    '/tmp',
    '--ro-bind',
    layout.botDir,
    '/bot',
    '--bind',
    layout.ioDir,
    '/io',
    '--ro-bind',
    layout.gsDir,
    '/gs',
  );
  // bwrap makes missing parents 0700 (root's): the shim's folders are made readable first.
  if (layout.pythonShim)
    args.push('--perms', '0755', '--dir', SHIM_DIR, '--symlink', layout.pythonShim, `${SHIM_DIR}/python`);
  args.push('--chdir', '/bot', '--');
  return layout.asRoot ? [...args, ...dropToNobody(), ...command] : [...args, ...command];
}

/**
 * As root, bwrap keeps its capabilities for the command: setpriv drops them all (bounding set
 * too), leaves every group, becomes nobody and sets no_new_privs before the bot's first instruction.
 */
export function dropToNobody(): string[] {
  return [
    '/usr/bin/setpriv',
    `--reuid=${BOT_UID}`,
    `--regid=${BOT_GID}`,
    '--clear-groups',
    '--inh-caps=-all',
    '--bounding-set=-all',
    '--no-new-privs',
    '--',
  ];
}

function readLink(p: string): string | undefined {
  try {
    return fs.readlinkSync(p);
  } catch {
    return undefined;
  }
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
