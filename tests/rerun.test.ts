// Recording and `catarena rerun` (docs/rerun.md), with real processes against the scripted
// OpenAI-compatible servers: a tourney of the built-in agent (it writes a bot through its tool
// loop) and an LLM-player (its bot asks the model for every move, through the isolated sandbox's
// egress proxy) is recorded; the servers are stopped and their ports taken by counting listeners;
// the rerun replays every exchange and plays the identical games and W without one connection to
// them. Then: a rerun whose built-in agent asks differently (its prompt changed) reports the first
// differing request with both versions, and that agent fails its round; no file of the
// recordings holds the key, raw or gunzipped; and a fork that swaps the built-in agent for another
// model runs it live against a new server while the LLM-player is replayed with no call.
// About 25 s of tests (one recorded run, then four reruns of it), 40 s with the imports: a run with
// both agent kinds and its reruns is what is tested, and each rerun reuses the one recording.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { rerunRun, type RerunResult } from '../orchestrator/tourney/rerun.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { readExchanges } from '../util/exchange-tape/tape.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { perConversation, startScriptedLlm, type ScriptedLlm } from './helpers/scripted-llm.ts';

const CANARY = 'sk-canary-7Qz9-recordings-must-never-hold-this';
const CODER = 'builtin:openai-compatible/scripted-coder#coder';
const PLAYER = 'llm-player:openai-compatible/scripted#player';
const write = (p: string, content: string) => ({ name: 'write_file', args: { path: p, content } });

/** A TCP listener on a port that counts the connections it is offered (and drops them). */
async function countingListener(port: number): Promise<{ connections: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server = net.createServer((s) => {
    n++;
    s.destroy();
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return { connections: () => n, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const portOf = (url: string) => Number(new URL(url).port);
const seeded = (file: string, text: string) =>
  file === 'start_ai.sh' ? text.replace(/^(#!.*\n)?/, (shebang) => `${shebang}export BOT_SEED=7\n`) : text;

/** Sets variables for the file and puts back what was there. */
const saved = (() => {
  const before = new Map<string, string | undefined>();
  return {
    set(vars: Record<string, string>) {
      for (const k of Object.keys(vars)) before.set(k, process.env[k]);
      return vars;
    },
    restore() {
      for (const [k, v] of before) v === undefined ? delete process.env[k] : (process.env[k] = v);
    },
  };
})();

/** A model that writes the random bot, seeded (its moves are the same in a rerun; an unseeded one's are not), and finishes. */
const coderScript = () => {
  const sample = BUILTIN('random');
  return perConversation([
    {
      toolCalls: ['start_ai.sh', 'bot.mjs', 'bot-http.mjs'].map((f) =>
        write(`develop_ai/${f}`, seeded(f, fs.readFileSync(path.join(sample, f), 'utf8'))),
      ),
    },
    { toolCalls: [{ name: 'finish', args: { summary: 'done' } }] },
  ]);
};

describe('recording a tourney and rerunning it offline', () => {
  let coder: ScriptedLlm;
  let player: ScriptedLlm;
  let runDir: string;
  let traps: Array<Awaited<ReturnType<typeof countingListener>>> = [];
  let rerun: RerunResult;

  beforeAll(async () => {
    coder = await startScriptedLlm(coderScript(), { noStreaming: true, key: CANARY });
    player = await startScriptedLlm(() => ({ text: '1' }), { key: CANARY });
    // Set for the whole file (vi.stubEnv is undone after each test; the rerun creates its agents again).
    Object.assign(
      process.env,
      saved.set({ CATARENA_TEST_KEY_CODER: CANARY, OPENAI_API_KEY: CANARY, CATARENA_LLM_BASE_URL: player.baseURL }),
    );
    runDir = path.join(tempDir(), 'run');
    const config = resolveConfig({
      games: ['gomoku'],
      rounds: 1,
      variants: ['standard'],
      // One game at a time: a bot serving two games at once draws from its one seeded generator in whatever order their moves come.
      concurrency: 1,
      bootstrapSamples: 20,
      developConcurrency: 3,
      agents: [{ spec: CODER, keyEnv: 'CATARENA_TEST_KEY_CODER', baseUrl: coder.baseURL }, PLAYER, 'offline:cautious'],
    } as never);
    await runTourney({ config, runDir, index: false });
    // The providers are gone; whatever connects to their ports now is counted.
    await coder.close();
    await player.close();
    traps = [await countingListener(portOf(coder.baseURL)), await countingListener(portOf(player.baseURL))];
    rerun = await rerunRun({ from: runDir, out: path.join(tempDir(), 'rerun') });
  }, 120_000);

  afterAll(async () => {
    for (const t of traps) await t.close();
    saved.restore();
  });

  it('records every exchange of both agents, indexed by agent, track, round and order, and the report says how much', () => {
    const lines = readExchanges(runDir);
    const coderLines = lines.filter((l) => l.agent === 'coder');
    const playerLines = lines.filter((l) => l.agent === 'player');
    expect(coderLines.map((l) => l.order)).toEqual([1, 2]);
    expect(coderLines.every((l) => l.attempt === 1 && l.source === 'fetch' && l.status === 200 && l.usage)).toBe(true);
    expect(playerLines.length).toBeGreaterThan(3);
    expect(playerLines.every((l) => l.source === 'egress' && l.track === 'gomoku-standard' && l.round === 1)).toBe(
      true,
    );
    expect(coder.requests.length + player.requests.length).toBe(lines.length);
    expect(fs.readFileSync(path.join(runDir, 'report.md'), 'utf8')).toMatch(
      new RegExp(`Model exchanges recorded: ${lines.length} \\(\\d+ distinct bodies`),
    );
  });

  it('the rerun replays every exchange: identical games and W, and no connection to the providers', () => {
    expect(rerun.divergences).toEqual([]);
    expect(rerun.replayed).toBe(rerun.recorded);
    expect(rerun.games.differences).toEqual([]);
    expect(rerun.games.same).toBe(rerun.games.compared);
    expect(rerun.games.compared).toBeGreaterThan(0);
    expect(rerun.W.differences).toEqual([]);
    expect(rerun.identical).toBe(true);
    for (const t of traps) expect(t.connections()).toBe(0);
    expect(fs.readFileSync(path.join(rerun.runDir, 'rerun.md'), 'utf8')).toContain('Identical');
  });

  it('no file under recordings/ holds the key, raw or gunzipped', () => {
    const dir = path.join(runDir, 'recordings');
    let files = 0;
    for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!e.isFile()) continue;
      files++;
      const raw = fs.readFileSync(path.join(e.parentPath, e.name));
      expect(raw.includes(CANARY), e.name).toBe(false);
      if (e.name.endsWith('.gz')) expect(zlib.gunzipSync(raw).includes(CANARY), e.name).toBe(false);
    }
    expect(files).toBeGreaterThan(3);
    // The key headers were recorded, redacted.
    const line = readExchanges(runDir).find((l) => l.agent === 'coder')!;
    expect(line.requestHeaders.authorization).toBe('***');
  });

  it('a request that differs stops that agent: reported with both versions side by side, and it fails its round', async () => {
    // The same run, but its config asks the built-in agent for another model: its first request differs.
    const altered = path.join(tempDir(), 'altered');
    fs.cpSync(runDir, altered, { recursive: true });
    const configFile = path.join(altered, 'config.json');
    fs.writeFileSync(configFile, fs.readFileSync(configFile, 'utf8').replaceAll('scripted-coder', 'scripted-fallback'));
    fs.rmSync(path.join(altered, 'journal.jsonl'));
    fs.writeFileSync(path.join(altered, 'journal.jsonl'), fs.readFileSync(path.join(runDir, 'journal.jsonl')));
    const r = await rerunRun({ from: altered, out: path.join(tempDir(), 'rerun2') });
    const d = r.divergences.find((x) => x.agent === 'coder')!;
    expect(d).toBeDefined();
    expect(d.order).toBe(1);
    expect(d.differences).toContainEqual({
      path: '$.body.model',
      recorded: 'scripted-coder',
      rerun: 'scripted-fallback',
    });
    // The player's games against the coder's forfeiting stand-in then differ too: its own divergence follows.
    expect(r.divergences.filter((x) => x.agent === 'coder')).toHaveLength(1);
    const md = fs.readFileSync(path.join(r.runDir, 'rerun.md'), 'utf8');
    expect(md).toMatch(/\| `\$\.body\.model` \| "scripted-coder" \| "scripted-fallback" \|/);
    expect(r.identical).toBe(false);
    const record = JSON.parse(
      fs.readFileSync(path.join(r.runDir, 'tracks/gomoku-standard/round_1/strategies/coder.strategy.json'), 'utf8'),
    );
    expect(record.status).toBe('failed');
    for (const t of traps) expect(t.connections()).toBe(0);
  }, 60_000);

  it('a fork swaps one agent: it runs live against its new endpoint, every other agent is replayed without a call to its provider', async () => {
    const fresh = await startScriptedLlm(coderScript(), { noStreaming: true, key: CANARY });
    process.env.CATARENA_OPENAI_BASE_URL = saved.set({
      CATARENA_OPENAI_BASE_URL: fresh.baseURL,
    }).CATARENA_OPENAI_BASE_URL;
    try {
      const r = await rerunRun({
        from: runDir,
        out: path.join(tempDir(), 'fork'),
        fork: { agent: 'coder', spec: 'builtin:openai-compatible/scripted-fallback', fromRound: 1 },
      });
      expect(fresh.requests).toHaveLength(2); // the swapped agent's development, live
      expect(r.forwarded).toBe(2);
      expect(r.divergences).toEqual([]);
      // The LLM-player was answered from the recording: every one of its exchanges, none sent.
      expect(r.replayed).toBe(readExchanges(runDir).filter((l) => l.agent === 'player').length);
      for (const t of traps) expect(t.connections()).toBe(0);
      const config = JSON.parse(fs.readFileSync(path.join(r.runDir, 'config.json'), 'utf8'));
      expect(config.agents).toContain('builtin:openai-compatible/scripted-fallback#coder');
    } finally {
      await fresh.close();
    }
  }, 60_000);
});
