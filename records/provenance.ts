// What makes a run reproducible besides the models' answers (provenance.json in the run
// directory): catarena's version and commit, Node, the OS, the Docker images the run used and the
// CLI agents' pinned versions, the seeds, the rules of each game and the sandbox kind.
// orchestrator/run/provenance.ts writes it; docs/bundles.md describes it.

/** A Docker image the run used: its tag, and its id and registry digests where Docker knew them. */
export interface ImageFacts {
  tag: string;
  /** The image id (sha256:…), absent when the image was not there to inspect. */
  id?: string;
  /** Registry digests (repo@sha256:…); locally built images have none. */
  digests?: string[];
}

/** The facts of one process that played the run: the first start, then one per resume. */
export interface ProvenanceSession {
  startedAt: string;
  /** Set when the session finished the run. */
  finishedAt?: string;
  catarena: {
    version: string;
    /** The git commit of the checkout catarena ran from; absent outside a git checkout. */
    commit?: string;
    /** The checkout had uncommitted changes to tracked files. */
    dirty?: boolean;
  };
  node: string;
  os: { platform: string; release: string; arch: string };
  /** With --sandbox docker: the bot image; with CLI agents: the agent image. */
  images?: { botRuntime?: ImageFacts; agentRuntime?: ImageFacts };
  /** The CLI agents' npm packages and the versions the agent image pins (docker/agent-runtime/recipe.json). */
  clis?: Record<string, string>;
}

export interface Provenance {
  /** This record's layout. */
  version: 1;
  /** The run's seed (config.seed). */
  seed: number;
  /** Per track: the seed its games derive from (deriveSeed(seed, track)) and its rules label. */
  tracks: Array<{ track: string; seed: number; rules: string }>;
  /** Per game: the rules label (rules version and rule-changing options), as rules.json pins it. */
  rules: Record<string, string>;
  sandbox: string;
  sessions: ProvenanceSession[];
}
