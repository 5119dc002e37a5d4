// Sandbox backends by name: process (embedded default) and docker (isolated containers).
import { DockerSandbox } from './docker.ts';
import { ProcessSandbox, type ProcessSandboxOptions } from './process.ts';
import type { Sandbox } from './types.ts';

export { ProcessSandbox, type ProcessSandboxOptions } from './process.ts';
export { allocatePort, allocatePortPair, releasePort, isPortOpen, waitForPortClosed } from './ports.ts';
export { probeHealth } from './health.ts';
export * from './types.ts';

export function createSandbox(kind: 'process' | (string & {}) = 'process', options: ProcessSandboxOptions = {}): Sandbox {
  switch (kind) {
    case 'process':
      return new ProcessSandbox(options);
    case 'docker':
      return new DockerSandbox({ handleSignals: options.handleSignals });
    default:
      throw new Error(`unknown sandbox kind "${kind}"; use --sandbox process or --sandbox docker`);
  }
}
