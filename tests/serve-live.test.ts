// `catarena serve`'s live page following a run's files as a tourney, a kill and a resume leave
// them (orchestrator/serve/watch.ts over files written by orchestrator/run/run-dir.ts): a
// live.jsonl rewritten when a tourney finishes is not read as new lines (no progress line twice
// on the page), and games a killed run left started leave "in flight" when the run is killed, when
// it is resumed (only the new process's games count) and when it finishes; a first board slow to
// load its viewer holds back no later one. About a second.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RunWatch, type WatchMessage } from '../orchestrator/serve/watch.ts';
import { RunDir } from '../orchestrator/run/run-dir.ts';
import { startTimeOf } from '../util/procfs.mjs';
import { tempDir } from './helpers/bots.ts';

/** The progress list as run-page.js keeps it from the messages it is sent. */
function pageProgress(messages: WatchMessage[], start: string[]): string[] {
  let lines = [...start];
  for (const m of messages) {
    if (m.type === 'progress') {
      const text = m.text as string;
      if (m.replace && lines.length && /^\d+\/\d+ games/.test(lines.at(-1)!)) lines[lines.length - 1] = text;
      else lines.push(text);
    } else if (m.type === 'progress-all') lines = [...(m.progress as string[])];
  }
  return lines;
}

const startLine = (n: number, at: string) =>
  JSON.stringify({
    type: 'start',
    id: `m${n}`,
    gameId: `g${n}`,
    spec: { game: 'gomoku', variant: 'standard', seats: ['a@r1', 'b@r1'], seed: n },
    setup: null,
    at,
  });

const status = (state: string, pid: number, startedAt: string) =>
  JSON.stringify({
    state,
    kind: 'tourney',
    pid,
    pidStart: startTimeOf(pid),
    host: os.hostname(),
    startedAt,
    updatedAt: startedAt,
  });

/** A pid that is gone (a process that ran and exited). */
const deadPid = () => spawnSync('true').pid!;

const watches: RunWatch[] = [];
afterEach(() => {
  for (const w of watches.splice(0)) w.close();
});
const watch = (dir: string) => {
  const w = new RunWatch(dir);
  watches.push(w);
  return w;
};
const tick = (w: RunWatch) => (w as unknown as { tick(): Promise<void> }).tick();

describe('the live page follows what a run leaves', () => {
  it('a live.jsonl rewritten as the tourney finishes: each progress line once', async () => {
    const dir = path.join(tempDir(), 'tourney-done');
    const run = new RunDir(dir);
    await run.markStatus('running', 'tourney');
    const progress = run.teeProgress();
    progress.phase('round 1: gomoku-standard');
    progress.tick(1, 2);
    run.appendLive(JSON.parse(startLine(1, new Date().toISOString())));
    run.appendLive({
      type: 'end',
      id: 'm1',
      gameId: 'g1',
      scores: [1, 0],
      winner: 0,
      termination: 'normal',
      reason: 'five',
      at: new Date().toISOString(),
    });
    progress.tick(2, 2);
    progress.phase('round 2: gomoku-standard');
    await new Promise((r) => setTimeout(r, 250)); // live.jsonl is written every 100 ms
    const w = watch(dir);
    const first = (await w.snapshot()).progress as string[];
    expect(first).toEqual(['round 1: gomoku-standard', '2/2 games', 'round 2: gomoku-standard']);
    const sent: WatchMessage[] = [];
    w.subscribe((m) => sent.push(m));
    await run.markStatus('finished', 'tourney'); // keeps the progress lines only: a new, shorter file
    await tick(w);
    expect(w.progress).toEqual(first);
    expect(pageProgress(sent, first)).toEqual(first);
  });

  it('games a killed run left started are not in flight once it is killed, resumed or finished', async () => {
    const dir = path.join(tempDir(), 'tourney-killed');
    fs.mkdirSync(dir);
    const before = new Date(Date.now() - 60_000).toISOString();
    fs.writeFileSync(path.join(dir, 'status.json'), status('running', deadPid(), before));
    fs.writeFileSync(
      path.join(dir, 'live.jsonl'),
      `${[1, 2, 3, 4, 5].map((n) => startLine(n, new Date(Date.now() - 50_000 + n).toISOString())).join('\n')}\n`,
    );
    const w = watch(dir);
    const sent: WatchMessage[] = [];
    w.subscribe((m) => sent.push(m));
    // Killed: its five games never end.
    const killed = await w.snapshot();
    expect(killed.state).toBe('killed');
    expect(killed.inFlight).toBe(0);

    // Resumed: a new process (this one, alive) says running from now; one new game starts.
    const resumedAt = new Date().toISOString();
    fs.writeFileSync(path.join(dir, 'status.json'), status('running', process.pid, resumedAt));
    fs.appendFileSync(path.join(dir, 'live.jsonl'), `${startLine(6, new Date(Date.now() + 5).toISOString())}\n`);
    await tick(w);
    const resumed = await w.snapshot();
    expect(resumed.state).toBe('running');
    expect(resumed.inFlight).toBe(1);
    expect(w.inFlight.has('g6')).toBe(true);

    // Finished: the game the page was shown goes too (a finished play run keeps its lines).
    fs.writeFileSync(path.join(dir, 'status.json'), status('finished', process.pid, resumedAt));
    await tick(w);
    expect((await w.snapshot()).inFlight).toBe(0);
    expect(sent.filter((m) => m.type === 'dropped').flatMap((m) => m.ids as string[])).toContain('m6');
  });

  it("a game's boards keep up with its moves after a first one slow to load its viewer", async () => {
    const dir = path.join(tempDir(), 'slow-board');
    fs.mkdirSync(dir);
    const since = new Date(Date.now() - 1000).toISOString();
    fs.writeFileSync(path.join(dir, 'status.json'), status('running', process.pid, since));
    const live = path.join(dir, 'live.jsonl');
    fs.writeFileSync(live, '');
    const w = watch(dir);
    const sent: WatchMessage[] = [];
    w.subscribe((m) => sent.push(m));
    // The first board waits 600 ms for its viewer module (a busy machine loading it); moves come after it.
    const slow = w as unknown as { viewerLoaded(game: string): Promise<unknown> };
    const viewerLoaded = slow.viewerLoaded.bind(w);
    let calls = 0;
    slow.viewerLoaded = async (game) => {
      if (calls++ === 0) await new Promise((r) => setTimeout(r, 600));
      return viewerLoaded(game);
    };
    fs.appendFileSync(live, `${startLine(1, new Date().toISOString())}\n`);
    await tick(w);
    const boards = () => sent.filter((m) => m.type === 'board').map((m) => m.moves as number);
    await vi.waitFor(() => expect(boards()).toEqual([0]), { timeout: 3000 });
    const moves = [
      [7, 7],
      [7, 8],
      [8, 8],
    ].map((action, ply) =>
      JSON.stringify({
        type: 'move',
        id: 'm1',
        gameId: 'g1',
        move: { ply, seat: ply % 2, action, latencyMs: 1 },
        at: '',
      }),
    );
    fs.appendFileSync(live, `${moves.join('\n')}\n`);
    await tick(w);
    // The next board follows within BOARD_MS: the module's load was not the board's cost.
    await vi.waitFor(() => expect(boards()).toEqual([0, 3]), { timeout: 3000 });
  });
});
