// A deadline another process is judged by. Node runs due timers before it reads sockets and
// pipes, so a timer that fires late (this process stalled: a busy event loop or machine) would
// judge the other side before what it sent meanwhile is read: a bot that answered, or died,
// would be taken for one that never answered. Such a timer re-arms for a short grace of running
// loop instead; a timer on time expires.

/** How late a timer may fire before the lateness counts as this process's stall; also the grace. */
export const STALL_GRACE_MS = 50;

export interface Deadline {
  clear(): void;
}

/** Calls `onExpire` after `ms`; when the timer fires late, after STALL_GRACE_MS more of running loop. */
export function deadlineTimer(ms: number, onExpire: () => void): Deadline {
  let due = performance.now() + ms;
  const expire = () => {
    const now = performance.now();
    if (now - due > STALL_GRACE_MS) {
      due = now + STALL_GRACE_MS;
      timer = setTimeout(expire, STALL_GRACE_MS);
      return;
    }
    onExpire();
  };
  let timer = setTimeout(expire, ms);
  return { clear: () => clearTimeout(timer) };
}
