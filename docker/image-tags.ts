// The tags of catarena's images, from their recipes alone (no Docker, no builder): a tag is the
// image name and a hash of the recipe's canonical JSON, so the sandbox can name the image it
// needs without loading the image builder (docker/build-images.ts, docker/build-agent-image.ts).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../util/paths.ts';

export const BOT_RECIPE_PATH = path.join(PROJECT_ROOT, 'docker', 'bot-runtime', 'recipe.json');
export const AGENT_RECIPE_PATH = path.join(PROJECT_ROOT, 'docker', 'agent-runtime', 'recipe.json');

/** JSON with object keys sorted at every level and no whitespace: the content the hash covers. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const shortHash = (value: unknown) =>
  crypto.createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 12);

/** A recipe file's JSON; errors name the file. */
export function readRecipe(file: string): Record<string, unknown> & { image: string } {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read recipe ${file}: ${(err as Error).message}`);
  }
}

/** The bot image's tag, e.g. "catarena/bot-runtime:3f2a9c0d1e4b". Builds nothing. */
export function botRuntimeTag(options: { recipePath?: string } = {}): string {
  const recipe = readRecipe(options.recipePath ?? BOT_RECIPE_PATH);
  return `${recipe.image}:${shortHash(recipe)}`;
}

/** The agent image's tag: its recipe, the bot image it is built on and the Node version copied in all count. */
export function agentRuntimeTag(
  recipe: Record<string, unknown> & { image: string } = readRecipe(AGENT_RECIPE_PATH),
): string {
  return `${recipe.image}:${shortHash({ recipe, base: botRuntimeTag(), node: process.version })}`;
}
