// The reports' warning when bots ran without isolation (the unsafe sandbox): one line, in the
// header of report.md and report.html.
import { trackName, type TrackSummary } from '../records/tourney.ts';

export function sandboxAlarmLines(tracks: TrackSummary[]): string[] {
  const hit = tracks.filter((t) => t.unsandboxedGames);
  if (!hit.length) return [];
  const games = hit.reduce((n, t) => n + t.unsandboxedGames!, 0);
  const all = tracks.reduce((n, t) => n + t.games, 0);
  return [
    `Bots ran UNSANDBOXED (the unsafe sandbox: no isolation) in ${games} of ${all} games ` +
      `(${hit.map((t) => `${trackName(t)}: ${t.unsandboxedGames}`).join(', ')}): nothing kept them from reading secrets, other bots or the run's files.`,
  ];
}
