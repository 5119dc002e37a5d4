// serve: a local web server over a runs folder (orchestrator/serve/server.ts, docs/serve.md).
import type { Command } from 'commander';
import { intOption } from './options.ts';

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
    .option('--queue <redis-url>', 'also show the queue: workers, what each plays, depth and throughput')
    .action(async (opts: { out: string; port: number; host: string; queue?: string }) => {
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
      });
      await server.start();
      process.stderr.write(`catarena serve: ${server.url}  (runs in ${opts.out}; Ctrl-C stops)\n`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await server.close();
    });
}
