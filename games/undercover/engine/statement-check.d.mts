// Types for statement-check.mjs (Undercover's mechanical statement check).
export const MAX_STATEMENT_CHARS: number;
export const REPEAT_THRESHOLD: number;
export type StatementFault = 'empty' | 'too_long' | 'names_word' | 'repeat';
export function tokens(text: string): string[];
export function stem(token: string): string;
export function namesWord(text: string, word: string): boolean;
export function similarity(a: string, b: string): number;
export function statementFault(text: unknown, word: string, earlier?: readonly string[]): StatementFault | null;
