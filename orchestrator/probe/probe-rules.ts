// The probe rules of a game: its descriptor's `probe`, else the default (games/core/probe.ts).
import { DEFAULT_PROBE_RULES, type ProbeRules } from '../../games/core/probe.ts';
import { gameDescriptor } from '../../games/registry.ts';

export type { ProbeRules } from '../../games/core/probe.ts';

export function probeRulesFor(game: string): ProbeRules {
  return gameDescriptor(game).probe ?? DEFAULT_PROBE_RULES;
}
