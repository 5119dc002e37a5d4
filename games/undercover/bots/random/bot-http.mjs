// The HTTP plumbing of the reference bots (plain node ≥ 18, no dependencies): a JSON route table
// served on 0.0.0.0 (and ::1), request bodies read as JSON objects, client errors answered 400.
// Single source: games/core/bot-http.mjs. Every folder under games/*/bots/ carries an identical
// copy, because a bot folder must be self-contained (it is copied into agent workspaces and into
// containers); edit the source, then run `node scripts/sync-bot-libs.mjs` (the bot tests fail on
// a stale copy).
//
//   import { BadRequest, portArg, readJson, serve } from './bot-http.mjs';
//   const port = portArg();
//   serve({ port, name, routes: { 'GET /health': async () => ({ status: 'healthy' }), … } });
import http from 'node:http';

/** Thrown for a malformed request: answered 400 with its message and not logged. */
export class BadRequest extends Error {}

/** Bodies above this are refused: a bot has no use for more, and must not buffer without bound. */
const MAX_BODY = 1_000_000;

/** The port from `node bot.mjs <port>`; anything else prints the usage and exits 2. */
export function portArg() {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    console.error('usage: node bot.mjs <port>');
    process.exit(2);
  }
  return port;
}

/** The request body as a JSON object; BadRequest if larger than 1 MB, not JSON or not an object. */
export function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY) reject(new BadRequest('body too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
        if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error();
        resolve(body);
      } catch {
        reject(new BadRequest('body must be a JSON object'));
      }
    });
    req.on('error', reject);
  });
}

/** Reads and discards a body of any shape (e.g. CATArena's form-encoded join retry); never fails. */
export function drain(req) {
  return new Promise((resolve) => {
    req.on('data', () => {});
    req.on('end', resolve);
    req.on('error', resolve);
  });
}

/**
 * The request handler of a route table { 'METHOD /path': async (req) => reply }: 200 with the
 * reply as JSON, 404 for an unknown route, 400 for a BadRequest, 500 (logged) for anything else.
 * The query string is ignored.
 */
function routeHandler(routes) {
  return (req, res) => {
    const route = routes[`${req.method} ${(req.url ?? '').split('?')[0]}`];
    const send = (code, obj) => {
      if (res.headersSent) return;
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify(obj));
    };
    if (!route) return send(404, { error: 'Endpoint not found' });
    route(req).then(
      (out) => send(200, out),
      (err) => {
        if (!(err instanceof BadRequest)) console.error(err);
        send(err instanceof BadRequest ? 400 : 500, { error: String(err?.message || err) });
      },
    );
  };
}

/**
 * Serves the route table on 0.0.0.0:<port> and logs "<name> listening on <port>" once listening
 * (the line a human or a log tail looks for). Returns the IPv4 server.
 */
export function serve({ port, name, routes }) {
  // A bug in one request must not take the bot down for the rest of the game: log it, go on.
  process.on('uncaughtException', (err) => console.error('uncaught:', err));
  const handler = routeHandler(routes);
  const create = () => {
    const s = http.createServer(handler);
    s.keepAliveTimeout = 65000; // longer than clients' pools, so no reset mid-request
    s.headersTimeout = 66000; // must exceed keepAliveTimeout
    return s;
  };
  const server = create();
  // Port taken or not allowed: the bot is useless, so say why and exit (the caller sees the exit).
  server.on('error', (err) => {
    console.error(`cannot listen on ${port}: ${err.message}`);
    process.exit(1);
  });
  server.listen(port, '0.0.0.0', () => console.log(`${name} listening on ${port}`));
  // Also answer on IPv6 loopback in case "localhost" resolves to ::1 (best effort: no IPv6 is fine).
  const v6 = create();
  v6.on('error', () => {});
  v6.listen(port, '::1');
  return server;
}
