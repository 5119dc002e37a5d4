// Sandbox backends by name: process (the default: each bot isolated by bubblewrap), docker
// (containers), and unsafe (plain processes, no isolation).
import { DockerSandbox, type DockerSandboxOptions } from './docker.ts';
import { IsolatedSandbox, type IsolatedSandboxOptions } from './isolated.ts';
import { INSTALL_BWRAP, isolationStatus } from './isolation.ts';
import { UnsafeSandbox } from './process.ts';
import type { Sandbox } from './types.ts';

export const SANDBOX_KINDS = ['process', 'docker', 'unsafe'] as const;
export type SandboxKind = (typeof SANDBOX_KINDS)[number];

export type SandboxOptions = IsolatedSandboxOptions & {
  docker?: DockerSandboxOptions;
  /**
   * Every bot this sandbox will start is catarena's own (reference, offline-agent and LLM-player
   * bots): where `process` cannot isolate, they run unsafe with a warning instead of failing.
   */
  trustedBotsOnly?: boolean;
  /** Where that warning goes (default: stderr). */
  warn?: (line: string) => void;
};

/** What `process` gives on this machine: the isolated sandbox, or why not (and the unsafe fallback's terms). */
export function processSandboxVerdict(bwrap?: string): { isolated: boolean; detail: string } {
  const status = isolationStatus(bwrap);
  return { isolated: status.ok, detail: status.detail };
}

export function createSandbox(kind: SandboxKind | (string & {}) = 'process', options: SandboxOptions = {}): Sandbox {
  switch (kind) {
    case 'process': {
      const status = isolationStatus(options.bwrap);
      if (status.ok) return new IsolatedSandbox(options);
      if (!options.trustedBotsOnly) throw new Error(noIsolationMessage(status.detail));
      (options.warn ?? ((l) => process.stderr.write(`${l}\n`)))(
        `! bots run UNSANDBOXED (unsafe): ${status.detail}. Only catarena's own bots run so; bots written by agents need bubblewrap.`,
      );
      return new UnsafeSandbox(options);
    }
    case 'unsafe':
      return new UnsafeSandbox(options);
    case 'docker':
      return new DockerSandbox({
        handleSignals: options.handleSignals,
        ...options.docker,
        ...(options.exchanges ? { exchanges: options.exchanges } : {}),
      });
    default:
      throw new Error(`unknown sandbox kind "${kind}"; use --sandbox process, --sandbox docker or --sandbox unsafe`);
  }
}

/** Why bots written by agents do not start where `process` cannot isolate them, and what to do. */
export function noIsolationMessage(detail: string): string {
  return (
    `the process sandbox cannot isolate bots on this machine (${detail}). Bots written by LLM or CLI agents ` +
    `do not run unsandboxed: ${INSTALL_BWRAP}; or use --sandbox docker; or, knowing that their bots can then read ` +
    'your keys and files, pass --sandbox unsafe'
  );
}
