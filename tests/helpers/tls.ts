// A throwaway certificate authority and a server certificate signed by it, made with openssl at
// test time, for Redis over TLS (rediss://).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './bots.ts';

export interface TestCerts {
  dir: string;
  /** The CA's certificate (what CATARENA_REDIS_CA_FILE points at). */
  ca: string;
  cert: string;
  key: string;
}

/** A CA and a server certificate valid for `names` (host names) and `ips`, in a temp folder readable by containers. */
export function makeTlsCerts(names: string[] = ['localhost'], ips: string[] = ['127.0.0.1']): TestCerts {
  const dir = tempDir('catarena-tls-');
  const at = (f: string) => path.join(dir, f);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=catarena test CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    `/CN=${names[0] ?? ips[0]}`,
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
  );
  const san = [...names.map((n) => `DNS:${n}`), ...ips.map((ip) => `IP:${ip}`)].join(',');
  fs.writeFileSync(at('ext.cnf'), `subjectAltName=${san}\n`);
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'ext.cnf',
    '-out',
    'server.crt',
  );
  // Redis in a container runs as its own user: the key must be readable there.
  for (const f of ['ca.crt', 'server.crt', 'server.key']) fs.chmodSync(at(f), 0o644);
  fs.chmodSync(dir, 0o755);
  return { dir, ca: at('ca.crt'), cert: at('server.crt'), key: at('server.key') };
}
