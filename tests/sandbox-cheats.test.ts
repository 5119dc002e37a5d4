// Cheating bots against the sandboxes (issue 42): each tries one thing an adversarial agent's bot
// would, under the default sandbox (process: bubblewrap) and, where the engine and image are
// there, under docker. Each cheat is also run once under --sandbox unsafe, where it succeeds: the
// check can see the attempt work, so a sandbox that let it through would fail the test.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../sandbox/index.ts';
import { allocatePort, releasePort } from '../sandbox/ports.ts';
import type { BotHandle, BotStartError, Sandbox } from '../sandbox/types.ts';
import { botDir, dockerReady, tempDir } from './helpers/bots.ts';

// The bot's server: /health only. The cheat runs first, in start_ai.sh, and prints what it got.
const SERVER = `import http from 'node:http';
http.createServer((q, s) => s.end('{"status":"ok"}')).listen(Number(process.argv[2]), '127.0.0.1');
`;
const cheatBot = (name: string, cheat: string, files: Record<string, string> = {}, dir?: string) => {
  const script = `#!/bin/bash\n${cheat}\nexec node server.mjs "$1"\n`;
  if (!dir) return botDir(name, script, { 'server.mjs': SERVER, ...files });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'start_ai.sh'), script);
  fs.writeFileSync(path.join(dir, 'server.mjs'), SERVER);
  return dir;
};

const KINDS = dockerReady() ? (['process', 'docker'] as const) : (['process'] as const);
const sandboxes = new Map<string, Sandbox>();
const sandbox = (kind: string) => {
  let s = sandboxes.get(kind);
  if (!s) sandboxes.set(kind, (s = createSandbox(kind, { handleSignals: false })));
  return s;
};
afterAll(async () => {
  await Promise.all([...sandboxes.values()].map((s) => s.close()));
});

/** Starts the bot, waits for its cheat's report (a line "RESULT …" in its log), stops it. */
async function play(kind: string, dir: string, keep = false): Promise<{ result: string; bot: BotHandle }> {
  const port = await allocatePort();
  const bot = await sandbox(kind).start({ dir, port, name: path.basename(dir), startTimeoutMs: 30_000 });
  let log = '';
  for (let i = 0; i < 100 && !/^RESULT/m.test(log); i++) {
    log = await bot.logTail(64 * 1024);
    if (!/^RESULT/m.test(log)) await new Promise((r) => setTimeout(r, 50));
  }
  if (!keep) {
    await bot.stop();
    releasePort(port);
  }
  return { result: (/^RESULT(.*)$/m.exec(log)?.[1] ?? '').trim(), bot };
}

// A secret in the environment of a process of the orchestrator's user (/proc/<pid>/environ shows
// what a process started with, so the test's own later setenv would not show; a child does).
const CANARY = `canary-${randomBytes(8).toString('hex')}`;
const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60_000)'], {
  env: { ...process.env, CATARENA_TEST_CANARY: CANARY },
  stdio: 'ignore',
});
afterAll(() => {
  holder.kill('SIGKILL');
});

// Every value found, on one line: another process's (a test's own setenv, an earlier run's holder
// left behind) must neither hide this one where it shows nor stand in for it.
const ENVIRON_CHEAT = `found=$(grep -a -h -o 'CATARENA_TEST_CANARY=[^[:cntrl:]]*' /proc/[0-9]*/environ 2>/dev/null | sort -u | tr '\\n' ' ')
echo "RESULT $found"`;

const journalCheat = `d=$PWD; found=none
while [ "$d" != / ]; do d=$(dirname "$d"); if [ -f "$d/journal.jsonl" ]; then found=$d; echo '{"id":"x","scores":[1,0]}' >> "$d/journal.jsonl" 2>/dev/null; fi; done
echo "RESULT $found"`;

/** A run directory with a journal, and a strategy folder inside it (as catarena lays them out). */
function runWithJournal(): { journal: string; dir: string } {
  const root = tempDir('catarena-cheat-run-');
  const journal = path.join(root, 'journal.jsonl');
  fs.writeFileSync(journal, '{"id":"a","scores":[0,1]}\n');
  return { journal, dir: path.join(root, 'tracks', 'gomoku-standard', 'round_1', 'cheater') };
}

const writeCheat = (victim: string) => `ok=""
echo x > ./dropped.txt 2>/dev/null && ok="$ok own-folder"
echo x > ../outside.txt 2>/dev/null && ok="$ok parent"
echo x > ${JSON.stringify(victim)} 2>/dev/null && ok="$ok victim"
echo "RESULT wrote:$ok"`;

/** Processes on this host whose command line contains `text` (read from /proc). */
function processesWith(text: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e) && Number(e) !== process.pid)
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The detached process, in a subshell that exits at once: its parent is then init, not the bot. */
const DETACH = (tag: string) => `( ( cd / && exec setsid env -i sleep ${tag} ) & )\nsleep 0.5; echo "RESULT started"`;

const sleeperTag = () => `333.${Math.floor(Math.random() * 1e6)}`;
const sleepers = (tag: string) => processesWith(`sleep ${tag}`);

// Every cheat of every kind at once (up to vitest's maxConcurrency): each is its own bot, and most
// of a case's time is the sandbox starting and stopping it.
describe.for(KINDS)('cheating bots in the %s sandbox', { concurrent: true }, (kind) => {
  it("cannot read another process's environment (a secret in the orchestrator's)", async ({ expect }) => {
    const { result } = await play(kind, cheatBot('environ', ENVIRON_CHEAT));
    expect(result).not.toContain(CANARY);
  });

  it('cannot see, let alone rewrite, the run directory journal above its folder', async ({ expect }) => {
    const { journal, dir } = runWithJournal();
    const { result } = await play(kind, cheatBot('journal', journalCheat, {}, dir));
    expect(result).toBe('none');
    expect(fs.readFileSync(journal, 'utf8')).toBe('{"id":"a","scores":[0,1]}\n');
  });

  it('cannot write in its own folder, next to it, or to a world-writable host file', async ({ expect }) => {
    const victim = path.join(tempDir('catarena-victim-'), 'victim.txt');
    fs.writeFileSync(victim, 'intact\n', { mode: 0o666 });
    fs.chmodSync(path.dirname(victim), 0o777);
    const dir = cheatBot('writer', writeCheat(victim));
    const { result } = await play(kind, dir);
    expect(result).toBe('wrote:');
    expect(fs.existsSync(path.join(dir, 'dropped.txt'))).toBe(false);
    expect(fs.existsSync(path.join(dir, '..', 'outside.txt'))).toBe(false);
    expect(fs.readFileSync(victim, 'utf8')).toBe('intact\n');
  });

  it('leaves no detached `setsid env -i` process behind once stopped', async ({ expect }) => {
    const tag = sleeperTag();
    const { result } = await play(kind, cheatBot('detach', DETACH(tag)));
    expect(result).toBe('started');
    expect(sleepers(tag)).toEqual([]);
  });

  it('is bounded by a process limit when it fork-bombs, and every fork is gone after stop', async ({ expect }) => {
    // Forks until refused, reports how far it got, then keeps 5 forks (so its server can start).
    const bomb = `import os, time
kids = []
for i in range(1200):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        time.sleep(120)
        os._exit(0)
    kids.append(pid)
print("RESULT", len(kids), flush=True)
for pid in kids[5:]:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
`;
    // Named per kind: the other kind's bomb may be running at the same time.
    const script = `bomb-${kind}.py`;
    const dir = cheatBot('forkbomb', `python3 ${script}`, { [script]: bomb });
    // Its server may not come up: Docker's relays can stay down after failing to fork. Bounded is the point.
    const outcome = await play(kind, dir, true).catch((err: BotStartError) => ({
      result: (/^RESULT(.*)$/m.exec(err.logTail)?.[1] ?? '').trim(),
      bot: undefined,
    }));
    expect(Number(outcome.result)).toBeGreaterThan(10);
    expect(Number(outcome.result)).toBeLessThan(300);
    if (kind === 'process')
      expect((outcome.bot as { limitsHit?(): string[] }).limitsHit?.()).toContain('processes (256)');
    await outcome.bot?.stop();
    expect(processesWith(script)).toEqual([]);
  }, 60_000);

  it('cannot fill the disk: /tmp is small and private, its folder read-only', async ({ expect }) => {
    const dir = cheatBot(
      'filler',
      `dd if=/dev/zero of=/tmp/fill bs=1M count=400 2>/dev/null; dd if=/dev/zero of=./fill bs=1M count=10 2>/dev/null
echo "RESULT $(stat -c %s /tmp/fill 2>/dev/null || echo 0)"`,
    );
    const { result } = await play(kind, dir);
    expect(Number(result)).toBeLessThanOrEqual(64 * 1024 * 1024);
    expect(fs.existsSync(path.join(dir, 'fill'))).toBe(false);
  });

  it("cannot connect to another bot's port", async ({ expect }) => {
    const { bot: victim } = await play(kind, cheatBot('victim', 'echo "RESULT up"'), true);
    const probe = `if (exec 3<>/dev/tcp/127.0.0.1/${victim.port}) 2>/dev/null; then echo "RESULT connected"; else echo "RESULT refused"; fi`;
    const { result } = await play(kind, cheatBot('prober', probe));
    await victim.stop();
    expect(result).toBe('refused');
  });
});

// The same cheats succeed in the unsafe sandbox: the checks above can see them work.
describe('the same cheats under --sandbox unsafe succeed (the checks can fail)', () => {
  it('reads the secret, rewrites the journal, writes outside, leaves a detached process, reaches a bot', async () => {
    expect((await play('unsafe', cheatBot('environ', ENVIRON_CHEAT))).result).toContain(CANARY);
    const { journal, dir } = runWithJournal();
    expect((await play('unsafe', cheatBot('journal', journalCheat, {}, dir))).result).not.toBe('none');
    expect(fs.readFileSync(journal, 'utf8')).toContain('"x"');
    const victim = path.join(tempDir('catarena-victim-'), 'victim.txt');
    expect((await play('unsafe', cheatBot('writer', writeCheat(victim)))).result).toBe(
      'wrote: own-folder parent victim',
    );
    const tag = sleeperTag();
    await play('unsafe', cheatBot('detach', DETACH(tag)));
    const left = sleepers(tag);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left.length).toBe(1);
    const { bot: victimBot } = await play('unsafe', cheatBot('victim', 'echo "RESULT up"'), true);
    const probe = `if (exec 3<>/dev/tcp/127.0.0.1/${victimBot.port}) 2>/dev/null; then echo "RESULT connected"; else echo "RESULT refused"; fi`;
    expect((await play('unsafe', cheatBot('prober', probe))).result).toBe('connected');
    await victimBot.stop();
  }, 60_000);
});
