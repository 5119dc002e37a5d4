// The suite's own config plus bench/suite-cpu-setup.ts: `npm run bench -- suite-cpu` runs with it.
import { mergeConfig } from 'vitest/config';
import base from '../vitest.config.ts';

export default mergeConfig(base, { test: { setupFiles: ['bench/suite-cpu-setup.ts'] } });
