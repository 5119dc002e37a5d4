// What the commands print, always through util/terminal.ts: results, reports and messages carry
// bot and agent text (crash logs, answers, names), which must never reach the terminal raw.
import { forTerminal, jsonForTerminal } from '../../util/terminal.ts';

/** A line (or lines) on stdout, control characters escaped; a newline is added. */
export function printOut(text: string): void {
  process.stdout.write(`${forTerminal(text)}\n`);
}

/** A line (or lines) on stderr, control characters escaped; a newline is added. */
export function printErr(text: string): void {
  process.stderr.write(`${forTerminal(text)}\n`);
}

/** A value as indented JSON on stdout, with DEL, C1 and the Unicode controls written as \u escapes too. */
export function printJson(value: unknown): void {
  process.stdout.write(`${jsonForTerminal(value, 2)}\n`);
}
