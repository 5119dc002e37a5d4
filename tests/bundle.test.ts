// Run bundles: `catarena export --bundle` writes a run as one checksummed .tar.gz and `catarena
// verify` re-checks it from the bundle alone. A copy of the shared two-round Gomoku run, with an
// agent's hostile leftovers in a strategy folder (links to /etc/passwd and to a secret file, a
// fifo); bundles tampered with one way each; hostile archives that try to write outside.
// Alone it takes over 30 s only because it plays the shared run (about 40 s here) when no other file
// has; its own tests took 25 to 45 s of wall time at a load average of 20 on 2 cores (each
// rebuild of W is a few seconds of summarizeRun), far less on an idle machine.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportBundle, MANIFEST } from '../orchestrator/run/bundle-export.ts';
import { sealEntry } from '../orchestrator/run/index-seal.ts';
import { RunDir } from '../orchestrator/run/run-dir.ts';
import { indexEntry, indexRun } from '../orchestrator/run/run-index.ts';
import { verifyBundle, type BundleVerdict } from '../orchestrator/tourney/bundle-verify.ts';
import { tempDir } from './helpers/bots.ts';
import { catarena } from './helpers/cli.ts';
import { GOMOKU_TWO_ROUNDS, sharedRun } from './helpers/shared-runs.ts';

const CANARY = 'canary-secret-4f1d9a';
const STRATEGY = ['tracks', 'gomoku-standard', 'round_1', 'strategies', 'cautious'];

let home: string;
let runDir: string;
let bundle: string;

/** The bundle's entries (names) and its whole uncompressed bytes. */
function tarEntries(file: string): { names: string[]; bytes: Buffer } {
  const names = execFileSync('tar', ['tzf', file], { encoding: 'utf8' }).trim().split('\n');
  return { names, bytes: zlib.gunzipSync(fs.readFileSync(file)) };
}

/** A copy of the bundle changed by `edit` (on its extracted files), repacked with GNU tar. */
function tampered(name: string, edit: (dir: string) => void): string {
  const dir = path.join(home, `edit-${name}`);
  fs.mkdirSync(dir);
  execFileSync('tar', ['xzf', bundle, '-C', dir]);
  edit(dir);
  const out = path.join(home, `${name}.tar.gz`);
  execFileSync('tar', ['czf', out, '-C', dir, '.']);
  return out;
}

/** Rewrites a file's line in MANIFEST.sha256 to its new content's hash (so only the later checks can see the edit). */
function rehash(dir: string, rel: string): void {
  const manifest = path.join(dir, MANIFEST);
  const sha = execFileSync('sha256sum', [path.join(dir, rel)], { encoding: 'utf8' }).split(' ')[0];
  const lines = fs.readFileSync(manifest, 'utf8').split('\n');
  fs.writeFileSync(manifest, lines.map((l) => (l.endsWith(`  ${rel}`) ? `${sha}  ${rel}` : l)).join('\n'));
}

const failing = (v: BundleVerdict) => v.checks.filter((c) => !c.ok).map((c) => `${c.check}: ${c.detail}`);
const firstFile = (dir: string, under: string, pattern: RegExp) =>
  fs.readdirSync(path.join(dir, under)).find((f) => pattern.test(f))!;

describe('catarena export --bundle and catarena verify', () => {
  beforeAll(async () => {
    home = tempDir('catarena-bundle-');
    runDir = path.join(home, 'run');
    const summary = await sharedRun('gomoku-two-rounds', GOMOKU_TWO_ROUNDS, runDir);
    // Indexed as a finished tourney indexes itself: the entry sealed over the journal's end.
    const journal = await new RunDir(runDir).openJournal();
    const entry = indexEntry(summary, { reused: 0, games: ['gomoku'], rounds: 2 });
    await indexRun(await sealEntry(entry, journal));
    // What a hostile agent could leave in its strategy folder.
    const secret = path.join(home, 'secret.txt');
    fs.writeFileSync(secret, `${CANARY}\n`);
    const strategy = path.join(runDir, ...STRATEGY);
    fs.symlinkSync('/etc/passwd', path.join(strategy, 'passwd'));
    fs.symlinkSync(secret, path.join(strategy, 'notes.txt'));
    fs.mkdirSync(path.join(strategy, 'deep'));
    fs.symlinkSync(home, path.join(strategy, 'deep', 'up')); // a folder link: never walked into
    execFileSync('mkfifo', [path.join(strategy, 'pipe')]);
    // A recording run's folder (the recorder's format is opaque here).
    fs.mkdirSync(path.join(runDir, 'recordings', 'bodies'), { recursive: true });
    fs.writeFileSync(path.join(runDir, 'recordings', 'bodies', 'ab.json.gz'), zlib.gzipSync('{"a":1}'));
    bundle = path.join(home, 'run.bundle.tar.gz');
  }, 300_000);

  it('exports the run, no link target, fifo or key, and refuses to overwrite without --force', async () => {
    const out = await catarena('export', '--bundle', runDir, '--out', bundle);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`to ${bundle}`);
    expect(out.stdout).toMatch(/passwd: a symbolic link \(not followed\)/);
    expect(out.stdout).toMatch(/pipe: a socket, fifo or device/);
    const { names, bytes } = tarEntries(bundle);
    for (const f of [
      'journal.jsonl',
      'journal-chain.json',
      'config.json',
      'format.json',
      'provenance.json',
      'metrics.json',
      'tracks/gomoku-standard/W.json',
      'tracks/gomoku-standard/metrics.json',
      `${STRATEGY.join('/')}/start_ai.sh`,
      `${STRATEGY.slice(0, -1).join('/')}/cautious.strategy.json`,
      'tracks/gomoku-standard/round_1/logs/round_report.json',
      'recordings/bodies/ab.json.gz',
      MANIFEST,
    ])
      expect(names, f).toContain(f);
    expect(names.some((n) => /^replays\/.+\.json\.gz$/.test(n))).toBe(true);
    expect(names.filter((n) => /journal\.key|workspaces\/|\/passwd$|notes\.txt|\/pipe$|deep\/up/.test(n))).toEqual([]);
    expect(bytes.includes(CANARY)).toBe(false);
    expect(bytes.includes(fs.readFileSync('/etc/passwd'))).toBe(false);
    expect(names.at(-1)).toBe(MANIFEST);

    const before = fs.statSync(bundle);
    await expect(exportBundle(runDir, { out: bundle })).rejects.toThrow(/exists: choose another --out, or --force/);
    expect(fs.statSync(bundle).mtimeMs).toBe(before.mtimeMs);
    const forced = await exportBundle(runDir, { out: bundle, force: true });
    expect(forced.file).toBe(bundle);
  });

  it('verifies an exported bundle (and its manifest is sha256sum -c form)', async () => {
    const out = await catarena('verify', bundle);
    expect(out.code, out.stdout + out.stderr).toBe(0);
    expect(out.stdout).toMatch(/^pass {2}manifest: \d+ files, every SHA-256 matches$/m);
    expect(out.stdout).toMatch(
      /^pass {2}journal chain: 60 lines, each chain value follows, and the run index's seal holds its end$/m,
    );
    expect(out.stdout).toMatch(/^pass {2}W and metrics: 5 files equal those rebuilt from the journal$/m);
    const dir = path.join(home, 'plain');
    fs.mkdirSync(dir);
    execFileSync('tar', ['xzf', bundle, '-C', dir]);
    execFileSync('sha256sum', ['--quiet', '-c', MANIFEST], { cwd: dir }); // throws on a mismatch
  });

  it('fails a bundle with a changed replay byte', async () => {
    const file = tampered('replay', (dir) => {
      const replay = path.join(dir, 'replays', firstFile(dir, 'replays', /\.json\.gz$/));
      const bytes = fs.readFileSync(replay);
      bytes[4]! ^= 1; // the gzip header's time: the replay still reads, so only the manifest can see it
      fs.writeFileSync(replay, bytes);
    });
    const verdict = await verifyBundle(file);
    expect(verdict.ok).toBe(false);
    expect(failing(verdict)).toEqual([
      expect.stringMatching(/^manifest: changed \(SHA-256 differs\): replays\/.+\.json\.gz$/),
    ]);
    expect(verdict.checks.at(-1)).toMatchObject({ check: 'W and metrics', skipped: true });
  });

  it('fails a bundle whose journal line was edited, even with the manifest updated', async () => {
    const file = tampered('journal', (dir) => {
      const journal = path.join(dir, 'journal.jsonl');
      const lines = fs.readFileSync(journal, 'utf8').split('\n');
      const game = JSON.parse(lines[2]!) as { scores: number[] };
      const flipped = JSON.stringify({ ...game, scores: [...game.scores].reverse() });
      lines[2] = lines[2]!.replace(/"scores":\[[^\]]*\]/, flipped.match(/"scores":\[[^\]]*\]/)![0]);
      fs.writeFileSync(journal, lines.join('\n'));
      rehash(dir, 'journal.jsonl');
    });
    const verdict = await verifyBundle(file);
    expect(verdict.ok).toBe(false);
    expect(failing(verdict)[0]).toMatch(/^journal chain: line 3 breaks the chain \(its chain value does not follow/);
  });

  it('fails a bundle whose journal lost its last line, even with the manifest updated (the seal)', async () => {
    const file = tampered('cut', (dir) => {
      const journal = path.join(dir, 'journal.jsonl');
      fs.writeFileSync(journal, `${fs.readFileSync(journal, 'utf8').trim().split('\n').slice(0, -1).join('\n')}\n`);
      rehash(dir, 'journal.jsonl');
    });
    const verdict = await verifyBundle(file);
    expect(failing(verdict)[0]).toBe(
      'journal chain: the run finished with 60 lines (sealed) but the journal holds 59, or ends on another line',
    );
  });

  it('fails a bundle whose W was edited, even with the manifest updated', async () => {
    const rel = 'tracks/gomoku-variant/W.json';
    const file = tampered('w', (dir) => {
      const W = JSON.parse(fs.readFileSync(path.join(dir, rel), 'utf8')) as { W: Array<Array<number | null>> };
      W.W[0]![1] = 0.123;
      fs.writeFileSync(path.join(dir, rel), JSON.stringify(W, null, 2));
      rehash(dir, rel);
    });
    const verdict = await verifyBundle(file);
    expect(failing(verdict)).toEqual([`W and metrics: differ from those rebuilt from the journal: ${rel}`]);
  });

  it('fails a bundle that carries journal.key beside its proof, or lost its proof', async () => {
    const keyed = await verifyBundle(
      tampered('keyed', (dir) => fs.copyFileSync(path.join(runDir, 'journal.key'), path.join(dir, 'journal.key'))),
    );
    expect(failing(keyed)).toContain(
      'journal chain: the bundle carries journal.key: a bundle discloses its key in journal-chain.json only',
    );
    const bare = await verifyBundle(tampered('bare', (dir) => fs.rmSync(path.join(dir, 'journal-chain.json'))));
    expect(failing(bare)).toContain(
      'journal chain: the journal is chained but the bundle has no journal-chain.json to check it with',
    );
  });

  it('bundles and verifies each repeat of a --repeats study', async () => {
    const study = path.join(home, 'study');
    for (const r of ['1', '2']) {
      fs.mkdirSync(path.join(study, 'repeats', r), { recursive: true });
      execFileSync('cp', ['-a', `${runDir}/.`, path.join(study, 'repeats', r)]);
    }
    fs.copyFileSync(path.join(runDir, 'config.json'), path.join(study, 'config.json'));
    const out = await exportBundle(study, { out: path.join(home, 'study.tar.gz') });
    const verdict = await verifyBundle(out.file);
    expect(verdict.ok, failing(verdict).join('\n')).toBe(true);
    expect(verdict.checks.map((c) => c.check)).toEqual([
      'archive',
      'manifest',
      'journal chain (repeats/1)',
      'W and metrics (repeats/1)',
      'journal chain (repeats/2)',
      'W and metrics (repeats/2)',
    ]);
  });

  it('fails a bundle with a file added and one removed', async () => {
    const rel = `${STRATEGY.join('/')}/start_ai.sh`;
    const verdict = await verifyBundle(
      tampered('added-removed', (dir) => {
        fs.writeFileSync(path.join(dir, 'replays', 'extra.json'), '{}');
        fs.rmSync(path.join(dir, rel));
      }),
    );
    expect(failing(verdict)).toEqual([`manifest: missing: ${rel}; not in the manifest: replays/extra.json`]);
  });
});

/** A ustar header block for a hand-made hostile archive. */
function ustar(name: string, type: string, size = 0, link = ''): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0);
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write(type, 156);
  h.write(link, 157);
  h.write('ustar\u000000', 257);
  const sum = h.reduce((a, b) => a + b, 0);
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

function archive(file: string, entries: Array<{ name: string; type?: string; body?: string; link?: string }>): string {
  const blocks = entries.flatMap(({ name, type = '0', body = '', link = '' }) => {
    const data = Buffer.from(body);
    return [ustar(name, type, data.length, link), data, Buffer.alloc((512 - (data.length % 512)) % 512)];
  });
  fs.writeFileSync(file, zlib.gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)])));
  return file;
}

describe('catarena verify refuses a hostile archive', () => {
  const dir = tempDir('catarena-hostile-');
  const victim = path.join(dir, 'victim');
  fs.mkdirSync(victim);
  const tmpBefore = () => fs.readdirSync(path.dirname(dir)).filter((f) => f.startsWith('catarena-verify-'));

  it.each([
    // From <tmp>/catarena-verify-*/run, two levels up is <tmp>, where this file's victim folder is.
    ['a ../ path', { name: `../../${path.basename(dir)}/victim/evil.txt`, body: 'pwned' }, /climbs out with "\.\."/],
    ['an absolute path', { name: `${victim}/evil.txt`, body: 'pwned' }, /has an absolute path/],
    ['a symbolic link', { name: 'replays/link', type: '2', link: `${victim}/evil.txt` }, /is a symbolic link: refused/],
    ['a hard link', { name: 'replays/hard', type: '1', link: '/etc/passwd' }, /is a hard link: refused/],
  ])('%s', async (label, entry, message) => {
    const before = tmpBefore();
    const file = archive(path.join(dir, `${label.replace(/\W+/g, '-')}.tar.gz`), [
      { name: 'config.json', body: '{}' },
      entry,
      { name: 'replays/after.json', body: '{}' },
    ]);
    const verdict = await verifyBundle(file);
    expect(verdict.ok).toBe(false);
    expect(verdict.checks).toEqual([
      expect.objectContaining({ check: 'archive', ok: false, detail: expect.stringMatching(message) }),
    ]);
    expect(fs.readdirSync(victim)).toEqual([]);
    expect(tmpBefore()).toEqual(before); // its temporary folder is gone too
  });

  it('says a file that is no bundle is not one', async () => {
    const file = path.join(dir, 'not.tar.gz');
    fs.writeFileSync(file, 'plain text');
    const verdict = await verifyBundle(file);
    expect(failing(verdict)).toEqual([expect.stringMatching(/^archive: not a \.tar\.gz bundle/)]);
  });
});
