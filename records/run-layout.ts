// The run directory's file and folder names, in one place: orchestrator/run/run-dir.ts (which knows
// the paths and formats) and every reader outside it (catarena serve, the night worker, reports,
// benches) name a run's files through RUN_FILES and its folders through RUN_DIRS and roundDirName,
// never as literals (tests/run-layout.test.ts checks it).
// In records/ because every layer reads runs, reports/ and agents/ too; it imports nothing.
// Renaming or moving a file here changes the run format: see orchestrator/run/run-format.ts.

export const RUN_FILES = {
  /** The layout's version (orchestrator/run/run-format.ts). */
  format: 'format.json',
  /** A tourney's config; its presence marks a tourney run. */
  config: 'config.json',
  /** The rules each game is played under. */
  rules: 'rules.json',
  /** What makes the run reproducible besides the models: versions, images, seeds, rules (records/provenance.ts). */
  provenance: 'provenance.json',
  /** The run's identity, kept across resumes. */
  runId: 'run-id',
  /** One line per game played: the source of truth of results. */
  journal: 'journal.jsonl',
  /** The journal chain's secret (0600), beside the journal. */
  journalKey: 'journal.key',
  /** For catarena serve: running, finished, interrupted, with the pid. */
  status: 'status.json',
  /** For catarena serve: games in flight, moves, progress lines. */
  live: 'live.jsonl',
  /** A run's (or a track's) summary, written by its last step. */
  metrics: 'metrics.json',
  reportMd: 'report.md',
  reportHtml: 'report.html',
  /** The combined report's numbers over repeats (--repeats, catarena combine). */
  combined: 'combined.json',
  /** An arena or play run's setup and results. */
  arena: 'arena.json',
  results: 'results.json',
  crosstableCsv: 'crosstable.csv',
  crosstableTxt: 'crosstable.txt',
  /** A `catarena rate` run's rating on its anchor pool's scale (docs/anchors.md). */
  rate: 'rate.json',
  /** A tourney's strategies rated on the anchor pools (--anchors): the ratings, and each rating's games under anchoredDir. */
  anchored: 'anchored.json',
  /** In the folder that holds the run directories: one line per finished tourney. */
  index: 'index.jsonl',
  /** Per track: the win matrix and its CSV. */
  W: 'W.json',
  WCsv: 'W.csv',
  /** Per track: strategy evolution and similarity (reports/evolution/). */
  evolution: 'evolution.json',
  similarity: 'similarity.json',
  /** Per track, with reps 'auto': the batches and why they stopped. */
  autoReps: 'auto-reps.json',
  /** In a round's logs (and an agent's workspace logs/): written last, so it marks them complete. */
  roundReport: 'round_report.json',
  /** replays/: the one replay page, its script, and the games' viewer data index. */
  replayPage: 'replay.html',
  viewer: 'viewer.js',
  viewIndex: 'views.js',
  /** The run's model exchanges' index, in RUN_DIRS.recordings (util/exchange-tape/). */
  exchanges: 'exchanges.jsonl',
  /** What `catarena rerun` found: divergences and the game-by-game comparison with the original. */
  rerunJson: 'rerun.json',
  rerunMd: 'rerun.md',
} as const;

export type RunFileName = (typeof RUN_FILES)[keyof typeof RUN_FILES];

/** The run directory's folders (the tree at the top of orchestrator/run/run-dir.ts). */
export const RUN_DIRS = {
  /** Every game's replay (<match id>.json.gz), the replay page and the games' viewer data. */
  replays: 'replays',
  /** A tourney's captured bot output, one folder per track. */
  botLogs: 'bot-logs',
  /** A play or arena run's captured bot output; in a round (and an agent's workspace), the round's logs. */
  logs: 'logs',
  /** One folder per track (<game>-<variant>): its round folders (roundDirName) and outputs. */
  tracks: 'tracks',
  /** In a round: what each agent saw while developing, one folder per agent. */
  workspaces: 'workspaces',
  /** In a round: the strategies as played, each with its record and build log beside it. */
  strategies: 'strategies',
  /** In a round, with opponentCode hidden: each agent's own games' logs. */
  ownLogs: 'own-logs',
  /** A finished run's files stored once (orchestrator/run/file-store.ts). */
  store: 'store',
  /** With --repeats: one run per repeat, repeats/<r>/. */
  repeats: 'repeats',
  /** `catarena probe`'s outputs, one folder per track. */
  probe: 'probe',
  /** The run's model exchanges (util/exchange-tape/): this folder, and its bodies in recordingBodies. */
  recordings: 'recordings',
  recordingBodies: 'bodies',
  /** --anchors: each rating's games, per track and strategy (beside RUN_FILES.anchored). */
  anchorRatings: 'anchor-ratings',
} as const;

export type RunDirName = (typeof RUN_DIRS)[keyof typeof RUN_DIRS];

/** Round n's folder in a track: round_<n> ('*': the glob of every round's, for a message). */
export const roundDirName = (round: number | '*'): string => `round_${round}`;

/** A round folder's name as a regular expression's source (no anchors, no group), for a path pattern. */
export const ROUND_DIR_SOURCE = String.raw`round_\d+`;

const ROUND_DIR = /^round_(\d+)$/;

/** The round a folder name stands for (round_<n>), or undefined for any other name. */
export function roundOfDirName(name: string): number | undefined {
  const m = ROUND_DIR.exec(name);
  return m ? Number(m[1]) : undefined;
}

/** Whether a folder name is a round's (round_<n>). */
export const isRoundDirName = (name: string): boolean => ROUND_DIR.test(name);
