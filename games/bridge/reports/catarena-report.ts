// CATArena's Bridge arena report files (compat §5.9) from our duplicate room results, so round
// n+1's agents find what CATArena's round-2 prompt points them to (the newest
// `tournament_tournament_*.json`):
//
//   tournament_<tournament_id>.json         the duplicate report: standings (VP, IMP net), every
//                                           match with its boards (both rooms' NS scores, IMPs),
//                                           response times per bot; tournament_id = tournament_<unix>
//   games/<unix>/<server_game_id>.json       per room: JSON Lines, one line per bid or play
//
// Differences, on purpose: ns_score is the net North–South score (CATArena records only positive
// NS results, so EW successes read 0), boards_detail game ids are the real server ids (CATArena
// writes synthetic ones), and the event lines carry the trick when one completes (CATArena's
// `trick_complete`/`trick` are always null). Team ids are the strategy ids, as our bots are
// partnerships of one strategy. The report needs only the results; the rooms' replays are read one
// at a time, each giving its event file.
import type { MatchResult, Replay } from '../../../records/match.ts';
import { duplicateMatchesOf } from '../../../reports/metrics/duplicate.ts';
import { writeLogFile, type CatarenaWriter } from '../../../reports/catarena/catarena-report.ts';

const SEAT_NAMES = ['north', 'east', 'south', 'west'] as const;

export interface BridgeFilesInput {
  now: Date;
  order: string[];
  nameOf(id: string): string;
  results: MatchResult[];
  replays: Replay[];
}

type ReportInput = Omit<BridgeFilesInput, 'replays'>;

interface Standing {
  team_name: string;
  matches: number;
  vp: number;
  imp_net: number;
}

/** The files of a round whose replays are in memory, in writing order. */
export function bridgeReportFiles(input: BridgeFilesInput): Array<{ name: string; text: string }> {
  const report = bridgeReport(input);
  if (!report) return [];
  return [report, ...input.replays.flatMap((replay) => eventFile(replay, input.now, input.nameOf) ?? [])];
}

/** tournament_<tournament_id>.json, or null when no duplicate room was played. */
function bridgeReport(input: ReportInput): { name: string; text: string } | null {
  const rooms = input.results.filter((r) => r.spec.duplicate);
  if (!rooms.length) return null;
  const unix = Math.floor(input.now.getTime() / 1000);
  const tournamentId = `tournament_${unix}`;
  const matches = duplicateMatchesOf(rooms);
  const roomOf = new Map(
    rooms.map((r) => [`${r.spec.duplicate!.match}|${r.spec.duplicate!.board}|${r.spec.duplicate!.room}`, r]),
  );

  const standings = new Map<string, Standing>();
  const standing = (id: string) => {
    let s = standings.get(id);
    if (!s) standings.set(id, (s = { team_name: input.nameOf(id), matches: 0, vp: 0, imp_net: 0 }));
    return s;
  };
  for (const id of input.order) if (rooms.some((r) => r.spec.seats.includes(id))) standing(id);
  const matchRecords = matches.map((m) => {
    const [a, b] = m.teams;
    for (const [team, vp, sign] of [
      [a, m.vp[0], 1],
      [b, m.vp[1], -1],
    ] as const) {
      const s = standing(team);
      s.matches++;
      s.vp = round2(s.vp + vp);
      s.imp_net += sign * m.imps;
    }
    return {
      match_id: `match_${unix}_${a}_vs_${b}`,
      team_a: a,
      team_b: b,
      boards: m.boards.length,
      imp_diff: m.imps,
      vp_a: m.vp[0],
      vp_b: m.vp[1],
      boards_detail: m.boards.map((board) => {
        const open = roomOf.get(`${m.match}|${board.board}|open`)!;
        const closed = roomOf.get(`${m.match}|${board.board}|closed`)!;
        return {
          board: board.board,
          seed: open.spec.seed,
          open: {
            game_id: open.serverGameId,
            ns_score: board.open,
            ...(board.forfeits.open ? { forfeit_by: board.forfeits.open } : {}),
          },
          closed: {
            game_id: closed.serverGameId,
            ns_score: board.closed,
            ...(board.forfeits.closed ? { forfeit_by: board.forfeits.closed } : {}),
          },
          points_diff: board.open - board.closed,
          imp: board.imps,
        };
      }),
    };
  });

  const times = new Map<string, { ms: number; requests: number }>();
  for (const r of rooms) {
    r.spec.seats.forEach((id, seat) => {
      const t = times.get(id) ?? { ms: 0, requests: 0 };
      t.ms += r.seatStats[seat]!.totalMs;
      t.requests += r.seatStats[seat]!.moves;
      times.set(id, t);
    });
  }

  const report = {
    tournament_id: tournamentId,
    mode: 'duplicate_round_robin',
    boards_per_match: rooms[0]!.spec.duplicate!.boards,
    standings: [...standings].sort((x, y) => y[1].vp - x[1].vp || y[1].imp_net - x[1].imp_net),
    matches: matchRecords,
    total_teams: standings.size,
    bye_team_used: false,
    response_time_statistics: Object.fromEntries(
      [...times].map(([id, t]) => [
        input.nameOf(id),
        { avg_response_time_seconds: t.requests ? round4(t.ms / t.requests / 1000) : 0, total_requests: t.requests },
      ]),
    ),
  };

  return { name: `tournament_${tournamentId}.json`, text: `${JSON.stringify(report, null, 2)}\n` };
}

/** games/<unix>/<server_game_id>.json of a duplicate room, or null for any other game. */
function eventFile(replay: Replay, now: Date, nameOf: (id: string) => string): { name: string; text: string } | null {
  const r = replay.result;
  if (!r.spec.duplicate) return null;
  const unix = Math.floor(now.getTime() / 1000);
  return {
    name: `games/${unix}/${r.serverGameId}.json`,
    text: eventLines(replay, `match_${unix}_${r.spec.duplicate.teams[0]}_vs_${r.spec.duplicate.teams[1]}`, nameOf),
  };
}

/** One JSON line per bid or play, in CATArena's event-log shape. */
function eventLines(replay: Replay, matchId: string, nameOf: (id: string) => string): string {
  const r = replay.result;
  let t = Date.parse(r.startedAt);
  const lines: string[] = [];
  let trick: Array<[number, string]> = [];
  for (const m of replay.moves) {
    t += m.latencyMs;
    const action = m.action as { type?: string; card?: string } | null;
    if (!action || action.type === 'exchange') continue; // CATArena never logs exchanges
    const isPlay = action.type === 'play';
    if (isPlay) trick.push([m.seat, action.card!]);
    const complete = isPlay && trick.length === 4;
    lines.push(
      JSON.stringify({
        ts: new Date(t).toISOString(),
        event: isPlay ? 'play' : 'bid',
        match_id: matchId,
        room: r.spec.duplicate!.room,
        game_id: r.serverGameId,
        player_id: m.seat,
        position: SEAT_NAMES[m.seat],
        ai_id: r.spec.seats[m.seat],
        ai_name: nameOf(r.spec.seats[m.seat]!),
        action,
        trick_complete: complete ? true : null,
        trick: complete ? trick : null,
      }),
    );
    if (complete) trick = [];
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** The report files for round n's games, as the tourney writes them into the round's logs. */
export const writeCatarenaReport: CatarenaWriter = async (ctx) => {
  const report = bridgeReport(ctx);
  if (!report) return;
  await writeLogFile(ctx, report.name, report.text);
  for (const result of ctx.results) {
    const replay = await ctx.replay(result);
    const file = replay && eventFile(replay, ctx.now, ctx.nameOf);
    if (file) await writeLogFile(ctx, file.name, file.text);
  }
};
