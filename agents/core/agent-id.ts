// An agent's id from its spec alone (the syntax of agents/registry.ts), without building the
// agent: reports learn W's row order from the config without loading the agents' SDKs. The
// agents take their default ids from here too, so the two cannot drift apart.
import path from 'node:path';

/** A model name as a folder- and id-safe slug: `gpt-4o-mini`, `claude-sonnet-4-5`; empty when nothing is left. */
export function modelSlug(model: string): string {
  return model
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
}

/** offline:<character>#<n> → <character>-<n>. */
export const offlineAgentId = (character: string, n: string | undefined) => (n ? `${character}-${n}` : character);

/** dir:<path> without #id → the folder's name. */
export const dirAgentId = (dir: string) => path.basename(path.resolve(dir)).replace(/[^\w.@-]+/g, '_') || 'dir';

/** builtin:<provider>/<model> without #id → the model's last path part: `openai/gpt-4o-mini` → `gpt-4o-mini`. */
export const builtinAgentId = (modelSpec: string) =>
  modelSlug(
    modelSpec
      .slice(modelSpec.indexOf('/') + 1)
      .split('/')
      .pop()!,
  ) || 'builtin';

/** llm-player:<provider>/<model> without #id. */
export const llmPlayerAgentId = (model: string) => `llm-player-${model.replace(/[^\w.@-]+/g, '_')}`;

/** <cli>[:<model>] without #id → the model's slug, else the CLI's name. */
export const cliAgentId = (cli: string, model: string | undefined) => (model ? modelSlug(model) || cli : cli);

/** The id createAgent(spec) gives its agent; throws on a spec of no known shape. */
export function agentIdOf(spec: string): string {
  const s = spec.trim();
  const kind = s.split(/[:#]/)[0]!;
  const shapes: Record<string, [RegExp, (m: RegExpExecArray) => string]> = {
    offline: [/^offline:([^#\s]+)(?:#(\d+))?$/, (m) => offlineAgentId(m[1]!, m[2])],
    dir: [/^dir:([^#]+)(?:#([\w.@-]+))?$/, (m) => m[2] ?? dirAgentId(m[1]!)],
    builtin: [/^builtin:([^~#\s]+)(?:~([^#\s]+))?(?:#([\w.@-]+))?$/, (m) => m[3] ?? builtinAgentId(m[1]!)],
    'llm-player': [
      /^llm-player:([\w-]+)\/([^#?\s]+)(?:#([\w.@-]+))?(?:\?(\S*))?$/,
      (m) => m[3] ?? llmPlayerAgentId(m[2]!),
    ],
  };
  const [pattern, id] = shapes[kind] ?? [
    /^([a-z-]+)(?::([^#\s]+))?(?:#([\w.@-]+))?$/,
    (m: RegExpExecArray) => m[3] ?? cliAgentId(m[1]!, m[2]),
  ];
  const m = pattern.exec(s);
  if (!m) throw new Error(`bad agent spec "${spec}"`);
  return id(m);
}
