// `catarena doctor` and `tourney --check`: a ready setup (offline agents, the built-in agent and
// the LLM-player against a scripted endpoint that checks its key, a CLI agent through the egress
// proxy into its image) and a broken one (a missing key, a wrong key, an endpoint nobody serves, a
// missing image, Redis down), each named in the table, and a tourney that does not start.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { agentRuntimeTag } from '../docker/image-tags.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { doctorReady, formatDoctor, runDoctor } from '../orchestrator/doctor.ts';
import { dockerEngineAnswers, dockerReady, tempDir } from './helpers/bots.ts';
import { catarena as catarenaInProcess } from './helpers/cli.ts';
import { startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.ts';

const KEY = 'sk-doctor-good-123';
const agentImage = dockerReady() && dockerReady(agentRuntimeTag());

/**
 * `catarena <args>` with these environment variables (undefined: unset), in this process: the
 * same main() as bin/catarena.mjs, without a Node start-up each (the binary's own start-up is
 * tests/cli.test.ts's first test). The variables are restored after the command.
 */
async function catarena(args: string[], env: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  try {
    return await catarenaInProcess(...args);
  } finally {
    vi.unstubAllEnvs();
  }
}

describe('catarena doctor', () => {
  let server: ScriptedLlm;
  beforeAll(async () => {
    server = await startScriptedLlm([], { key: KEY, models: ['scripted'] });
  });
  afterAll(() => server.close());
  const good = () => ({
    OPENAI_API_KEY: KEY,
    CATARENA_OPENAI_BASE_URL: server.baseURL,
    CATARENA_LLM_BASE_URL: server.baseURL,
  });

  it('a ready setup: every check ready, the key checked with a model-list request that spends no tokens', async () => {
    const agents = [
      'offline:cautious',
      'builtin:openai-compatible/scripted',
      'llm-player:openai-compatible/scripted',
      ...(agentImage ? ['qwen-code:scripted'] : []),
    ];
    const r = await catarena(['doctor', '--agents', agents.join(','), '--games', 'gomoku,chess'], good());
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/offline:cautious\s+chess reference bot\s+ready/);
    expect(r.stdout).toMatch(
      /builtin:openai-compatible\/scripted\s+endpoint of openai-compatible\/scripted\s+ready\s+reachable, key accepted \(GET \/v1\/models: HTTP 200\); model scripted listed/,
    );
    expect(r.stdout).toMatch(/llm-player:openai-compatible\/scripted\s+endpoint\s+ready/);
    if (agentImage) {
      expect(r.stdout).toMatch(/qwen-code:scripted\s+agent image\s+ready/);
      expect(r.stdout).toMatch(/qwen-code:scripted\s+endpoint \(via the egress proxy\)\s+ready\s+.*key accepted/);
    }
    expect(r.stdout).toMatch(/all \d+ checks ready/);
    expect(server.requests).toHaveLength(0); // no chat request: nothing was spent
    expect(r.stdout + r.stderr).not.toContain(KEY);
  }, 120_000);

  it('a broken setup: each missing thing named, exit 1, and tourney --check does not start', async () => {
    const env = { ...good(), ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: 'sk-wrong-key-456' };
    const agents = ['claude-code', 'builtin:openai-compatible/scripted', ...(agentImage ? ['codex'] : [])];
    // With --queue the agents develop on workers, which check them there: the coordinator checks Redis.
    const queued = await catarena(['doctor', '--agents', agents.join(','), '--queue', 'redis://127.0.0.1:1'], env);
    expect(queued.code).toBe(1);
    expect(queued.stdout).toMatch(/run\s+queue \(Redis\)\s+MISSING\s+cannot reach Redis at redis:\/\/127\.0\.0\.1:1/);
    expect(queued.stdout).toMatch(/claude-code\s+workers\s+WARNING\s+developed on workers; none has checked it yet/);
    const r = await catarena(['doctor', '--agents', agents.join(',')], env);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/claude-code\s+spec and key\s+MISSING\s+ANTHROPIC_API_KEY is not set/);
    expect(r.stdout).toMatch(
      /builtin:openai-compatible\/scripted\s+endpoint of openai-compatible\/scripted\s+MISSING\s+the key was refused \(HTTP 401/,
    );
    if (agentImage)
      expect(r.stdout).toMatch(
        /codex\s+endpoint \(via the egress proxy\)\s+MISSING\s+.*the key was refused \(HTTP 401/,
      );
    // A CLI agent naming no model gets the CLI's own default, possibly its most expensive: a warning, not a failure.
    if (agentImage) expect(r.stdout).toMatch(/codex\s+model\s+WARNING\s+no model named: codex picks its own default/);
    expect(r.stdout).toMatch(/\d+ of \d+ checks failed/);
    expect(r.stdout + r.stderr).not.toContain('sk-wrong-key-456');

    const out = tempDir();
    const t = await catarena(
      [
        'tourney',
        '--check',
        '--rounds',
        '1',
        '--agents',
        'offline:cautious,builtin:openai-compatible/scripted',
        '--out',
        out,
      ],
      env,
    );
    expect(t.code).toBe(1);
    expect(t.stderr).toMatch(/not started: the checks above failed/);
    expect(t.stdout).toMatch(/the key was refused/);
  }, 120_000);

  it('a tourney checks first by default: a wrong key or a model the endpoint does not serve stops it in seconds, with the table, before any development', async () => {
    const out = tempDir();
    const started = Date.now();
    const t = await catarena(
      [
        'tourney',
        '--rounds',
        '1',
        '--games',
        'gomoku',
        '--agents',
        'offline:cautious,builtin:openai-compatible/scripted',
        '--out',
        out,
      ],
      { ...good(), OPENAI_API_KEY: 'sk-wrong-key-456' },
    );
    const seconds = (Date.now() - started) / 1000;
    expect(t.code, t.stdout + t.stderr).toBe(1);
    expect(t.stdout).toMatch(
      /builtin:openai-compatible\/scripted\s+endpoint of openai-compatible\/scripted\s+MISSING\s+the key was refused \(HTTP 401/,
    );
    expect(t.stderr).toMatch(/not started: the checks above failed/);
    expect(seconds).toBeLessThan(30); // module loading included (in this process); the checks themselves take well under a second
    expect(fs.readdirSync(out)).toEqual([]); // no run directory: nothing developed, nothing played
    expect(server.requests).toHaveLength(0);

    // The key is right but the model is not one the endpoint lists: named with what it does list.
    const m = await catarena(
      [
        'tourney',
        '--rounds',
        '1',
        '--games',
        'gomoku',
        '--agents',
        'llm-player:openai-compatible/gpt-5-typo',
        '--out',
        out,
      ],
      good(),
    );
    expect(m.code).toBe(1);
    expect(m.stdout).toMatch(
      /llm-player:openai-compatible\/gpt-5-typo\s+endpoint\s+MISSING\s+key accepted, but the model "gpt-5-typo" is not served there: 1 models listed \(scripted\)/,
    );
    expect(fs.readdirSync(out)).toEqual([]);
  }, 120_000);

  it('an endpoint nobody serves and a missing bot image are named (in-process)', async () => {
    const config = resolveConfig({
      agents: ['builtin:openai-compatible/x'],
      sandbox: 'docker',
      docker: { image: 'catarena/no-such-image:0' },
    });
    // vi.stubEnv: restored after the test (unstubEnvs), even where the variable was unset.
    vi.stubEnv('OPENAI_API_KEY', KEY);
    vi.stubEnv('CATARENA_OPENAI_BASE_URL', 'http://127.0.0.1:9/v1');
    const rows = await runDoctor(config);
    expect(doctorReady(rows)).toBe(false);
    const table = formatDoctor(rows);
    expect(table).toMatch(
      /endpoint of openai-compatible\/x\s+MISSING\s+not reachable: http:\/\/127\.0\.0\.1:9\/v1\/models/,
    );
    // What doctor sees is the engine itself (answering or not), whatever CATARENA_DOCKER says about running the Docker tests.
    if (dockerEngineAnswers())
      expect(table).toMatch(
        /run\s+bot image\s+MISSING\s+catarena\/no-such-image:0 is missing: build it with "npm run images"/,
      );
    else expect(table).toMatch(/run\s+Docker\s+MISSING/);
  }, 60_000);
});
