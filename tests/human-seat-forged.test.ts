// The human seat against forged requests (issue 44, items 3 and 4). Any web page the person has
// open may send requests to 127.0.0.1 (text/plain POSTs need no CORS preflight), and a DNS-rebound
// one also reads the answers. Forged here over real HTTP while the person's turn is parked:
// three cross-origin text/plain POSTs to the turn path (/get_move) once took the turn over and
// the game was journaled as the person's crash; a foreign Host read /play/events and answered
// for the person. Now the bot protocol is only on the runner's Unix socket, the page's port
// answers only its own Host (421), and an answer needs JSON, the page's origin and its secret.
// Stopping `play` while the person is to move ends at once and journals nothing (it waited the
// 5-minute deadline and journaled a loss on time).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { refsFromDirs, runArena } from '../orchestrator/arena.ts';
import { HumanSeat, SEAT_HEADER } from '../orchestrator/human/human-seat.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { readReplaySync } from './helpers/replays.ts';

type Msg = { type: string; gameId?: string; yourTurn?: { turn: number } | null; legal?: unknown[] };

/** One HTTP request with exactly these headers (Host too); the status and body, or 'hung' after `waitMs`. */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; waitMs?: number } = {},
): Promise<{ status: number | 'hung'; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      // An event stream never ends: its status and first bytes are enough.
      if (res.headers['content-type']?.startsWith('text/event-stream')) {
        res.once('data', () => (req.destroy(), resolve({ status: res.statusCode!, body })));
        return;
      }
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.setTimeout(options.waitMs ?? 3_000, () => (req.destroy(), resolve({ status: 'hung', body: '' })));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The page's event stream as messages (fetch sends the seat's own Host). */
async function events(url: string, onMessage: (m: Msg) => void, signal: AbortSignal): Promise<void> {
  const res = await fetch(`${url}/play/events`, { signal });
  const reader = res.body!.getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
    if (done) return;
    buf += Buffer.from(value!).toString('utf8');
    for (let k = buf.indexOf('\n\n'); k >= 0; k = buf.indexOf('\n\n')) {
      const data = buf
        .slice(0, k)
        .split('\n')
        .find((l) => l.startsWith('data: '));
      buf = buf.slice(k + 2);
      if (data) onMessage(JSON.parse(data.slice('data: '.length)) as Msg);
    }
  }
}

const EVIL = 'http://evil.example';

describe('the human seat refuses forged requests', () => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  it('keeps a parked turn from cross-origin text/plain POSTs, a foreign Host and answers without the secret', async () => {
    const seat = new HumanSeat({ game: 'gomoku', variant: 'standard' });
    await seat.start();
    const sandbox = createSandbox('process');
    const stop = new AbortController();
    stops.push(async () => {
      stop.abort();
      await seat.close();
      await sandbox.close();
    });
    const runDir = tempDir();
    const done = runArena({
      game: 'gomoku',
      variant: 'standard',
      bots: [
        ...refsFromDirs([BUILTIN('heuristic')]),
        { id: seat.id, dir: path.join(runDir, 'human'), warm: seat.handle(), sharedInstances: true },
      ],
      reps: 1,
      maxGames: 1,
      seed: 1,
      concurrency: 1,
      limits: { ...DEFAULT_LIMITS, seatMoveMs: { human: 60_000 } },
      policy: 'strict',
      runDir,
      sandbox,
      onLive: seat.onLive,
      onGame: (r) => seat.recorded(r),
    });
    // The page a person opens holds the secret; another origin cannot read it.
    const page = await (await fetch(`${seat.url}/play`)).text();
    const secret = /data-secret="([0-9a-f]+)"/.exec(page)?.[1] ?? '';
    const host = new URL(seat.url).host;
    const forgeries: Array<Promise<void>> = [];
    let first = true;
    let last = 0;
    const timeouts: Msg[] = [];
    const post = (gameId: string, action: unknown, headers: Record<string, string>) =>
      raw(`${seat.url}/play/answer`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ gameId, action }),
      });
    void events(
      seat.url,
      (m) => {
        if (m.type === 'timeout') timeouts.push(m);
        if (m.type !== 'game' || !m.yourTurn || m.yourTurn.turn <= last) return;
        last = m.yourTurn.turn;
        const legal = m.legal as Array<[number, number]>;
        const json = { 'content-type': 'application/json', [SEAT_HEADER]: secret };
        forgeries.push(
          (async () => {
            if (first) {
              first = false;
              // Three cross-origin text/plain POSTs to the turn path, as a web page sends them.
              for (let i = 0; i < 3; i++) {
                const r = await raw(`${seat.url}/get_move`, {
                  method: 'POST',
                  headers: { 'content-type': 'text/plain;charset=UTF-8', origin: EVIL },
                  body: JSON.stringify({ game_id: m.gameId, board: [] }),
                  waitMs: 5_000,
                });
                expect(r.status).toBe(404);
              }
              // Answers that are not the page's own.
              const action = legal[0];
              const plain = await post(m.gameId!, action, { 'content-type': 'text/plain', [SEAT_HEADER]: secret });
              expect(plain.status).toBe(415);
              const noSecret = await post(m.gameId!, action, { 'content-type': 'application/json' });
              expect(noSecret.status).toBe(403);
              const wrong = await post(m.gameId!, action, { ...json, [SEAT_HEADER]: 'f'.repeat(32) });
              expect(wrong.status).toBe(403);
              const crossOrigin = await post(m.gameId!, action, { ...json, origin: EVIL });
              expect(crossOrigin.status).toBe(403);
              // A DNS-rebound page: its own name in Host.
              const port = new URL(seat.url).port;
              for (const path of ['/play', '/play/events', '/play/viewer.js'])
                expect((await raw(`${seat.url}${path}`, { headers: { host: `evil.example:${port}` } })).status).toBe(
                  421,
                );
              const rebound = await post(m.gameId!, action, { ...json, host: `evil.example:${port}` });
              expect(rebound.status).toBe(421);
              // The seat's own page, from its own origin, still answers (and the page itself loads).
              expect((await raw(`${seat.url}/play`, { headers: { host } })).status).toBe(200);
            }
            const ok = await post(m.gameId!, legal[0], { ...json, origin: `http://${host}` });
            expect(JSON.parse(ok.body)).toEqual({ ok: true });
          })(),
        );
      },
      stop.signal,
    );
    const outcome = await done;
    await Promise.all(forgeries);
    expect(first).toBe(false);
    expect(timeouts).toEqual([]);
    const [game] = outcome.results;
    expect(game!.termination).toBe('normal');
    // Every move of the person's was played from the page: none failed.
    const replay = readReplaySync(runDir, game!.id);
    expect(replay.moves.filter((m) => m.seat === 1)).toHaveLength(last);
    expect(replay.moves.some((m) => m.error)).toBe(false);
  }, 120_000);

  it('serves the page with a CSP and no bot protocol on its port', async () => {
    const seat = new HumanSeat({ game: 'chess', variant: 'standard' });
    await seat.start();
    stops.push(() => seat.close());
    const page = await fetch(`${seat.url}/play`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    for (const p of ['/health', '/get_move', '/join_game'])
      expect((await raw(`${seat.url}${p}`, { method: 'POST', body: '{}', waitMs: 5_000 })).status).toBe(404);
    expect(fs.statSync(path.dirname(seat.socketPath)).mode & 0o077).toBe(0); // only this user reaches the socket
  });
});

describe('stopping play while the person is to move', () => {
  it('ends at once, journals nothing and says the game was not played', async () => {
    const out = tempDir();
    const bin = path.resolve(import.meta.dirname, '../bin/catarena.mjs');
    const child = spawn(
      'node',
      [bin, 'play', 'builtin:heuristic', 'human', '--game', 'gomoku', '--games', '1', '-o', out, '--json'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    const url = await new Promise<string>((resolve) =>
      child.stderr.on('data', (d) => {
        stderr += d;
        const m = /human seat: open (http:\/\/127\.0\.0\.1:\d+)\/play/.exec(stderr);
        if (m) resolve(m[1]!);
      }),
    );
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const stop = new AbortController();
    await new Promise<void>((resolve) => void events(url, (m) => m.yourTurn && resolve(), stop.signal));
    stop.abort();
    const at = Date.now();
    child.kill('SIGINT');
    const code = await exit;
    expect(Date.now() - at).toBeLessThan(40_000); // not the 5-minute deadline (bound for a loaded machine)
    expect(code, stderr).toBe(0);
    const { runDir } = JSON.parse(stdout) as { runDir: string };
    const journal = path.join(runDir, 'journal.jsonl');
    expect(fs.existsSync(journal) ? fs.readFileSync(journal, 'utf8').trim() : '').toBe('');
    expect(JSON.parse(fs.readFileSync(path.join(runDir, 'status.json'), 'utf8')).state).toBe('interrupted');
    expect(fs.readFileSync(path.join(runDir, 'live.jsonl'), 'utf8')).toMatch(/abandoned \(play stopped\): not counted/);
  }, 120_000);
});
