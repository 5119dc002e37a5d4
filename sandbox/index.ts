// Sandbox backends by name: process (embedded default) and docker (isolated containers).
import { DockerSandbox, type DockerSandboxOptions } from './docker.ts';
import { ProcessSandbox, type ProcessSandboxOptions } from './process.ts';
import type { Sandbox } from './types.ts';

export type SandboxOptions = ProcessSandboxOptions & { docker?: DockerSandboxOptions };

export function createSandbox(kind: 'process' | (string & {}) = 'process', options: SandboxOptions = {}): Sandbox {
  switch (kind) {
    case 'process':
      return new ProcessSandbox(options);
    case 'docker':
      return new DockerSandbox({ handleSignals: options.handleSignals, ...options.docker });
    default:
      throw new Error(`unknown sandbox kind "${kind}"; use --sandbox process or --sandbox docker`);
  }
}
