// A bot's captured output: stdout+stderr up to a cap; the rest is read and dropped so the bot
// never blocks on a full pipe and the orchestrator's memory never grows with it.
import fs from 'node:fs';
import path from 'node:path';

export class CappedLog {
  private fd: number | null;
  private written = 0;

  constructor(
    readonly file: string,
    private readonly cap: number,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.fd = fs.openSync(file, 'w');
  }

  write(chunk: Buffer): void {
    if (this.fd === null || this.written >= this.cap) return;
    const room = this.cap - this.written;
    // Sync writes: bounded by the cap in total, and nothing is ever queued in memory.
    fs.writeSync(this.fd, chunk.length <= room ? chunk : chunk.subarray(0, room));
    this.written += Math.min(chunk.length, room);
    if (this.written >= this.cap) {
      fs.writeSync(this.fd, `\n[catarena] output truncated at ${this.cap} bytes; the rest was discarded\n`);
    }
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}

export async function readLogTail(file: string, maxBytes = 4096): Promise<string> {
  try {
    const fh = await fs.promises.open(file, 'r');
    try {
      const { size } = await fh.stat();
      const length = Math.min(size, maxBytes);
      const buf = Buffer.alloc(length);
      await fh.read(buf, 0, length, size - length);
      return buf.toString('utf8');
    } finally {
      await fh.close();
    }
  } catch {
    return '';
  }
}

/** Command output kept in memory up to a cap; what is dropped is counted and said at the end. */
export class CappedText {
  private chunks: Buffer[] = [];
  private size = 0;
  private dropped = 0;
  constructor(private readonly cap: number) {}
  push(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.chunks.push(part);
      this.size += part.length;
    }
    this.dropped += Math.max(0, chunk.length - Math.max(0, room));
  }
  text(): string {
    const s = Buffer.concat(this.chunks).toString('utf8');
    return this.dropped ? `${s}\n[output truncated: ${this.dropped} more bytes dropped]` : s;
  }
}
