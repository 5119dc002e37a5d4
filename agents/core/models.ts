// The model table (agents/core/models.json): what catarena knows per model family, as dated,
// sourced data: prices, the sampling each accepts, how it thinks, the API it needs, its limits.
// Prices (agents/core/prices.ts), the LLM-player's call plan (llm-player/call-plan.ts), the
// preflight and the emulators of the tests read it from here. To update it, see
// docs/first-real-run.md ("The model table").
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseModelTableOverlay } from './model-table-schema.ts';

/** USD per million tokens. cacheRead and cacheWrite default to input's. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** The band a whole request is billed at once its prompt (input + cache reads + writes) passes aboveInputTokens. */
  long?: { aboveInputTokens: number; input: number; output: number; cacheRead?: number; cacheWrite?: number };
}

/** Which sampling parameters a model takes (models.json `sampling` says what each means). */
export type SamplingRule = 'any' | 'one' | 'default-only' | 'reasoning' | 'advised-default';
/** How thinking is set (models.json `thinking`). */
export type ThinkingForm =
  | 'none'
  | 'budget'
  | 'adaptive'
  | 'adaptive-only'
  | 'effort'
  | 'gemini-budget'
  | 'gemini-level';
/** The wire API a model needs: chat completions (or Responses), Responses only, Anthropic Messages, Gemini generateContent. */
export type ModelApi = 'chat' | 'responses' | 'messages' | 'gemini';

export interface ModelFamily {
  /** A model id; also matches it with a date, version or -latest suffix. */
  match?: string;
  /** Other names its provider or a CLI documents for it (Claude Code's `sonnet`): matched exactly, never by prefix. */
  aliases?: string[];
  /** A regular expression over the model id, for a family known by its shape (gpt-*-codex). */
  pattern?: string;
  /** The family's name when it has a pattern. */
  name?: string;
  provider: 'anthropic' | 'openai' | 'google';
  price: ModelPrice | null;
  sampling: SamplingRule;
  thinking: ThinkingForm;
  thinksByDefault: boolean;
  /** Gemini's thinkingBudget range (thinking form gemini-budget): min..max, 0 too when `off`, -1 (dynamic) always. */
  thinkingBudgetRange?: { min: number; max: number; off: boolean };
  api: ModelApi;
  maxOutput: number | null;
  context: number | null;
  source: string;
  /** The day the entry was checked against its source (YYYY-MM-DD). */
  checked: string;
}

export interface ModelTable {
  asOf: string;
  families: ModelFamily[];
}

/** Entries over a table ($CATARENA_MODEL_TABLE's file, a config's `models:`): merged by `match` or `pattern`, else added. */
export interface ModelTableOverlay {
  asOf?: string;
  families?: Partial<ModelFamily>[];
}

const TABLE_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'models.json');

/** The variable naming a JSON file of entries that replace (same match or pattern) or extend the shipped ones. */
export const MODEL_TABLE_ENV = 'CATARENA_MODEL_TABLE';

/** What identifies an entry: its `match`, else its `pattern` (as /…/). */
export const entryKey = (f: Partial<ModelFamily>) => f.match ?? `/${f.pattern}/`;

/**
 * The shipped table with a local one over it ({asOf?, families: [...]}: an entry with the same
 * `match` or `pattern` is merged over the shipped one, others are added). Prices alone are
 * overridden more simply by a config's `prices:`.
 */
export function mergeModelTables(base: ModelTable, local: ModelTableOverlay): ModelTable {
  const families = base.families.map((f) => ({ ...f }));
  for (const entry of local.families ?? []) {
    const i = families.findIndex((f) => entryKey(f) === entryKey(entry));
    if (i >= 0) families[i] = { ...families[i]!, ...entry };
    else families.push(entry as ModelFamily);
  }
  return { asOf: local.asOf ?? base.asOf, families };
}

function loadTable(): ModelTable {
  const shipped = JSON.parse(fs.readFileSync(TABLE_FILE, 'utf8')) as ModelTable;
  const local = process.env[MODEL_TABLE_ENV]?.trim();
  if (!local) return shipped;
  try {
    const entries = parseModelTableOverlay(JSON.parse(fs.readFileSync(local, 'utf8')), 'file', shipped);
    return mergeModelTables(shipped, entries);
  } catch (err) {
    throw new Error(
      `${MODEL_TABLE_ENV}=${local}: not a readable model table (${(err as Error).message}); see docs/first-real-run.md`,
    );
  }
}

/** The table in use: the shipped one, with $CATARENA_MODEL_TABLE's entries over it (read once). */
export const MODEL_TABLE: ModelTable = loadTable();

/** The date of the table: the report prints it. */
export const MODEL_TABLE_AS_OF = MODEL_TABLE.asOf;

/**
 * The table a run uses: MODEL_TABLE with the run's own entries (config `models:`) over it. Passed
 * down as a parameter (call plans, prices, the budget, the preflight), never stored globally, so
 * two runs in one process keep their own tables.
 */
export function runModelTable(overlay: ModelTableOverlay | undefined): ModelTable {
  return overlay?.families?.length || overlay?.asOf ? mergeModelTables(MODEL_TABLE, overlay) : MODEL_TABLE;
}

/** The entries an overlay changes in MODEL_TABLE and those it adds, by name (the report lists them). */
export function overlayEntries(overlay: ModelTableOverlay | undefined): { overridden: string[]; added: string[] } {
  const shipped = new Set(MODEL_TABLE.families.map(entryKey));
  const names = (overlay?.families ?? []).map((f) => ({
    name: f.match ?? f.name ?? `/${f.pattern}/`,
    key: entryKey(f),
  }));
  return {
    overridden: names.filter((n) => shipped.has(n.key)).map((n) => n.name),
    added: names.filter((n) => !shipped.has(n.key)).map((n) => n.name),
  };
}

/** An entry older than this is worth a look before money is spent (the preflight warns). */
export const MODEL_ENTRY_MAX_AGE_DAYS = 90;

/**
 * What may follow a family's id in a model name and still be that model: a snapshot date
 * (-20250929, -2025-08-07), a version (-001, -v1, -v1:0) or -latest. Anything else is another
 * model (gpt-5-pro is not gpt-5; claude-opus-4-9 is not claude-opus-4).
 */
const SNAPSHOT_SUFFIX = /^(-\d{8}|-\d{4}-\d{2}-\d{2}|-\d{3}|-v\d+(:\d+)?|-latest)?$/;

/** Whether a model id is `name` itself or `name` with a snapshot suffix (never a longer name). */
export function isModelOrSnapshot(id: string, name: string): boolean {
  const n = name.toLowerCase();
  return id.startsWith(n) && SNAPSHOT_SUFFIX.test(id.slice(n.length));
}

/** The bare model id: lower case, without a provider or models/ prefix. */
export function modelId(model: string): string {
  return model.toLowerCase().split('/').pop()!.trim();
}

/**
 * The table's entry for a model: the longest `match` it is (with a snapshot suffix at most), else
 * a documented alias it is exactly, else the first `pattern` it fits; undefined when the table does not know it.
 */
export function lookupModel(model: string | undefined, table: ModelTable = MODEL_TABLE): ModelFamily | undefined {
  if (!model) return undefined;
  const id = modelId(model);
  const exact = table.families
    .filter((f) => f.match && isModelOrSnapshot(id, f.match))
    .sort((a, b) => b.match!.length - a.match!.length)[0];
  return (
    exact ??
    table.families.find((f) => f.aliases?.some((a) => a.toLowerCase() === id)) ??
    table.families.find((f) => f.pattern && new RegExp(f.pattern).test(id))
  );
}

/** The family's display name: its id or its pattern's name. */
export function familyName(f: ModelFamily): string {
  return f.match ?? f.name ?? f.pattern ?? '?';
}

/** Whole days from an entry's `checked` date to `now`. */
export function entryAgeDays(f: ModelFamily, now = new Date()): number {
  return Math.floor((now.getTime() - Date.parse(`${f.checked}T00:00:00Z`)) / 86_400_000);
}

/**
 * What the preflight says of a model: not in the table, or its entry older than 90 days (prices
 * and parameters change), else nothing. A warning: a model the table does not know can still be used.
 */
export function modelTableWarning(
  model: string | undefined,
  now = new Date(),
  table: ModelTable = MODEL_TABLE,
): string | undefined {
  if (!model) return undefined;
  const f = lookupModel(model, table);
  if (!f)
    return `model ${model} is not in the model table (agents/core/models.json, dated ${table.asOf}): its price, sampling and thinking settings are unknown; add it (a config's \`models:\` entry, docs/first-real-run.md) or a \`prices:\` entry`;
  const age = entryAgeDays(f, now);
  if (age > MODEL_ENTRY_MAX_AGE_DAYS)
    return `the model table's entry for ${model} (${familyName(f)}) was checked ${f.checked}, ${age} days ago: check its price and parameters against ${f.source.split(';')[0]}`;
  return undefined;
}
