// The reports' "Integrity" section: what the game servers and sandboxes saw a strategy's bots
// attempt (a request for another seat's private state, a sandbox limit) or could not enforce
// (hidden information for a bot its sandbox cannot vouch for), from MatchResult.integrity. The
// HTML form is reports/html/integrity-html.ts.
import type { MatchResult } from '../records/match.ts';
import { trackName, type IntegrityRow, type TrackSummary } from '../records/tourney.ts';
import { mdTable } from './markdown-format.ts';

/** What the section reads of a track. */
type Tracked = Pick<TrackSummary, 'game' | 'variant' | 'integrity'>;

/** What each kind means, in a report's words. */
const KIND_WORDS: Record<IntegrityRow['kind'], string> = {
  hidden_info_request: "asked for another seat's private state (got the public view)",
  hidden_info_not_enforced: 'its sandbox cannot vouch for its game-server calls',
  sandbox_limit: 'stopped by a sandbox limit',
  sandbox_escape: 'a process outlived its game and was killed',
};

/** A track's events summed per strategy and kind, strategies by `label` (agent@round), in first-seen order. */
export function integrityRows(results: readonly MatchResult[], label: (strategyId: string) => string): IntegrityRow[] {
  const rows = new Map<string, IntegrityRow>();
  for (const r of results) {
    const seenHere = new Set<string>();
    for (const e of r.integrity ?? []) {
      const strategy = label(r.spec.seats[e.seat] ?? `seat ${e.seat}`);
      const key = `${strategy}\u0000${e.kind}`;
      let row = rows.get(key);
      if (!row) {
        row = { strategy, kind: e.kind, count: 0, games: 0, example: e.detail };
        rows.set(key, row);
      }
      row.count += e.count;
      if (!seenHere.has(key)) row.games++;
      seenHere.add(key);
    }
  }
  return [...rows.values()];
}

/** One warning line per track whose strategies' hidden information was not enforced. */
export function integrityAlarmLines(tracks: readonly Tracked[]): string[] {
  return tracks.flatMap((t) => {
    const names = (t.integrity ?? []).filter((r) => r.kind === 'hidden_info_not_enforced').map((r) => r.strategy);
    if (!names.length) return [];
    return [
      `Hidden information not enforced for ${names.join(', ')} (${trackName(t)}): their bots' sandbox cannot vouch for their calls to the game server, so any bot naming their seats could read their cards or words. Run with a sandbox that vouches (--sandbox docker).`,
    ];
  });
}

export const INTEGRITY_HEAD = ['Strategy', 'Track', 'Kind', 'Count', 'Games', 'Example'];
export const INTEGRITY_NOTE =
  'What catarena saw bots attempt against the games\' integrity, or could not enforce, per strategy (docs/catarena-compat.md Part A "Hidden information").';

/** The section's rows: strategy, track, kind (with its meaning), count, games, example. */
export function integrityTableRows(tracks: readonly Tracked[]): string[][] {
  return tracks.flatMap((t) =>
    (t.integrity ?? []).map((r) => [
      r.strategy,
      trackName(t),
      `${r.kind}: ${KIND_WORDS[r.kind] ?? r.kind}`,
      String(r.count),
      String(r.games),
      r.example,
    ]),
  );
}

/** The Markdown section, or none when no game of the run has events. */
export function integrityMarkdown(tracks: readonly Tracked[]): string[] {
  const rows = integrityTableRows(tracks);
  if (!rows.length) return [];
  return [
    [
      '## Integrity',
      INTEGRITY_NOTE,
      mdTable(
        INTEGRITY_HEAD,
        rows.map((r) => [...r.slice(0, 5), `\`${r[5]}\``]),
        3,
      ),
    ].join('\n\n'),
  ];
}
