// Who is calling a game server. A sandbox whose bots reach the host only through its relays (the
// Docker sandbox, the isolated process sandbox) can vouch for each relayed connection: it notes the
// connection's local port here with the bot's caller id before any byte is sent, and the game
// server (in the same process) looks the id up by the request's remote port. A connection that no
// relay made has no caller id: the game server then serves only what every seat may see.
import { randomBytes } from 'node:crypto';
import net from 'node:net';

const callerByPort = new Map<number, string>();

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
        callerByPort.set(local, callerId);
        socket.once('close', () => {
          if (callerByPort.get(local) === callerId) callerByPort.delete(local);
        });
      }
      resolve(socket);
    });
  });
}

/** The caller id a relay noted for a connection from 127.0.0.1:<remotePort>, if any. */
export function relayedCaller(remoteAddress: string | undefined, remotePort: number | undefined): string | undefined {
  if (remotePort === undefined || !isLoopback(remoteAddress)) return undefined;
  return callerByPort.get(remotePort);
}

function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::ffff:127.0.0.1';
}
