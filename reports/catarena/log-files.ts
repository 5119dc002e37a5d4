// Round-log files written piece by piece, so that a round's logs never sit in memory whole: a
// writer reads the round's replays one at a time, appends what each game contributes to spools
// (temporary files), and assembles each log file from its head, known once every game is counted,
// and the spools. The bytes are those of the whole-text form: a spooled JSON array is indented as
// JSON.stringify(value, null, 2) indents it in place.
import fs from 'node:fs/promises';
import path from 'node:path';

/** Text is written out once this many UTF-16 code units have gathered. */
const FLUSH_CHARS = 1 << 15;

/**
 * Text gathered and encoded into one buffer, reused for every write: a round's logs are tens of
 * megabytes, and a new Buffer per write would pile up as garbage outside the heap until a GC.
 */
class TextBuffer {
  private pending = '';
  // A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair, 2 units, takes 4).
  private readonly bytes = Buffer.allocUnsafe(3 * FLUSH_CHARS);

  constructor(private readonly sink: (bytes: Buffer) => Promise<unknown>) {}

  async write(text: string): Promise<void> {
    this.pending += text;
    if (this.pending.length >= FLUSH_CHARS) await this.flush();
  }

  async flush(): Promise<void> {
    while (this.pending) {
      let end = Math.min(FLUSH_CHARS, this.pending.length);
      const last = this.pending.charCodeAt(end - 1);
      if (end < this.pending.length && last >= 0xd800 && last <= 0xdbff) end--; // keep a surrogate pair together
      const n = this.bytes.write(this.pending.slice(0, end), 'utf8');
      this.pending = this.pending.slice(end);
      await this.sink(this.bytes.subarray(0, n));
    }
  }
}

/** Text appended in pieces to a temporary file, to be copied into one or more log files. */
export class Spool {
  private readonly text = new TextBuffer((bytes) => fs.appendFile(this.file, bytes));

  constructor(readonly file: string) {}

  write(text: string): Promise<void> {
    return this.text.write(text);
  }

  flush(): Promise<void> {
    return this.text.flush();
  }
}

let marks = 0;

/**
 * A JSON array spooled element by element. Placed as a value in the object given to
 * `LogFile.writeJson`, it stands for the array there; `depth` is the array's nesting depth (1 for
 * a member of the top-level object), which fixes its elements' indentation.
 */
export class JsonArraySpool {
  count = 0;
  private readonly mark = `\u0000spooled array ${++marks}\u0000`;
  private readonly indent: string;

  constructor(
    readonly spool: Spool,
    readonly depth: number,
  ) {
    this.indent = '  '.repeat(depth + 1);
  }

  async push(value: unknown): Promise<void> {
    const text = JSON.stringify(value, null, 2) ?? 'null';
    await this.spool.write(`${this.count++ ? ',\n' : ''}${this.indent}${text.replaceAll('\n', `\n${this.indent}`)}`);
  }

  /** What JSON.stringify writes in its place: a string found again in the text. */
  toJSON(): string {
    return this.mark;
  }

  /** The marker as it appears in JSON text. */
  get marker(): string {
    return JSON.stringify(this.mark);
  }
}

/**
 * One log file, written to `<path>.tmp` and renamed into place on close: a finished run's logs
 * are hard links into its store (read-only, shared with the workspaces that copied them), which a
 * resume must not write through.
 */
export class LogFile {
  private readonly text = new TextBuffer((bytes) => this.handle.write(bytes));

  private constructor(
    readonly path: string,
    private readonly handle: fs.FileHandle,
    private readonly onClosed?: (file: string) => void,
  ) {}

  static async open(file: string, onClosed?: (file: string) => void): Promise<LogFile> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    return new LogFile(file, await fs.open(`${file}.tmp`, 'w'), onClosed);
  }

  write(text: string): Promise<void> {
    return this.text.write(text);
  }

  /** Appends everything written to the spool so far (through one reused buffer). */
  async copy(spool: Spool): Promise<void> {
    await spool.flush();
    await this.text.flush();
    const from = await fs.open(spool.file, 'r').catch(() => null);
    if (!from) return; // nothing was spooled
    try {
      const chunk = Buffer.allocUnsafe(1 << 16);
      for (;;) {
        const { bytesRead } = await from.read(chunk, 0, chunk.length, null);
        if (!bytesRead) break;
        await this.handle.write(chunk, 0, bytesRead);
      }
    } finally {
      await from.close();
    }
  }

  /** `${JSON.stringify(value, null, 2)}\n`, with the spooled arrays in `value` written in place. */
  async writeJson(value: unknown, arrays: JsonArraySpool[] = []): Promise<void> {
    const text = `${JSON.stringify(value, null, 2)}\n`;
    const placed = arrays
      .map((a) => ({ a, at: text.indexOf(a.marker) }))
      .filter((p) => p.at >= 0)
      .sort((x, y) => x.at - y.at);
    let from = 0;
    for (const { a, at } of placed) {
      const lineStart = text.lastIndexOf('\n', at) + 1;
      const indent = text.slice(lineStart, at).match(/^ */)![0];
      if (indent.length !== 2 * a.depth)
        throw new Error(`a spooled array written at depth ${indent.length / 2}, not ${a.depth}`);
      await this.write(text.slice(from, at));
      if (a.count === 0) await this.write('[]');
      else {
        await this.write('[\n');
        await this.copy(a.spool);
        await this.write(`\n${indent}]`);
      }
      from = at + a.marker.length;
    }
    await this.write(text.slice(from));
  }

  async close(): Promise<void> {
    await this.text.flush();
    await this.handle.close();
    await fs.rename(`${this.path}.tmp`, this.path);
    this.onClosed?.(this.path);
  }
}
