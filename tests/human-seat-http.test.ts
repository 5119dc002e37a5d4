// The human seat without a browser: the page's own endpoints (GET /play/events, POST /play/answer)
// driven over HTTP against the heuristic bot. An illegal answer is refused with its reason and the
// turn stays open; legal answers finish the game, which is journaled like any other with the
// seat's own deadline in its spec; a person who stops answering loses on time, as a bot would.
// A Bridge deal the person plays again (the board's other room) keeps the bot's hands hidden on
// the page until that room is over too.
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

/** The page's event stream, as messages. */
async function events(url: string, onMessage: (m: Msg) => void, signal: AbortSignal): Promise<void> {
  const res = await fetch(`${url}/play/events`, { signal });
  const reader = res.body!.getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
    if (done) return;
    buf += Buffer.from(value!).toString('utf8');
    let k: number;
    while ((k = buf.indexOf('\n\n')) >= 0) {
      const chunk = buf.slice(0, k);
      buf = buf.slice(k + 2);
      const data = chunk.split('\n').find((l) => l.startsWith('data: '));
      if (data) onMessage(JSON.parse(data.slice('data: '.length)) as Msg);
    }
  }
}

/** The page's per-session secret, as the page holds it. */
const secretOf = async (url: string) =>
  /data-secret="([0-9a-f]+)"/.exec(await (await fetch(`${url}/play`)).text())?.[1] ?? '';

const answer = async (url: string, gameId: string, action: unknown) =>
  (await (
    await fetch(`${url}/play/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SEAT_HEADER]: await secretOf(url) },
      body: JSON.stringify({ gameId, action }),
    })
  ).json()) as { ok: boolean; error?: string };

describe('the human seat over HTTP', () => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
  });

  async function arena(humanMs: number) {
    const seat = new HumanSeat({ game: 'gomoku', variant: 'standard' });
    await seat.start();
    const sandbox = createSandbox('process');
    stops.push(async () => {
      await seat.close();
      await sandbox.close();
    });
    const runDir = tempDir();
    const bots = [
      ...refsFromDirs([BUILTIN('heuristic')]),
      { id: seat.id, dir: path.join(runDir, 'human'), warm: seat.handle(), sharedInstances: true },
    ];
    const done = runArena({
      game: 'gomoku',
      variant: 'standard',
      bots,
      reps: 1,
      maxGames: 1,
      seed: 1,
      concurrency: 1,
      limits: { ...DEFAULT_LIMITS, seatMoveMs: { human: humanMs } },
      policy: 'strict',
      runDir,
      sandbox,
      onLive: seat.onLive,
      onGame: (r) => seat.recorded(r),
    });
    return { seat, done, runDir };
  }

  it('refuses an occupied cell with its reason, then plays legal answers to the end', async () => {
    const { seat, done, runDir } = await arena(60_000);
    const stop = new AbortController();
    let last = 0;
    let refused: string | undefined;
    const turns: Promise<void>[] = [];
    void events(
      seat.url,
      (m) => {
        if (m.type !== 'game' || !m.yourTurn || m.yourTurn.turn <= last) return;
        last = m.yourTurn.turn;
        turns.push(
          (async () => {
            if (!refused) {
              const r = await answer(seat.url, m.gameId!, [7, 7]); // the heuristic (black) opened there
              expect(r.ok).toBe(false);
              refused = r.error;
            }
            const legal = m.legal as Array<[number, number]>;
            expect((await answer(seat.url, m.gameId!, legal[0])).ok).toBe(true);
          })(),
        );
      },
      stop.signal,
    );
    const outcome = await done;
    stop.abort();
    await Promise.all(turns);
    expect(refused).toBe('that cell is already taken');
    expect(outcome.results).toHaveLength(1);
    const [game] = outcome.results;
    expect(game!.termination).toBe('normal');
    expect(game!.spec.limits.seatMoveMs).toEqual({ human: 60_000 });
    expect(fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')).toContain(game!.id);
    // The human played every one of its moves (none failed), as many as the page was asked.
    const replay = readReplaySync(runDir, game!.id);
    expect(replay.moves.filter((m) => m.seat === 1)).toHaveLength(last);
    expect(replay.moves.some((m) => m.error)).toBe(false);
    // live.jsonl has the game's start, its moves and its end.
    const live = fs
      .readFileSync(path.join(runDir, 'live.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(live.filter((e) => e.type === 'move')).toHaveLength(replay.moves.length);
    expect(live.filter((e) => e.type === 'end')).toHaveLength(1);
    expect(JSON.parse(fs.readFileSync(path.join(runDir, 'status.json'), 'utf8')).state).toBe('finished');
  }, 120_000);

  it('a person who stops answering loses on time, as a bot would', async () => {
    const { done } = await arena(1_500);
    const outcome = await done;
    const [game] = outcome.results;
    expect(game!.termination).toBe('timeout');
    expect(game!.offender).toBe(1);
    expect(game!.winner).toBe(0);
  }, 60_000);
});

describe("the human seat's page and a deal played again", () => {
  it("keeps the bot's Bridge hands hidden after the open room, until the closed room with the same deal is over", async () => {
    const seat = new HumanSeat({ game: 'bridge', variant: 'standard' });
    await seat.start();
    const sandbox = createSandbox('process');
    const stop = new AbortController();
    try {
      const runDir = tempDir();
      const messages: Array<Msg & { ended?: unknown; data?: { frames: Array<{ h: string[] }> }; seats?: string[] }> =
        [];
      let last = 0;
      let bid = false;
      const turns: Promise<unknown>[] = [];
      void events(
        seat.url,
        (m) => {
          messages.push(m);
          if (m.type !== 'game' || !m.yourTurn || m.yourTurn.turn <= last) return;
          last = m.yourTurn.turn;
          const legal = m.legal as Array<{ type: string; call_type?: string }>;
          const mine = legal.find((a) => a.call_type === 'bid' && !bid) ?? legal.find((a) => a.call_type === 'pass');
          bid ||= mine?.call_type === 'bid';
          turns.push(answer(seat.url, m.gameId!, mine ?? legal[0]));
        },
        stop.signal,
      );
      const outcome = await runArena({
        game: 'bridge',
        variant: 'standard',
        bots: [
          ...refsFromDirs([BUILTIN('heuristic', 'bridge')]),
          { id: seat.id, dir: path.join(runDir, 'human'), warm: seat.handle(), sharedInstances: true },
        ],
        reps: 1,
        maxGames: 2, // both rooms of one board: the same deal, the seats swapped
        seed: 4,
        concurrency: 1,
        limits: { ...DEFAULT_LIMITS, seatMoveMs: { human: 60_000 } },
        policy: 'strict',
        runDir,
        sandbox,
        onSchedule: (specs) => seat.schedule(specs),
        onLive: seat.onLive,
        onGame: (r) => seat.recorded(r),
      });
      await Promise.all(turns);
      expect(outcome.results).toHaveLength(2);
      // The open room's last message (over): the bot's hands still hidden, its deal is played again.
      const endedOf = (id: string) =>
        messages.filter((m) => m.type === 'game' && (m as { id?: string }).id === id && m.ended).at(-1)!;
      const [first, second] = outcome.results;
      const botSeats = (seats: string[]) => seats.flatMap((s, i) => (s === 'human' ? [] : [i]));
      const deal0 = endedOf(first!.id).data!.frames[0]!.h;
      for (const b of botSeats(first!.spec.seats)) expect(deal0[b]).toBe('?');
      // The closed room's: the whole deal.
      expect(endedOf(second!.id).data!.frames[0]!.h.filter((h) => h === '?')).toEqual([]);
    } finally {
      stop.abort();
      await seat.close();
      await sandbox.close();
    }
  }, 60_000);
});

describe('the human seat on another address', () => {
  it('needs the printed token for its page', async () => {
    const seat = new HumanSeat({ game: 'chess', variant: 'standard', host: '127.0.0.2' });
    await seat.start();
    try {
      expect(seat.pageUrl).toMatch(/^http:\/\/127\.0\.0\.2:\d+\/play\?token=[0-9a-f]{24}$/);
      expect((await fetch(`${seat.url}/play`)).status).toBe(403);
      expect((await fetch(seat.pageUrl)).status).toBe(200);
      // The bot protocol answers the runner on its private socket, not on the page's port.
      expect((await fetch(`${seat.url}/health`)).status).toBe(404);
      const status = await new Promise<number>((resolve, reject) =>
        http
          .get({ socketPath: seat.socketPath, path: '/health' }, (res) => (res.resume(), resolve(res.statusCode!)))
          .on('error', reject),
      );
      expect(status).toBe(200);
    } finally {
      await seat.close();
    }
  });
});
