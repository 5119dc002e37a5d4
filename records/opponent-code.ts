// What an agent sees of its rivals when it develops round n > 1 (config `opponentCode`, CLI
// --opponent-code): an experimental factor, so the learning metrics can be compared with and
// without it. CATArena shows every agent the previous round's code and logs of all participants
// (visible, the default); CodeClash hides opponents' code by default and shows it as an ablation.
//
//   visible    every agent's round n−1 code (last_round/<agent>/) and the round's logs of all games
//   logs-only  its own round n−1 code, and the round's logs of all games (no rival's code, nor a
//              rival's build output quoted in round_report.json)
//   hidden     its own round n−1 code and the logs of its own games only (rivals' names appear in
//              those results; no rival's code, build output or games among themselves)

export type OpponentCode = 'visible' | 'logs-only' | 'hidden';
export const OPPONENT_CODE: readonly OpponentCode[] = ['visible', 'logs-only', 'hidden'];
export const DEFAULT_OPPONENT_CODE: OpponentCode = 'visible';

/** Whether an agent's workspace holds its rivals' previous code. */
export const showsRivalCode = (setting: OpponentCode | undefined) => (setting ?? DEFAULT_OPPONENT_CODE) === 'visible';

const MEANING: Record<OpponentCode, string> = {
  visible: "each agent saw every agent's previous code and the logs of all games (as CATArena)",
  'logs-only': 'each agent saw its own previous code and the logs of all games, no rival code',
  hidden: 'each agent saw its own previous code and the logs of its own games only',
};

/** A run's setting from its config (runs written before the setting existed were visible). */
export function opponentCodeOf(config: unknown): OpponentCode {
  const v = (config as { opponentCode?: unknown } | null | undefined)?.opponentCode;
  return (OPPONENT_CODE as readonly unknown[]).includes(v) ? (v as OpponentCode) : DEFAULT_OPPONENT_CODE;
}

/** The reports' line: "Opponents' code: hidden (each agent saw …)". */
export const opponentCodeLine = (config: unknown): string =>
  `Opponents' code: ${opponentCodeOf(config)} (${MEANING[opponentCodeOf(config)]})`;
