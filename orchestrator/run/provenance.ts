// provenance.json: what makes a run reproducible besides the models (records/provenance.ts).
// A tourney writes it as it opens (a resume adds a session: another process, perhaps another
// catarena) and completes it as it finishes: an image built during the run is inspected then.
// Every fact is best effort: a run never fails because git or Docker cannot answer.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type Docker from 'dockerode';
import type { ImageFacts, Provenance, ProvenanceSession } from '../../records/provenance.ts';
import { RUN_FILES } from '../../records/run-layout.ts';
import { trackName } from '../../records/tourney.ts';
import { agentRuntimeTag, AGENT_RECIPE_PATH, botRuntimeTag, readRecipe } from '../../docker/image-tags.ts';
import { deriveSeed } from '../../util/rng.ts';
import { PROJECT_ROOT } from '../../util/paths.ts';
import { writeFileAtomic } from '../../util/fs.ts';
import { CATARENA_VERSION } from '../../util/version.ts';
import { tracksOf, type TourneyConfig } from '../config/tourney-config.ts';
import { rulesOfConfig } from './run-index.ts';
import { AGENT_CLIS } from '../../records/agent-clis.ts';

/** How long one git or Docker question may take before its fact is left out. */
const ASK_MS = 5_000;

const provenanceFile = (runDir: string) => path.join(runDir, RUN_FILES.provenance);

/** A run's provenance.json, or null when it has none (runs from before it, play and arena runs). */
export async function readProvenance(runDir: string): Promise<Provenance | null> {
  try {
    return JSON.parse(await fs.readFile(provenanceFile(runDir), 'utf8')) as Provenance;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function git(args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', ['-C', PROJECT_ROOT, ...args], { timeout: ASK_MS }, (err, stdout) =>
      resolve(err ? undefined : stdout.trim()),
    );
  });
}

/** catarena's version, and its commit when it runs from a git checkout. */
async function catarenaFacts(): Promise<ProvenanceSession['catarena']> {
  const commit = await git(['rev-parse', 'HEAD']);
  if (!commit || !/^[0-9a-f]{40,64}$/.test(commit)) return { version: CATARENA_VERSION };
  const changes = await git(['status', '--porcelain', '--untracked-files=no']);
  return { version: CATARENA_VERSION, commit, ...(changes ? { dirty: true } : {}) };
}

/** The agent image's CLI packages the config's agents use (a spec's kind names its package), with their pinned versions. */
function cliPackages(config: TourneyConfig): Record<string, string> {
  let clis: Record<string, string>;
  try {
    clis = (readRecipe(AGENT_RECIPE_PATH) as { clis?: Record<string, string> }).clis ?? {};
  } catch {
    return {};
  }
  const words = new Set(config.agents.map((spec) => spec.trim().split(/[:#]/)[0]!));
  const used = new Set<string>(AGENT_CLIS.filter((c) => words.has(c.name)).map((c) => c.package));
  return Object.fromEntries(Object.entries(clis).filter(([pkg]) => used.has(pkg)));
}

/** The tags of the images this run's config uses: the bot image with --sandbox docker, the agent image for CLI agents. */
function imageTags(
  config: TourneyConfig,
  clis: Record<string, string>,
): { botRuntime?: string; agentRuntime?: string } {
  return {
    ...(config.sandbox === 'docker' ? { botRuntime: config.docker.image ?? botRuntimeTag() } : {}),
    ...(Object.keys(clis).length ? { agentRuntime: agentRuntimeTag() } : {}),
  };
}

/** One image's id and digests via the Docker API; only the tag when Docker or the image is not there. */
async function inspectImage(docker: Docker, tag: string): Promise<ImageFacts> {
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), ASK_MS).unref());
  const info = await Promise.race([docker.getImage(tag).inspect(), timeout]).catch(() => null);
  if (!info) return { tag };
  return { tag, id: info.Id, ...(info.RepoDigests?.length ? { digests: info.RepoDigests } : {}) };
}

async function imageFacts(tags: { botRuntime?: string; agentRuntime?: string }): Promise<ProvenanceSession['images']> {
  const entries = Object.entries(tags).filter((e): e is [string, string] => Boolean(e[1]));
  if (!entries.length) return undefined;
  const docker = new (await import('dockerode')).default();
  return Object.fromEntries(await Promise.all(entries.map(async ([k, tag]) => [k, await inspectImage(docker, tag)])));
}

/** This process's facts for a run of `config`. */
export async function sessionFacts(config: TourneyConfig): Promise<ProvenanceSession> {
  const clis = cliPackages(config);
  const [catarena, images] = await Promise.all([catarenaFacts(), imageFacts(imageTags(config, clis))]);
  return {
    startedAt: new Date().toISOString(),
    catarena,
    node: process.version,
    os: { platform: process.platform, release: os.release(), arch: process.arch },
    ...(images ? { images } : {}),
    ...(Object.keys(clis).length ? { clis } : {}),
  };
}

/** The run-wide facts of `config`: its seed, each track's seed (as the schedule derives it) and rules, the sandbox. */
export function runFacts(config: TourneyConfig): Omit<Provenance, 'sessions'> {
  const rules = rulesOfConfig(config, config.games);
  return {
    version: 1,
    seed: config.seed,
    tracks: tracksOf(config).map((t) => ({
      track: trackName(t),
      seed: deriveSeed(config.seed, trackName(t)),
      rules: rules[t.game] ?? 'v1',
    })),
    rules,
    sandbox: config.sandbox,
  };
}

/** Writes provenance.json as a run opens: the run's facts and this session, after the sessions of earlier starts. */
export async function recordProvenance(runDir: string, config: TourneyConfig): Promise<void> {
  const before = await readProvenance(runDir).catch(() => null);
  const session = await sessionFacts(config);
  const record: Provenance = { ...runFacts(config), sessions: [...(before?.sessions ?? []), session] };
  await writeFileAtomic(provenanceFile(runDir), `${JSON.stringify(record, null, 2)}\n`);
}

/** Completes the last session as the run finishes: its end, and the ids of images that were built during the run. */
export async function completeProvenance(runDir: string): Promise<void> {
  const record = await readProvenance(runDir).catch(() => null);
  const session = record?.sessions.at(-1);
  if (!record || !session) return;
  session.finishedAt = new Date().toISOString();
  const missing = Object.entries(session.images ?? {}).filter(([, facts]) => facts && !facts.id);
  if (missing.length) {
    const found = await imageFacts(Object.fromEntries(missing.map(([k, facts]) => [k, facts!.tag])));
    session.images = { ...session.images, ...found };
  }
  await writeFileAtomic(provenanceFile(runDir), `${JSON.stringify(record, null, 2)}\n`);
}
