// The shape of entries over the model table (a config's `models:`, $CATARENA_MODEL_TABLE's file),
// checked before anything starts: an entry with the `match` or `pattern` of a table entry changes
// the fields it names; any other entry is a new model and must say everything the table says of
// one (its provider, API, sampling, thinking, source and date), else the LLM-player and the
// budget would treat it by guesswork. Errors name the entry and the field.
import { z } from 'zod';
// Types only from models.ts: models.ts checks $CATARENA_MODEL_TABLE's file with this module as it loads.
import type { ModelTable, ModelTableOverlay } from './models.ts';

/** What identifies an entry (as models.ts's entryKey): its `match`, else its `pattern` as /…/. */
const keyOf = (f: { match?: string; pattern?: string }) => f.match ?? `/${f.pattern}/`;

const Usd = z.number().min(0);
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected the day it was checked, YYYY-MM-DD');

const ModelPriceSchema = z.strictObject({
  input: Usd,
  output: Usd,
  cacheRead: Usd.optional(),
  cacheWrite: Usd.optional(),
  long: z
    .strictObject({
      aboveInputTokens: z.int().min(1),
      input: Usd,
      output: Usd,
      cacheRead: Usd.optional(),
      cacheWrite: Usd.optional(),
    })
    .optional(),
});

const isRegExp = (s: string) => {
  try {
    new RegExp(s);
    return true;
  } catch {
    return false;
  }
};

/** One entry, every field optional (an entry over a table entry names only what it changes). */
export const ModelFamilyPatch = z.strictObject({
  match: z.string().trim().toLowerCase().min(1).optional(),
  aliases: z.array(z.string().min(1)).optional(),
  pattern: z.string().min(1).refine(isRegExp, 'not a valid regular expression').optional(),
  name: z.string().min(1).optional(),
  provider: z.enum(['anthropic', 'openai', 'google']).optional(),
  price: ModelPriceSchema.nullable().optional(),
  sampling: z.enum(['any', 'one', 'default-only', 'reasoning', 'advised-default']).optional(),
  thinking: z
    .enum(['none', 'budget', 'adaptive', 'adaptive-only', 'effort', 'gemini-budget', 'gemini-level'])
    .optional(),
  thinksByDefault: z.boolean().optional(),
  thinkingBudgetRange: z.strictObject({ min: z.int(), max: z.int(), off: z.boolean() }).optional(),
  api: z.enum(['chat', 'responses', 'messages', 'gemini']).optional(),
  maxOutput: z.int().min(1).nullable().optional(),
  context: z.int().min(1).nullable().optional(),
  source: z.string().min(1).optional(),
  checked: Day.optional(),
});

/** What a new entry (one matching no table entry) must name. */
export const NEW_ENTRY_FIELDS = [
  'provider',
  'api',
  'sampling',
  'thinking',
  'thinksByDefault',
  'source',
  'checked',
] as const;

/** Entries over `base` ({asOf?, families}), each new one complete; issues name the entry's index and field. */
export function modelTableOverlaySchema(base: ModelTable) {
  return z
    .strictObject({
      asOf: Day.optional(),
      families: z.array(ModelFamilyPatch).default([]),
    })
    .superRefine((overlay, ctx) => {
      const known = new Set(base.families.map(keyOf));
      overlay.families.forEach((entry, i) => {
        if (!entry.match && !entry.pattern) {
          ctx.addIssue({
            code: 'custom',
            path: ['families', i],
            message: 'names no model: give `match` (a model id) or `pattern` (a regular expression)',
          });
          return;
        }
        if (known.has(keyOf(entry))) return;
        const missing = NEW_ENTRY_FIELDS.filter((k) => entry[k] === undefined);
        if (missing.length)
          ctx.addIssue({
            code: 'custom',
            path: ['families', i],
            message: `${keyOf(entry)} is not in agents/core/models.json, so it is a new entry and needs ${missing.join(', ')} (docs/first-real-run.md, "The model table"); to change a shipped entry, use its exact \`match\``,
          });
      });
    });
}

/** The overlay, checked; throws naming each bad field (`where` says whose entries they are). */
export function parseModelTableOverlay(value: unknown, where: string, base: ModelTable): ModelTableOverlay {
  const parsed = modelTableOverlaySchema(base).safeParse(value);
  if (parsed.success) return parsed.data as ModelTableOverlay;
  const lines = parsed.error.issues.map((i) => `  ${[where, ...i.path].join('.')}: ${i.message}`);
  throw new Error(`invalid model table entries:\n${lines.join('\n')}`);
}
