// How much of an LLM-player's play was its model's: every decision its bot makes is logged as
// "[llm-player] answered …" (the model's answer was played) or "[llm-player] fallback …" (a random
// legal action after failed calls or answers; agents/llm-player/bot/bot.mjs). A run whose
// LLM-player fell back on most moves ranks a random player under the model's name: the report and
// the end of the run say so (above FALLBACK_ALARM_SHARE), as they do for an agent whose every
// build failed. Forced moves (one legal action) ask nothing and are not counted.
import fs from 'node:fs/promises';
import path from 'node:path';
import { addTokens, estimateCostUsd, priceOf, type ModelPrice, type TokenCounts } from '../agents/core/prices.ts';
import { MODEL_TABLE, type ModelTable } from '../agents/core/models.ts';
import type { StrategyRecord, TrackSummary } from '../records/tourney.ts';
import { agentKindOf, modelOfKind } from '../agents/kinds.ts';

export interface LlmPlayerUse {
  /** Decisions the model was asked for. */
  decisions: number;
  /** Of those, played as a random legal action. */
  fallbacks: number;
  /**
   * Play-time tokens by the round of the strategy whose bot spent them (the decision lines'
   * tokens={...}), and their estimated dollars (null when the model has no price).
   */
  play?: Record<string, { tokens: TokenCounts; costUsd: number | null }>;
  /** A bot log was cut at the sandbox's cap: decisions and tokens are at least these. */
  truncated?: boolean;
  /** What its model was sent and what the run asked for (the bot's "[llm-player] sampling" line, from the model table). */
  sampling?: string;
  /** Decisions whose request the provider refused as invalid (400, 404: not asked again). */
  refused?: number;
}

/** Above this share of fallbacks an LLM-player's scores are called out (10%). */
export const FALLBACK_ALARM_SHARE = 0.1;

/** Per LLM-player agent, its bots' decisions and fallbacks in one track, from the track's bot logs (`<strategy id>.log`, `<id>#n.log`). */
export async function llmPlayerUse(
  botLogsDir: string,
  strategies: Array<Pick<StrategyRecord, 'id' | 'agent' | 'agentKind' | 'round'>>,
  prices: Record<string, ModelPrice> = {},
  /** The run's model table (its config's `models:` over the shipped one). */
  table: ModelTable = MODEL_TABLE,
): Promise<Record<string, LlmPlayerUse>> {
  const players = strategies.filter((s) => agentKindOf(s.agentKind)?.playCallsModel);
  if (!players.length) return {};
  const files = await fs.readdir(botLogsDir).catch(() => [] as string[]);
  const out: Record<string, LlmPlayerUse> = {};
  for (const s of players) {
    const base = s.id.replace(/[^\w.@-]+/g, '_');
    const use = (out[s.agent] ??= { decisions: 0, fallbacks: 0 });
    const tokens: TokenCounts = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
    for (const file of files.filter((f) => f === `${base}.log` || (f.startsWith(`${base}#`) && f.endsWith('.log')))) {
      const text = await fs.readFile(path.join(botLogsDir, file), 'utf8').catch(() => '');
      for (const line of text.split('\n')) {
        const answered = line.startsWith('[llm-player] answered ');
        const fallback = line.startsWith('[llm-player] fallback ');
        if (line.startsWith('[catarena] output truncated')) use.truncated = true;
        if (line.startsWith('[llm-player] sampling '))
          use.sampling ??= line.slice('[llm-player] sampling '.length).trim();
        if (!answered && !fallback) continue;
        use.decisions++;
        if (fallback) use.fallbacks++;
        if (fallback && line.includes('the provider refused the request as invalid'))
          use.refused = (use.refused ?? 0) + 1;
        addTokens(tokens, decisionTokens(line));
      }
    }
    const price = priceOf(modelOfKind(s.agentKind ?? ''), prices, table);
    const play = (use.play ??= {});
    const r = play[s.round] ?? { tokens: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 }, costUsd: 0 };
    addTokens(r.tokens, tokens);
    r.costUsd = estimateCostUsd(r.tokens, price);
    play[s.round] = r;
  }
  return out;
}

/** The tokens={...} of a decision line (before the fallback's reason), zero when absent. */
export function decisionTokens(line: string): TokenCounts {
  const m = /^\[llm-player\] \w+ game=\S* after \d+ attempt\(s\) tokens=(\{[^}]*\})/.exec(line);
  const t = (() => {
    try {
      return m ? (JSON.parse(m[1]!) as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  })();
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  return { input: n(t.input), cacheRead: n(t.cacheRead), cacheWrite: n(t.cacheWrite), output: n(t.output) };
}

/** Per LLM-player agent, its decisions and fallbacks over every track of the run. */
export function llmPlayerTotals(tracks: Array<Pick<TrackSummary, 'llmPlayers'>>): Record<string, LlmPlayerUse> {
  const out: Record<string, LlmPlayerUse> = {};
  for (const t of tracks) {
    for (const [agent, use] of Object.entries(t.llmPlayers ?? {})) {
      const sum = (out[agent] ??= { decisions: 0, fallbacks: 0 });
      sum.decisions += use.decisions;
      sum.fallbacks += use.fallbacks;
    }
  }
  return out;
}

const pct = (x: number) => `${Math.round(100 * x)}%`;

/** Output tokens an LLM-player's model was billed for over the run's tracks (its answers, used or not). */
function billedOutput(tracks: Array<Pick<TrackSummary, 'llmPlayers'>>, agent: string): number {
  let output = 0;
  for (const t of tracks) for (const r of Object.values(t.llmPlayers?.[agent]?.play ?? {})) output += r.tokens.output;
  return output;
}

/**
 * The loud lines: LLM-players that fell back on more than 10% of their decisions. Where every
 * decision fell back, the line says whether the model answered at all: answers it was billed for
 * that gave no move (all thinking, cut off at max_tokens; no legal move) are not calls that failed.
 */
export function fallbackAlarmLines(tracks: Array<Pick<TrackSummary, 'llmPlayers'>>): string[] {
  return Object.entries(llmPlayerTotals(tracks)).flatMap(([agent, u]) => {
    if (!u.decisions || u.fallbacks / u.decisions <= FALLBACK_ALARM_SHARE) return [];
    const share = u.fallbacks / u.decisions;
    const output = billedOutput(tracks, agent);
    const why =
      output > 0
        ? `its model answered (${output} output tokens billed) but no answer gave a move (a cut-off answer says stop=max_tokens or length on its line)`
        : 'no call to its model succeeded';
    return [
      share === 1
        ? `Every decision of LLM-player ${agent} was a random fallback (${u.fallbacks} of ${u.decisions}): ${why}, so its scores are a random player's. The "[llm-player] fallback" lines of its bot logs (bot-logs/) say why.`
        : `LLM-player ${agent} fell back to a random legal action on ${pct(share)} of its decisions (${u.fallbacks} of ${u.decisions}): its scores are partly a random player's. The "[llm-player] fallback" lines of its bot logs (bot-logs/) say why.`,
    ];
  });
}

/** Rows for a report table: agent, track, decisions, fallbacks, share. */
/** "agent: chat: sent {…}; asked {…} (…)", one line per LLM-player whose bots said what they send. */
export function llmPlayerSamplingLines(tracks: Array<Pick<TrackSummary, 'llmPlayers'>>): string[] {
  const seen = new Map<string, string>();
  for (const t of tracks)
    for (const [agent, u] of Object.entries(t.llmPlayers ?? {}))
      if (u.sampling && !seen.has(agent))
        seen.set(
          agent,
          `${agent}: ${u.sampling}${u.refused ? `; ${u.refused} decisions refused as invalid requests` : ''}`,
        );
  return [...seen.values()];
}

export function llmPlayerRows(tracks: Array<Pick<TrackSummary, 'llmPlayers' | 'game' | 'variant'>>): string[][] {
  return tracks.flatMap((t) =>
    Object.entries(t.llmPlayers ?? {}).map(([agent, u]) => [
      agent,
      `${t.game}-${t.variant}`,
      String(u.decisions),
      String(u.fallbacks),
      u.decisions ? pct(u.fallbacks / u.decisions) : '—',
    ]),
  );
}
