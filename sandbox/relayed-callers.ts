// Who is calling a game server. A sandbox whose bots reach the host only through its relays (the
// Docker sandbox, the isolated process sandbox) can vouch for each relayed connection: it notes the
// connection's two ports here with the bot's caller id before any byte is sent, and the game
// server (in the same process) looks the id up by the request's remote port and its own port. The
// kernel may give one local port to two connections to different servers at once, so the client's
// port alone does not name a connection. A connection that no relay made has no caller id: the
// game server then serves only what every seat may see.
import { randomBytes } from 'node:crypto';
import net from 'node:net';

/** Caller ids by `<client port>:<server port>` of a relayed loopback connection. */
const callerByPorts = new Map<string, string>();

/** A new caller id: unguessable, never shown to any bot. */
export function newCallerId(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Opens a connection to 127.0.0.1:<port> on behalf of the bot `callerId` and resolves once it is
 * connected and noted (so the server can never see a byte of it unattributed); the note goes when
 * the connection closes.
 */
export function connectAsCaller(port: number, callerId: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      const local = socket.localPort;
      if (local !== undefined) {
        const key = `${local}:${port}`;
        callerByPorts.set(key, callerId);
        socket.once('close', () => {
          if (callerByPorts.get(key) === callerId) callerByPorts.delete(key);
        });
      }
      resolve(socket);
    });
  });
}

/** The caller id a relay noted for a connection from 127.0.0.1:<remotePort> to this server's <localPort>, if any. */
export function relayedCaller(socket: {
  remoteAddress?: string;
  remotePort?: number;
  localPort?: number;
}): string | undefined {
  const { remoteAddress, remotePort, localPort } = socket;
  if (remotePort === undefined || localPort === undefined || !isLoopback(remoteAddress)) return undefined;
  return callerByPorts.get(`${remotePort}:${localPort}`);
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::ffff:127.0.0.1';
}
