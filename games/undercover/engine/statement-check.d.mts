// Types for statement-check.mjs (Undercover's mechanical statement check).
export const MAX_STATEMENT_CHARS: number;
export type StatementFault = 'empty' | 'too_long' | 'names_word' | 'repeat';
/** A statement as the /speak body lists it. */
export interface StatementEntry {
  round: number;
  seat: number;
  statement: string | null;
  /** Set when the statement eliminated its speaker. */
  eliminated?: string;
}
/** What a new statement is checked against: the speaker's seat, the round, the statements so far. */
export interface StatementContext {
  seat?: number | null;
  round?: number;
  statements?: ReadonlyArray<StatementEntry | string>;
}
export const LEXICON: {
  irregular: Record<string, string[]>;
  ingVerbs: Record<string, string>;
  homonyms: string[];
  notVerbal: string[];
  notPlural: string[];
};
export function normalise(text: string): string;
export function tokens(text: string): string[];
export function wordForms(word: string): string[];
export function namesWord(text: string, word: string): boolean;
export function sameStatement(a: string, b: string): boolean;
export function repeatable(context?: StatementContext | readonly string[]): string[];
export function statementFault(text: unknown, word: string, context?: StatementContext | readonly string[]): StatementFault | null;
