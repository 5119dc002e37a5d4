// Offline agent specs: offline:<character> or offline:<character>#<n> (a second agent of the
// same character with its own seed; id <character>-<n>).
import { deriveSeed } from '../../util/rng.ts';
import { CHARACTER_NAMES } from './core/learning.ts';
import { OfflineAgent } from './offline-agent.ts';
import { offlineAgentId } from '../core/agent-id.ts';

export { OfflineAgent } from './offline-agent.ts';
export const OFFLINE_CHARACTERS: readonly string[] = CHARACTER_NAMES;

export function createOfflineAgent(spec: string, seed: number): OfflineAgent {
  const m = /^offline:([^#\s]+)(?:#(\d+))?$/.exec(spec.trim());
  if (!m)
    throw new Error(
      `bad offline agent spec "${spec}": expected offline:<character> or offline:<character>#<n>, characters: ${OFFLINE_CHARACTERS.join(', ')}`,
    );
  const [, character, n] = m as unknown as [string, string, string | undefined];
  if (!OFFLINE_CHARACTERS.includes(character))
    throw new Error(
      `unknown offline character "${character}" in "${spec}"; available: ${OFFLINE_CHARACTERS.join(', ')}`,
    );
  // #n gets its own seed, so two agents of one character really differ.
  return new OfflineAgent({
    id: offlineAgentId(character, n),
    character,
    seed: n ? deriveSeed(seed, character, n) : seed,
  });
}
