// CliAgent: a CLI coding agent (Claude Code, Codex, Gemini CLI, Qwen Code) run headless in an
// agent container (sandbox/agent-container.ts) with the round workspace mounted. It reaches its
// LLM endpoint only through the orchestrator's egress proxy, which adds the key on the host. After
// each run the orchestrator checks the bot as the arena will; a failed check is retried with the
// reason (3 attempts, as the paper does), then what exists is returned and the build fails.
import fs from 'node:fs';
import path from 'node:path';
import { agentRuntimeTag } from '../../docker/image-tags.ts';
import { checkDocker, imageId } from '../../docker/build-images.ts';
import { AgentContainer, HOME_MOUNT, WORKSPACE_MOUNT, type ExecResult } from '../../sandbox/agent-container.ts';
import { startEgressProxy, type EgressProxy } from '../../sandbox/egress-proxy.ts';
import { modelTableCheck, probeEndpoint, type EndpointApi, type PreflightCheck } from '../core/preflight.ts';
import type { ModelTable } from '../core/models.ts';
import { redactSecrets } from '../builtin/models.ts';
import { cliAgentId } from '../core/agent-id.ts';
import { classifyLlmError, FAILURE_WORDS, FINAL_REASONS, type BuildFailure } from '../core/failure.ts';
import { linesOfCode } from '../core/lines-of-code.ts';
import { oneLine } from '../core/one-line.ts';
import { addTokens, tokenWords, type TokenCounts } from '../core/prices.ts';
import { runnableBot } from '../core/runnable.ts';
import { egressMeter, MODEL_CALL } from '../core/run-budget.ts';
import {
  egressPacer,
  gateOpensAt,
  newWaitLedger,
  type PatienceContext,
  type RateLimitOptions,
  type WaitLedger,
} from '../core/rate-limits.ts';
import type { Agent, DevelopBudget, DevelopResult, Workspace } from '../core/types.ts';
import { cliOutputFile } from '../../records/agent-activity.ts';
import {
  CLIS,
  resolveEndpoint,
  shellQuote,
  type CliDefinition,
  type CliName,
  type CliReport,
  type ResolvedEndpoint,
} from './clis.ts';

export interface CliAgentOptions {
  cli: CliName;
  /** The model name the CLI passes to its endpoint; default: the CLI's own default. */
  model?: string;
  /** Agent id (folder and strategy names); default: the CLI's name, or the model's. */
  id?: string;
  /** Attempts before giving up (default 3). */
  attempts?: number;
  /** Turn limit passed to CLIs that take one (Claude Code, Qwen Code; default 40). */
  maxTurns?: number;
  /** Image with the CLIs (default: the one `npm run images:agents` builds). */
  image?: string;
  /** Let the CLI use its (provider-side) web tools; off by default (config webTools). */
  webTools?: boolean;
  /** Where keys and base URLs are read from (default process.env). */
  env?: Record<string, string | undefined>;
  /** Patience with the endpoint's rate limits, shared with every development to it (agents/core/rate-limits.ts). */
  rateLimits?: RateLimitOptions;
  /** The run's model table (its config's `models:` over the shipped one), for the preflight's check. */
  modelTable?: ModelTable;
}

export const CLI_AGENT_DEFAULTS = { attempts: 3, maxTurns: 40 } as const;

/** The API family each CLI speaks (for the preflight's model-list request). */
const CLI_API: Record<CliName, EndpointApi> = {
  'claude-code': 'anthropic',
  codex: 'openai',
  'gemini-cli': 'google',
  'qwen-code': 'openai',
};

/**
 * Each CLI's documented model aliases: names the CLI resolves to a model itself, which no model
 * list holds. Claude Code: default, sonnet, opus, haiku, sonnet[1m], opusplan (code.claude.com
 * docs "Model configuration", model aliases table) and the newer best and opus[1m] (docs.rs
 * claude-codes ClaudeModel, "a model selector accepted by claude --model"); Gemini CLI: auto, pro, flash, flash-lite, auto-gemini-3,
 * auto-gemini-2.5 (gemini-cli packages/core/src/config/models.ts GEMINI_MODEL_ALIAS_*).
 */
export const CLI_MODEL_ALIASES: Partial<Record<CliName, readonly string[]>> = {
  'claude-code': ['default', 'sonnet', 'opus', 'haiku', 'best', 'opusplan', 'sonnet[1m]', 'opus[1m]'],
  'gemini-cli': ['auto', 'pro', 'flash', 'flash-lite', 'auto-gemini-3', 'auto-gemini-2.5'],
};

/** One development's state, shared by its steps (CliAgent.develop). */
interface CliRun {
  ws: Workspace;
  budget: DevelopBudget;
  t0: number;
  deadline: number;
  tokens: TokenCounts;
  reportedCostUsd: number;
  toolCalls: number;
  log: string[];
  authHeaders: Record<string, string>;
  waits: WaitLedger;
  patience: PatienceContext;
  container: AgentContainer;
  success: boolean;
  failure?: string;
  reason?: BuildFailure;
  attempts: number;
  contextRetried: boolean;
}

type RefusedCalls = ReturnType<typeof refusedModelCalls>;

/** The egress proxy's counts in the log: requests let through to the endpoint, and those refused. */
function logEgress(run: CliRun): void {
  const { container } = run;
  const { allowed, denied } = container.egress?.counts() ?? { allowed: 0, denied: 0 };
  const refused = [
    ...new Set(container.egress?.events.filter((e) => !e.allowed).map((e) => `${e.method} ${e.target}`) ?? []),
  ].slice(0, 5);
  run.log.push(
    '',
    `egress: ${allowed} requests to the endpoint, ${denied} refused${refused.length ? ` (${refused.join(', ')})` : ''}`,
  );
}

export class CliAgent implements Agent {
  readonly id: string;
  readonly kind: string;
  private readonly cli: CliDefinition;
  private readonly endpoint: ResolvedEndpoint;
  private readonly env: Record<string, string | undefined>;
  private readonly model: string | undefined;
  private readonly attempts: number;
  private readonly maxTurns: number;
  private readonly image: string | undefined;
  private readonly webTools: boolean;
  private readonly rateLimits: RateLimitOptions;
  private readonly modelTable: ModelTable | undefined;

  /** Throws at once on a missing key or model, naming what to set. */
  constructor(o: CliAgentOptions) {
    this.cli = CLIS[o.cli];
    this.env = o.env ?? process.env;
    this.endpoint = resolveEndpoint(this.cli, this.env);
    if (this.cli.modelRequired && !o.model)
      throw new Error(`${o.cli} needs a model: ${o.cli}:<model> (the name its endpoint serves)`);
    this.model = o.model;
    this.id = o.id ?? cliAgentId(o.cli, o.model);
    this.kind = `cli:${o.cli}${o.model ? `/${o.model}` : ''}`;
    this.attempts = o.attempts ?? CLI_AGENT_DEFAULTS.attempts;
    this.maxTurns = o.maxTurns ?? CLI_AGENT_DEFAULTS.maxTurns;
    this.image = o.image;
    this.webTools = o.webTools ?? false;
    this.rateLimits = o.rateLimits ?? {};
    this.modelTable = o.modelTable;
  }

  private redact = (text: string) => redactSecrets(text, this.env).split(this.endpoint.key).join('***');

  /** Docker up, the agent image there, and the endpoint answering through an egress proxy that adds the key. */
  async preflight(): Promise<PreflightCheck[]> {
    const checks: PreflightCheck[] = [{ check: 'API key', ok: true, detail: `${this.endpoint.keyVar} is set` }];
    // With no model named a CLI picks its own default, which can be its most expensive (Claude Code
    // asks for the newest Opus with the 1M-context beta): say so before the run spends anything.
    if (!this.model)
      checks.push({
        check: 'model',
        ok: true,
        warn: true,
        detail: `no model named: ${this.cli.name} picks its own default (possibly its most expensive); name one: ${this.cli.name}:<model>`,
      });
    // A CLI's alias (sonnet, auto) is its own name for a model: only full ids are looked up.
    const alias = this.model !== undefined && (CLI_MODEL_ALIASES[this.cli.name] ?? []).includes(this.model);
    if (this.model && !alias) checks.push(...modelTableCheck(this.model, undefined, this.modelTable));
    const docker = await checkDocker().then(
      (version) => ({ ok: true, detail: `Docker ${version}` }),
      (err: Error) => ({ ok: false, detail: err.message }),
    );
    checks.push({ check: 'Docker', ...docker });
    const image = this.image ?? agentRuntimeTag();
    const id = docker.ok ? await imageId(image) : undefined;
    checks.push({
      check: 'agent image',
      ok: Boolean(id),
      detail: id ? image : `${image} is missing: build it with "npm run images:agents"`,
    });
    const proxy = await startEgressProxy({
      allow: [],
      upstream: { url: this.endpoint.upstream, headers: this.cli.authHeaders(this.endpoint.key) },
      listen: { port: 0 },
    });
    try {
      const probe = await probeEndpoint({
        api: CLI_API[this.cli.name],
        baseUrl: `${proxy.address}${new URL(this.endpoint.upstream).pathname.replace(/\/+$/, '')}`,
        ...(this.model && !alias ? { model: this.model } : {}),
      });
      const aliasNote = alias
        ? `; ${this.model} is a ${this.cli.name} alias: the CLI picks the model it stands for`
        : '';
      checks.push({
        check: 'endpoint (via the egress proxy)',
        ok: probe.ok,
        ...(probe.warn ? { warn: true } : {}),
        detail: `${this.endpoint.upstream}: ${this.redact(probe.detail.replace(proxy.address, ''))}${probe.ok ? aliasNote : ''}`,
      });
    } finally {
      await proxy.close();
    }
    return checks;
  }

  async develop(ws: Workspace, budget: DevelopBudget): Promise<DevelopResult> {
    const run = await this.startDevelopment(ws, budget);
    try {
      await this.runAttempts(run);
    } finally {
      logEgress(run);
      await run.container.close();
    }
    return this.developResult(run);
  }

  /** A development's state before its first attempt, with its agent container started behind the egress proxy. */
  private async startDevelopment(ws: Workspace, budget: DevelopBudget): Promise<CliRun> {
    const t0 = Date.now();
    const deadline = t0 + budget.wallMs - Math.min(10_000, Math.floor(budget.wallMs * 0.05));
    const log: string[] = [
      `${ws.agentId || this.id} (${this.kind}), ${ws.game}/${ws.variant}, round ${ws.round}`,
      `endpoint ${this.endpoint.upstream} (key from ${this.endpoint.keyVar}, added by the egress proxy), budget ${Math.round(budget.wallMs / 1000)} s, ${this.attempts} attempts`,
    ];
    const gamePort = ws.gameServerUrl ? Number(new URL(ws.gameServerUrl).port) : undefined;
    const authHeaders = this.cli.authHeaders(this.endpoint.key);
    const waits = newWaitLedger((line) => log.push(`- rate limit: ${line}`));
    const patience = { deadline, ledger: waits, options: this.rateLimits };
    const container = await AgentContainer.start({
      image: this.image ?? agentRuntimeTag(),
      workspace: ws.dir,
      name: `${ws.agentId || this.id}-r${ws.round}`,
      egress: {
        upstream: this.endpoint.upstream,
        headers: authHeaders,
        // The run's budget: every model call is admitted (or refused, 402) and charged at the proxy.
        ...(budget.spend ? { meter: egressMeter(budget.spend) } : {}),
        // Rate limits: the endpoint's requests wait at the proxy while it refuses, shared per provider and key.
        pacer: egressPacer(this.endpoint.upstream, authHeaders, patience),
        // The run's recording (or a rerun's replay) of every exchange with the endpoint.
        ...(budget.exchanges ? { tap: budget.exchanges } : {}),
      },
      ...(gamePort ? { hostPorts: { [gamePort]: gamePort } } : {}),
    });
    const tokens: TokenCounts = { input: 0, output: 0 };
    return {
      ws,
      budget,
      t0,
      deadline,
      tokens,
      reportedCostUsd: 0,
      toolCalls: 0,
      log,
      authHeaders,
      waits,
      patience,
      container,
      success: false,
      attempts: 0,
      contextRetried: false,
    };
  }

  /** The attempts, until one leaves a runnable bot or a budget or a final failure stops them. */
  private async runAttempts(run: CliRun): Promise<void> {
    const { budget, log } = run;
    for (let i = 0; i < this.attempts; i++) {
      if (i > 0) await this.waitForEndpoint(run.authHeaders, run.patience);
      if (budget.spend?.stopped) {
        log.push('', `stopped: ${budget.spend.stopped}`);
        run.reason = { reason: 'budget', detail: budget.spend.stopped };
        break;
      }
      const left = run.deadline - Date.now();
      if (left < 5_000) {
        log.push('', 'wall-clock budget exhausted: no further attempt');
        run.reason = { reason: 'budget', detail: 'wall-clock budget exhausted' };
        break;
      }
      run.attempts++;
      const { exec, report, refused } = await this.runCli(run, i, left);
      if (!(await this.judgeAttempt(run, i, exec, report, refused))) break;
    }
  }

  /** One attempt: the CLI run headless in the container, its output kept and parsed, its counts added. */
  private async runCli(
    run: CliRun,
    i: number,
    left: number,
  ): Promise<{ exec: ExecResult; report: CliReport; refused: RefusedCalls }> {
    const { ws, budget, log, container } = run;
    const invocation = {
      prompt: cliPrompt(ws, i, this.attempts, run.failure, run.reason?.reason === 'context_length'),
      model: this.model,
      maxTurns: this.maxTurns,
      baseUrl: container.egressBaseUrl!,
      home: HOME_MOUNT,
      workspace: WORKSPACE_MOUNT,
      webTools: this.webTools,
      ...(this.modelTable ? { modelTable: this.modelTable } : {}),
    };
    log.push('', `## attempt ${i + 1}/${this.attempts}: ${this.cli.command} (headless, JSON output)`);
    const command = `${this.cli.prepare ? `${this.cli.prepare(invocation)} && ` : ''}exec ${shellQuote(this.cli.argv(invocation))}`;
    // A refused key or an empty account is final: the attempt stops at the endpoint's first such
    // answer, where a CLI would retry it itself for minutes (Claude Code: 11 tries in 187 s).
    const refused = refusedModelCalls(container.egress);
    // The output is the CLI's event stream, tool results included: room for a long session.
    const exec = await container
      .exec(command, {
        timeoutMs: left,
        env: this.cli.env(invocation),
        outputCapBytes: 16 * 1024 * 1024,
        // Stopped at the endpoint's final refusal, or once the run's spend reached its budget.
        signal: budget.spend ? AbortSignal.any([refused.signal, budget.spend.signal]) : refused.signal,
      })
      .finally(refused.stop);
    fs.writeFileSync(
      path.join(ws.dir, cliOutputFile(i + 1)),
      this.redact(`${exec.stdout}\n--- stderr ---\n${exec.stderr}`),
    );
    const report: CliReport = this.cli.parse(exec.stdout, exec.stderr);
    if (refused.reason)
      report.error = `the endpoint answered a model call with HTTP ${refused.status}${refused.said ? `: ${oneLine(refused.said, 200)}` : ''} (${FAILURE_WORDS[refused.reason]}); the attempt was stopped there${report.error ? `; the CLI had reported: ${report.error}` : ''}`;
    if (report.tokens) addTokens(run.tokens, report.tokens);
    if (report.costUsd) run.reportedCostUsd += report.costUsd;
    run.toolCalls += report.toolCalls ?? report.turns ?? 0;
    log.push(
      `${exec.timedOut ? 'timed out' : `exit code ${exec.exitCode}`} after ${Math.round(exec.durationMs / 1000)} s; ` +
        `${report.tokens ? tokenWords(report.tokens) : 'no token counts reported'}` +
        `${report.turns !== undefined ? `, ${report.turns} turns` : ''}${report.toolCalls !== undefined ? `, ${report.toolCalls} tool calls` : ''}` +
        `${report.costUsd ? `, $${report.costUsd.toFixed(4)} reported` : ''}`,
    );
    if (report.summary) log.push(`- says: ${oneLine(this.redact(report.summary))}`);
    if (report.error) log.push(`- reported error: ${oneLine(this.redact(report.error))}`);
    if (exec.exitCode !== 0 && exec.stderr.trim())
      log.push(`- stderr: ${oneLine(this.redact(exec.stderr.trim().split('\n').slice(-3).join(' / ')))}`);
    return { exec, report, refused };
  }

  /**
   * An attempt's verdict from the bot it left: true when it failed and another may follow, false
   * when it succeeded, the run's budget was reached or the failure is final (run.success, run.failure
   * and run.reason say which).
   */
  private async judgeAttempt(
    run: CliRun,
    i: number,
    exec: ExecResult,
    report: CliReport,
    refused: RefusedCalls,
  ): Promise<boolean> {
    const { budget, log } = run;
    const verdict = await runnableBot(run.ws);
    if (budget.spend?.stopped) {
      log.push(`stopped: ${budget.spend.stopped}`);
      run.reason = { reason: 'budget', detail: budget.spend.stopped };
      run.failure = budget.spend.stopped;
      run.success = verdict.ok;
      return false;
    }
    if (verdict.ok) {
      run.success = true;
      log.push(`attempt ${i + 1} succeeded: ${verdict.why}`);
      return false;
    }
    run.failure = verdict.why + (report.error ? ` (the agent reported: ${oneLine(report.error, 200)})` : '');
    const reason: BuildFailure = {
      reason: refused.reason ?? attemptReason(report, exec.timedOut, verdict.reason),
      detail: this.redact(oneLine(report.error ?? verdict.why, 300)),
    };
    run.reason = reason;
    log.push(`attempt ${i + 1} failed: ${run.failure} [${reason.reason}]`);
    // A session that outgrew the model's context gets one more, fresh, told to read in parts.
    if (reason.reason === 'context_length' && !run.contextRetried && i + 1 < this.attempts) {
      run.contextRetried = true;
      log.push("the session outgrew the model's context: one more attempt, a fresh session told to read in parts");
      return true;
    }
    // A refused key, an empty account or a prompt beyond the context fail the same way again.
    if (FINAL_REASONS.has(reason.reason) && i + 1 < this.attempts) {
      log.push(
        `no further attempt: ${reason.reason} does not change between attempts (stopped after ${Math.round((Date.now() - run.t0) / 1000)} s)`,
      );
      return false;
    }
    return true;
  }

  /** The development's result: the bot folder, its cost, the log, and why it failed if it did. */
  private async developResult(run: CliRun): Promise<DevelopResult> {
    const { ws, log, tokens, toolCalls, reportedCostUsd, waits, success, failure, reason, attempts } = run;
    if (!success)
      log.push(
        '',
        `gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}: no runnable bot${failure ? ` (last failure: ${failure})` : ''}; returning what exists`,
      );
    const cost = {
      wallMs: Date.now() - run.t0,
      toolCalls,
      tokens,
      linesOfCode: await linesOfCode(ws.outputDir),
      ...(reportedCostUsd ? { reportedCostUsd } : {}),
      ...(waits.ms > 0 ? { rateLimitWaitMs: Math.round(waits.ms) } : {}),
    };
    log.push(
      '',
      `cost: ${tokenWords(tokens)}, ${toolCalls} tool calls, ${Math.round(cost.wallMs / 1000)} s, ${cost.linesOfCode} lines of code`,
    );
    const gaveUp = success
      ? undefined
      : (reason ?? { reason: 'agent_error' as const, detail: failure ?? 'no attempt was made' });
    return { botDir: ws.outputDir, cost, log: this.redact(log.join('\n')), ...(gaveUp ? { failure: gaveUp } : {}) };
  }

  /** Before another attempt: while the endpoint is still refusing (a rate limit), wait until it takes requests, within the deadline. */
  private async waitForEndpoint(authHeaders: Record<string, string>, patience: PatienceContext): Promise<void> {
    const opensAt = gateOpensAt(this.endpoint.upstream, authHeaders);
    const ms = opensAt - Date.now();
    if (ms <= 0 || opensAt > patience.deadline - 5_000) return;
    patience.ledger.note(`waiting ${(ms / 1000).toFixed(1)} s before the next attempt: the endpoint is rate-limiting`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    patience.ledger.ms += ms;
  }
}

/**
 * Watches the egress proxy for the endpoint refusing a model call for good: an answer the shared
 * classifier calls final from its status and body (auth: 401, 403, Google's "API key not valid";
 * billing: 402, a 429 insufficient_quota; context_length). Other paths of the endpoint's origin
 * (a side call a CLI might make) do not count.
 */
function refusedModelCalls(egress: EgressProxy | undefined): {
  signal: AbortSignal;
  status?: number;
  said?: string;
  reason?: BuildFailure['reason'];
  stop: () => void;
} {
  const abort = new AbortController();
  const out: {
    signal: AbortSignal;
    status?: number;
    said?: string;
    reason?: BuildFailure['reason'];
    stop: () => void;
  } = { signal: abort.signal, stop: () => {} };
  if (!egress) return out;
  out.stop = egress.onUpstreamAnswer((e) => {
    const reason = e.status === undefined ? null : classifyLlmError(e.errorText ?? '', e.status);
    if (reason && FINAL_REASONS.has(reason) && MODEL_CALL.test(e.target) && !abort.signal.aborted) {
      [out.status, out.said, out.reason] = [e.status, e.errorText, reason];
      abort.abort();
    }
  });
  return out;
}

/**
 * Why a CLI attempt left no working bot: the LLM error the CLI reported (a wrong key, a rate
 * limit, a broken stream, a prompt too long), its turn limit or the time budget, else what the
 * check found (no bot, or one that failed).
 */
function attemptReason(report: CliReport, timedOut: boolean, found: BuildFailure['reason']): BuildFailure['reason'] {
  if (timedOut) return 'budget';
  if (report.error) {
    if (/max[_ -]?turns|turn limit|session turns/i.test(report.error)) return 'budget';
    return classifyLlmError(report.error) ?? (found === 'no_bot' ? 'agent_error' : found);
  }
  return found;
}

/** The task for a CLI agent: the round's task, where things are in the container, and the retry reason. */
export function cliPrompt(
  ws: Workspace,
  index: number,
  total: number,
  failure: string | undefined,
  outgrewContext = false,
): string {
  const out = `${WORKSPACE_MOUNT}/${path.relative(ws.dir, ws.outputDir)}`;
  const lines = [
    ws.task.trimEnd(),
    '',
    '## Where you are',
    `Your workspace is ${WORKSPACE_MOUNT} (TASK.md, the environment, and from round 2 last_round/ and logs/). Write the bot into ${out}/: start_ai.sh and its code.`,
    'You have no internet access. Test the bot yourself: start it with `bash start_ai.sh <port>` in the background, check /health with curl, and send it a request from the protocol.',
    'When you stop, the orchestrator starts your bot and plays test positions against it; a bot that fails is a failed build.',
  ];
  if (index > 0) {
    lines.push(
      '',
      `## Attempt ${index + 1} of ${total}`,
      `The previous attempt did not produce a runnable bot: ${failure ?? 'unknown reason'}. What it wrote is still in ${out}/: fix it or start over.`,
    );
  }
  if (outgrewContext)
    lines.push(
      "The previous session outgrew the model's context. Read large files in parts (head, sed -n, grep) rather than whole, keep command output short, and do not print logs or replays in full.",
    );
  return lines.join('\n');
}
