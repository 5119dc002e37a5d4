// Sandbox backends by name. Only the embedded process backend exists so far.
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
      throw new Error('docker backend not available yet; use --sandbox process');
    default:
      throw new Error(`unknown sandbox kind "${kind}"; use --sandbox process`);
  }
}
