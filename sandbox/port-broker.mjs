// Runs in one bot's network namespace (nsenter's --net), outside its pid and mount namespaces, so
// the bot can neither see nor trace it: on each request from the orchestrator (IPC), it connects
// to the bot's port on that namespace's loopback and hands the connected socket over. The
// orchestrator then talks to the bot directly, with no relay process in the path of each move.
//   node port-broker.mjs <port>   (spawned with an IPC channel by sandbox/port-dialer.ts)
import net from 'node:net';

const port = Number(process.argv[2]);

process.on('message', (m) => {
  if (!m || typeof m.id !== 'number') return;
  const socket = net.connect({ port, host: '127.0.0.1' });
  socket.once('connect', () => {
    socket.removeAllListeners('error');
    socket.on('error', () => socket.destroy());
    process.send({ id: m.id, ok: true }, socket);
  });
  socket.once('error', (err) => process.send({ id: m.id, ok: false, code: err.code ?? 'ECONNECT' }));
});
// The orchestrator is gone (or closed the channel): nothing left to serve.
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
