// Text from bots and agents (logs, answers, names, crash messages) is untrusted: printed raw, an
// escape sequence in it retitles the operator's terminal, clears the screen or paints a fake
// green "all tests passed". Everything catarena prints goes through `forTerminal` first, which
// shows control characters as visible escapes instead of sending them.

/**
 * C0 controls but \t and \n, DEL, C1 controls (ESC's 8-bit forms: CSI U+009B, OSC U+009D, …), and
 * the Unicode controls that reorder or break what is shown (bidirectional overrides and
 * isolates, line and paragraph separators).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what is escaped
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const visible = (c: string): string => {
  const code = c.charCodeAt(0);
  if (c === '\r') return '\\r';
  if (c === '\x1b') return '\\e';
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/**
 * `text` safe to write to a terminal: every control character but newline and tab shown as a
 * visible escape (ESC as \e, so "ESC[2J" prints as the harmless text "\e[2J"). A CRLF line end
 * is a line end. Idempotent on text without controls.
 */
export function forTerminal(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE, visible);
}

/**
 * JSON for a terminal: JSON.stringify already writes C0 controls as \u00XX; DEL, C1 and the
 * Unicode controls above are written the same way, so the output is still the same JSON.
 */
export function jsonForTerminal(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
