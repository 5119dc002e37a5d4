// The built-in agent's tools in Docker mode: file tools work on the mounted workspace exactly as
// in the process sandbox (confined to it), and every command runs in an agent container with the
// workspace at /workspace and no network (only the game server is relayed, for self-play). The
// LLM call stays on the host, so the container needs no egress and holds no key.
import { botRuntimeTag } from '../../docker/image-tags.ts';
import { AgentContainer } from '../../sandbox/agent-container.ts';
import type { Workspace } from '../core/types.ts';
import { ProcessAgentSandbox, type RunResult } from './tools.ts';

export class DockerAgentSandbox extends ProcessAgentSandbox {
  override readonly kind: string = 'docker';
  private container?: Promise<AgentContainer>;

  constructor(
    private readonly ws: Workspace,
    private readonly image: string = botRuntimeTag(),
  ) {
    super(ws.dir);
  }

  /** Started on the first command, so an agent that only writes files costs no container. */
  private ready(): Promise<AgentContainer> {
    const port = this.ws.gameServerUrl ? Number(new URL(this.ws.gameServerUrl).port) : undefined;
    this.container ??= AgentContainer.start({
      image: this.image,
      workspace: this.ws.dir,
      name: `${this.ws.agentId}-r${this.ws.round}`,
      ...(port ? { hostPorts: { [port]: port } } : {}),
    });
    return this.container;
  }

  override async run(command: string, timeoutMs: number, signal?: AbortSignal): Promise<RunResult> {
    return (await this.ready()).exec(command, { timeoutMs, signal });
  }

  override async close(): Promise<void> {
    await super.close();
    const c = await this.container?.catch(() => undefined);
    await c?.close();
  }
}
