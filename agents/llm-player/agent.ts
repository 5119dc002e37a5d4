// llm-player:<provider>/<model>[#id] — the paper's control: an agent that writes no strategy. Its
// bot (agents/llm-player/bot/, one games-agnostic folder) asks the model for every action, given
// the rules, the state and the legal actions, and falls back to a random legal action after 3
// failed attempts. develop() only copies that folder and writes what it needs next to it:
//   game.json          {game, variant, provider, model, baseUrl?, moveTimeoutMs}
//   rules.md           the rule set's rules, then (after a marker) the bot protocol
//   catarena-env.json  {"passEnv": [...]}: the NAMES of the variables (API key, base URL) the
//                      process sandbox copies from the orchestrator's environment into this bot;
//                      {"egress": …}: the endpoint and key header, for the Docker sandbox, whose
//                      egress proxy lets the bot reach that endpoint only and adds the key itself
//   chess-core.mjs     chess only: the legal-move generator
// The API key is never written anywhere: the bot reads it from its environment at play time.
// Development costs nothing (tokens null); play-time tokens and fallbacks are in the bot's
// GET /stats and its "[llm-player]" log lines. In the Docker sandbox the key never enters the
// container: the bot gets a placeholder and the egress proxy sends the real key.
import fs from 'node:fs/promises';
import path from 'node:path';
import { gameDescriptor } from '../../games/registry.ts';
import { copyTree, pathExists } from '../../util/fs.ts';
import { gamePath, PROJECT_ROOT } from '../../util/paths.ts';
import { linesOfCode } from '../core/lines-of-code.ts';
import {
  modelApiCheck,
  modelTableCheck,
  probeEndpoint,
  type EndpointApi,
  type PreflightCheck,
} from '../core/preflight.ts';
import type { Agent, DevelopResult, Workspace } from '../core/types.ts';
import { llmPlayerAgentId } from '../core/agent-id.ts';
import { describePlan, planModelCall } from './call-plan.ts';
import type { ModelTable } from '../core/models.ts';

export const LLM_PLAYER_BOT_DIR = path.join(PROJECT_ROOT, 'agents', 'llm-player', 'bot');

export const LLM_PLAYER_PROVIDERS = ['openai', 'openai-compatible', 'anthropic', 'google'] as const;
export type LlmPlayerProvider = (typeof LLM_PLAYER_PROVIDERS)[number];

/** The variables the bot may need, by provider (names only; copied only if set). */
/** The host's proxy settings, for a bot in the process sandbox (in Docker the egress proxy honours them). */
const PROXY_ENV = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'];

export const PASS_ENV: Record<LlmPlayerProvider, string[]> = {
  openai: ['OPENAI_API_KEY', 'CATARENA_LLM_BASE_URL', ...PROXY_ENV],
  'openai-compatible': ['OPENAI_API_KEY', 'CATARENA_LLM_BASE_URL', ...PROXY_ENV],
  anthropic: ['ANTHROPIC_API_KEY', 'CATARENA_LLM_BASE_URL', ...PROXY_ENV],
  google: ['GEMINI_API_KEY', 'GOOGLE_GENERATIVE_AI_API_KEY', 'CATARENA_LLM_BASE_URL', ...PROXY_ENV],
};

/** The bot's default endpoints (as in bot/llm.mjs; openai-compatible has none) and how each takes its key. */
const DEFAULT_BASE_URL: Partial<Record<LlmPlayerProvider, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
};
const KEY_HEADER: Record<LlmPlayerProvider, string> = {
  openai: 'authorization',
  'openai-compatible': 'authorization',
  anthropic: 'x-api-key',
  google: 'x-goog-api-key',
};

/** Separates the rules (in every prompt) from the protocol (for reference) in rules.md. */
export const PROTOCOL_MARKER = '<!-- catarena:protocol -->';

/** Sampling options the bot sends its model (bot/llm.mjs maps each to the provider's field). */
export interface LlmPlayerSampling {
  temperature?: number;
  topP?: number;
  reasoningEffort?: string;
  thinkingBudget?: number;
}
const SAMPLING_KEYS = ['temperature', 'topP', 'reasoningEffort', 'thinkingBudget'] as const;

export interface LlmPlayerOptions {
  /** Written into game.json as `sampling`. */
  sampling?: LlmPlayerSampling;
  /** Agent id (default llm-player-<model>, sanitised). */
  id?: string;
  /** Written into game.json; env CATARENA_LLM_BASE_URL overrides it at play time. Never holds a key. */
  baseUrl?: string;
  /**
   * This agent's own endpoint (a config `agents:` entry): the bot reads its key from keyEnv instead
   * of the provider's shared variables, and asks baseUrl, which CATARENA_LLM_BASE_URL does not override.
   */
  endpoint?: { keyEnv?: string; baseUrl?: string };
  /** The run's model table (its config's `models:` over the shipped one): what the model is sent. */
  modelTable?: ModelTable;
}

/** The base-URL variable of an LLM-player with its own endpoint: unset on the host, the egress proxy's URL in a container. */
export const OWN_BASE_URL_VAR = 'CATARENA_LLM_AGENT_BASE_URL';

export class LlmPlayerAgent implements Agent {
  readonly kind: string;
  /** Its bot is catarena's own and asks the model with the orchestrator's key (catarena-env.json). */
  readonly mayPassEnv = true;
  readonly id: string;

  constructor(
    readonly provider: LlmPlayerProvider,
    readonly model: string,
    private readonly options: LlmPlayerOptions = {},
  ) {
    if (!(LLM_PLAYER_PROVIDERS as readonly string[]).includes(provider)) {
      throw new Error(`llm-player: unknown provider "${provider}"; use one of ${LLM_PLAYER_PROVIDERS.join(', ')}`);
    }
    if (!model.trim()) throw new Error('llm-player: the model name is empty');
    this.kind = `llm-player:${provider}/${model}`;
    this.id = options.id ?? llmPlayerAgentId(model);
  }

  /** The variables the bot may take its key from: its own (an agents: entry's keyEnv), else the provider's. */
  private keyVars(): string[] {
    return this.options.endpoint?.keyEnv
      ? [this.options.endpoint.keyEnv]
      : PASS_ENV[this.provider].filter((n) => n.endsWith('_API_KEY'));
  }

  /** Where the bot asks, as the host sees it (its own base URL, else CATARENA_LLM_BASE_URL, game.json's, the provider's), and what set it. */
  private hostBaseUrl(): { url?: string; variable: string } {
    const own = this.options.endpoint?.baseUrl;
    if (own) return { url: own, variable: "the agents: entry's baseUrl" };
    const env = process.env.CATARENA_LLM_BASE_URL?.trim();
    if (env) return { url: env, variable: 'CATARENA_LLM_BASE_URL' };
    return { url: this.options.baseUrl || DEFAULT_BASE_URL[this.provider], variable: 'the base URL (baseUrl)' };
  }

  /**
   * Its key set, its endpoint reachable with the key accepted (checked from the host), the base URL
   * the shape its bot needs (it posts {base}/chat/completions, /messages, /models/…: a base without
   * /v1 or /v1beta fails every call), and the model on an API the bot speaks.
   */
  async preflight(): Promise<PreflightCheck[]> {
    const env = process.env;
    const keyVar = this.keyVars().find((n) => env[n]?.trim());
    const { url: baseUrl, variable } = this.hostBaseUrl();
    const checks: PreflightCheck[] = [
      {
        check: 'API key',
        ok: Boolean(keyVar) || this.provider === 'openai-compatible',
        detail: keyVar ? `${keyVar} is set` : `${this.keyVars().join(' or ')} is not set`,
      },
    ];
    if (!baseUrl)
      return [...checks, { check: 'endpoint', ok: false, detail: 'no base URL: set CATARENA_LLM_BASE_URL' }];
    const key = keyVar ? env[keyVar]!.trim() : '';
    const api: EndpointApi =
      this.provider === 'anthropic' ? 'anthropic' : this.provider === 'google' ? 'google' : 'openai';
    const header = KEY_HEADER[this.provider];
    const probe = await probeEndpoint({
      api,
      baseUrl,
      model: this.model,
      headers: key ? { [header]: header === 'authorization' ? `Bearer ${key}` : key } : {},
      exactBase: true,
      version: { segment: api === 'google' ? '/v1beta' : '/v1', variable },
    });
    const table = this.options.modelTable;
    const plan = planModelCall(this.provider, this.model, {}, table);
    return [
      ...checks,
      {
        check: 'endpoint',
        ok: probe.ok,
        ...(probe.warn ? { warn: true } : {}),
        detail: key ? probe.detail.split(key).join('***') : probe.detail,
      },
      ...modelApiCheck(
        this.model,
        plan.api === 'responses' ? 'responses' : 'chat',
        `use llm-player:openai/${this.model} (its bot speaks the Responses API for such models) or a chat model`,
        table,
      ),
      ...modelTableCheck(this.model, this.provider, table),
    ];
  }

  async develop(ws: Workspace): Promise<DevelopResult> {
    const started = Date.now();
    const out = ws.outputDir;
    await fs.mkdir(out, { recursive: true });
    await copyTree(LLM_PLAYER_BOT_DIR, out);
    // Game libraries the bot needs beside it (chess: the move generator its legal moves come from).
    for (const lib of gameDescriptor(ws.game).playerLibs ?? [])
      await fs.copyFile(gamePath(ws.game, lib), path.join(out, path.basename(lib)));
    const game: Record<string, unknown> = {
      game: ws.game,
      variant: ws.variant,
      provider: this.provider,
      model: this.model,
      moveTimeoutMs: ws.moveTimeoutMs,
    };
    const own = this.options.endpoint;
    if (own?.baseUrl || this.options.baseUrl) game.baseUrl = own?.baseUrl || this.options.baseUrl;
    if (own?.baseUrl) game.baseUrlVar = OWN_BASE_URL_VAR;
    if (own?.keyEnv) game.keyEnv = own.keyEnv;
    // What the model is sent: the run's sampling less what the model refuses, the thinking form it
    // takes and an output budget (agents/llm-player/call-plan.ts, from the model table).
    const plan = planModelCall(this.provider, this.model, this.options.sampling ?? {}, this.options.modelTable);
    if (Object.keys(plan.sampling).length) game.sampling = plan.sampling;
    if (Object.keys(plan.asked).length) game.samplingAsked = plan.asked;
    game.call = {
      api: plan.api,
      ...(plan.maxTokens ? { maxTokens: plan.maxTokens } : {}),
      ...(plan.thinking ? { thinking: plan.thinking } : {}),
    };
    game.samplingPlan = describePlan(plan);
    await fs.writeFile(path.join(out, 'game.json'), `${JSON.stringify(game, null, 2)}\n`);
    await fs.writeFile(path.join(out, 'rules.md'), await rulesText(ws));
    const keyNames = this.keyVars();
    const passEnv =
      own?.keyEnv || own?.baseUrl
        ? [...keyNames, ...(own.baseUrl ? [] : ['CATARENA_LLM_BASE_URL']), ...PROXY_ENV]
        : PASS_ENV[this.provider];
    const baseUrlVar = own?.baseUrl ? OWN_BASE_URL_VAR : 'CATARENA_LLM_BASE_URL';
    const egress = {
      baseUrlVar,
      baseUrl: own?.baseUrl || this.options.baseUrl || DEFAULT_BASE_URL[this.provider] || '',
      keyVars: keyNames,
      keyHeader: KEY_HEADER[this.provider],
    };
    await fs.writeFile(path.join(out, 'catarena-env.json'), `${JSON.stringify({ passEnv, egress }, null, 2)}\n`);
    const keySet = keyNames.some((n) => process.env[n]?.trim());
    const log = [
      `llm-player: copied the LLM-player bot for ${ws.game}/${ws.variant}; it asks ${this.provider}/${this.model} for every action`,
      '(rules, state and numbered legal actions; 3 attempts, then a random legal action). No strategy code was written.',
      `The process sandbox passes ${passEnv.join(', ')} from the orchestrator's environment (catarena-env.json); the key is in no file.`,
      'The Docker sandbox passes nothing: the bot reaches its endpoint only through the egress proxy, which adds the key.',
      keySet || this.provider === 'openai-compatible'
        ? ''
        : `WARNING: ${keyNames.join(' / ')} is not set: the bot will refuse to start.`,
      `Model call (from the model table): ${game.samplingPlan}.`,
      'Play-time tokens, LLM calls and fallbacks: GET /stats of the bot and the "[llm-player]" lines of its log.',
    ].filter(Boolean);
    return {
      botDir: out,
      cost: { wallMs: Date.now() - started, toolCalls: 0, tokens: null, linesOfCode: await linesOfCode(out) },
      log: log.join('\n'),
    };
  }
}

/** The rule set's rules (a variant that says "as in rules_standard.md" gets those first), then the protocol. */
async function rulesText(ws: Workspace): Promise<string> {
  const read = async (name: string): Promise<string> => {
    for (const dir of [ws.envDir, gamePath(ws.game, 'env')]) {
      const file = path.join(dir, name);
      if (await pathExists(file)) return (await fs.readFile(file, 'utf8')).trim();
    }
    return '';
  };
  const rules = await read(`rules_${ws.variant}.md`);
  const parts =
    ws.variant !== 'standard' && rules.includes('rules_standard.md')
      ? [await read('rules_standard.md'), rules]
      : [rules];
  const protocol = await read('develop_instruction.md');
  return `${parts.filter(Boolean).join('\n\n')}\n\n${PROTOCOL_MARKER}\n\n${protocol}\n`;
}

/**
 * llm-player:<provider>/<model>[#id][?key=value&…] → an LlmPlayerAgent; keys: temperature, topP,
 * reasoningEffort, thinkingBudget (over the run's `defaults`, config llmPlayer).
 */
export function createLlmPlayerAgent(
  spec: string,
  defaults: LlmPlayerSampling = {},
  endpoint?: LlmPlayerOptions['endpoint'],
  modelTable?: ModelTable,
): LlmPlayerAgent {
  const m = /^llm-player:([\w-]+)\/([^#?\s]+)(?:#([\w.@-]+))?(?:\?(\S*))?$/.exec(spec.trim());
  if (!m)
    throw new Error(
      `bad llm-player spec "${spec}": expected llm-player:<provider>/<model> (provider one of ${LLM_PLAYER_PROVIDERS.join(', ')}), optionally #<id> and ?temperature=…&reasoningEffort=…`,
    );
  const sampling: Record<string, string | number> = { ...defaults };
  for (const [key, value] of new URLSearchParams(m[4] ?? '')) {
    if (!(SAMPLING_KEYS as readonly string[]).includes(key))
      throw new Error(`bad llm-player spec "${spec}": unknown option "${key}"; options: ${SAMPLING_KEYS.join(', ')}`);
    const n = Number(value);
    if (key !== 'reasoningEffort' && !Number.isFinite(n))
      throw new Error(`bad llm-player spec "${spec}": ${key} must be a number`);
    sampling[key] = key === 'reasoningEffort' ? value : n;
  }
  if (endpoint?.keyEnv && !process.env[endpoint.keyEnv]?.trim())
    throw new Error(`${endpoint.keyEnv} is not set: the agent ${spec} reads its key from it (its agents: entry)`);
  return new LlmPlayerAgent(m[1] as LlmPlayerProvider, m[2]!, {
    id: m[3],
    sampling,
    ...(endpoint?.keyEnv || endpoint?.baseUrl ? { endpoint } : {}),
    ...(modelTable ? { modelTable } : {}),
  });
}
