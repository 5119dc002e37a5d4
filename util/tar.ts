// A minimal .tar.gz writer and a strict reader (ustar with pax long names), with node:zlib alone:
// no tar package is a dependency and bundles need only regular files. The writer streams each
// file and returns its SHA-256; the reader extracts into a folder it is given and refuses what a
// hostile archive could use to write elsewhere or mislead: absolute or `..` paths, links, devices,
// fifos, an entry named twice, a bad header checksum. docs/bundles.md.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import zlib from 'node:zlib';

const BLOCK = 512;
/** ustar's size field: 11 octal digits. */
const MAX_SIZE = 8 ** 11 - 1;
const PIECE = 64 * 1024;

const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;

function header(name: string, size: number, type: '0' | 'x'): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(0, 12), 136, 'ascii'); // mtime 0: the same files make the same bundle
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\0' + '00', 257, 'ascii');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

/** A pax record `<len> path=<name>\n`, whose length counts its own digits. */
function paxPath(name: string): Buffer {
  const body = ` path=${name}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len) len++;
  return Buffer.from(`${len}${body}`);
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Writes a .tar.gz one file at a time; `create` refuses an existing file unless `overwrite`. */
export class TarGzWriter {
  private constructor(
    private readonly gzip: zlib.Gzip,
    private readonly out: WriteStream,
  ) {}

  static async create(file: string, options: { overwrite?: boolean } = {}): Promise<TarGzWriter> {
    const out = createWriteStream(file, { flags: options.overwrite ? 'w' : 'wx', mode: 0o644 });
    await once(out, 'open');
    const gzip = zlib.createGzip({ level: 6 });
    gzip.pipe(out);
    return new TarGzWriter(gzip, out);
  }

  private async write(chunk: Buffer): Promise<void> {
    if (!this.gzip.write(chunk)) await once(this.gzip, 'drain');
  }

  private async entryHeader(name: string, size: number): Promise<void> {
    if (size > MAX_SIZE) throw new Error(`${name} is larger than a tar entry can hold (8 GiB)`);
    if (Buffer.byteLength(name) > 100) {
      const pax = paxPath(name);
      await this.write(header('pax-header', pax.length, 'x'));
      await this.write(Buffer.concat([pax, padding(pax.length)]));
    }
    await this.write(header(Buffer.byteLength(name) > 100 ? name.slice(0, 90) : name, size, '0'));
  }

  /** Adds a file from memory; returns its SHA-256 (hex). */
  async addBuffer(name: string, data: Buffer): Promise<string> {
    await this.entryHeader(name, data.length);
    await this.write(Buffer.concat([data, padding(data.length)]));
    return createHash('sha256').update(data).digest('hex');
  }

  /**
   * Adds `size` bytes of an open file (the caller opened it without following links and checked
   * it is a regular file); returns its SHA-256. A file that shrank meanwhile is an error.
   */
  async addHandle(name: string, handle: fs.FileHandle, size: number): Promise<string> {
    await this.entryHeader(name, size);
    const hash = createHash('sha256');
    let done = 0;
    while (done < size) {
      const piece = Buffer.alloc(Math.min(PIECE, size - done));
      const { bytesRead } = await handle.read(piece, 0, piece.length, done);
      if (bytesRead === 0) throw new Error(`${name} shrank while it was exported`);
      const data = piece.subarray(0, bytesRead);
      hash.update(data);
      await this.write(data);
      done += bytesRead;
    }
    await this.write(padding(size));
    return hash.digest('hex');
  }

  /** Stops writing after a failure: the streams are closed (the caller removes the file). */
  abort(): void {
    this.gzip.destroy();
    this.out.destroy();
  }

  /** Ends the archive (two zero blocks) and waits for the file to be written. */
  async close(): Promise<void> {
    await this.write(Buffer.alloc(2 * BLOCK));
    this.gzip.end();
    await once(this.out, 'close');
  }
}

/** Reads exact byte counts from a stream of chunks. */
class ByteReader {
  private chunks: Buffer[] = [];
  private held = 0;
  private readonly iterator: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  /** Up to `n` bytes (fewer only at the end of the stream). */
  async read(n: number): Promise<Buffer> {
    while (this.held < n) {
      const next = await this.iterator.next();
      if (next.done) break;
      this.chunks.push(next.value);
      this.held += next.value.length;
    }
    const all = Buffer.concat(this.chunks);
    const out = all.subarray(0, n);
    this.chunks = all.length > n ? [all.subarray(n)] : [];
    this.held = all.length - out.length;
    return out;
  }
}

/** A refused archive: the message names the entry and why. */
export class HostileArchiveError extends Error {}

const ENTRY_TYPES: Record<string, string> = {
  '1': 'a hard link',
  '2': 'a symbolic link',
  '3': 'a character device',
  '4': 'a block device',
  '6': 'a fifo',
  '7': 'a contiguous file',
};

/** An entry's name as a relative path of plain segments, or an error saying why it is refused. */
export function safeEntryPath(name: string): string {
  if (!name || name.includes('\0')) throw new HostileArchiveError(`an entry has an empty or NUL-containing name`);
  if (name.startsWith('/')) throw new HostileArchiveError(`entry "${name}" has an absolute path: refused`);
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new HostileArchiveError(`entry "${name}" climbs out with "..": refused`);
  if (!parts.length) throw new HostileArchiveError(`entry "${name}" names no file`);
  return parts.join('/');
}

function field(h: Buffer, start: number, length: number): string {
  const raw = h.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? length : end).toString('utf8');
}

function parseHeader(h: Buffer): { name: string; size: number; type: string } {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
  const stored = Number.parseInt(field(h, 148, 8).trim(), 8);
  if (stored !== sum) throw new HostileArchiveError('a tar header checksum is wrong: the bundle is damaged');
  const sizeText = field(h, 124, 12).trim();
  if (!/^[0-7]*$/.test(sizeText)) throw new HostileArchiveError('a tar header holds a size that is not octal');
  const prefix = field(h, 345, 155);
  const name = field(h, 0, 100);
  return {
    name: prefix ? `${prefix}/${name}` : name,
    size: Number.parseInt(sizeText || '0', 8),
    type: field(h, 156, 1),
  };
}

function paxRecords(data: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const len = Number(data.subarray(at, space).toString('ascii'));
    if (space < 0 || !Number.isInteger(len) || len <= 0) throw new HostileArchiveError('a pax header is malformed');
    const record = data.subarray(space + 1, at + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    out[record.slice(0, eq)] = record.slice(eq + 1);
    at += len;
  }
  return out;
}

/** What extraction wrote: each file's relative path with its SHA-256 and size. */
export type ExtractedFiles = Map<string, { sha256: string; size: number }>;

/** Streams one entry's content into `file` (created, never overwritten), hashing it. */
async function extractEntry(reader: ByteReader, file: string, size: number): Promise<string> {
  const hash = createHash('sha256');
  const out = await fs.open(file, 'wx', 0o644);
  try {
    let left = size;
    while (left > 0) {
      const data = await reader.read(Math.min(PIECE, left));
      if (data.length === 0) throw new HostileArchiveError(`the archive ends inside ${file}`);
      hash.update(data);
      await out.write(data);
      left -= data.length;
    }
  } finally {
    await out.close();
  }
  await reader.read(padding(size).length);
  return hash.digest('hex');
}

/**
 * Extracts a .tar.gz into `into` (an empty folder the caller made): regular files and folders
 * only, every path inside `into`. Throws HostileArchiveError on anything else.
 */
export async function extractTarGz(file: string, into: string): Promise<ExtractedFiles> {
  const reader = new ByteReader(createReadStream(file).pipe(zlib.createGunzip()));
  const files: ExtractedFiles = new Map();
  let longName: string | undefined;
  for (;;) {
    const block = await reader.read(BLOCK);
    if (block.length < BLOCK) throw new HostileArchiveError('the archive ends without its end marker: it is truncated');
    if (block.every((b) => b === 0)) break;
    const h = parseHeader(block);
    if (h.type === 'x' || h.type === 'g' || h.type === 'L') {
      const data = await reader.read(h.size);
      await reader.read(padding(h.size).length);
      if (h.type === 'x') longName = paxRecords(data).path ?? longName;
      if (h.type === 'L') longName = data.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    const raw = longName ?? h.name;
    longName = undefined;
    if (h.type === '5' && raw.split('/').every((p) => p === '' || p === '.')) continue; // "./": the root
    const name = safeEntryPath(raw);
    if (ENTRY_TYPES[h.type]) throw new HostileArchiveError(`entry "${name}" is ${ENTRY_TYPES[h.type]}: refused`);
    const target = path.join(into, ...name.split('/'));
    if (h.type === '5') {
      await fs.mkdir(target, { recursive: true });
      continue;
    }
    if (h.type !== '0' && h.type !== '\0' && h.type !== '')
      throw new HostileArchiveError(`entry "${name}" has the unknown type "${h.type}": refused`);
    if (files.has(name)) throw new HostileArchiveError(`entry "${name}" appears twice: refused`);
    await fs.mkdir(path.dirname(target), { recursive: true });
    files.set(name, { sha256: await extractEntry(reader, target, h.size), size: h.size });
  }
  return files;
}
