// Who holds which seat of the games one game server serves, and what their callers attempted.
// The caller of a request is the bot its sandbox vouches for (sandbox/relayed-callers.ts), never a
// name the request sends: a seat's private state goes to the bot holding the seat, and a request
// for a seat the caller does not hold is recorded against the caller (records/match.ts
// IntegrityEvent). A bot whose sandbox cannot vouch for it ("unvouched") is served by the name it
// sends, as before, and its seat is recorded as `hidden_info_not_enforced`.
import { EVERY_SEAT, SPECTATOR, type Viewer } from '../../games/core/wire.ts';
import type { IntegrityEvent, Seat } from '../../records/match.ts';

/**
 * Who plays a seat of an arena game: a bot its sandbox vouches for (its caller id), a bot whose
 * calls cannot be told from any other process's ('unvouched'), or nobody (null or absent: a
 * stand-in, the seats a validation position plays itself).
 */
export type SeatHolder = { callerId: string } | 'unvouched' | null;

/** The holder of a seat whose bot's sandbox gave `callerId` (BotHandle.callerId), or could not. */
export const holderOf = (callerId: string | undefined): SeatHolder => (callerId ? { callerId } : 'unvouched');

/** Every one of `seats` seats played by a bot nobody vouches for (tests; today's serving by name). */
export const unvouchedSeats = (seats: number): SeatHolder[] => Array.from({ length: seats }, () => 'unvouched');

const NOT_ENFORCED = "served by the seat named in the request: the bot's sandbox cannot vouch for its calls";

interface Seating {
  holders: ReadonlyArray<SeatHolder | undefined>;
  /** Seen while the game plays, by "<seat> <kind>"; null once the game finished (its result is written). */
  events: Map<string, IntegrityEvent> | null;
}

export class SeatLedger {
  private readonly arena = new Map<string, Seating>();
  /** Self-play games: the caller id of the bot that created each (undefined: one nobody vouched for). */
  private readonly creators = new Map<string, string | undefined>();

  /** An arena game starts: its seats' holders. Seats of unvouched bots are recorded when `hidesInformation`. */
  seat(gameId: string, holders: ReadonlyArray<SeatHolder | undefined>, hidesInformation: boolean): void {
    const seating: Seating = { holders: holders.slice(), events: new Map() };
    this.arena.set(gameId, seating);
    if (!hidesInformation) return;
    holders.forEach((holder, seat) => {
      if (holder === 'unvouched') note(seating, seat, 'hidden_info_not_enforced', NOT_ENFORCED);
    });
  }

  /** A self-play game was created by `callerId`: only that caller sees it (any seat of it). */
  created(gameId: string, callerId: string | undefined): void {
    this.creators.set(gameId, callerId);
  }

  /** The game ended: what was seen during it (no later request is recorded). Its holders keep reading it. */
  finish(gameId: string): IntegrityEvent[] {
    const seating = this.arena.get(gameId);
    if (!seating?.events) return [];
    const events = [...seating.events.values()].sort((a, b) => a.seat - b.seat || (a.kind < b.kind ? -1 : 1));
    seating.events = null;
    return events;
  }

  /** The game left the server: its grants go with it. */
  forget(gameId: string): void {
    this.arena.delete(gameId);
    this.creators.delete(gameId);
  }

  /** A self-play game is its creator's alone; every arena game can be read (its public view). */
  mayOpen(gameId: string, callerId: string | undefined): boolean {
    return !this.creators.has(gameId) || this.creators.get(gameId) === callerId;
  }

  /** GET /games lists the caller's own games: self-play games it created, arena games it holds a seat of. */
  lists(gameId: string, callerId: string | undefined): boolean {
    if (this.creators.has(gameId)) return this.creators.get(gameId) === callerId;
    return this.arena.get(gameId)?.holders.some((holder) => held(holder, callerId)) ?? false;
  }

  /** What `callerId` may read of a game; `request` names the request in a recorded event. */
  viewer(gameId: string, callerId: string | undefined, request: string): Viewer {
    if (this.creators.has(gameId)) return this.creators.get(gameId) === callerId ? EVERY_SEAT : SPECTATOR;
    const seating = this.arena.get(gameId);
    if (!seating) return SPECTATOR;
    const holds = (seat: Seat) => held(seating.holders[seat], callerId);
    return {
      holds,
      asksFor: (seat) => {
        if (holds(seat)) return true;
        this.noteRequest(gameId, callerId, request);
        return false;
      },
    };
  }

  /**
   * A request for a seat the caller does not hold, recorded against the caller's seat in that game,
   * else in the last game it sits in (a bot reading a game it does not play). A caller nobody
   * vouched for cannot be named: nothing is recorded (it got the public view).
   */
  private noteRequest(gameId: string, callerId: string | undefined, request: string): void {
    if (callerId === undefined) return;
    let charged: { seating: Seating; seat: Seat } | undefined;
    for (const [id, seating] of this.arena) {
      if (!seating.events) continue;
      const seat = seating.holders.findIndex((holder) => held(holder, callerId));
      if (seat < 0) continue;
      charged = { seating, seat };
      if (id === gameId) break;
    }
    if (charged) note(charged.seating, charged.seat, 'hidden_info_request', request);
  }
}

/** The caller holds a seat: its own bot's, or (a caller nobody vouched for) an unvouched bot's. */
function held(holder: SeatHolder | undefined, callerId: string | undefined): boolean {
  if (!holder) return false;
  if (holder === 'unvouched') return callerId === undefined;
  return holder.callerId === callerId;
}

function note(seating: Seating, seat: Seat, kind: IntegrityEvent['kind'], detail: string): void {
  const key = `${seat} ${kind}`;
  const seen = seating.events?.get(key);
  if (seen) seen.count++;
  else seating.events?.set(key, { seat, kind, count: 1, detail: detail.slice(0, 240) });
}
