// Set up in every test file by `npm run bench -- suite-cpu` (through bench/suite-cpu.vitest.ts): as
// a file starts, its worker's pid and the file go on a line of $CATARENA_SUITE_CPU_FILES, so the
// bench can charge what a worker and the processes it started spend to the file it runs.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect } from 'vitest';

beforeAll(() => {
  const out = process.env.CATARENA_SUITE_CPU_FILES;
  const file = expect.getState().testPath;
  if (out && file) fs.appendFileSync(out, `${process.pid}\t${path.relative(process.cwd(), file)}\n`);
});
