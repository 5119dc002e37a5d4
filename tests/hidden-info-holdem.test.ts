// Hold'em's hidden information against a cheating bot, in each sandbox (helpers/hidden-info.ts):
// the bot polls GET /games/{id}/state?player_id=<opponent> for the opponents' hole cards and lists
// GET /games to find a table it does not play (a decoy registered here, whose seats are other bots'),
// while reading its own hole cards each turn as an honest bot may.
import { afterAll, describe, expect, it } from 'vitest';
import { runArena } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { handLogs, holdem, initTable } from '../games/holdem/table.ts';
import { fullHistoryEntries, holdemWire } from '../games/holdem/wire.ts';
import type { Viewer } from '../games/core/wire.ts';
import { DEFAULT_LIMITS } from '../records/match.ts';
import type { Sandbox } from '../sandbox/types.ts';
import { createRng } from '../util/rng.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { expectOutcome, HIDDEN_INFO_SANDBOXES, peekerBot, peekerLog } from './helpers/hidden-info.ts';

const sandboxes: Sandbox[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.close())));

// The sandboxes are tried at once (each its own bots and game server): most of a case's time is bot starts.
describe.for(HIDDEN_INFO_SANDBOXES)("hold'em hidden information, $name sandbox", { concurrent: true }, (box) => {
  it("a bot reading the opponents' hole cards or listing the tables gets only what is its own", async ({ expect }) => {
    const sandbox = box.create();
    sandboxes.push(sandbox);
    const hosts = new GameServerPool({ ports: { 'holdem/standard': 0 } });
    const host = await hosts.get('holdem', 'standard');
    const decoy = host.newGameId();
    host.register(
      {
        id: decoy,
        variant: 'standard',
        state: initTable('standard', createRng(3), { seats: 3 }),
        history: [],
        managedByArena: true,
        createdAt: new Date().toISOString(),
      },
      [{ callerId: 'other-bot-1' }, { callerId: 'other-bot-2' }, { callerId: 'other-bot-3' }],
    );
    const runDir = tempDir('catarena-hidden-holdem-');
    try {
      const { results } = await runArena({
        game: 'holdem',
        variant: 'standard',
        bots: [
          { id: 'peeker', dir: peekerBot('holdem') },
          { id: 'random', dir: BUILTIN('random', 'holdem') },
          { id: 'heuristic', dir: BUILTIN('heuristic', 'holdem') },
        ],
        reps: 1,
        maxGames: 1,
        seed: 11,
        concurrency: 1,
        limits: { ...DEFAULT_LIMITS, moveMs: 3_000 },
        policy: 'strict',
        runDir,
        sandbox,
        hosts,
        startTimeoutMs: 20_000,
        protocolOptions: { handCap: 12 },
      });
      const log = peekerLog(runDir);
      expectOutcome(expect, box, results, log);
      // GET /games lists the bot's own table, never the decoy it does not play.
      expect(log.lists).toHaveLength(1);
      expect(log.lists[0]).toContain(results[0]!.serverGameId);
      expect(log.lists[0]).not.toContain(decoy);
      // The honest bots played on: no seat of theirs failed.
      const r = results[0]!;
      for (const seat of [1, 2])
        expect(r.seatStats[r.spec.seats.indexOf(['random', 'heuristic'][seat - 1]!)]!.errors).toEqual({});
    } finally {
      await hosts.closeAll();
    }
  }, 90_000);
});

describe("hold'em full_history", () => {
  it("shows a finished hand's hole cards to their own seat and, from the others, only those shown down", () => {
    const rng = createRng(5);
    let s = holdem.init('standard', createRng(4), { seats: 4 });
    // Passive play (check or call, now and then a fold): hands that end in folds and in showdowns.
    while (handLogs(s).length < 6 && !s.finished) {
      const seat = holdem.toMove(s)!;
      const legal = holdem.legalActions(s, seat);
      const passive = legal.find((a) => a.action === 'check' || a.action === 'call');
      const fold = legal.find((a) => a.action === 'fold');
      s = holdem.apply(s, seat, fold && (rng.int(0, 3) === 0 || !passive) ? fold : passive!);
    }
    const live = { id: 'holdem_x', variant: 'standard', state: s, history: [], managedByArena: true, createdAt: '' };
    const hands = (viewer: Viewer) =>
      (
        holdemWire.server.route(live, 'GET', 'full_history', null, new URLSearchParams(), viewer)!.body as Array<{
          hand_number?: number;
          players?: Record<string, { hole_cards: string[] }>;
        }>
      ).filter((e) => e.players);
    const seat0: Viewer = { holds: (seat) => seat === 0, asksFor: (seat) => seat === 0 };
    const logs = handLogs(s);
    let hidden = 0;
    for (const [k, entry] of hands(seat0).entries()) {
      const showdown = logs[k]!.hand.result?.showdown ?? [];
      for (const [id, p] of Object.entries(entry.players!)) {
        const seat = Number(id.replace('player_', ''));
        const shown = seat === 0 || showdown.includes(seat);
        expect(p.hole_cards.length, `hand ${entry.hand_number} ${id}`).toBe(shown ? 2 : 0);
        if (!shown) hidden++;
      }
    }
    expect(hidden).toBeGreaterThan(0);
    // The run's own report writer (no viewer) keeps every hand's cards.
    expect(fullHistoryEntries(logs[0]!, ['player_0', 'player_1', 'player_2', 'player_3'], 'standard')).toBeTruthy();
  });
});
