// Port allocation and probing. Ports come from the OS (listen on 0, then close), never guessed, and
// are remembered so this process never hands out the same port twice while it is in use.
import { closeSync, openSync, readSync } from 'node:fs';
import net from 'node:net';
import { BotStartError, type BotHandle, type BotStartOptions, type Sandbox } from './types.ts';

const handedOut = new Set<number>();

/** Listens on `port` (0 = any) and closes again; resolves the port bound, or null if it was taken. */
function tryListen(port: number, host: string): Promise<number | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(null));
    server.listen({ port, host, exclusive: true }, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : null;
      server.close(() => resolve(bound));
    });
  });
}

/** A free TCP port that this process has not handed out yet. Give it back with releasePort(). */
export async function allocatePort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await tryListen(0, host);
    if (port !== null && !handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(
    `could not allocate a free TCP port on ${host} after 100 attempts; is the ephemeral range exhausted?`,
  );
}

/** A port P such that P and P+1 are both free (bridge bots listen on two ports). Release both. */
export async function allocatePortPair(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await tryListen(0, host);
    if (port === null || port >= 65535 || handedOut.has(port) || handedOut.has(port + 1)) continue;
    if ((await tryListen(port + 1, host)) === null) continue;
    handedOut.add(port);
    handedOut.add(port + 1);
    return port;
  }
  throw new Error(`could not allocate two adjacent free TCP ports on ${host} after 100 attempts`);
}

export function releasePort(port: number): void {
  handedOut.delete(port);
}

/**
 * Starts a bot on a freshly allocated port. A port is free when allocated, but another process on
 * the machine may take it before the bot listens; the sandbox then fails the start as port_in_use,
 * which is not the bot's fault, so it is started again on a new port (up to `attempts` times).
 * The port is released when the start fails; the caller releases it after stopping the bot.
 */
export async function startOnFreePort(
  sandbox: Sandbox,
  options: Omit<BotStartOptions, 'port'>,
  attempts = 3,
): Promise<BotHandle> {
  for (let attempt = 1; ; attempt++) {
    const port = await allocatePort();
    try {
      return await sandbox.start({ ...options, port });
    } catch (err) {
      releasePort(port);
      if (!(err instanceof BotStartError && err.reason === 'port_in_use') || attempt >= attempts) throw err;
    }
  }
}

/** True when a TCP connect to host:port succeeds within timeoutMs. */
export function isPortOpen(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (open: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(open);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Polls until nothing accepts connections on the port; false if it is still open at the deadline. */
export async function waitForPortClosed(port: number, host = '127.0.0.1', timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!(await isPortOpen(port, host, 250))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The kernel's TCP socket tables, IPv4 and IPv6. */
export const TCP_TABLES = ['/proc/net/tcp', '/proc/net/tcp6'] as const;

/**
 * Socket inodes of LISTENing TCP sockets on `port` (Linux /proc/net/tcp and tcp6, or the `tables`
 * given; empty elsewhere).
 * Used to find the process that holds a bot's port after it left our process group, and to check
 * that a healthy port is the bot's own.
 *
 * The kernel lists listening sockets before all others, and builds the file as it is read, one
 * line per socket. So the read stops at the first socket that is not listening: the thousands of
 * TIME_WAIT sockets a tourney leaves on the loopback cost nothing (reading them all took about
 * 10 ms per call in a loaded test run). The IPv6 table is the dearer one when the machine has few
 * IPv6 connections: the kernel walks every socket to find the end of a nearly empty list.
 */
export function listeningSocketInodes(port: number, tables: readonly string[] = TCP_TABLES): string[] {
  const inodes: string[] = [];
  const chunk = Buffer.alloc(16 * 1024);
  for (const file of tables) {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      continue;
    }
    try {
      let pending = '';
      let header = true;
      let listening = true;
      while (listening) {
        const n = readSync(fd, chunk, 0, chunk.length, null);
        if (n === 0) break;
        const lines = (pending + chunk.toString('latin1', 0, n)).split('\n');
        pending = lines.pop()!;
        for (const line of lines) {
          if (header) {
            header = false;
            continue;
          }
          // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
          const fields = line.trim().split(/\s+/);
          if (fields.length < 10) continue;
          if (fields[3] !== '0A') {
            // 0A = TCP_LISTEN; the listening sockets are over
            listening = false;
            break;
          }
          const localPort = parseInt(fields[1]!.split(':')[1] ?? '', 16);
          if (localPort === port && fields[9] !== '0') inodes.push(fields[9]!);
        }
      }
    } catch {
      // unreadable mid-way: what was read stands
    } finally {
      closeSync(fd);
    }
  }
  return inodes;
}
