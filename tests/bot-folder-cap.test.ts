// What an agent leaves is capped (orchestrator/tourney/develop.ts). Its bot folder is copied into
// the run, into each sandbox that starts it and into every rival's next workspace: a sparse file
// of 4 GiB (4 KiB on the agent's disk) or a folder of ten thousand files is refused as a failed
// build before any copy, and the round is played with a stand-in. Its workspace is read whole into
// the run's store at the end (and copied back from a queue worker): one over WORKSPACE_CAP is
// emptied but for a note.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Agent, Workspace } from '../agents/core/types.ts';
import { createAgent } from '../agents/registry.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { BOT_FOLDER_CAP, WORKSPACE_REMOVED_NOTE } from '../orchestrator/tourney/develop.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import type { TourneySummary } from '../records/tourney.ts';
import { treeSize } from '../util/fs.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';

/** A cheating agent: the random reference bot, plus what `hoard` leaves in the folder it hands in. */
class HoardingAgent implements Agent {
  readonly kind = 'test:hoarder';
  constructor(
    readonly id: string,
    private readonly hoard: (dir: string) => void,
  ) {}
  async develop(ws: Workspace) {
    fs.cpSync(BUILTIN('random'), ws.outputDir, { recursive: true });
    this.hoard(ws.outputDir);
    return {
      botDir: ws.outputDir,
      cost: { wallMs: 1, toolCalls: 1, tokens: null, linesOfCode: 1 },
      log: 'handed in the random bot and a hoard',
    };
  }
}

const GIB = 1024 ** 3;

describe('treeSize: what copyTree would copy', () => {
  it('counts files and folders and their sizes, skips what copyTree skips, and stops past the cap', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'a.txt'), 'x'.repeat(1000));
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'sub', 'b.bin'), Buffer.alloc(24));
    fs.mkdirSync(path.join(dir, 'node_modules'));
    fs.writeFileSync(path.join(dir, 'node_modules', 'big'), Buffer.alloc(5000));
    fs.symlinkSync('/etc/passwd', path.join(dir, 'link'));
    fs.truncateSync(path.join(dir, 'sub', 'b.bin'), 3 * GIB); // sparse: its apparent size counts
    expect(treeSize(dir)).toEqual({ bytes: 1000 + 3 * GIB, entries: 3 });
    for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(dir, `f${i}`), '');
    expect(treeSize(dir, { bytes: Infinity, entries: 10 }).entries).toBe(11);
  });
});

describe('a bot folder over the cap is a failed build, refused before any copy', () => {
  let runDir: string;
  let summary: TourneySummary;
  const strategies = () => path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'strategies');
  beforeAll(async () => {
    runDir = path.join(tempDir(), 'run');
    summary = await runTourney({
      config: resolveConfig({ games: ['gomoku'], rounds: 1, variants: ['standard'], bootstrapSamples: 20 }),
      runDir,
      agents: [
        // 4 GiB that take 4 KiB: every copy would write them whole (disk and time), a hash read them.
        new HoardingAgent('sparse', (dir) => {
          fs.writeFileSync(path.join(dir, 'model.bin'), '');
          fs.truncateSync(path.join(dir, 'model.bin'), 4 * GIB);
        }),
        new HoardingAgent('many', (dir) => {
          fs.mkdirSync(path.join(dir, 'cache'));
          for (let i = 0; i <= BOT_FOLDER_CAP.entries; i++) fs.writeFileSync(path.join(dir, 'cache', `${i}`), '');
        }),
        createAgent(`dir:${BUILTIN('random')}#honest`, 1),
      ],
    });
  }, 120_000);

  it('records each hoarder as a failed build that says why, and copies nothing of its folder', () => {
    const strategy = (agent: string) => summary.tracks[0]!.strategies.find((s) => s.agent === agent)!;
    expect(strategy('sparse')).toMatchObject({ status: 'failed' });
    expect(strategy('sparse').failure).toMatch(/too large to hand in: over 256 MiB .*sparse or not/);
    expect(strategy('many')).toMatchObject({ status: 'failed' });
    expect(strategy('many').failure).toMatch(/too large to hand in: over 10000 files and folders/);
    for (const agent of ['sparse', 'many']) {
      const record = JSON.parse(fs.readFileSync(path.join(strategies(), `${agent}.strategy.json`), 'utf8'));
      expect(record.failureReason).toBe('invalid_bot');
      expect(fs.readdirSync(path.join(strategies(), agent))).toEqual([]);
      expect(fs.readFileSync(path.join(strategies(), `${agent}.build.log`), 'utf8')).toMatch(/too large to hand in/);
    }
    expect(treeSize(runDir).bytes).toBeLessThan(64 * 1024 ** 2);
  });

  it('empties a workspace over its cap but for a note, and keeps one within it', () => {
    const workspaces = path.join(runDir, 'tracks', 'gomoku-standard', 'round_1', 'workspaces');
    expect(fs.readdirSync(path.join(workspaces, 'sparse'))).toEqual([WORKSPACE_REMOVED_NOTE]);
    const note = fs.readFileSync(path.join(workspaces, 'sparse', WORKSPACE_REMOVED_NOTE), 'utf8');
    expect(note).toMatch(/emptied when the agent was done: it held over 2048 MiB/);
    expect(fs.readFileSync(path.join(strategies(), 'sparse.build.log'), 'utf8')).toContain(note.trim());
    // Ten thousand empty files pass a workspace's cap (not a bot's): that workspace is kept.
    expect(fs.readdirSync(path.join(workspaces, 'many', 'develop_ai', 'cache'))).toHaveLength(
      BOT_FOLDER_CAP.entries + 1,
    );
  });

  it('plays the round: the honest bot meets both stand-ins and wins by their forfeits', () => {
    const honest = summary.tracks[0]!.strategies.find((s) => s.agent === 'honest')!;
    expect(honest.status).toBe('ok');
    const journal = fs
      .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { spec: { seats: string[] }; scores: number[]; reason: string });
    const honestGames = journal.filter((g) => g.spec.seats.includes('honest@r1'));
    expect(honestGames).toHaveLength(4); // two stand-ins, colours swapped
    for (const g of honestGames) {
      expect(g.reason).toMatch(/failed build/);
      expect(g.scores[g.spec.seats.indexOf('honest@r1')]).toBeGreaterThan(0);
    }
    // Nothing of the gigabytes was written: the run's files take little disk, not only little apparent size.
    const onDisk = (fs.readdirSync(runDir, { recursive: true }) as string[])
      .map((rel) => fs.lstatSync(path.join(runDir, rel)).blocks * 512)
      .reduce((a, b) => a + b, 0);
    expect(onDisk).toBeLessThan(64 * 1024 ** 2);
  });
});
