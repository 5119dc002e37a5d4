// Reading the model's answer leniently: an option number, or the action itself.
// Order: a bare number ("12", "12.", "#12", "option 12"); the whole answer naming an option ("e2e4",
// "(7,7)", "call", "1NT"); a game's free form (Hold'em "raise to 150"); a word of the answer naming
// an option; the first integer in the text that is an option number.

const normalize = (s) => String(s).toLowerCase().replace(/[\s`'"*()[\]{}<>_-]/g, '').replace(/[.!?:;,]+$/, '');

/** The option an answer names: {ok, option} or {ok: false, why}. */
export function parseAnswer(text, options, free) {
  const raw = String(text ?? '').replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  if (!raw) return { ok: false, why: 'is empty' };
  const n = options.length;
  const bare = /^(?:option\s*)?#?\s*(\d+)\s*[.):]?$/i.exec(raw);
  if (bare) {
    const k = Number(bare[1]);
    return k >= 1 && k <= n ? { ok: true, option: options[k - 1] } : { ok: false, why: `is not an option number (1 to ${n})` };
  }
  const byText = new Map();
  for (const o of options) for (const key of [o.label, ...(o.aliases ?? [])]) if (!byText.has(normalize(key))) byText.set(normalize(key), o);
  const whole = byText.get(normalize(raw));
  if (whole) return { ok: true, option: whole };
  const freeOption = free?.(raw);
  if (freeOption) return { ok: true, option: freeOption };
  for (const token of raw.split(/\s+/)) {
    const key = normalize(token);
    if (key && !/^\d+$/.test(key) && byText.has(key)) return { ok: true, option: byText.get(key) };
  }
  const numbers = raw.match(/\d+/g) ?? [];
  const k = numbers.map(Number).find((x) => x >= 1 && x <= n);
  if (k !== undefined) return { ok: true, option: options[k - 1] };
  return { ok: false, why: numbers.length ? `names no option (the numbers are 1 to ${n})` : 'holds no option number' };
}

