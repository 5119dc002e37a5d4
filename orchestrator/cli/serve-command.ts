// serve: a local web server over a runs folder (orchestrator/serve/server.ts, docs/serve.md).
import { type Command, Option } from 'commander';
import { SPECTATORS, type Spectator } from '../serve/spectator.ts';
import { intOption } from './options.ts';
import { printErr } from './print.ts';

interface ServeFlags {
  out: string;
  port: number;
  host: string;
  allowHost?: string[];
  queue?: string;
  spectator?: Spectator;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description(
      'Serve a live web view of the runs folder: every run (running, finished, killed), a live page per run (progress, agents developing, ' +
        "games in flight with their boards, W and the leaderboard filling in, failures; pushed as server-sent events), finished runs' report.html and replays; " +
        'with --queue the workers and the queue. Reads the runs, never writes them.',
    )
    .option('-o, --out <dir>', 'the runs folder', 'runs')
    .option('--port <port>', 'port', intOption(0, 65535), 8080)
    .option(
      '--host <host>',
      'address to listen on; anything but 127.0.0.1 prints a token the pages require',
      '127.0.0.1',
    )
    .option(
      '--allow-host <names>',
      'also answer to these host names (comma-separated: a name of this machine, a proxy in front of it); ' +
        'besides localhost, 127.0.0.1, [::1] and the --host address, every other Host header is refused (421)',
      (v: string) =>
        v
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean),
    )
    .option('--queue <redis-url>', 'also show the queue: workers, what each plays, depth and throughput')
    .addOption(
      new Option(
        '--spectator <view>',
        "what the live page shows of games in flight: full (every seat's cards) or public (only what every seat may see); " +
          "default: full for runs of bots, public for a run a person plays in (the human seat's games are always drawn from their seats' view until they end)",
      ).choices(SPECTATORS),
    )
    .action(async (opts: ServeFlags) => {
      const { ServeServer } = await import('../serve/server.ts');
      const queueStatus = opts.queue
        ? async () => (await import('../queue/status.ts')).queueStatus(opts.queue!)
        : undefined;
      const server = new ServeServer({
        out: opts.out,
        port: opts.port,
        host: opts.host,
        queue: opts.queue,
        queueStatus,
        ...(opts.allowHost ? { allowHosts: opts.allowHost } : {}),
        ...(opts.spectator ? { spectator: opts.spectator } : {}),
      });
      await server.start();
      printErr(`catarena serve: ${server.url}  (runs in ${opts.out}; Ctrl-C stops)`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await server.close();
    });
}
