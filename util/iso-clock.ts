// The wall clock as ISO 8601 text (Date's toISOString), for the records each move stamps. A game
// stamps two or three per move, mostly within one millisecond: the text is made once per
// millisecond and reused, where a Date and its formatting per call cost about 1 µs each.
let lastMs = Number.NaN;
let lastText = '';

/** new Date().toISOString(), the same text, made at most once per millisecond. */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastText = new Date(ms).toISOString();
  }
  return lastText;
}
