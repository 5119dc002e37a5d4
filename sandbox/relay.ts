// The relays of the isolated sandboxes (Docker, bubblewrap): a bot has no network but loopback,
// its port is reached from the host through a Unix socket, and the host ports it may call (the game
// server, an LLM's egress proxy) are Unix sockets relayed to 127.0.0.1 on the host. Inside, socat
// joins the two (STAGE_ENTRY); outside, relayToHost notes each connection under the bot's caller id.
import fs from 'node:fs';
import net from 'node:net';
import { connectAsCaller } from './relayed-callers.ts';
import { egressFor } from './bot-env.ts';
import type { ExchangeTap } from '../util/exchange-tape/tape.ts';
import { CONTAINER_PROXY_PORT, PLACEHOLDER_KEY, startContainerEgress } from './egress-proxy.ts';
import path from 'node:path';

/**
 * The end of every sandbox's entry script: the start script from /bot on $port, in a process group
 * of its own (set -m). A script that daemonises leaves the sandbox alive (sleep); a failing one
 * ends it with its code unless processes of its group still run (CATArena's bridge example exits 1
 * when its nohup'd server is slow to answer; the health poll decides).
 */
export const START_BOT = `cd /bot
set -m
bash start_ai.sh "$port" &
script=$!
set +m
wait "$script"
code=$?
if [ "$code" -ne 0 ]; then
  kill -0 -- "-$script" 2>/dev/null || exit "$code"
  echo "[catarena] start_ai.sh exited with code $code; its processes still run, so the bot's health decides" >&2
fi
exec sleep infinity
`;

/**
 * The script a sandboxed bot starts with (`bash -c STAGE_ENTRY entry <port> <cport>:<socket>…`):
 * relays, then START_BOT. /io is the bot's socket folder (writable), /gs the host's sockets
 * (read-only).
 */
export const STAGE_ENTRY = `set -u
port=$1; shift
# socat exits when a fork fails (a bot at its pids limit): the loops bring the relays back.
for f in "$@"; do (while :; do socat TCP-LISTEN:\${f%%:*},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:/gs/\${f#*:} 2>/dev/null; sleep 0.2; done) & done
(while :; do socat UNIX-LISTEN:/io/bot.sock,fork,mode=777,unlink-early TCP:127.0.0.1:$port 2>/dev/null; sleep 0.2; done) &
${START_BOT}`;

/** Longest Unix socket path (sun_path holds 108 bytes with the NUL); Node cuts a longer one silently. */
const MAX_SOCKET_PATH = 107;

/**
 * How much of the bot's name a stage folder may carry (at most 40) so that its deepest socket,
 * <stage>/gs/egress.sock, fits MAX_SOCKET_PATH; throws when even one character does not fit.
 */
export function stageNameRoom(stageRoot: string): number {
  const room = MAX_SOCKET_PATH - Buffer.byteLength(stageRoot) - '/-XXXXXX/gs/egress.sock'.length;
  if (room < 1)
    throw new Error(
      `the temporary folder ${stageRoot} is too long for the Unix sockets the isolated sandboxes relay through: set TMPDIR to a shorter path`,
    );
  return Math.min(40, room);
}

/**
 * A Unix socket (for the sandbox) relayed to 127.0.0.1:<port> on this host. With `callerId`, each
 * relayed connection is noted as that bot's (relayed-callers.ts): the game server knows who calls.
 */
export async function relayToHost(socketPath: string, port: number, callerId?: string): Promise<net.Server> {
  const server = net.createServer();
  relayEach(server, () => (callerId ? connectAsCaller(port, callerId) : connectPlain(port)));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, () => resolve()));
  fs.chmodSync(socketPath, 0o777); // the bot runs as nobody
  return server;
}

/** Joins each connection `server` accepts to a connection `open` makes, both ways. */
export function relayEach(server: net.Server, open: () => Promise<net.Socket>): void {
  server.on('connection', (inbound) => {
    inbound.pause(); // nothing reaches the host before the outbound connection is noted
    const close = () => inbound.destroy();
    inbound.on('error', close);
    open().then(
      (outbound) => {
        outbound.on('error', () => {
          inbound.destroy();
          outbound.destroy();
        });
        inbound.on('close', () => outbound.destroy());
        outbound.on('close', () => inbound.destroy());
        inbound.pipe(outbound).pipe(inbound);
        inbound.resume();
      },
      () => inbound.destroy(),
    );
  });
}

function connectPlain(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('error', reject).once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

/** A connection to a Unix socket (a sandbox's relay of the bot's port), once it is open. */
export function connectUnix(socketPath: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    socket.once('error', reject).once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

/** A port a sandboxed bot may call on its loopback, and how to reach what stands behind it. */
export interface BotCall {
  port: number;
  open: () => Promise<net.Socket>;
}

/**
 * The host ports a sandboxed bot may call, as sockets in <stage>/gs (each connection noted under its
 * caller id), and, for a bot that calls an LLM (the LLM-player), its egress proxy: the key is added
 * on the host, the bot gets a placeholder. Returns STAGE_ENTRY's forwards, the same as `calls` for
 * a sandbox that listens in the bot's namespace itself (`sockets: false` makes no game-server
 * sockets then), and the bot's extra env; every opened server's closer is pushed to `closers`.
 */
export async function openRelays(
  stage: string,
  hostPorts: Record<number, number>,
  callerId: string,
  dir: string,
  closers: Array<() => Promise<void>>,
  /** Records (or replays) the bot's model exchanges at its egress proxy. */
  tap?: ExchangeTap,
  sockets = true,
): Promise<{ forwards: string[]; calls: BotCall[]; env: Record<string, string> }> {
  const forwards: string[] = [];
  const calls: BotCall[] = [];
  for (const [cport, hport] of Object.entries(hostPorts)) {
    calls.push({ port: Number(cport), open: () => connectAsCaller(Number(hport), callerId) });
    if (!sockets) continue;
    const server = await relayToHost(path.join(stage, 'gs', `${cport}.sock`), Number(hport), callerId);
    closers.push(() => new Promise<void>((res) => server.close(() => res())));
    forwards.push(`${cport}:${cport}.sock`);
  }
  const env: Record<string, string> = {};
  const egress = egressFor(dir);
  if (egress) {
    const socketPath = path.join(stage, 'gs', 'egress.sock');
    const { proxy, baseUrl } = await startContainerEgress({
      upstream: egress.upstream,
      headers: egress.headers,
      socketPath,
      ...(tap ? { tap } : {}),
    });
    closers.push(() => proxy.close());
    forwards.push(`${CONTAINER_PROXY_PORT}:egress.sock`);
    calls.push({ port: CONTAINER_PROXY_PORT, open: () => connectUnix(socketPath) });
    env[egress.baseUrlVar] = baseUrl;
    for (const v of egress.keyVars) env[v] = PLACEHOLDER_KEY;
  }
  return { forwards, calls, env };
}
