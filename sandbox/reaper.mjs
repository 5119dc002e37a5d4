// The bot reaper: a small detached watchdog that UnsafeSandbox starts with its first bot. It
// outlives the orchestrator on purpose: when the orchestrator is gone (even SIGKILLed, when no exit
// handler of its own runs) it SIGKILLs every process whose environment carries
// CATARENA_BOT_ID=<owner token>.<bot id> (bots, and whatever they started: descendants inherit
// the variable even after setsid or a double fork), then exits. Plain JS (no tsx), Linux only.
//
//   node reaper.mjs <orchestrator pid> <its start time, /proc/<pid>/stat field 22> <owner token>
//
// The orchestrator is gone when <pid> no longer names a live process started at <start time>
// (immune to pid reuse), polled every 500 ms, and every 20 ms once the pipe on our stdin (whose
// only write end the orchestrator holds) reaches EOF, which is how its death is noticed at once. It never kills a process that does not carry the
// token: a process group is killed only when its leader carries it.
import { environOf, liveProcesses, signalPid, startTimeOf } from '../util/procfs.mjs';

const MARKER_VAR = 'CATARENA_BOT_ID';
const POLL_MS = 500;
/** After the orchestrator is gone: rescan until nothing is left (forks in flight), at most this long. */
const REAP_LIMIT_MS = 30_000;

const [pidArg, startArg, token] = process.argv.slice(2);
const ownerPid = Number(pidArg);
// A token is "<pid>-<start time>-<random hex>"; refuse anything short or odd rather than match broadly.
if (
  !Number.isInteger(ownerPid) ||
  ownerPid <= 1 ||
  !/^\d+$/.test(startArg ?? '') ||
  !/^\d+-\d+-[0-9a-f]{12,}$/.test(token ?? '')
) {
  process.exit(2);
}
const needle = `${MARKER_VAR}=${token}.`;

function ownerAlive() {
  // A zombie is dead (startTimeOf: null); a reused pid has another start time.
  return startTimeOf(ownerPid) === startArg;
}

function carriesToken(pid) {
  return environOf(pid)?.some((e) => e.startsWith(needle)) ?? false; // null: gone, or not ours to read
}

const kill = (target) => signalPid(target, 'SIGKILL');

/** One pass: SIGKILLs every live token carrier (and groups led by one); returns how many it found. */
function sweep() {
  let found = 0;
  const groups = new Set();
  for (const { pid, pgrp } of liveProcesses()) {
    if (pid === process.pid || !carriesToken(pid)) continue;
    found++;
    if (pgrp > 1 && pgrp !== process.pid && !groups.has(pgrp) && (pgrp === pid || carriesToken(pgrp))) {
      groups.add(pgrp);
      kill(-pgrp);
    }
    kill(pid);
  }
  return found;
}

let reaping = false;
function reap() {
  if (reaping) return;
  reaping = true;
  const until = Date.now() + REAP_LIMIT_MS;
  const pass = () => {
    // Two clean passes in a row: nothing was forking while we looked.
    if (sweep() === 0 && sweep() === 0) process.exit(0);
    if (Date.now() > until) process.exit(1);
    setTimeout(pass, 50);
  };
  pass();
}

if (!ownerAlive()) reap();
else {
  const timer = setInterval(() => {
    if (!ownerAlive()) {
      clearInterval(timer);
      reap();
    }
  }, POLL_MS);
  // EOF on stdin: the orchestrator's end of the pipe closed, which the kernel does while the
  // orchestrator exits, a moment before its pid stops naming a live process. Poll fast for a
  // while then; only the pid decides (stdin at EOF for another reason must not reap live bots).
  const onEof = () => {
    const until = Date.now() + 2_000;
    const fast = setInterval(() => {
      if (!ownerAlive()) {
        clearInterval(fast);
        clearInterval(timer);
        reap();
      } else if (Date.now() > until) clearInterval(fast);
    }, 20);
  };
  process.stdin.on('data', () => {});
  process.stdin.once('end', onEof);
  process.stdin.on('error', () => {});
}
