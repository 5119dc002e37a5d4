// Progress on long work: one rewritten line on a terminal, plain periodic lines otherwise
// (CI logs, pipes). Goes to stderr so stdout stays clean for results. Lines name agents and
// carry their messages: control characters in them are escaped (util/terminal.ts).
import { forTerminal } from '../util/terminal.ts';

export interface Progress {
  phase(text: string): void;
  tick(done: number, total: number, note?: string): void;
  done(): void;
}

export function createProgress(label: string, stream: NodeJS.WriteStream = process.stderr, quiet = false): Progress {
  const tty = Boolean(stream.isTTY);
  // The ETA is per phase: the rate since the phase's first game, not since the program started.
  let phaseStart = Date.now();
  let baseline: number | null = null;
  let lastPlain = 0;
  let current = '';
  const write = (text: string, force = false) => {
    if (quiet) return;
    const line = forTerminal(text);
    if (tty) {
      stream.write(`\r\x1b[2K${line}`);
    } else if (force || Date.now() - lastPlain >= 2_000) {
      lastPlain = Date.now();
      stream.write(`${line}\n`);
    }
    current = line;
  };
  return {
    phase(text) {
      phaseStart = Date.now();
      baseline = null;
      if (tty && current) stream.write('\n');
      current = '';
      write(`[${label}] ${text}`, true);
      if (tty) {
        stream.write('\n');
        current = '';
      }
    },
    tick(done, total, note) {
      baseline ??= done - 1;
      const elapsed = (Date.now() - phaseStart) / 1000;
      const rate = (done - baseline) / elapsed;
      const eta = done > baseline && done < total && rate > 0 ? ` ETA ${formatSeconds((total - done) / rate)}` : '';
      write(`[${label}] ${done}/${total} games${eta}${note ? `  ${note}` : ''}`, done === total);
    },
    done() {
      if (tty && current) stream.write('\n');
      current = '';
    },
  };
}

export function formatSeconds(s: number): string {
  if (s < 60) return `${Math.round(s)}s`;
  const m = Math.floor(s / 60);
  return `${m}m${String(Math.round(s - m * 60)).padStart(2, '0')}s`;
}
