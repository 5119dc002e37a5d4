/** Text on one line (runs of whitespace become one space), cut to n characters with an ellipsis: for logs. */
export function oneLine(s: string, n = 300): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n)}…` : t;
}
