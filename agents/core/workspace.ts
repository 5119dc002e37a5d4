// Round workspaces: what an agent may see when it develops its round-n strategy. Round 1: the
// game environment (instructions, protocol, a sample bot). Round n > 1: also every agent's
// round n−1 bot and the round n−1 logs — only the previous round, copied in, so nothing else
// of the run is reachable from the workspace. The run's opponentCode setting may leave the
// rivals' bots (and their build output) out (agents/core/opponent-view.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import { gameDescriptor } from '../../games/registry.ts';
import { copyTree, expandGzFiles } from '../../util/fs.ts';
import { WORKSPACE_LAYOUT } from '../../records/agent-activity.ts';
import { gamePath, referenceBotDir } from '../../util/paths.ts';
import type { TaskTrack } from '../../records/task-track.ts';
import { DEFAULT_OPPONENT_CODE, type OpponentCode } from '../../records/opponent-code.ts';
import { botsShown, dropRivalOutput } from './opponent-view.ts';
import { taskTrackSection } from './task-track-prompt.ts';
import type { Workspace } from './types.ts';

export interface WorkspaceInput {
  /** Folder to create the workspace in (must not exist or be empty). */
  dir: string;
  game: string;
  variant: string;
  round: number;
  agentId: string;
  seed: number;
  moveTimeoutMs: number;
  gameServerUrl?: string;
  /** The agent's task track (default standard): adds the track's section to the task. */
  taskTrack?: TaskTrack;
  /** Round n−1 material; required when round > 1. */
  previous?: { bots: Array<{ agent: string; dir: string }>; logsDir: string };
  /**
   * What it shows of rivals (default visible: every bot and the logs as given). Under hidden the
   * caller gives logs of the agent's own games only (`previous.logsDir`).
   */
  opponentCode?: OpponentCode;
}

export function envFolderName(game: string, variant: string): string {
  return variant === 'standard' ? game : `${game}_${variant}`;
}

export async function buildWorkspace(input: WorkspaceInput): Promise<Workspace> {
  const { dir, game, variant, round } = input;
  await fs.mkdir(dir, { recursive: true });
  const envDir = path.join(dir, envFolderName(game, variant));
  await copyTree(gamePath(game, 'env'), envDir);
  await copyTree(referenceBotDir(game, 'random'), path.join(envDir, 'AI_example'));
  await fs.mkdir(path.join(dir, WORKSPACE_LAYOUT.output), { recursive: true });
  if (round > 1) {
    if (!input.previous) throw new Error(`round ${round} workspace needs the previous round's bots and logs`);
    for (const bot of botsShown(input.previous.bots, input.agentId, input.opponentCode))
      await copyTree(bot.dir, path.join(dir, WORKSPACE_LAYOUT.lastRound, bot.agent));
    await copyTree(input.previous.logsDir, path.join(dir, WORKSPACE_LAYOUT.logs));
    await expandGzFiles(path.join(dir, WORKSPACE_LAYOUT.logs)); // a finished run's stored logs, as the round wrote them
    if ((input.opponentCode ?? DEFAULT_OPPONENT_CODE) !== 'visible')
      await dropRivalOutput(path.join(dir, WORKSPACE_LAYOUT.logs), input.agentId);
  }
  return describeWorkspace(input);
}

/**
 * A workspace built elsewhere (a queue's coordinator builds it, a worker develops in it), copied
 * to `input.dir`; its TASK.md names this machine's game server.
 */
export async function copyWorkspace(from: string, input: Omit<WorkspaceInput, 'previous'>): Promise<Workspace> {
  await copyTree(from, input.dir);
  await fs.mkdir(path.join(input.dir, WORKSPACE_LAYOUT.output), { recursive: true }); // an empty folder does not travel
  return describeWorkspace(input);
}

/** The Workspace of a built folder, with its task written to TASK.md. */
async function describeWorkspace(input: Omit<WorkspaceInput, 'previous'>): Promise<Workspace> {
  const { dir, game, variant, round } = input;
  const workspace: Workspace = {
    dir,
    game,
    variant,
    round,
    agentId: input.agentId,
    envDir: path.join(dir, envFolderName(game, variant)),
    outputDir: path.join(dir, WORKSPACE_LAYOUT.output),
    lastRoundDir: round > 1 ? path.join(dir, WORKSPACE_LAYOUT.lastRound) : undefined,
    logsDir: round > 1 ? path.join(dir, WORKSPACE_LAYOUT.logs) : undefined,
    task: '',
    taskTrack: input.taskTrack ?? 'standard',
    ...(input.opponentCode && input.opponentCode !== DEFAULT_OPPONENT_CODE ? { opponentCode: input.opponentCode } : {}),
    gameServerUrl: input.gameServerUrl,
    moveTimeoutMs: input.moveTimeoutMs,
    seed: input.seed,
  };
  workspace.task = taskText(workspace);
  await fs.writeFile(path.join(dir, 'TASK.md'), workspace.task);
  return workspace;
}

/** The development task in our words, following CATArena's prompt (compat §6.1, §6.2). */
export function taskText(ws: Workspace): string {
  const rel = (p: string) => `./${path.relative(ws.dir, p)}`;
  const lines = [
    `# Round ${ws.round}: develop a ${ws.game} strategy bot (${ws.variant} rules)`,
    '',
    `There is a game environment in \`${rel(ws.envDir)}\`. Read its README.md and, very important, develop_instruction.md` +
      ` and the rules of the ${ws.variant} rule set. Build the most competitive bot you can for a tournament against other agents' bots.`,
    '',
    `Develop directly in \`${rel(ws.outputDir)}\`. Provide \`start_ai.sh\` taking exactly one argument, the port, so that` +
      ' `bash start_ai.sh <port>` starts the service and `curl -s http://localhost:<port>/health` answers.',
    `Name the service \`${ws.agentId}_AI\`. Work without asking for next steps and report when done.`,
    `Each ${gameDescriptor(ws.game).workspace.answers} must be answered within ${ws.moveTimeoutMs} ms.`,
    ws.gameServerUrl ? `A live game server is at ${ws.gameServerUrl}; self-play against it is allowed.` : '',
    'Write the strategy yourself: no external engine or API, no package installs, no virtualenv. Do not modify the environment folder.',
  ];
  if (ws.round > 1 && ws.lastRoundDir && ws.logsDir) lines.push('', '## Last round', ...lastRoundText(ws, rel));
  return `${lines
    .filter((l) => l !== '')
    .join('\n')
    .replace(/\n## /g, '\n\n## ')}\n${taskTrackSection(ws.taskTrack ?? 'standard')}`;
}

/** The task's "Last round" lines: what the workspace holds of the previous round under the run's opponentCode. */
function lastRoundText(ws: Workspace, rel: (p: string) => string): string[] {
  const logs = `${gameDescriptor(ws.game).workspace.logFiles}, and \`round_report.json\` our summary (standings and head-to-head records)`;
  const lastRound = rel(ws.lastRoundDir!);
  switch (ws.opponentCode ?? DEFAULT_OPPONENT_CODE) {
    case 'visible':
      return [
        `The previous round's reports are in \`${rel(ws.logsDir!)}\`: ${logs}.`,
        `The previous round's code of every agent is in \`${lastRound}\` (one folder per agent, yours included). Learn from it and improve.`,
      ];
    case 'logs-only':
      return [
        `The previous round's reports of all games are in \`${rel(ws.logsDir!)}\`: ${logs}.`,
        `Your own previous round's code is in \`${lastRound}/${ws.agentId}\`. The other agents' code is not shown in this tournament: learn from the reports and improve.`,
      ];
    case 'hidden':
      return [
        `The previous round's reports of your own games are in \`${rel(ws.logsDir!)}\`: ${logs}.`,
        `Your own previous round's code is in \`${lastRound}/${ws.agentId}\`. The other agents' code and their games without you are not shown in this tournament: learn from your games and improve.`,
      ];
  }
}
