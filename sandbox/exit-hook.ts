// A sandbox's last resort: its bots are killed on the process's 'exit' and, if asked, on SIGINT,
// SIGTERM and SIGHUP. After a signal's cleanup the hook removes itself and, when no other listener
// for that signal remains, re-raises it so the process still dies the default way.
const HOOK_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export class ExitHook {
  private hooked = false;

  /** `cleanup` must be synchronous: nothing async runs on 'exit'. */
  constructor(
    private readonly cleanup: () => void,
    private readonly onSignals: boolean,
  ) {}

  private readonly onExit = () => this.cleanup();
  private readonly onSignal = (sig: NodeJS.Signals) => {
    this.cleanup();
    this.off();
    if (process.listenerCount(sig) === 0) process.kill(process.pid, sig); // default action: die
  };

  on(): void {
    if (this.hooked) return;
    this.hooked = true;
    process.on('exit', this.onExit);
    if (this.onSignals) for (const s of HOOK_SIGNALS) process.on(s, this.onSignal);
  }

  off(): void {
    if (!this.hooked) return;
    this.hooked = false;
    process.off('exit', this.onExit);
    for (const s of HOOK_SIGNALS) process.off(s, this.onSignal);
  }
}
