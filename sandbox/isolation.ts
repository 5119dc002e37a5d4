// Whether this machine can isolate bots with bubblewrap: bwrap and socat installed, and a trial
// sandbox (the namespaces the isolated sandbox asks for) starts. Checked once per bwrap path.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bwrapArgs } from './bwrap-args.ts';

export const INSTALL_BWRAP =
  'install bubblewrap and socat (Debian/Ubuntu: sudo apt-get install bubblewrap socat, or sudo bash scripts/setup-system.sh); ' +
  'where user namespaces are restricted (Ubuntu 24.04 AppArmor), run as root or allow them (sysctl kernel.apparmor_restrict_unprivileged_userns=0)';

export interface IsolationStatus {
  ok: boolean;
  /** bwrap takes --size (0.7 and later): the private /tmp gets its size limit. */
  tmpSize?: boolean;
  /** "bubblewrap 0.8.0, running bots as nobody" or why not. */
  detail: string;
}

const cache = new Map<string, IsolationStatus>();

export function isolationStatus(bwrap = 'bwrap'): IsolationStatus {
  let status = cache.get(bwrap);
  if (!status) {
    status = probe(bwrap);
    cache.set(bwrap, status);
  }
  return status;
}

function probe(bwrap: string): IsolationStatus {
  if (process.platform !== 'linux')
    return { ok: false, detail: `bubblewrap needs Linux (this is ${process.platform})` };
  const version = spawnSync(bwrap, ['--version'], { encoding: 'utf8', timeout: 5_000 });
  if (version.error || version.status !== 0) return { ok: false, detail: `${bwrap} not found: ${INSTALL_BWRAP}` };
  if (spawnSync('socat', ['-V'], { stdio: 'ignore', timeout: 5_000 }).status !== 0)
    return { ok: false, detail: `socat not found (it relays the bots' ports): ${INSTALL_BWRAP}` };
  const asRoot = process.getuid?.() === 0;
  const [major = 0, minor = 0] = (/(\d+)\.(\d+)/.exec(version.stdout) ?? []).slice(1).map(Number);
  const tmpSize = major > 0 || minor >= 7;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-bwrap-check-'));
  try {
    const args = bwrapArgs(
      { botDir: scratch, ioDir: scratch, gsDir: scratch, tmpBytes: tmpSize ? 1 << 20 : undefined, asRoot },
      ['/bin/sh', '-c', 'exit 0'],
    );
    const trial = spawnSync(bwrap, args, { encoding: 'utf8', timeout: 10_000 });
    if (trial.status !== 0) {
      const why = (trial.stderr || trial.error?.message || `exit ${trial.status}`).trim().split('\n')[0];
      return { ok: false, detail: `bubblewrap cannot make the bots' namespaces here (${why}): ${INSTALL_BWRAP}` };
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return {
    ok: true,
    tmpSize,
    detail: `${version.stdout.trim()}, bots run as nobody${asRoot ? '' : ' in a user namespace'}`,
  };
}
