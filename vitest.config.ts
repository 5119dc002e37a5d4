import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './tests/sequencer.ts';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Bot processes and real HTTP: give each test room, and keep files parallel but bounded.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits up to 10 s, not vitest's 1 s: a page or a stream catching up with a move
    // can take longer than a second when the whole suite loads both cores.
    expect: { poll: { timeout: 10_000 } },
    // Three files at once on two cores: files that wait (Redis outages, lock expiries, a person's
    // turn) left cores idle with two; with three the machine is busy 97% of a run instead of 89%.
    maxWorkers: 3,
    // Files share a worker's module cache instead of importing everything again (about 40 s of
    // CPU in a full run). Tests change the environment only through vi.stubEnv, undone after
    // each test, or restore what they set themselves.
    isolate: false,
    unstubEnvs: true,
    sequence: { sequencer: LongestFirstSequencer },
    // The folder for tourneys that several files read, played once per run (tests/helpers/shared-runs.ts).
    globalSetup: ['tests/global-setup.ts'],
  },
});
