// The append-only match journal: one JSON line per finished game, written when it ends. It is the
// source of truth for results: W, reports and resume are all rebuilt from it.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { MatchResult } from '../../records/match.ts';

export class Journal {
  private readonly byId = new Map<string, MatchResult>();

  private constructor(readonly file: string) {}

  /** Opens (or creates) a journal, loading what is there. A torn last line from a kill is skipped. */
  static async open(file: string): Promise<Journal> {
    const journal = new Journal(file);
    await fs.mkdir(path.dirname(file), { recursive: true });
    let text = '';
    try {
      text = await fs.readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      if (!line.trim()) return;
      try {
        const result = JSON.parse(line) as MatchResult;
        journal.byId.set(result.id, result);
      } catch {
        if (index < lines.length - 1 && lines.slice(index + 1).some((l) => l.trim())) {
          throw new Error(`${file}:${index + 1} is not valid JSON; the journal is damaged (fix or remove that line)`);
        }
      }
    });
    // Make sure the next append starts on a fresh line even after a torn write.
    if (text.length && !text.endsWith('\n')) await fs.appendFile(file, '\n');
    return journal;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): MatchResult | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.byId.size;
  }

  results(): MatchResult[] {
    return [...this.byId.values()];
  }

  async append(result: MatchResult): Promise<void> {
    if (this.byId.has(result.id)) return; // idempotent: a re-run game is not counted twice
    this.byId.set(result.id, result);
    await fs.appendFile(this.file, `${JSON.stringify(result)}\n`);
  }
}
