// End-to-end games through the process sandbox: a real Python/Flask bot in CATArena's style,
// the reference bots, and bots that misbehave in every way the runner must survive.
// Over 30 s with Docker: every misbehaving bot is tried in each sandbox kind (unsafe, process,
// docker), and a Docker bot costs a container start. To keep it near that: the misbehaving cases
// of a kind run concurrently against one shared well-behaved bot, the Flask games are against a
// shallow heuristic, and the checks whose outcome does not depend on the sandbox (the catarena
// policy's scores, the journal resume) run in the unsafe sandbox only.
// Over 30 s: every misbehaving-bot case in each sandbox kind (unsafe, process, docker), the Docker
// arenas two at a time; about 20 s without Docker.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runArena, type ArenaOptions } from '../orchestrator/arena.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';
import { allocatePort, releasePort } from '../sandbox/ports.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { adapterFor } from '../games/registry.ts';
import {
  BUILTIN,
  SANDBOX_KINDS,
  botDir,
  flaskBot,
  hasFlask,
  misbehavingBot,
  sharedBot,
  sharedBotOn,
  shallowHeuristic,
  tempDir,
} from './helpers/bots.ts';

// unsafe too: the Flask bot's recorded requests are read from its folder, which only a plain process can write.
describe.each(['unsafe', ...SANDBOX_KINDS])('%s sandbox', (kind) => {
  const sandbox = createSandbox(kind);
  // The game servers of the arenas that play the shared good bot below: the bot is started with
  // their ports forwarded, so they outlive the arenas.
  const pool = new GameServerPool();
  afterAll(() => Promise.all([sandbox.close(), pool.closeAll()]));

  // The well-behaved opponent of the misbehaving bots: under test is what the runner does with the
  // bad bot, so one 'ok' bot per rule set serves every arena below that plays on `pool` (in every
  // sandbox kind: it reaches the game server through the ports it was started with); the bad bot
  // is started fresh by each arena.
  const okDir = misbehavingBot('ok');
  const sharedGood = {
    standard: sharedBotOn(sandbox, okDir, { hosts: pool, game: 'gomoku', variant: 'standard' }),
    variant: sharedBotOn(sandbox, okDir, { hosts: pool, game: 'gomoku', variant: 'variant' }),
  };
  const good = (variant: 'standard' | 'variant' = 'standard') => sharedGood[variant]('good');
  /** A fresh good bot, for an arena on its own game server (the hard-coded port test). */
  const freshGood = () => ({ id: 'good', dir: misbehavingBot('ok') });

  // What is under test is the other bot's move: the shared good bot, serving every concurrent case
  // on a loaded machine, is not held to its deadline.
  const LIMITS = { ...DEFAULT_LIMITS, moveMs: 1_500, seatMoveMs: { good: 30_000 } };

  // Docker arenas two at a time (see the misbehaving cases below); the other kinds' at once.
  const gate = arenaGate(kind === 'docker' ? 2 : Number.POSITIVE_INFINITY);
  function arena(bots: Array<{ id: string; dir: string }>, extra: Partial<ArenaOptions> = {}) {
    return gate(() =>
      runArena({
        game: 'gomoku',
        variant: 'standard',
        bots,
        reps: 1,
        seed: 7,
        concurrency: 2,
        // The join keeps its default deadline: joins are not under test here, and a loaded 2-core CI
        // machine once took over 2 s to answer a Docker bot's join (forbidden → join_failed).
        limits: LIMITS,
        policy: 'strict',
        runDir: tempDir('catarena-run-'),
        sandbox,
        // Starts are not under test here (the never-healthy case sets its own): room for several
        // Docker containers starting at once on a loaded machine.
        startTimeoutMs: 30_000,
        ...extra,
      }),
    );
  }

  const readRequests = (dir: string) =>
    fs
      .readFileSync(path.join(dir, 'requests.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { path: string; content_type: string; body: Record<string, unknown> });

  // Started with `python` (not python3), as CATArena's chess examples are: the sandbox provides
  // `python` where the host has python3 only (its own arena before; the Flask games show it now).
  const pythonFlaskBot = () => {
    const source = fs.readFileSync(path.join(flaskBot(), 'catarena_style.py'), 'utf8');
    return botDir(
      'python_bot',
      '#!/bin/bash\ncd "$(dirname "$0")"\ncommand -v python >/dev/null || { echo "Python not found" >&2; exit 1; }\nexec python catarena_style.py "$1"\n',
      { 'catarena_style.py': source },
    );
  };

  describe.skipIf(!hasFlask())('a CATArena-style Python/Flask bot, started with `python`', () => {
    const sharedDir = pythonFlaskBot();
    const sharedFlask =
      kind === 'unsafe' ? { dir: sharedDir, ref: sharedBot(sandbox, sharedDir, adapterFor('gomoku').health) } : null;
    // Both rule sets in the unsafe sandbox; one in the others, where what is under test is the
    // sandbox starting `python` and carrying the bot's HTTP (the rule set is the game server's).
    const variants = kind === 'unsafe' ? (['standard', 'variant'] as const) : (['standard'] as const);
    for (const variant of variants) {
      it(`starts with python and plays the reference bots to normal ends (${variant})`, async () => {
        // In the process sandbox one Flask bot (a second of CPU to start) plays both rule sets; its
        // request log is cleared first, so what is read below is this arena's.
        const flask = sharedFlask?.dir ?? pythonFlaskBot();
        fs.rmSync(path.join(flask, 'requests.jsonl'), { force: true });
        const out = await arena(
          [
            sharedFlask ? await sharedFlask.ref('flask') : { id: 'flask', dir: flask },
            // One-ply search: a move in milliseconds, not up to its 1.5 s budget.
            { id: 'heuristic', dir: shallowHeuristic() },
            { id: 'random', dir: BUILTIN('random') },
          ],
          { variant },
        );
        expect(out.results).toHaveLength(6);
        for (const r of out.results) expect(r.termination, r.reason).toBe('normal');
        // Even the heuristic's one-ply search beats a centre-hugging bot with both colours.
        const row = out.table.find((t) => t.id === 'heuristic')!;
        expect(row.vs.flask!.wins).toBe(2);

        if (kind !== 'unsafe') return; // the recorded requests stay inside an isolated sandbox
        const requests = readRequests(flask);
        for (const req of requests) expect(req.content_type).toBe('application/json');
        const join = requests.find((r) => r.path === '/join_game')!;
        expect(Object.keys(join.body).sort()).toEqual(['game_id', 'game_server_url', 'my_color']);
        expect(join.body.game_id).toMatch(/^gomoku_[0-9a-f]{8}$/);
        const move = requests.find((r) => r.path === '/get_move')!;
        expect(Object.keys(move.body).sort()).toEqual(['board', 'current_player', 'game_id']);
        expect(move.body.board).toHaveLength(15);
        expect(requests.filter((r) => r.path === '/leave_game')).toHaveLength(4);
        // Joins come before moves for each game, black before white.
        const firstGame = requests.filter((r) => r.body.game_id === join.body.game_id);
        expect(firstGame[0]!.path).toBe('/join_game');
      });
    }
  });

  // Concurrent: each case is its own arena (its own bad bot and run directory) against the shared
  // good bot, and most of a case's time is waiting (bot starts, deadlines, crash restarts). In
  // Docker two arenas at a time (the gate in arena()): five containers starting at once on a loaded
  // 2-core machine missed join and move deadlines; a test's time includes its wait at the gate.
  describe('misbehaving bots end the game with the right reason, never the run', {
    concurrent: true,
    ...(kind === 'docker' ? { timeout: 300_000 } : {}),
  }, () => {
    const cases: Array<{ mode: string; termination: string; variant?: 'variant'; message: RegExp; moveMs?: number }> = [
      { mode: 'malformed_json', termination: 'malformed', message: /not JSON/ },
      { mode: 'no_move', termination: 'malformed', message: /no "move"/ },
      {
        mode: 'wrong_type',
        termination: 'malformed',
        message: /"move" is not a pair of integers \[row, col\]: "seven,seven"/,
      },
      { mode: 'occupied', termination: 'illegal', message: /occupied/ },
      { mode: 'off_board', termination: 'illegal', message: /off_board/ },
      { mode: 'forbidden', termination: 'illegal', variant: 'variant', message: /forbidden/ },
      { mode: 'http_500', termination: 'http_error', message: /HTTP 500/ },
      { mode: 'huge_answer', termination: 'malformed', message: /larger than/ },
      // A deadline sized to the claim: the good bot answers in milliseconds, the bad one never.
      { mode: 'sleep', termination: 'timeout', message: /within 500 ms/, moveMs: 500 },
    ];
    for (const c of cases) {
      it(`${c.mode} → ${c.termination}`, async ({ expect }) => {
        const variant = c.variant ?? 'standard';
        const out = await arena([{ id: 'bad', dir: misbehavingBot(c.mode) }, await good(variant)], {
          variant,
          hosts: pool,
          ...(c.moveMs ? { limits: { ...LIMITS, moveMs: c.moveMs } } : {}),
        });
        expect(out.results).toHaveLength(2);
        for (const r of out.results) {
          const badSeat = r.spec.seats.indexOf('bad');
          expect(r.termination).toBe(c.termination);
          expect(r.offender).toBe(badSeat);
          expect(r.scores[badSeat]).toBe(0);
          expect(r.scores[1 - badSeat]).toBe(1);
          expect(r.reason).toMatch(c.message);
          expect(r.seatStats[badSeat]!.errors[c.termination as 'timeout']).toBe(1);
          // The deadline is enforced by aborting: a sleeping bot (60 s) costs the deadline (plus the
          // game's joins, seconds on a loaded machine), not its sleep.
          if (c.mode === 'sleep') expect(r.durationMs).toBeLessThan(500 + 9_500);
        }
        expect(out.table.find((t) => t.id === 'bad')!.failures[c.termination]).toBe(2);
      });
    }

    // Scores under a policy do not depend on the sandbox: the unsafe sandbox only (the terminations
    // they score are checked in every sandbox kind by the cases above).
    it.runIf(kind === 'unsafe')(
      'the catarena policy makes an illegal move a draw (and a move that is no pair of integers, which CATArena forwarded to its server), and a timeout a loss',
      async ({ expect }) => {
        const policyArena = async (mode: string) =>
          arena([{ id: 'bad', dir: misbehavingBot(mode) }, await good()], { policy: 'catarena', hosts: pool });
        const [illegal, garbled, timeout] = await Promise.all(['occupied', 'wrong_type', 'no_move'].map(policyArena));
        for (const r of illegal!.results.filter((x) => x.termination !== 'normal')) {
          expect(r.termination).toBe('illegal');
          expect(r.scores).toEqual([0.5, 0.5]);
        }
        expect(illegal!.results.some((r) => r.termination === 'illegal')).toBe(true);
        for (const r of garbled!.results) {
          expect(r.termination).toBe('malformed');
          expect(r.scores).toEqual([0.5, 0.5]);
        }
        for (const r of timeout!.results) expect(r.scores[r.spec.seats.indexOf('bad')]).toBe(0);
      },
    );

    it('a bot that dies mid-game loses by crash, and is restarted for its next game', async ({ expect }) => {
      // One pairing (two games): the second game is played by the restarted bot.
      // A death is seen by its closed connection, never by the deadline: a long one.
      const out = await arena([{ id: 'bad', dir: misbehavingBot('die_after_3') }, await good()], {
        concurrency: 1,
        hosts: pool,
        limits: { ...LIMITS, moveMs: 15_000 },
      });
      expect(out.results).toHaveLength(2);
      for (const r of out.results) {
        expect(r.termination, `${r.reason} (seat ${r.offender})`).toBe('crash');
        expect(r.offender).toBe(r.spec.seats.indexOf('bad'));
        expect(r.plies).toBeGreaterThanOrEqual(5); // it really played before dying
      }
      const bad = out.bots.find((b) => b.id === 'bad')!;
      expect(bad.restarts).toBeGreaterThanOrEqual(1);
      expect(bad.lastCrash).toMatch(/exit code 3/);
    });

    it('a bot that never becomes healthy forfeits its games with the start error', async ({ expect }) => {
      const never = botDir('never', '#!/bin/bash\nexec python3 -c "import time; time.sleep(120)"\n');
      // The good bot runs already: the start deadline is the never-healthy bot's alone.
      const out = await arena([{ id: 'never', dir: never }, await good()], { startTimeoutMs: 1_000, hosts: pool });
      expect(out.results).toHaveLength(2);
      for (const r of out.results) {
        expect(r.termination).toBe('crash');
        expect(r.reason).toMatch(/did not start/);
        expect(r.scores[r.spec.seats.indexOf('never')]).toBe(0);
        expect(r.plies).toBe(0);
      }
      expect(out.bots.find((b) => b.id === 'never')!.startError).toMatch(/health/i);
    });

    it('a start script that daemonises and exits still plays', async ({ expect }) => {
      const daemon = misbehavingBot('ok', 'nohup');
      fs.writeFileSync(
        path.join(daemon, 'start_ai.sh'),
        fs
          .readFileSync(path.join(daemon, 'start_ai.sh'), 'utf8')
          .replace(/\n$/, ' >/dev/null 2>&1 &\nsleep 0.2\nexit 0\n'),
      );
      const out = await arena([{ id: 'daemon', dir: daemon }, await good()], { hosts: pool });
      for (const r of out.results) expect(r.termination).toBe('normal');
    });

    // The journal and its resume are the run directory's, whatever runs the bots: the unsafe
    // sandbox only (a resume's sweep of a killed run's bots: tests/orphans.test.ts).
    it.runIf(kind === 'unsafe')(
      'a killed run resumes from its journal without replaying finished games',
      async ({ expect }) => {
        const runDir = tempDir('catarena-resume-');
        const bots = [
          { id: 'a', dir: misbehavingBot('ok') },
          { id: 'b', dir: BUILTIN('random') },
          { id: 'c', dir: shallowHeuristic() }, // its games are not what is checked
        ];
        const first = await arena(bots, { runDir, maxGames: 2 });
        expect(first.results).toHaveLength(2);
        // Simulate a kill mid-write: a torn last line must not break the resume.
        fs.appendFileSync(path.join(runDir, 'journal.jsonl'), '{"id":"torn');
        const second = await arena(bots, { runDir });
        expect(second.resumed).toBe(2);
        expect(second.results).toHaveLength(6);
        const ids = second.results.map((r) => r.id);
        expect(new Set(ids).size).toBe(6);
        expect(ids).toEqual(expect.arrayContaining(first.results.map((r) => r.id)));
        expect(fs.readdirSync(path.join(runDir, 'replays'))).toHaveLength(6);
      },
    );
  });

  // Not concurrent with the cases above: the hard-coded port is chosen, freed and then bound by the
  // game server, and a bot start meanwhile could be given it.
  it('serves the game-server API at a configured port for bots that hard-code it', async () => {
    const port = await allocatePort();
    releasePort(port);
    const hardCoded = `http://localhost:${port}`;
    const hosts = new GameServerPool({ ports: { 'gomoku/variant': port } });
    try {
      const out = await arena([{ id: 'fixed', dir: misbehavingBot('needs_server', 'exec', hardCoded) }, freshGood()], {
        variant: 'variant',
        hosts,
      });
      for (const r of out.results) expect(r.termination, r.reason).toBe('normal');
    } finally {
      await hosts.closeAll();
    }
    // Pointed at a port where nothing serves the game, the same bot refuses to join and loses.
    const lost = await arena(
      [{ id: 'fixed', dir: misbehavingBot('needs_server', 'exec', hardCoded) }, await good('variant')],
      { variant: 'variant', hosts: pool },
    );
    for (const r of lost.results) {
      expect(r.termination).toBe('join_failed');
      expect(r.scores[r.spec.seats.indexOf('fixed')]).toBe(0);
    }
  });
});

/** Runs at most `limit` of the given tasks at a time, the others queued in call order. */
function arenaGate(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (running >= limit) await new Promise<void>((r) => waiting.push(r));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
