// Which sandbox a run's bots get. `process` (the default) isolates each bot with bubblewrap; where
// this machine cannot, only catarena's own bots (reference bots, offline agents' and the
// LLM-player's) may run unsandboxed, with a warning; bots written by LLM or CLI agents (or given
// as folders) need bubblewrap, --sandbox docker, or an explicit --sandbox unsafe.
import path from 'node:path';
import { createSandbox, noIsolationMessage, processSandboxVerdict, type SandboxOptions } from '../../sandbox/index.ts';
import type { Sandbox } from '../../sandbox/types.ts';
import { agentKindOf, agentKindOfSpec } from '../../agents/kinds.ts';
import { GAMES_DIR } from '../../util/paths.ts';

/** Agent kinds (or specs) whose bots catarena wrote itself (agents/kinds.ts catarenasOwnBots: offline characters and the LLM-player). */
export function writesCatarenasOwnBots(agentKindOrSpec: string): boolean {
  return (agentKindOf(agentKindOrSpec.trim()) ?? agentKindOfSpec(agentKindOrSpec))?.catarenasOwnBots ?? false;
}

/** A bot folder that is one of catarena's reference bots (games/<game>/bots/…). */
export function isReferenceBot(dir: string): boolean {
  // The project's games folder (util/paths.ts), not one relative to this file: compiled into
  // .build/, that was .build/games, and the CLI took no reference bot for catarena's own.
  const rel = path.relative(GAMES_DIR, path.resolve(dir));
  return !rel.startsWith('..') && !path.isAbsolute(rel) && rel.split(path.sep)[1] === 'bots';
}

/**
 * The sandbox for bots written by `authors` (agent kinds or specs) or found in `dirs`; throws with
 * what to do when `process` cannot isolate and any of them is not catarena's own.
 */
export function sandboxForBots(
  kind: string,
  bots: { authors?: string[]; dirs?: string[] },
  options: SandboxOptions = {},
): Sandbox {
  const trusted =
    (bots.authors ?? []).every(writesCatarenasOwnBots) && (bots.dirs ?? []).every((d) => isReferenceBot(d));
  return createSandbox(kind, { ...options, trustedBotsOnly: trusted });
}

/** What an agent's bots will run in, in words, for `catarena doctor`; ok false when they will not start. */
export function sandboxVerdict(
  kind: string,
  agentSpec: string,
  bwrap?: string,
): { ok: boolean; warn?: boolean; detail: string } {
  if (kind === 'docker') return { ok: true, detail: 'docker: a container per bot, no network (see the Docker checks)' };
  if (kind === 'unsafe')
    return { ok: true, warn: true, detail: 'unsafe (--sandbox unsafe): plain processes, NOT isolated' };
  const verdict = processSandboxVerdict(bwrap);
  if (verdict.isolated) return { ok: true, detail: `process: isolated by ${verdict.detail}` };
  if (writesCatarenasOwnBots(agentSpec))
    return { ok: true, warn: true, detail: `unsafe: catarena's own bots run unsandboxed here (${verdict.detail})` };
  return { ok: false, detail: noIsolationMessage(verdict.detail) };
}
