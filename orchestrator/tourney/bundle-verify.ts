// `catarena verify <bundle>`: re-checks a run bundle (`catarena export --bundle`) with nothing
// but the bundle: it is extracted into a fresh temporary folder (a hostile archive is refused
// there, docs/bundles.md), then every file's SHA-256 against MANIFEST.sha256, the journal's chain
// under the key the bundle discloses (and the run index's seal when it carries one), and W and
// the metrics rebuilt from the journal (summarizeRun, as `catarena report` does) against those
// the bundle holds.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { RUN_DIRS, RUN_FILES } from '../../records/run-layout.ts';
import { extractTarGz, HostileArchiveError, type ExtractedFiles } from '../../util/tar.ts';
import { CHAIN_PROOF, MANIFEST, type ChainProof } from '../run/bundle-export.ts';
import { readJournalChain, sealMac } from '../run/journal-chain.ts';
import { summarizeRun } from './summarize.ts';

export interface VerifyCheck {
  check: string;
  ok: boolean;
  /** A check that could not apply (an unchained journal, a play run with no W): not a failure. */
  skipped?: boolean;
  detail: string;
}

export interface BundleVerdict {
  ok: boolean;
  checks: VerifyCheck[];
}

const pass = (check: string, detail: string): VerifyCheck => ({ check, ok: true, detail });
const fail = (check: string, detail: string): VerifyCheck => ({ check, ok: false, detail });
const skip = (check: string, detail: string): VerifyCheck => ({ check, ok: true, skipped: true, detail });
const listed = (items: string[]) => `${items.slice(0, 5).join(', ')}${items.length > 5 ? `, … (${items.length})` : ''}`;

/** The manifest against the files extracted: each hash, nothing missing, nothing extra. */
async function checkManifest(root: string, files: ExtractedFiles): Promise<VerifyCheck> {
  const name = 'manifest';
  if (!files.has(MANIFEST)) return fail(name, `the bundle has no ${MANIFEST}`);
  const expected = new Map<string, string>();
  for (const line of (await fs.readFile(path.join(root, MANIFEST), 'utf8')).split('\n').filter(Boolean)) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!m)
      return fail(name, `${MANIFEST} has a line that is not "<sha256>  <path>": ${JSON.stringify(line.slice(0, 80))}`);
    expected.set(m[2]!, m[1]!);
  }
  const actual = [...files.keys()].filter((f) => f !== MANIFEST);
  const missing = [...expected.keys()].filter((f) => !files.has(f));
  const extra = actual.filter((f) => !expected.has(f));
  const changed = actual.filter((f) => expected.has(f) && expected.get(f) !== files.get(f)!.sha256);
  const problems = [
    ...(changed.length ? [`changed (SHA-256 differs): ${listed(changed)}`] : []),
    ...(missing.length ? [`missing: ${listed(missing)}`] : []),
    ...(extra.length ? [`not in the manifest: ${listed(extra)}`] : []),
  ];
  return problems.length
    ? fail(name, problems.join('; '))
    : pass(name, `${expected.size} files, every SHA-256 matches`);
}

/** The runs in a bundle: its root, and each repeat of a --repeats study. */
async function runRoots(root: string): Promise<string[]> {
  const repeats = await fs.readdir(path.join(root, RUN_DIRS.repeats)).catch(() => [] as string[]);
  return [
    root,
    ...repeats
      .filter((r) => /^\d+$/.test(r))
      .sort((a, b) => Number(a) - Number(b))
      .map((r) => path.join(root, RUN_DIRS.repeats, r)),
  ];
}

/**
 * A run's journal chain under the disclosed key, and the run index's seal over its end. Puts the
 * key where the journal readers look (journal.key), so the rebuild below reads a verified journal.
 */
async function checkChain(runRoot: string, label: string): Promise<VerifyCheck | null> {
  const name = `journal chain${label}`;
  const journal = path.join(runRoot, RUN_FILES.journal);
  const proofText = await fs.readFile(path.join(runRoot, CHAIN_PROOF), 'utf8').catch(() => null);
  if (!(await fs.stat(journal).catch(() => null))) return null;
  if (await fs.stat(path.join(runRoot, RUN_FILES.journalKey)).catch(() => null))
    return fail(name, `the bundle carries ${RUN_FILES.journalKey}: a bundle discloses its key in ${CHAIN_PROOF} only`);
  let proof: ChainProof | undefined;
  if (proofText) {
    try {
      proof = JSON.parse(proofText) as ChainProof;
    } catch {
      return fail(name, `${CHAIN_PROOF} is not JSON`);
    }
    if (typeof proof?.key !== 'string' || !/^[0-9a-f]{64}$/.test(proof.key))
      return fail(name, `${CHAIN_PROOF} holds no 32-byte hex key`);
    await fs.writeFile(path.join(runRoot, RUN_FILES.journalKey), `${proof.key}\n`, { mode: 0o600, flag: 'wx' });
  }
  const seal = proof?.indexEntry as { seal?: { lines: number; head: string; mac: string } } | undefined;
  const chain = (await readJournalChain(journal, seal?.seal?.lines))!;
  const { integrity } = chain;
  if (integrity.state === 'tampered' && !proof)
    return fail(name, `the journal is chained but the bundle has no ${CHAIN_PROOF} to check it with`);
  if (integrity.state === 'tampered')
    return fail(
      name,
      `line ${integrity.line} breaks the chain (${integrity.reason}${integrity.game ? `; ${integrity.game}` : ''})`,
    );
  if (integrity.state === 'unverified')
    return skip(name, `${integrity.lines} lines, not chained (a run from before journal chains)`);
  if (!seal?.seal)
    return pass(
      name,
      `${integrity.lines} lines, each chain value follows (the run was not indexed: no seal over its end)`,
    );
  const { seal: s, ...entry } = seal;
  if (sealMac(chain.key!, JSON.stringify(entry), s.lines, s.head) !== s.mac)
    return fail(name, "the run index entry's seal does not match it: the entry or its seal was changed");
  if (integrity.lines !== s.lines || chain.headAt !== s.head)
    return fail(
      name,
      `the run finished with ${s.lines} lines (sealed) but the journal holds ${integrity.lines}, or ends on another line`,
    );
  return pass(name, `${integrity.lines} lines, each chain value follows, and the run index's seal holds its end`);
}

const readJson = (file: string) => fs.readFile(file, 'utf8').then(JSON.parse, () => undefined);

/** The top-level summary without what differs from one rebuild to the next (paths, times, the chain's verdict, bot-log use). */
function stableSummary(summary: Record<string, unknown> | undefined): unknown {
  if (!summary) return undefined;
  const { runId: _a, runDir: _b, createdAt: _c, finishedAt: _d, journal: _e, incomplete: _f, ...rest } = summary;
  const tracks = (rest.tracks as Array<Record<string, unknown>> | undefined)?.map(({ llmPlayers: _g, ...t }) => t);
  return { ...rest, tracks };
}

/** The W and metrics files of a run the bundle holds, by path relative to the run. */
async function resultFiles(runRoot: string): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  const top = await readJson(path.join(runRoot, RUN_FILES.metrics));
  if (top !== undefined) out.set(RUN_FILES.metrics, stableSummary(top));
  for (const track of await fs.readdir(path.join(runRoot, RUN_DIRS.tracks)).catch(() => [] as string[]))
    for (const f of [RUN_FILES.W, RUN_FILES.metrics]) {
      const rel = `${RUN_DIRS.tracks}/${track}/${f}`;
      const value = await readJson(path.join(runRoot, rel));
      if (value !== undefined) out.set(rel, value);
    }
  return out;
}

/** W and the metrics rebuilt from the run's journal and strategy records, against the bundle's. */
async function checkRederived(runRoot: string, label: string): Promise<VerifyCheck | null> {
  const name = `W and metrics${label}`;
  if (!(await fs.stat(path.join(runRoot, RUN_FILES.journal)).catch(() => null))) return null;
  if (!(await fs.stat(path.join(runRoot, RUN_FILES.config)).catch(() => null)))
    return skip(name, 'not a tourney run (no config.json): nothing to rebuild');
  const bundled = await resultFiles(runRoot);
  if (!bundled.size) return fail(name, 'the bundle holds no W.json or metrics.json to compare');
  try {
    await summarizeRun(runRoot, { acceptTampered: true }); // the chain has its own check above
  } catch (err) {
    return fail(name, `rebuilding from the journal failed: ${(err as Error).message}`);
  }
  const rebuilt = await resultFiles(runRoot);
  const differ = [...bundled.keys()].filter((rel) => !isDeepStrictEqual(bundled.get(rel), rebuilt.get(rel)));
  return differ.length
    ? fail(name, `differ from those rebuilt from the journal: ${listed(differ)}`)
    : pass(name, `${bundled.size} files equal those rebuilt from the journal`);
}

/** Verifies a bundle file; the temporary folder is removed afterwards. */
export async function verifyBundle(bundle: string): Promise<BundleVerdict> {
  const file = path.resolve(bundle);
  const st = await fs.stat(file).catch(() => null);
  if (!st?.isFile()) throw new Error(`${file} is not a file: give the .tar.gz that "catarena export --bundle" wrote`);
  const temp = await fs.mkdtemp(path.join(os.tmpdir(), 'catarena-verify-'));
  // Extracted one level down, so nothing above the run (where readers look for index.jsonl) is outside this folder.
  const root = path.join(temp, 'run');
  await fs.mkdir(root);
  const checks: VerifyCheck[] = [];
  try {
    let files: ExtractedFiles;
    try {
      files = await extractTarGz(file, root);
    } catch (err) {
      const hostile = err instanceof HostileArchiveError;
      if (!hostile && !/incorrect header|unexpected end|invalid/i.test((err as Error).message)) throw err;
      checks.push(
        fail('archive', hostile ? (err as Error).message : `not a .tar.gz bundle (${(err as Error).message})`),
      );
      return { ok: false, checks };
    }
    checks.push(pass('archive', `${files.size} regular files, every path inside the bundle`));
    const manifest = await checkManifest(root, files);
    checks.push(manifest);
    const roots = await runRoots(root);
    for (const runRoot of roots) {
      const label = runRoot === root ? '' : ` (${path.relative(root, runRoot)})`;
      const chain = await checkChain(runRoot, label);
      if (chain) checks.push(chain);
      // Files that are not the ones exported prove nothing by their W: the rebuild is for a bundle whose files all check.
      const derived = manifest.ok
        ? await checkRederived(runRoot, label)
        : skip(`W and metrics${label}`, 'not rebuilt: the files are not those the manifest lists');
      if (derived) checks.push(derived);
    }
    if (!checks.some((c) => c.check.startsWith('journal chain')))
      checks.push(fail('journal chain', 'the bundle holds no journal.jsonl'));
    return { ok: checks.every((c) => c.ok), checks };
  } finally {
    await fs.rm(temp, { recursive: true, force: true });
  }
}
