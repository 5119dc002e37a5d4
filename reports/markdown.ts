// The human report of a whole run (report.md), laid out like the paper's tables, and the short
// leaderboard printed at the end of `catarena tourney`.
import { integrityLine } from '../records/journal-integrity.ts';
import { fallbackAlarmLines, llmPlayerRows, llmPlayerSamplingLines } from './llm-player-use.ts';
import { MODEL_TABLE_AS_OF, overlayEntries, type ModelTableOverlay } from '../agents/core/models.ts';
import {
  budgetAlarmLines,
  budgetLine,
  COST_ROUND_HEAD,
  COST_ROUND_NOTE,
  costRoundRows,
  runCostUsd,
  usd,
} from './cost-by-round.ts';
import { gameDescriptor, gameIds } from '../games/registry.ts';
import { recordingsLine, trackName, type TourneySummary, type TrackSummary } from '../records/tourney.ts';
import { opponentCodeLine } from '../records/opponent-code.ts';
import { mdTable, num, textTable, withCI } from './markdown-format.ts';
import {
  costRows,
  errorRows,
  failedStrategies,
  learningDetails,
  rankTable,
  ratingsTable,
  scoreMatrix,
  tableWinRatesTable,
  validationWarnings,
  vsNext,
} from './markdown-tracks.ts';
import { sandboxAlarmLines } from './sandbox-alarm.ts';
import { crossGameCell, crossGameNote, crossGameShort, tableRatingsTable } from './markdown-ratings.ts';
import { agentsWithoutBot, everyBuildFailed } from './summary.ts';
import { scoresFromSummary, taskTrackSections } from './markdown-task-tracks.ts';
import { integrityAlarmLines, integrityMarkdown } from './integrity.ts';

const unique = <T>(xs: T[]) => [...new Set(xs)];

/** One line of the config's settings; nested values as compact JSON. */
function configLine(config: unknown): string {
  if (config === null || typeof config !== 'object') return config === undefined ? '—' : JSON.stringify(config);
  const parts = Object.entries(config as Record<string, unknown>).map(([k, v]) => {
    if (Array.isArray(v) && v.every((x) => typeof x !== 'object')) return `${k}=${v.join(',')}`;
    return `${k}=${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`;
  });
  return parts.join(' · ') || '—';
}

/** The run's own model-table entries (config `models:`), if it had any. */
function runOverlay(config: unknown): ModelTableOverlay | undefined {
  const models = (config as { models?: ModelTableOverlay } | null)?.models;
  return models?.families?.length || models?.asOf ? models : undefined;
}

/** The model table's line: its date, and the entries this run's config overrode or added, by name. */
function modelTableLine(config: unknown): string {
  const line = `- Model table (prices, sampling, thinking per model): agents/core/models.json dated ${MODEL_TABLE_AS_OF}`;
  const overlay = runOverlay(config);
  if (!overlay) return line;
  const { overridden, added } = overlayEntries(overlay);
  const changes = [
    ...(overridden.length ? [`overrode ${overridden.join(', ')}`] : []),
    ...(added.length ? [`added ${added.join(', ')}`] : []),
  ];
  return `${line}; this run's config \`models:\`${overlay.asOf ? ` (dated ${overlay.asOf})` : ''} ${changes.join(' and ') || 'changed no entry'}`;
}

/** What one journal game is, where it is not a whole game (the descriptor's `unit`; none for a game no longer registered). */
const unitOf = (game: string): string | undefined => (gameIds().includes(game) ? gameDescriptor(game).unit : undefined);

function header(s: TourneySummary): string {
  const agents = unique(s.tracks.flatMap((t) => t.agents));
  const games = s.tracks.reduce((n, t) => n + t.games, 0);
  const rounds = unique(s.tracks.map((t) => t.rounds));
  const roundText =
    rounds.length <= 1 ? String(rounds[0] ?? '—') : s.tracks.map((t) => `${trackName(t)} ${t.rounds}`).join(', ');
  return [
    `# CATArena tournament report: ${s.runId}`,
    '',
    ...(s.journal
      ? [s.journal.state === 'tampered' ? `- **${integrityLine(s.journal)}**` : `- ${integrityLine(s.journal)}`]
      : []),
    ...(s.incomplete ? [`- **${s.incomplete.line}**`] : []),
    `- Run directory: \`${s.runDir}\``,
    `- Started: ${s.createdAt} · ${s.incomplete ? 'report written' : 'finished'}: ${s.finishedAt}`,
    `- Agents (${agents.length}): ${agents.join(', ') || '—'}`,
    `- Games played: ${games}${s.tracks.length ? ` (${s.tracks.map((t) => `${trackName(t)}: ${t.games}${unitOf(t.game) ? ` ${unitOf(t.game)}` : ''}`).join(', ')})` : ''}`,
    `- Rule sets: ${s.tracks.map(trackName).join(', ') || '—'}`,
    `- Rounds: ${roundText}`,
    ...(s.modelExchanges ? [`- ${recordingsLine(s.modelExchanges)}`] : []),
    ...autoRepsLines(s),
    `- Forfeit policy in force: ${unique(s.tracks.map((t) => t.policy)).join(', ') || '—'}`,
    `- ${opponentCodeLine(s.config)}`,
    `- Config: ${configLine(s.config)}`,
    modelTableLine(s.config),
    '',
    'S = strategy coding (round-1 strength), L = global learning, G.A. = generalizability U (variant B¹ − standard B¹); ' +
      'see docs/metrics.md. Numbers have 3 decimals, 95% intervals in brackets, — = no data.',
    '',
    'The intervals cover the luck of the games these bots played (a smoothed bootstrap over games; docs/metrics.md "Intervals"), ' +
      'not a rerun in which the agents write other bots. "≈" marks an agent not separable from the next one at 95%.',
    ...buildAlarms(s),
    ...llmPlayerSection(s),
    ...(onePairPerCell(s)
      ? [
          '',
          '> Each pairing played one colour-swapped game pair: the intervals rest on the spread the rating model expects of such games. `--reps auto` plays more where it matters.',
        ]
      : []),
  ].join('\n');
}

/** With reps 'auto': per track, the games of the first pass, the batches after it, and why they stopped. */
function autoRepsLines(s: TourneySummary): string[] {
  const auto = s.tracks.filter((t) => t.autoReps);
  if (!auto.length) return [];
  return [
    '- Repetitions: auto (more game pairs, boards or table rounds where they narrow the metrics most; docs/metrics.md "Adaptive repetitions")',
    ...auto.map((t) => {
      const a = t.autoReps!;
      return `  - ${trackName(t)}: ${a.firstPass} games, then ${a.batches.length} batch(es) to ${a.games}; ${a.stopped ? `stopped: ${a.stopped.detail}` : 'not finished (the run was interrupted)'}`;
    }),
  ];
}

/** Loud lines for agents that never had a bot that played (all builds failed). */
export function buildAlarmLines(s: Pick<TourneySummary, 'tracks'>): string[] {
  if (everyBuildFailed(s.tracks))
    return [
      'Every build of every agent failed: no strategy of this run played, so its scores mean nothing (see "Failed strategies").',
    ];
  return [
    ...agentsWithoutBot(s.tracks).map(
      (a) =>
        `Every build of agent ${a.agent} failed (${a.strategies} of ${a.strategies} strategies): its scores are those of a forfeiting stand-in. First reason: ${a.reason.replace(/\s+/g, ' ').slice(0, 200)}`,
    ),
    ...fallbackAlarmLines(s.tracks),
    ...budgetAlarmLines(s.tracks),
    ...integrityAlarmLines(s.tracks),
    ...sandboxAlarmLines(s.tracks),
  ];
}

/** LLM-players: decisions asked of the model and random fallbacks, per track. */
function llmPlayerSection(s: TourneySummary): string[] {
  const rows = llmPlayerRows(s.tracks);
  if (!rows.length) return [];
  return [
    '',
    '## LLM-player decisions',
    '',
    'Decisions the model was asked for (forced moves excluded) and how many were played as a random legal action after failed calls or answers.',
    '',
    mdTable(['Agent', 'Track', 'Decisions', 'Random fallbacks', 'Share'], rows, 2),
    ...sampling(s),
  ];
}

/** What each LLM-player's model was sent, beside what the run asked for (the model table decides). */
function sampling(s: TourneySummary): string[] {
  const lines = llmPlayerSamplingLines(s.tracks);
  return lines.length
    ? [
        '',
        `Sent to each model (what the model table, dated ${MODEL_TABLE_AS_OF}${runOverlay(s.config) ? ", with this run's `models:` entries over it," : ''} says it accepts) and asked by the run:`,
        '',
        ...lines.map((l) => `- ${l}`),
      ]
    : [];
}

function buildAlarms(s: TourneySummary): string[] {
  return buildAlarmLines(s).flatMap((line) => ['', `> **${line}**`]);
}

/** Paper Table 3: average rank over the tracks, by S and by L. */
function leaderboardSection(s: TourneySummary): string {
  const cross = s.crossGame ? ['Elo (all tracks)'] : [];
  const rows = s.leaderboard.map((e, k) => [
    String(k + 1),
    e.agent,
    num(e.meanRankS),
    num(e.meanRankL),
    ...(s.crossGame ? [crossGameCell(s, e.agent)] : []),
    num(e.meanS),
    num(e.meanL),
    num(e.rankProbabilities?.[k], 2),
    vsNext(e.aboveNext),
  ]);
  return [
    '## Leaderboard (Table 3 layout)',
    '',
    `Average rank over ${s.tracks.length} track(s) (1 = best; ties share the mean rank). P(place) = share of bootstrap samples in which the agent holds this place; ` +
      '"ahead of next" = share in which it is placed above the next agent (✓ at 95%, ≈ not separable).',
    ...(s.crossGame ? ['', crossGameNote(s.crossGame)] : []),
    '',
    rows.length
      ? mdTable(
          ['#', 'Agent', 'Avg rank S', 'Avg rank L', ...cross, 'Mean S', 'Mean L', 'P(place)', 'ahead of next'],
          rows,
          2,
        )
      : 'No agents.',
  ].join('\n');
}

/** Paper Table 4: per game, S.C. and G.L. per rule set, and G.A. when both rule sets ran. */
function gameSection(s: TourneySummary, game: string, tracks: TrackSummary[]): string {
  const agents = unique(tracks.flatMap((t) => t.agents));
  const U = s.generalizability[game];
  const head = ['Agent', ...tracks.flatMap((t) => [`${t.variant} S.C.`, `${t.variant} G.L.`]), ...(U ? ['G.A.'] : [])];
  const rows = agents.map((a) => [
    a,
    ...tracks.flatMap((t) => {
      const m = t.metrics.perAgent[a];
      const ci = t.bootstrap.perAgent[a];
      return [withCI(m?.S, ci?.S), withCI(m?.L, ci?.L)];
    }),
    ...(U ? [num(U[a])] : []),
  ]);
  return [`### ${game}`, '', mdTable(head, rows)].join('\n');
}

function table4Section(s: TourneySummary): string {
  const games = unique(s.tracks.map((t) => t.game));
  const parts = games.map((g) =>
    gameSection(
      s,
      g,
      s.tracks.filter((t) => t.game === g),
    ),
  );
  return [
    '## Strategy coding, global learning and generalizability (Table 4 layout)',
    ...(parts.length ? parts : ['No tracks.']),
  ].join('\n\n');
}

function perTrack(title: string, render: (t: TrackSummary) => string, tracks: TrackSummary[], note?: string): string {
  return [`## ${title}`, ...(note ? [note] : []), ...tracks.map(render)].join('\n\n');
}

const TABLE_WIN_RATES_TITLE = "Table win rates (paper figures for Hold'em)";
const TABLE_WIN_RATES_NOTE =
  "Hold'em: win rate = tables won ÷ tables played (a split win at the hand cap counts its share); Undercover: the mean " +
  'composite score (0.75·win + 0.15·survival + 0.10·voting accuracy; docs/undercover.md) instead. With wins/tables in brackets, ' +
  "per table kind: own = an agent's strategies of every round at one table (the paper's S_i^n), round = every agent's " +
  'round-n strategy (B_i^n), field = all strategies shuffled into tables of at most 12 (G_i^n, A_i^n). ' +
  'W, Elo and the metrics above come from the pairwise projection instead (who finished ahead of whom at a shared table; ' +
  'docs/metrics.md "Batch games"), while these are the paper\'s win rates.';

export function renderMarkdown(summary: TourneySummary): string {
  const t = summary.tracks;
  const tableTracks = t.filter((track) => track.tableWinRates);
  const sections = [
    header(summary),
    leaderboardSection(summary),
    table4Section(summary),
    ...taskTrackSections(scoresFromSummary(summary)),
    perTrack(
      'Rank probabilities',
      rankTable,
      t,
      'Agents by the point value; P(rank r) = share of bootstrap samples with that rank; "ahead of next" as in the leaderboard.',
    ),
    perTrack('Learning details (Tables 9–11 layout)', learningDetails, t),
    [
      '## HTTP error rates per agent (Table 16 layout)',
      "Share of the agent's bot requests (moves asked + joins); a failed join counts as an HTTP error.",
      errorRows(t),
    ].join('\n\n'),
    [
      '## Cost per agent (Table 17 layout)',
      "Summed over the agent's rounds; tokens — when no LLM was used.",
      costRows(t),
    ].join('\n\n'),
    ...(costRoundRows(t).length
      ? [
          [
            '## Cost per agent and round',
            COST_ROUND_NOTE,
            `Estimated for the run: ${usd(runCostUsd(t))}.`,
            ...(budgetLine(summary.config, t) ? [budgetLine(summary.config, t)!] : []),
            mdTable(COST_ROUND_HEAD, costRoundRows(t), 2),
          ].join('\n\n'),
        ]
      : []),
    perTrack(
      'Score matrices W',
      scoreMatrix,
      t,
      'Row = the strategy scoring (agent@round), 2 decimals; · = diagonal, ? = never met.',
    ),
    perTrack('Ratings (Bradley–Terry with Davidson draws)', ratingsTable, t),
    ...(t.some((track) => track.tableRatings)
      ? [
          perTrack(
            'Ratings for tables (Plackett–Luce)',
            tableRatingsTable,
            t.filter((track) => track.tableRatings),
            'Tracks whose games seat more than two players, rated from each table\'s finishing order rather than its pairwise projection (docs/metrics.md "Ratings for tables").',
          ),
        ]
      : []),
    ...(tableTracks.length
      ? [perTrack(TABLE_WIN_RATES_TITLE, tableWinRatesTable, tableTracks, TABLE_WIN_RATES_NOTE)]
      : []),
    ['## Failed strategies', failedStrategies(t)].join('\n\n'),
    [
      '## Validation warnings',
      'Problems at the entry check that did not keep a bot out (it played; its games show the errors). `--strict-validation` refuses such bots instead.',
      validationWarnings(t),
    ].join('\n\n'),
    ...integrityMarkdown(t),
  ];
  return `${sections.join('\n\n')}\n`;
}

/** A short plain-text leaderboard for the terminal: rank, agent, mean ranks, S/L per track. */
export function renderLeaderboard(summary: TourneySummary, maxAgents = 10): string {
  const tracks = summary.tracks;
  const cross = summary.crossGame ? ['Elo all'] : [];
  const rows = [['#  agent', 'rank S', 'rank L', ...cross, ...tracks.map((t) => `${trackName(t)} S/L`)]];
  summary.leaderboard.slice(0, maxAgents).forEach((e, k) => {
    rows.push([
      `${String(k + 1).padEnd(2)} ${e.agent}`,
      num(e.meanRankS, 2),
      num(e.meanRankL, 2),
      ...(summary.crossGame ? [crossGameShort(summary, e.agent)] : []),
      ...tracks.map((t) => {
        const m = t.metrics.perAgent[e.agent];
        return `${num(m?.S)}/${num(m?.L)}`;
      }),
    ]);
  });
  const level = summary.crossGame && Math.round(summary.crossGame.intervals.level * 100);
  const elo = level ? `; Elo all = one Bradley–Terry rating over every track [${level}%]` : '';
  const lines = [`Leaderboard: mean rank over ${tracks.length} track(s), 1 = best${elo}`, ...textTable(rows)];
  const more = summary.leaderboard.length - maxAgents;
  if (more > 0) lines.push(`… ${more} more agent(s) in report.md`);
  return lines.join('\n');
}

/** True when no W cell holds more than one colour-swapped game pair (bootstrap intervals collapse). */
function onePairPerCell(s: TourneySummary): boolean {
  return s.tracks.length > 0 && s.tracks.every((t) => t.W.games.every((row) => row.every((n) => (n ?? 0) <= 2)));
}
