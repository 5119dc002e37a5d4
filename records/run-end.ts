// A run or night that has no finished run in the index, as `catarena history` and its page show
// it: a night that failed, was killed or missed (the nights list in Redis), a run folder whose
// status.json says it failed, was interrupted, killed or moved to another machine, or a finished run whose folder is gone.

export type HistoryStatus =
  | 'finished'
  | 'failed'
  | 'killed'
  | 'missed'
  | 'interrupted'
  | 'running'
  | 'moved'
  | 'folder deleted';

export interface RunEnd {
  status: Exclude<HistoryStatus, 'finished'>;
  /** The run directory's name, or for a night that never had one `<schedule>@<firing time>`. */
  runId: string;
  runDir?: string;
  schedule?: string;
  /** When it ended or was last heard of (ISO). */
  at: string;
  /** A night's firing time (ISO). */
  firedAt?: string;
  /** Why (one line, as the worker or status.json said it: untrusted text, escaped where shown). */
  reason?: string;
}
