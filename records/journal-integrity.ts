// What the journal's chain says about a run's results (orchestrator/run/journal-chain.ts): every
// line verified against the run's key, written before lines were chained, or changed after it
// was written. Reports show it in their header; the run index carries the journal's head.

export type JournalIntegrity =
  /** Every line carries a chain value that verifies against the run's key. */
  | { state: 'verified'; lines: number }
  /** A journal written before catarena chained its lines (no key, no chain values). */
  | { state: 'unverified'; lines: number }
  /**
   * The chain breaks at `line` (1-based): a line was changed, removed, inserted or re-chained
   * without the key. `game` names the line's game and seats where it still parses.
   */
  | { state: 'tampered'; lines: number; line: number; reason: string; game?: string; note?: string };

/** The journal's end, as a finished run recorded it in the run index: its line count and last chain value, keyed. */
export interface JournalSeal {
  lines: number;
  head: string;
  /** HMAC of the index entry (without this field), `lines` and `head`, under the run's key. */
  mac: string;
}

/** One line for a report's header: what the chain guarantees for this run's results. */
export function integrityLine(integrity: JournalIntegrity): string {
  switch (integrity.state) {
    case 'verified':
      return `Journal: verified (${integrity.lines} lines, each chained to the one before under the run's key)`;
    case 'unverified':
      return 'Journal: unverified (written before catarena chained its lines; a changed result would not show)';
    case 'tampered':
      return `WARNING: journal.jsonl was tampered with at line ${integrity.line} (${integrity.reason}${integrity.game ? `; ${integrity.game}` : ''}); ${integrity.note ?? 'these results may be forged (rebuilt with --accept-tampered)'}`;
  }
}
