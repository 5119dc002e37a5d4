// dir:<path> — an agent that writes no code: it hands in a bot folder that already exists. The
// folder is either one bot (it has start_ai.sh: the same bot every round) or one bot per round
// (round_1/, round_2/, …: round n uses round_n, or the latest earlier one if round_n is missing).
// Useful for entering CATArena bots, human-written baselines or last month's winners.
import fs from 'node:fs';
import path from 'node:path';
import { copyTree } from '../../util/fs.ts';
import type { Agent, DevelopResult, Workspace } from '../core/types.ts';
import { linesOfCode } from '../core/lines-of-code.ts';
import { dirAgentId } from '../core/agent-id.ts';

export class DirAgent implements Agent {
  readonly kind: string;

  constructor(
    readonly id: string,
    private readonly root: string,
  ) {
    this.kind = `dir:${root}`;
    if (!fs.existsSync(root) || !fs.statSync(root).isDirectory()) throw new Error(`dir agent: ${root} is not a folder`);
    if (!fs.existsSync(path.join(root, 'start_ai.sh')) && this.rounds().length === 0) {
      throw new Error(`dir agent: ${root} has neither start_ai.sh nor round_<n>/ folders`);
    }
  }

  /** Round folders present, ascending. */
  private rounds(): number[] {
    return fs
      .readdirSync(this.root)
      .map((name) => /^round_(\d+)$/.exec(name))
      .filter((m): m is RegExpExecArray => m !== null && fs.existsSync(path.join(this.root, m[0], 'start_ai.sh')))
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
  }

  /** The folder for round n, and why. */
  source(round: number): { dir: string; why: string } {
    const rounds = this.rounds();
    if (!rounds.length) return { dir: this.root, why: `the fixed bot ${this.root}` };
    const pick = rounds.filter((r) => r <= round).at(-1);
    if (pick === undefined)
      throw new Error(`dir agent ${this.id}: no round_<n> folder for round ${round} or earlier in ${this.root}`);
    return {
      dir: path.join(this.root, `round_${pick}`),
      why: pick === round ? `round_${pick}` : `round_${pick} (no round_${round}: the latest earlier one)`,
    };
  }

  async develop(ws: Workspace): Promise<DevelopResult> {
    const started = Date.now();
    const { dir, why } = this.source(ws.round);
    // The folder itself may be a symlink (a bot kept elsewhere): copy what it points at, not the link.
    await copyTree(await fs.promises.realpath(dir), ws.outputDir);
    return {
      botDir: ws.outputDir,
      cost: { wallMs: Date.now() - started, toolCalls: 0, tokens: null, linesOfCode: await linesOfCode(ws.outputDir) },
      log: `copied ${why} into the workspace; no code was written`,
    };
  }
}

/**
 * dir:<path>[#name] → a DirAgent; the id is the folder's name (the link's, when the path is a
 * symlink) unless given after #. A symlinked path is followed to the folder it names.
 */
export function createDirAgent(spec: string): DirAgent {
  const m = /^dir:([^#]+)(?:#([\w.@-]+))?$/.exec(spec.trim());
  if (!m) throw new Error(`bad dir agent spec "${spec}": expected dir:<path> or dir:<path>#<id>`);
  const given = path.resolve(m[1]!);
  let root = given;
  try {
    root = fs.realpathSync(given);
  } catch {
    // A missing target: the constructor says the folder does not exist.
  }
  return new DirAgent(m[2] ?? dirAgentId(given), root);
}
