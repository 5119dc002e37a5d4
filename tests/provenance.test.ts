// provenance.json: what makes a run reproducible besides the models, written by the tourney as it
// opens and completed as it finishes, and the Reproducibility section of report.md. A copy of the
// shared two-round Gomoku run, plus the session facts alone: outside a git checkout, with the
// Docker sandbox and a CLI agent (their images inspected through the Docker API and compared with
// the docker CLI's answer), a resume, and an image that only exists by the end of the run.
// Alone it takes over 30 s only because it plays the shared run when no other file has; its own
// tests take about 5 s.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_RECIPE_PATH, agentRuntimeTag, botRuntimeTag } from '../docker/image-tags.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { completeProvenance, readProvenance, recordProvenance, sessionFacts } from '../orchestrator/run/provenance.ts';
import { rulesOfConfig } from '../orchestrator/run/run-index.ts';
import type { Provenance } from '../records/provenance.ts';
import { deriveSeed } from '../util/rng.ts';
import { CATARENA_VERSION } from '../util/version.ts';
import { tempDir } from './helpers/bots.ts';
import { GOMOKU_TWO_ROUNDS, sharedRun } from './helpers/shared-runs.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const git = (...args: string[]) => execFileSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' }).trim();
/** The image id the docker CLI reports, or undefined when Docker or the image is not there. */
function dockerImageId(tag: string): string | undefined {
  try {
    return execFileSync('docker', ['image', 'inspect', '--format', '{{.Id}}', tag], {
      encoding: 'utf8',
      timeout: 20_000,
    }).trim();
  } catch {
    return undefined;
  }
}
const dockerUp = (() => {
  try {
    execFileSync('docker', ['version'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
})();

describe('a tourney writes provenance.json', () => {
  let runDir: string;
  let record: Provenance;
  beforeAll(async () => {
    runDir = path.join(tempDir(), 'run');
    await sharedRun('gomoku-two-rounds', GOMOKU_TWO_ROUNDS, runDir);
    record = (await readProvenance(runDir))!;
  }, 300_000);

  it('with the seeds, rules and sandbox the run played under', () => {
    const config = JSON.parse(fs.readFileSync(path.join(runDir, 'config.json'), 'utf8'));
    expect(record).toMatchObject({
      version: 1,
      seed: config.seed,
      rules: rulesOfConfig(config, ['gomoku']),
      sandbox: config.sandbox,
      tracks: ['gomoku-standard', 'gomoku-variant'].map((track) => ({
        track,
        seed: deriveSeed(config.seed, track),
        rules: rulesOfConfig(config, ['gomoku']).gomoku,
      })),
    });
  });

  it('with the process that played it: catarena version and commit, Node, OS, start and end', () => {
    expect(record.sessions).toHaveLength(1);
    const [session] = record.sessions;
    expect(session).toMatchObject({
      catarena: { version: CATARENA_VERSION, commit: git('rev-parse', 'HEAD') },
      node: process.version,
      os: { platform: process.platform, arch: process.arch },
    });
    expect(Date.parse(session!.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(session!.startedAt));
    expect(session!.images).toBeUndefined(); // neither Docker bots nor CLI agents
  });

  it('and report.md says it in a Reproducibility section', () => {
    const report = fs.readFileSync(path.join(runDir, 'report.md'), 'utf8');
    expect(report).toMatch(
      /## Reproducibility\n\nSeed 1 \(tracks: gomoku-standard -?\d+, gomoku-variant -?\d+\) · rules: gomoku v\d/,
    );
    expect(report).toContain(`- catarena ${CATARENA_VERSION} (commit ${git('rev-parse', 'HEAD').slice(0, 10)}`);
  });
});

describe('session facts', () => {
  const gitDir = process.env.GIT_DIR;
  afterEach(() => {
    if (gitDir === undefined) delete process.env.GIT_DIR;
    else process.env.GIT_DIR = gitDir;
  });

  it('outside a git checkout: the version without a commit, no failure', async () => {
    process.env.GIT_DIR = path.join(tempDir(), 'no-such-repo');
    const facts = await sessionFacts(resolveConfig({ games: ['gomoku'] }));
    expect(facts.catarena).toEqual({ version: CATARENA_VERSION });
  });

  it.skipIf(!dockerUp)('with the Docker sandbox and a CLI agent: both images and the pinned CLI version', async () => {
    const config = resolveConfig({
      games: ['gomoku'],
      sandbox: 'docker',
      agents: ['claude-code:sonnet', 'offline:cautious'],
    });
    const facts = await sessionFacts(config);
    const pinned = JSON.parse(fs.readFileSync(AGENT_RECIPE_PATH, 'utf8')).clis['@anthropic-ai/claude-code'];
    expect(facts.clis).toEqual({ '@anthropic-ai/claude-code': pinned });
    for (const [name, tag] of [
      ['botRuntime', botRuntimeTag()],
      ['agentRuntime', agentRuntimeTag()],
    ] as const) {
      const id = dockerImageId(tag);
      expect(facts.images?.[name], name).toEqual({ tag, ...(id ? { id } : {}) });
    }
  });

  it('a resume adds a session; the end fills in an image id not known at the start', async () => {
    const runDir = tempDir();
    const config = resolveConfig({ games: ['gomoku'], seed: 7 });
    await recordProvenance(runDir, config);
    await recordProvenance(runDir, config);
    const record = (await readProvenance(runDir))!;
    expect(record.sessions).toHaveLength(2);
    expect(record.seed).toBe(7);
    if (!dockerUp) return;
    // An image the run built after it started: the tag only, then its id once the run ends.
    const tag = agentRuntimeTag();
    record.sessions[1]!.images = { agentRuntime: { tag } };
    fs.writeFileSync(path.join(runDir, 'provenance.json'), JSON.stringify(record));
    await completeProvenance(runDir);
    const done = (await readProvenance(runDir))!;
    expect(done.sessions[1]!.finishedAt).toBeDefined();
    expect(done.sessions[1]!.images!.agentRuntime!.id).toBe(dockerImageId(tag));
  });
});
