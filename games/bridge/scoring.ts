// Duplicate bridge scoring: the contract score (Laws of Duplicate Bridge 2017, Law 77), the WBF
// IMP scale and the WBF continuous 20-VP scale.
//
// CATArena's arena scores bridge its own way (docs/catarena-compat.md §5.4: no game,
// slam or insult bonuses, linear penalties, 30 a trick for every trick over book) and compares
// only NS-positive results (§5.6). We do not copy any of that: a bot that bids games and slams, or
// doubles for penalty, must be paid what real bridge pays it.
import type { MatchResult } from '../../records/match.ts';
import type { DuplicateScoring } from '../core/descriptor.ts';
import { isSeat, partnershipOf, type Seat, type Vulnerability } from './cards.ts';

export type Strain = 'C' | 'D' | 'H' | 'S' | 'NT';
export const STRAINS: readonly Strain[] = ['C', 'D', 'H', 'S', 'NT'];

export interface Contract {
  level: 1 | 2 | 3 | 4 | 5 | 6 | 7;
  strain: Strain;
  /** 0 undoubled, 1 doubled (X), 2 redoubled (XX). CATArena's `doubling` 1|2|4 is 2^doubled. */
  doubled: 0 | 1 | 2;
  declarer: Seat;
}

function checkContract(contract: Contract): void {
  const { level, strain, doubled, declarer } = contract;
  if (!Number.isInteger(level) || level < 1 || level > 7) throw new Error(`invalid contract level ${level}`);
  if (!STRAINS.includes(strain)) throw new Error(`invalid strain ${JSON.stringify(strain)}`);
  if (doubled !== 0 && doubled !== 1 && doubled !== 2) throw new Error(`invalid doubled ${doubled} (0, 1 or 2)`);
  if (!isSeat(declarer)) throw new Error(`invalid declarer ${JSON.stringify(declarer)}`);
}

/** Undoubled value of the odd tricks bid and made: minors 20, majors 30, NT 40 + 30 per further trick. */
function trickScore(level: number, strain: Strain): number {
  if (strain === 'NT') return 40 + 30 * (level - 1);
  return level * (strain === 'C' || strain === 'D' ? 20 : 30);
}

/** Penalty for `down` undertricks (down ≥ 1), as a positive number. */
function penalty(down: number, doubled: 0 | 1 | 2, vulnerable: boolean): number {
  if (doubled === 0) return down * (vulnerable ? 100 : 50);
  // Doubled: NV 100, 200, 200, then 300 each; V 200, then 300 each. Redoubled is exactly twice.
  let total = 0;
  for (let i = 1; i <= down; i++) {
    if (vulnerable) total += i === 1 ? 200 : 300;
    else total += i === 1 ? 100 : i <= 3 ? 200 : 300;
  }
  return doubled === 2 ? 2 * total : total;
}

/**
 * The declaring side's score for `contract` when declarer takes `tricksTaken` (0..13) tricks and
 * the declaring side's vulnerability is `vulnerable`. Positive when made, negative when defeated.
 *
 * Made: trick score (× 2 doubled, × 4 redoubled); game bonus 300 NV / 500 V when that trick score
 * is ≥ 100, else part-score 50; small slam 500/750, grand slam 1000/1500; "insult" 50 for making
 * a doubled contract, 100 redoubled; overtricks at trick value undoubled, 100/200 each doubled
 * (NV/V), 200/400 redoubled. Defeated: 50/100 an undertrick undoubled; doubled NV 100, 300, 500,
 * then +300 each, doubled V 200, 500, 800, then +300 each; redoubled twice doubled.
 */
export function contractScore(contract: Contract, tricksTaken: number, vulnerable: boolean): number {
  checkContract(contract);
  if (!Number.isInteger(tricksTaken) || tricksTaken < 0 || tricksTaken > 13) {
    throw new Error(`invalid tricks taken ${tricksTaken} (expected 0..13)`);
  }
  const { level, strain, doubled } = contract;
  const needed = level + 6;
  if (tricksTaken < needed) return -penalty(needed - tricksTaken, doubled, vulnerable);

  const contracted = trickScore(level, strain) * 2 ** doubled;
  let score = contracted;
  // Game is decided by the trick score alone (doubling included), so 2♥X making is a game
  // (120) while 1NTX (80) stays a part-score.
  score += contracted >= 100 ? (vulnerable ? 500 : 300) : 50;
  if (level === 6) score += vulnerable ? 750 : 500;
  if (level === 7) score += vulnerable ? 1500 : 1000;
  if (doubled > 0) score += 50 * doubled;
  const over = tricksTaken - needed;
  if (over > 0) {
    // Undoubled overtricks are worth the strain's per-trick value (NT 30, not the first-trick 40).
    const each = doubled === 0 ? (strain === 'C' || strain === 'D' ? 20 : 30) : (vulnerable ? 200 : 100) * doubled;
    score += over * each;
  }
  return score;
}

/**
 * The board's result from NS's point of view: the declaring side's score, negated when EW
 * declared. `tricksByDeclarer` is the declaring side's trick count; a passed-out board
 * (`contract` null) scores 0.
 */
export function nsScore(contract: Contract | null, tricksByDeclarer: number, vul: Vulnerability): number {
  if (contract === null) return 0;
  const side = partnershipOf(contract.declarer);
  const score = contractScore(contract, tricksByDeclarer, side === 0 ? vul.ns : vul.ew);
  // `0 - x` rather than `-x`, so an EW result of 0 is not reported as -0.
  return side === 0 ? score : 0 - score;
}

// ---------------------------------------------------------------------------------------------
// IMPs

/** Lower bounds of the WBF IMP scale: a difference ≥ IMP_THRESHOLDS[k] is worth at least k + 1 IMPs. */
export const IMP_THRESHOLDS: readonly number[] = [
  20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000,
  3500, 4000,
];

/** Signed IMPs for a signed point difference (0–19 → 0, 20–49 → 1, …, ≥ 4000 → 24). */
export function impsFor(diff: number): number {
  if (!Number.isFinite(diff)) throw new Error(`invalid point difference ${diff}`);
  const abs = Math.abs(diff);
  let imps = 0;
  while (imps < IMP_THRESHOLDS.length && abs >= IMP_THRESHOLDS[imps]!) imps++;
  return diff < 0 ? -imps : imps;
}

/**
 * IMPs a side receives on a board its opponents forfeited (failed to act, illegal action …).
 * WBF Law 12C2 in teams: the non-offending side gets average plus, which at IMPs is +3; the
 * orchestrator credits this instead of a table result.
 */
export const ARTIFICIAL_ADJUSTED_IMPS = 3;

// ---------------------------------------------------------------------------------------------
// Victory points: WBF continuous 20-point scale (2013)
//
// Source: "The New WBF IMP to VP Scales", Technical Report of the WBF Scoring Panel (Bavin,
// Bethe, Bramley, Buchen; January 2013). For a match of N boards the blitz margin is
// X = 15·√N and, with τ = (√5 − 1)/2 (so τ³ = √5 − 2),
//     VP(M) = 10 + 10 · (1 − τ^(3M/X)) / (1 − τ³),   capped at 20,
// rounded to 0.01 for each integer margin M = 0..⌈X⌉. The report then applies a concavity
// correction: wherever rounding made one more IMP worth more than the previous one (a positive
// second difference), the middle entry is raised by 0.01, repeating until the table is concave.
// The published tables include that correction (e.g. 12 boards: 42 IMPs → 19.02, where plain
// rounding gives 19.01), so we build the table the same way rather than round the formula.
// Loser = 20 − winner; a tie is 10–10.

const TAU = (Math.sqrt(5) - 1) / 2;
const TAU_CUBED = TAU ** 3;

/** Winner's VP in hundredths for margins 0..⌈15√N⌉, keyed by N. */
const vpTables = new Map<number, number[]>();

function vpTable(boards: number): number[] {
  const cached = vpTables.get(boards);
  if (cached) return cached;
  const blitz = 15 * Math.sqrt(boards);
  const last = Math.ceil(blitz);
  const table: number[] = [];
  for (let m = 0; m <= last; m++) {
    const raw = 10 + (10 * (1 - TAU ** ((3 * m) / blitz))) / (1 - TAU_CUBED);
    table.push(Math.min(2000, Math.round(100 * raw)));
  }
  // Concavity correction, as in the report: sweep the second differences, raise the middle entry
  // of each violation by one hundredth, recompute, until none is left. Each raise only ever
  // moves an entry towards 20, so this terminates; the bound is a guard.
  for (let sweep = 0; sweep < 10_000; sweep++) {
    let violated = false;
    const second: number[] = [];
    for (let i = 0; i + 2 <= last; i++) second.push(table[i + 2]! - 2 * table[i + 1]! + table[i]!);
    second.forEach((d2, i) => {
      if (d2 > 0) {
        table[i + 1]! += 1;
        violated = true;
      }
    });
    if (!violated) break;
  }
  vpTables.set(boards, table);
  return table;
}

/**
 * [VP of side A, VP of side B] for a match of `boards` boards that A won by `impMargin` IMPs
 * (negative when B won). Integer margins use the WBF table; a fractional margin (possible only
 * with fractional adjusted scores) falls back to the formula rounded to 0.01.
 */
export function vpFor(impMargin: number, boards: number): [number, number] {
  if (!Number.isInteger(boards) || boards < 1) throw new Error(`invalid board count ${boards}`);
  if (!Number.isFinite(impMargin)) throw new Error(`invalid IMP margin ${impMargin}`);
  const m = Math.abs(impMargin);
  const table = vpTable(boards);
  let winner: number; // hundredths
  if (Number.isInteger(m)) winner = m < table.length ? table[m]! : 2000;
  else {
    const raw = 10 + (10 * (1 - TAU ** ((3 * m) / (15 * Math.sqrt(boards))))) / (1 - TAU_CUBED);
    winner = Math.min(2000, Math.round(100 * raw));
  }
  // Work in hundredths so the two sides always add to exactly 20.
  const a = impMargin >= 0 ? winner : 2000 - winner;
  return [a / 100, (2000 - a) / 100];
}

// ---------------------------------------------------------------------------------------------
// Duplicate team matches, as the descriptor gives them to reports/metrics/duplicate.ts

/** Net North–South points of a room, from its result's detail. */
const roomNsScore = (r: MatchResult): number => Number((r.detail as { ns_score?: number } | undefined)?.ns_score ?? 0);

export const bridgeDuplicateScoring: DuplicateScoring = {
  roomScore: roomNsScore,
  boardScore: impsFor,
  forfeitScore: ARTIFICIAL_ADJUSTED_IMPS,
  matchPoints: vpFor,
  matchPointsTotal: 20,
};
