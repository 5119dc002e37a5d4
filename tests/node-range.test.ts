// The supported Node range and the install-script decisions (docs/decisions/0006) stay true as
// dependencies move: every package in the lockfile that has an install script is decided in
// allowScripts (else npm asks each new user, and npm 12 silently skips it), and README,
// CONTRIBUTING and engines state one range.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'));

describe('Node range and install scripts', () => {
  it('decides every install script the lockfile holds, and nothing it does not', () => {
    const withScripts = Object.entries(lock.packages as Record<string, { hasInstallScript?: boolean }>)
      .filter(([, p]) => p.hasInstallScript)
      .map(([k]) => k.replace(/^.*node_modules\//, ''));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(Object.keys(pkg.allowScripts).sort()).toEqual([...new Set(withScripts)].sort());
    expect(pkg.allowScripts.esbuild).toBe(true);
  });

  it('states one range in engines, README and CONTRIBUTING, and CI pins an LTS inside it', () => {
    expect(pkg.engines.node).toBe('^20.19.0 || ^22.12.0 || >=24.0.0');
    for (const doc of ['README.md', 'CONTRIBUTING.md'])
      expect(fs.readFileSync(doc, 'utf8').replace(/\s+/g, ' ')).toContain('Node 20.19+, 22.12+ or 24');
    const lts = /^NODE_LTS=(\d+)\.\d+\.\d+$/m.exec(fs.readFileSync('scripts/lts-node.sh', 'utf8'));
    expect(Number(lts?.[1])).toBeGreaterThanOrEqual(24);
    expect(Number(lts![1]) % 2).toBe(0); // even majors are the LTS lines
    expect(fs.readFileSync('.ci/run', 'utf8')).toMatch(/lts_bin=\$\(bash scripts\/lts-node\.sh\)/);
  });
});
