// bench/suite-cpu.ts tells processes apart by their command lines (the ones the suite starts), and
// breaks the costliest kinds down by folder and command.
import { describe, expect, it } from 'vitest';
import { detailOf, kindOf, ownerOf } from '../bench/suite-cpu.ts';

describe('suite-cpu: the kind of a process', () => {
  it.each([
    [['/usr/bin/node', '/w/node_modules/vitest/dist/workers/forks.js'], 'node', 'vitest workers'],
    [['node', '/w/node_modules/.bin/vitest', 'run'], 'node', 'vitest main'],
    [['node', '/w/node_modules/.bin/vitest', 'run', 'tests/queue-workers.test.ts'], 'node', 'vitest main'],
    [['/usr/bin/node', '/w/bin/catarena.mjs', 'worker', '--queue', 'redis://x'], 'node', 'catarena CLIs'],
    [['node', 'bot.mjs', '40123'], 'node', 'bots (node)'],
    [['node', 'bot.cjs', '40123'], 'node', 'bots (node)'],
    [['node', 'misbehave.mjs', '40123', 'sleep'], 'node', 'bots (node)'],
    [['/usr/bin/node', '/w/.build/sandbox/reaper.mjs', '1', '2', 'x'], 'node', 'sandbox reapers (node)'],
    [['python3', '-I', '-S', '-c', 'import os', 'port-broker.py', '9', '8080'], 'python3', 'port brokers (python)'],
    [['python3', 'catarena_style.py', '40123'], 'python3', 'bots and scripts (python)'],
    [['/usr/lib/chromium/chromium', '--type=renderer'], 'chromium', 'chromium'],
    [['/usr/bin/redis-server', '127.0.0.1:6380'], 'redis-server', 'redis-server'],
    [['bwrap', '--unshare-all', 'bash', 'start_ai.sh'], 'bwrap', 'shells and tools'],
    [[], 'kworker/0:1', 'kernel threads'],
    [['/usr/bin/node', '-e', '0'], 'node', 'node (other)'],
    [['/usr/sbin/dockerd'], 'dockerd', 'docker engine'],
    [['/opt/x/frobnicate'], 'frobnicate', 'other (frobnicate)'],
    [['npm exec vitest run tests/limit.test.ts tests/suite-cpu-kinds.test.ts'], 'npm exec vitest', 'npm and npx'],
  ])('%j (%s) → %s', (argv, comm, kind) => {
    expect(kindOf(argv, comm)).toBe(kind);
  });
});

describe('the detail a kind is broken down by', () => {
  it.each([
    [
      ['node', 'bot.mjs', '41234'],
      '/tmp/cat-1b3MFA/catarena-bridge-cOMuNI/magic',
      'cat-*/catarena-bridge-*/magic: node bot.mjs #',
    ],
    [
      ['node', 'bot.mjs', '50001'],
      '/tmp/cat-x9Yz01/catarena-bridge-AbC123/magic',
      'cat-*/catarena-bridge-*/magic: node bot.mjs #',
    ],
    [['socat', 'TCP-LISTEN:5000,fork'], '/', '/: socat TCP-LISTEN:#,fork'],
    [
      ['node', 'bot.mjs', '1'],
      '/tmp/cat-Ab12Cd/catarena-sandbox-test-xY9zQ1/bot-ekDraN',
      'cat-*/catarena-sandbox-test-*/bot-*: node bot.mjs #',
    ],
  ])('%j in %s → %s', (argv, cwd, detail) => {
    expect(detailOf(argv, cwd)).toBe(detail);
  });
});

describe('the test file a process is charged to', () => {
  // 10 = vitest main, 20 and 21 its workers; 30 a bwrap of 20's, 31 the bot in it; 40 a container's shim.
  const parent = new Map([
    [10, 1],
    [20, 10],
    [21, 10],
    [30, 20],
    [31, 30],
    [40, 1],
    [41, 40],
  ]);
  const workers = new Map([
    [20, 'tests/a.test.ts'],
    [21, 'tests/b.test.ts'],
  ]);
  it.each([
    [31, 20],
    [30, 20],
    [21, 21],
    [41, 0],
    [10, 0],
  ])('process %i → worker %i', (pid, owner) => {
    expect(ownerOf(pid, parent, workers)).toBe(owner);
  });
});
