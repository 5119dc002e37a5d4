// What the offline agents hand in on the go and ml task tracks, where the tuned heuristic bots
// (JavaScript, games/<game>/bots/heuristic) would fail the language check: the game's Go
// reference bot (games/<game>/bots/go), or its ML reference (games/<game>/bots/ml), whose model
// is trained here with scikit-learn on self-play within a budget (its train.py). The js and
// standard tracks keep the tuned heuristic bots, which are JavaScript already.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { gameIds } from '../../games/registry.ts';
import type { TaskTrack } from '../../records/task-track.ts';
import { copyTree } from '../../util/fs.ts';
import { referenceBotDir } from '../../util/paths.ts';
import type { DevelopResult, Workspace } from '../core/types.ts';
import { linesOfCode } from '../core/lines-of-code.ts';
import { TOOL_LOG_FILE, WORKSPACE_LAYOUT, type ToolLogLine } from '../../records/agent-activity.ts';

/** The reference bot folder name of the tracks that need their own bot. */
const TRACK_BOT: Partial<Record<TaskTrack, string>> = { go: 'go', ml: 'ml' };

/** Self-play budget of the ML training: a quarter of the development budget, 5 to 20 s. */
export const mlTrainingBudgetS = (developWallMs: number) =>
  Math.max(5, Math.min(20, Math.round(developWallMs / 4_000)));

/** Whether the track needs its own reference bot rather than the tuned heuristic one. */
export const needsTrackReference = (track: TaskTrack | undefined): track is 'go' | 'ml' =>
  !!track && !!TRACK_BOT[track];

/** The games with a reference bot for the track (e.g. "gomoku, chess" for go). */
export function gamesWithTrackReference(track: 'go' | 'ml'): string[] {
  return gameIds().filter((g) => fs.existsSync(path.join(referenceBotDir(g, TRACK_BOT[track]!), 'start_ai.sh')));
}

/** The track's reference bot folder for the game; an error naming the games that have one. */
export function trackReferenceDir(game: string, track: 'go' | 'ml'): string {
  const dir = referenceBotDir(game, TRACK_BOT[track]!);
  if (!fs.existsSync(path.join(dir, 'start_ai.sh'))) {
    throw new Error(
      `no ${track} reference bot for ${game} (games/${game}/bots/${TRACK_BOT[track]}); offline agents play the ${track} task track in: ${gamesWithTrackReference(track).join(', ') || 'no game'}`,
    );
  }
  return dir;
}

/** Copies the track's reference bot into the workspace's output folder and, for ml, trains its model. */
export async function developTrackReference(
  ws: Workspace,
  track: 'go' | 'ml',
  who: { self: string; kind: string; seed: number; wallMs: number },
): Promise<DevelopResult> {
  const t0 = Date.now();
  const ref = trackReferenceDir(ws.game, track);
  fs.mkdirSync(ws.outputDir, { recursive: true });
  await copyTree(ref, ws.outputDir);
  let files = fs.readdirSync(ref).length;
  const notes = [`copied the ${track} reference bot games/${ws.game}/bots/${TRACK_BOT[track]} (${files} files)`];
  if (track === 'ml') {
    const budget = mlTrainingBudgetS(who.wallMs);
    // The bots' PATH (sandbox/process.ts): the Debian python3 with numpy and scikit-learn, as in the bot image.
    const r = await execa('python3', ['-B', 'train.py', '--budget-s', String(budget), '--seed', String(who.seed)], {
      cwd: ws.outputDir,
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' },
      extendEnv: false,
      reject: false,
      all: true,
      timeout: (budget + 120) * 1000,
    });
    if (r.exitCode !== 0) {
      const tail = String(r.all ?? '')
        .trim()
        .split('\n')
        .slice(-5)
        .join(' / ');
      throw new Error(
        `training the ml reference model failed (${r.timedOut ? 'timed out' : `exit ${r.exitCode}`}): ${tail || 'no output'}. It needs python3 with numpy and scikit-learn (apt-get install python3-sklearn)`,
      );
    }
    files += 2;
    notes.push(
      `trained the model with scikit-learn on self-play within ${budget} s (seed ${who.seed}): ${String(r.stdout)
        .trim()
        .replace(/^train: /, '')}`,
    );
  }
  fs.writeFileSync(
    path.join(ws.outputDir, 'NOTES.md'),
    [
      `# ${who.self}, round ${ws.round} (${who.kind}, ${track} task track)`,
      '',
      ...notes.map((n) => `- ${n}`),
      "- the character's knobs apply to the heuristic JavaScript bots only: this bot is the same for every offline character (apart from the training seed)",
      '',
    ].join('\n'),
  );
  // The tool log the other offline agents keep (records/agent-activity.ts): this one reads nothing of
  // the workspace, it writes its bot folder.
  const written = fs.readdirSync(ws.outputDir).sort();
  const log: ToolLogLine[] = written.map((f, k) => ({
    attempt: 1,
    step: k + 1,
    tool: 'write_file',
    input: { path: `${WORKSPACE_LAYOUT.output}/${f}` },
    ok: true,
  }));
  fs.writeFileSync(path.join(ws.dir, TOOL_LOG_FILE), log.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return {
    botDir: ws.outputDir,
    cost: {
      wallMs: Date.now() - t0,
      toolCalls: 2 * files + 1,
      tokens: null,
      linesOfCode: await linesOfCode(ws.outputDir),
    },
    log: [
      `${who.self} (${who.kind}), ${ws.game}/${ws.variant}, round ${ws.round}, ${track} task track`,
      ...notes.map((n) => `- ${n}`),
    ].join('\n'),
  };
}
