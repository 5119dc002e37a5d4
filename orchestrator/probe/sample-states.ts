// Sampling the probe's endgame states from a track's replays: every replay is replayed from its
// seed (games/replay.ts does the same for final states), each decision a bot was asked for that
// the game's probe rules call an endgame decision point, and that offers more than one legal
// action, is a candidate; candidates whose request would be identical are one, and a seeded
// shuffle picks `count` of them.
import { initSetup } from '../../games/core/game.ts';
import { createRng, deriveSeed } from '../../util/rng.ts';
import type { LiveGame } from '../../games/core/wire.ts';
import { adapterFor } from '../../games/registry.ts';
import type { MatchResult, Replay } from '../../records/match.ts';
import type { ProbeState } from '../../reports/probe-consistency.ts';
import { stableStringify } from '../../util/content-id.ts';
import type { RunDir } from '../run/run-dir.ts';
import { probeRulesFor } from './probe-rules.ts';

/** A sampled state with what is needed to put it before a bot again. */
export interface SampledState extends ProbeState {
  variant: string;
  state: unknown;
  history: LiveGame['history'];
  /** The strategy ids per seat of the game (Hold'em's player ids, Bridge's player names). */
  seatIds: string[];
  options?: Record<string, string | number>;
}

export interface Sample {
  /** Distinct endgame decision points found over the track's replays. */
  candidates: number;
  states: SampledState[];
  /** Replays the journal names but the run does not hold. */
  missingReplays: number;
}

interface Candidate {
  replay: string;
  ply: number;
}

/**
 * Walks one replay; `visit` sees the state before every move a bot was asked for. A null action
 * is the failing request that ended the game: its decision point exists, nothing was played.
 */
function walk(
  replay: Replay,
  visit: (state: unknown, ply: number, history: LiveGame['history']) => boolean | undefined,
): void {
  const { spec } = replay.result;
  const game = adapterFor(spec.game).game;
  let state = game.init(spec.variant, createRng(spec.seed), initSetup(spec));
  const history: LiveGame['history'] = [];
  for (const move of replay.moves) {
    if (!move.standIn && game.toMove(state) === move.seat && visit(state, move.ply, history) === false) return;
    if (move.action === null) return;
    state = game.apply(state, move.seat, move.action);
    history.push({ seat: move.seat, action: move.action, timestamp: replay.result.startedAt });
  }
}

export async function sampleEndgameStates(
  run: RunDir,
  results: MatchResult[],
  count: number,
  seed: number,
): Promise<Sample> {
  if (!results.length) return { candidates: 0, states: [], missingReplays: 0 };
  const { game, variant } = results[0]!.spec;
  const adapter = adapterFor(game);
  const rules = probeRulesFor(game);
  const seen = new Set<string>();
  const candidates: Candidate[] = [];
  let missingReplays = 0;
  const readReplay = async (id: string) => run.readReplay(id).catch(() => null);
  for (const result of [...results].sort((a, b) => a.id.localeCompare(b.id))) {
    const replay = await readReplay(result.id);
    if (!replay) {
      missingReplays++;
      continue;
    }
    const plies = replay.moves.length;
    walk(replay, (state, ply) => {
      if (!rules.isEndgame(state, ply, plies)) return;
      const seat = replay.moves[ply]!.seat;
      // A forced decision (one legal action) tells nothing about a strategy: every bot agrees on it.
      if (adapter.game.legalActions(state, seat).length < 2) return;
      // Two decision points whose requests would be the same are one state.
      const body = adapter.turn(state, seat, {
        gameId: 'probe',
        gameServerUrl: '',
        seatIds: result.spec.seats,
        options: result.spec.options,
      }).body;
      const key = stableStringify(body);
      if (seen.has(key)) return;
      seen.add(key);
      candidates.push({ replay: result.id, ply });
    });
  }
  const picked = createRng(deriveSeed(seed, 'probe', game, variant))
    .shuffle(candidates)
    .slice(0, count);
  // Second pass over the replays that hold a picked state: rebuild those states.
  const byReplay = new Map<string, Set<number>>();
  for (const c of picked) byReplay.set(c.replay, (byReplay.get(c.replay) ?? new Set()).add(c.ply));
  const built = new Map<string, SampledState>();
  for (const [id, plies] of byReplay) {
    const replay = (await readReplay(id))!;
    const { spec } = replay.result;
    const names = adapter.game.seatNames(spec.variant);
    const last = Math.max(...plies);
    walk(replay, (state, ply, history) => {
      if (plies.has(ply)) {
        const move = replay.moves[ply]!;
        built.set(`${id}#${ply}`, {
          id: '',
          replay: id,
          ply,
          seat: move.seat,
          seatName: names[move.seat] ?? `seat ${move.seat}`,
          playedBy: spec.seats[move.seat]!,
          played: move.action,
          where: rules.where(state, ply, replay.moves.length),
          variant: spec.variant,
          state,
          history: history.slice(),
          seatIds: spec.seats,
          ...(spec.options ? { options: spec.options } : {}),
        });
      }
      return ply < last;
    });
  }
  const width = String(picked.length).length;
  const states = picked.map((c, k) => ({
    ...built.get(`${c.replay}#${c.ply}`)!,
    id: `s${String(k + 1).padStart(width, '0')}`,
  }));
  return { candidates: candidates.length, states, missingReplays };
}
