/** Every JSON value in text: one document, a JSON array, or JSON lines (other lines are skipped). */
export function jsonValues(text: string): unknown[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  try {
    const whole = JSON.parse(trimmed) as unknown;
    return Array.isArray(whole) ? whole : [whole];
  } catch {
    const out: unknown[] = [];
    for (const line of trimmed.split('\n')) {
      const l = line.trim();
      if (!l.startsWith('{') && !l.startsWith('[')) continue;
      try {
        const v = JSON.parse(l) as unknown;
        if (Array.isArray(v)) out.push(...v);
        else out.push(v);
      } catch {
        // not JSON: a log line (or the line cut by the output cap)
      }
    }
    return out;
  }
}
