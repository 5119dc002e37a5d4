// The run index's seal: a finished run's line in index.jsonl carries its journal's end (line
// count and last chain value) with a MAC under the run's key over the entry and that end. The
// chain alone cannot see lines dropped from the journal's end; the seal can, and it shows an
// index entry whose scores were edited. `catarena history` and `catarena report` check it.
import path from 'node:path';
import type { JournalIntegrity } from '../../records/journal-integrity.ts';
import type { RunIndexEntry } from '../../records/tourney.ts';
import { readJournalChain, sealMac } from './journal-chain.ts';
import type { Journal } from './journal.ts';
import { RUN_DIRS, RUN_FILES } from '../../records/run-layout.ts';

/** The text a seal covers: the entry as indexed, without its seal. */
const sealedText = (entry: RunIndexEntry) => {
  const { seal: _seal, ...rest } = entry;
  return JSON.stringify(rest);
};

/** The entry with its journal's end sealed (unchanged for an old, unchained journal). */
export async function sealEntry(entry: RunIndexEntry, journal: Journal): Promise<RunIndexEntry> {
  const seal = await journal.seal(sealedText(entry));
  return seal ? { ...entry, seal } : entry;
}

const broken = (line: number, lines: number, reason: string): JournalIntegrity => ({
  state: 'tampered',
  lines,
  line,
  reason,
});

/**
 * What a run's journal and its index entry say together: the chain verified, the entry's seal
 * valid and the journal still holding the lines the run finished with. Null when the run's journal
 * is not on this machine. A study (`--repeats`) is its repeats' journals, each verified by its chain.
 */
export async function checkIndexedRun(
  entry: RunIndexEntry,
): Promise<{ file: string; integrity: JournalIntegrity } | null> {
  if (entry.repeats) return checkRepeats(entry);
  const file = path.join(entry.runDir, RUN_FILES.journal);
  const chain = await readJournalChain(file, entry.seal?.lines);
  if (!chain) return null;
  const { integrity, key, headAt } = chain;
  const seal = entry.seal;
  const verdict = (i: JournalIntegrity) => ({ file, integrity: i });
  if (integrity.state === 'tampered') return verdict(integrity);
  if (!seal)
    return verdict(
      key
        ? broken(integrity.lines, integrity.lines, 'the run index entry of this chained run carries no seal')
        : integrity,
    );
  if (!key) return verdict(broken(1, integrity.lines, 'the run index entry is sealed but journal.key is missing'));
  if (sealMac(key, sealedText(entry), seal.lines, seal.head) !== seal.mac)
    return verdict(
      broken(
        seal.lines,
        integrity.lines,
        'the run index entry (its scores or seal) was changed after the run finished',
      ),
    );
  if (integrity.lines < seal.lines)
    return verdict(
      broken(
        integrity.lines + 1,
        integrity.lines,
        `the run finished with ${seal.lines} lines (run index) but the journal now ends after ${integrity.lines}: lines were removed from its end`,
      ),
    );
  if (headAt !== seal.head)
    return verdict(broken(seal.lines, integrity.lines, 'it is not the line the run finished with (run index)'));
  return verdict(integrity);
}

async function checkRepeats(entry: RunIndexEntry): Promise<{ file: string; integrity: JournalIntegrity } | null> {
  let found: { file: string; integrity: JournalIntegrity } | null = null;
  for (let r = 1; r <= entry.repeats!; r++) {
    const file = path.join(entry.runDir, RUN_DIRS.repeats, String(r), RUN_FILES.journal);
    const chain = await readJournalChain(file);
    if (!chain) continue;
    if (chain.integrity.state === 'tampered') return { file, integrity: chain.integrity };
    found ??= { file, integrity: { state: 'unverified', lines: chain.integrity.lines } }; // the study's own entry is not sealed
  }
  return found;
}
