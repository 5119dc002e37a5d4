// Test bot folders made on the fly: misbehaving node bots, a CATArena-style Python/Flask bot,
// and arbitrary start scripts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { botRuntimeTag } from '../../docker/image-tags.ts';
import { adapterFor } from '../../games/registry.ts';
import type { GameServerPool } from '../../orchestrator/game-server/game-servers.ts';
import type { StrategyRef } from '../../orchestrator/executor/bot-fleet.ts';
import { allocatePort } from '../../sandbox/ports.ts';
import type { BotHandle, HealthCheck, Sandbox } from '../../sandbox/types.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/bots');

export function tempDir(prefix = 'catarena-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function botDir(name: string, startScript: string, files: Record<string, string> = {}): string {
  const dir = path.join(tempDir(), name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'start_ai.sh'), startScript);
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

/** A node bot from tests/fixtures/bots/misbehave.mjs in the given mode. */
export function misbehavingBot(mode: string, startPrefix = 'exec', serverUrl = ''): string {
  // Self-contained (the code is copied in), so it runs in a container as well as a process.
  return botDir(
    mode,
    `#!/bin/bash\ncd "$(dirname "$0")"\n${startPrefix} node misbehave.mjs "$1" ${mode} ${serverUrl}\n`,
    {
      'misbehave.mjs': fs.readFileSync(path.join(FIXTURES, 'misbehave.mjs'), 'utf8'),
    },
  );
}

/** The CATArena-style Flask bot; its requests are recorded in <dir>/requests.jsonl. */
export function flaskBot(name = 'flask_bot'): string {
  return botDir(name, '#!/bin/bash\ncd "$(dirname "$0")"\npython3 catarena_style.py "$1"\n', {
    'catarena_style.py': fs.readFileSync(path.join(FIXTURES, 'catarena_style.py'), 'utf8'),
  });
}

let flaskFound: boolean | undefined;

/** Flask and requests import (asked once per worker: an import of both costs Python about 0.5 s of CPU). */
export function hasFlask(): boolean {
  if (flaskFound === undefined) {
    try {
      execFileSync('/usr/bin/python3', ['-c', 'import flask, requests'], { stdio: 'ignore' });
      flaskFound = true;
    } catch {
      flaskFound = false;
    }
  }
  return flaskFound;
}

export const BUILTIN = (name: string, game = 'gomoku') =>
  path.resolve(import.meta.dirname, '../../games', game, 'bots', name);

/**
 * A copy of a reference bot folder with some of its params.json values replaced: the same code,
 * e.g. a shallower search where games are played but the bot's strength is not what is checked.
 */
export function botWithParams(source: string, params: Record<string, unknown>, name = path.basename(source)): string {
  const dir = path.join(tempDir(), name);
  fs.cpSync(source, dir, { recursive: true });
  const file = path.join(dir, 'params.json');
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), ...params }));
  return dir;
}

/**
 * The Gomoku heuristic reference bot (its code) searching `depth` plies instead of 4: a move costs
 * a few ms of CPU instead of up to its 1.5 s budget, two of them end their game sooner (depth 1:
 * 18 plies, the default: 33), and the search always completes, so the games do not depend on the
 * machine's load. For tests that play games but do not check the heuristic's strength.
 */
export const shallowHeuristic = (depth = 1, name = 'heuristic') => botWithParams(BUILTIN('heuristic'), { depth }, name);

/** Docker tests run when the engine answers and the bot image exists (CI sets CATARENA_DOCKER=1). */
/** The Docker engine answers (whatever CATARENA_DOCKER says about running the Docker tests). */
export function dockerEngineAnswers(): boolean {
  return spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0;
}

export function dockerReady(image = botRuntimeTag()): boolean {
  // CATARENA_DOCKER=0: the suite without Docker even where the engine answers (CI sets 1 and runs them).
  if (process.env.CATARENA_DOCKER === '0') return false;
  try {
    execFileSync('docker', ['image', 'inspect', image], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    if (process.env.CATARENA_DOCKER === '1')
      throw new Error(`CATARENA_DOCKER=1 but docker or the image ${image} is not available`);
    return false;
  }
}

/** Sandbox kinds to run the shared suites on. */
export const SANDBOX_KINDS = dockerReady() ? (['process', 'docker'] as const) : (['process'] as const);

/**
 * The CATArena-shaped Hold'em Flask bot (tests/fixtures/bots/catarena_holdem.py), started as
 * CATArena's Hold'em bots are: `python3 <bot>.py --port P`. It has no /health route.
 */
export function flaskHoldemBot(name = 'flask_holdem'): string {
  return botDir(name, '#!/bin/bash\ncd "$(dirname "$0")"\nexec python3 catarena_holdem.py --port "$1"\n', {
    'catarena_holdem.py': fs.readFileSync(path.join(FIXTURES, 'catarena_holdem.py'), 'utf8'),
  });
}

/**
 * One bot process lent to several runArena calls, for a bot a test does not need fresh (the good
 * opponent of a misbehaving bot): started on first use, each arena gets it as its strategy's
 * `warm` first start, and the arena's "stop" at its end leaves it running. The sandbox's close()
 * (afterAll) stops it. Saves a bot start per arena (~0.25 s of CPU for a node bot).
 *
 *   const good = sharedBot(sandbox, misbehavingBot('ok'), adapterFor('gomoku').health);
 *   await runArena({ bots: [{ id: 'bad', dir }, await good('good')], … });
 */
export function sharedBot(sandbox: Sandbox, dir: string, health: HealthCheck): (id: string) => Promise<StrategyRef> {
  let started: Promise<BotHandle> | undefined;
  return async (id) => {
    started ??= allocatePort().then((port) =>
      sandbox.start({
        dir,
        port,
        name: `shared-${path.basename(dir)}`,
        health,
        startTimeoutMs: 15_000,
        logFile: path.join(tempDir('catarena-shared-bot-'), 'bot.log'),
      }),
    );
    return { id, dir, warm: lent(await started) };
  };
}

/**
 * A shared bot lent to one arena: everything but stop() is the bot's. (The fleet gives the port
 * back when it is done: harmless, as the OS never hands out a port something listens on.) With
 * its caller id only where the sandbox vouches for it (sharedBotOn).
 */
function lent(bot: BotHandle, o: { withCallerId?: boolean } = {}): BotHandle {
  return {
    name: bot.name,
    port: bot.port,
    url: bot.url,
    socketPath: bot.socketPath,
    connect: bot.connect,
    ...(o.withCallerId ? { callerId: bot.callerId } : {}),
    logFile: bot.logFile,
    isHealthy: (ms) => bot.isHealthy(ms),
    logTail: (bytes) => bot.logTail(bytes),
    alive: () => bot.alive(),
    describeExit: bot.describeExit && (() => bot.describeExit!()),
    stop: async () => {},
  };
}

/**
 * sharedBot for every sandbox kind: the bot is started with the game server of `hosts` for `game`
 * and `variant` forwarded to it (its ports and CATARENA_GAME_SERVER), and lent with its caller id,
 * so under a sandbox that vouches for its bots (process, docker) it reaches that server as the seat
 * it holds. Pass the same `hosts` to every runArena it plays in (the server must outlive them; close
 * it in afterAll). In the unsafe sandbox it is sharedBot with the server's env.
 *
 *   const hosts = new GameServerPool();
 *   const good = sharedBotOn(sandbox, misbehavingBot('ok'), { hosts, game: 'gomoku', variant: 'standard' });
 *   await runArena({ bots: [{ id: 'bad', dir }, await good('good')], hosts, … });
 */
export function sharedBotOn(
  sandbox: Sandbox,
  dir: string,
  track: { hosts: GameServerPool; game: string; variant: string },
): (id: string) => Promise<StrategyRef> {
  let started: Promise<BotHandle> | undefined;
  const start = async () => {
    const access = (await track.hosts.get(track.game, track.variant)).botAccess();
    return sandbox.start({
      dir,
      port: await allocatePort(),
      name: `shared-${path.basename(dir)}`,
      health: adapterFor(track.game).health,
      startTimeoutMs: 30_000,
      logFile: path.join(tempDir('catarena-shared-bot-'), 'bot.log'),
      hostPorts: access.hostPorts,
      env: access.env,
    });
  };
  return async (id) => {
    started ??= start();
    return { id, dir, warm: lent(await started, { withCallerId: true }) };
  };
}
