// The run directory's file names, in one place: orchestrator/run/run-dir.ts (which knows the paths
// and formats) and every reader outside it (catarena serve, the night worker, reports, benches)
// name a run's files through RUN_FILES, never as literals (tests/run-layout.test.ts checks it).
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
  anchoredDir: 'anchor-ratings',
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
  /** The run's model exchanges (util/exchange-tape/): this folder, its index and its bodies. */
  recordings: 'recordings',
  exchanges: 'exchanges.jsonl',
  recordingBodies: 'bodies',
  /** What `catarena rerun` found: divergences and the game-by-game comparison with the original. */
  rerunJson: 'rerun.json',
  rerunMd: 'rerun.md',
} as const;

export type RunFileName = (typeof RUN_FILES)[keyof typeof RUN_FILES];
