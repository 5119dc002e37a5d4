// What `catarena serve` lets its pages show of games still in play. A person playing through the
// human seat must not find, on any page or in any event stream the server sends, a card, hand or
// word their seat may not see: a game with a human seat is drawn from that seat's view until it
// ends, whatever the spectator setting. The setting decides the other games of the live page:
// `full` (every seat's cards: watching bots) or `public` (only what every seat sees). By default
// a run with a human seat is watched `public`, a run of bots only `full`. The filtering is done
// here, on the server, with each game's own seat view (games/<game>/viewer/data.ts, given a
// ViewerPerspective): what a page may not see is never sent.
import fs from 'node:fs';
import path from 'node:path';
import type { ViewerPerspective } from '../../games/core/viewer.ts';
import type { MatchSpec } from '../../records/match.ts';
import { RUN_FILES } from '../../records/run-layout.ts';

export const SPECTATORS = ['full', 'public'] as const;
export type Spectator = (typeof SPECTATORS)[number];

/** The human seat's strategy id unless a run says otherwise (orchestrator/human/human-seat.ts). */
const DEFAULT_HUMAN_ID = 'human';

/**
 * The strategy ids a person plays in a run: arena.json's `humans` (`catarena play … human`
 * writes it); null while the run has written neither arena.json nor config.json (not known yet).
 */
export function runHumans(dir: string): string[] | null {
  try {
    const arena = JSON.parse(fs.readFileSync(path.join(dir, RUN_FILES.arena), 'utf8')) as { humans?: unknown };
    return Array.isArray(arena.humans) ? arena.humans.filter((h): h is string => typeof h === 'string') : [];
  } catch {
    // a tourney (config.json) has no human seat
    return fs.existsSync(path.join(dir, RUN_FILES.config)) ? [] : null;
  }
}

/** The setting a run is watched with: the one asked for, else public when a person plays in it. */
export const spectatorFor = (asked: Spectator | undefined, humans: readonly string[]): Spectator =>
  asked ?? (humans.length ? 'public' : 'full');

/** The seats of a game a person plays: those of the run's humans (and, in a run from before they were recorded, the seat named like the human seat with its own deadline). */
export function humanSeats(spec: MatchSpec, humans: readonly string[]): number[] {
  const person = (id: string) =>
    humans.includes(id) || (id === DEFAULT_HUMAN_ID && spec.limits.seatMoveMs?.[id] !== undefined);
  return spec.seats.flatMap((id, seat) => (person(id) ? [seat] : []));
}

/** The view a game in play is drawn from: its person's seats, else everything (full) or what every seat sees (public). */
export function boardPerspective(
  spec: MatchSpec,
  humans: readonly string[],
  spectator: Spectator,
): ViewerPerspective | undefined {
  const seats = humanSeats(spec, humans);
  if (seats.length) return { seats };
  return spectator === 'public' ? { seats: [] } : undefined;
}

/** The spec as a page gets it: without its seed where the board is not drawn in full (the seed deals every card). */
export function pageSpec(spec: MatchSpec, perspective: ViewerPerspective | undefined): Omit<MatchSpec, 'seed'> {
  if (!perspective) return spec;
  const { seed: _seed, ...rest } = spec;
  return rest;
}

/** What the live page states about the setting. */
export function spectatorNote(spectator: Spectator, humans: readonly string[]): string {
  const people = humans.length
    ? ` Games of ${humans.join(', ')} (a person) are drawn from their seats' view until each ends; this run's files open once it is over.`
    : '';
  return spectator === 'full'
    ? `spectator view: full (every seat's cards, hands and words of games in flight).${people}`
    : `spectator view: public (only what every seat may see until a game ends: no hole cards, no hands but dummy's once shown, no words).${people}`;
}
