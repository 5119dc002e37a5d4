// The unsafe sandbox's hop to a bot's LLM when the run records (or replays) its model exchanges:
// an egress proxy on 127.0.0.1 in the orchestrator, the bot's base URL pointing at it. It adds
// the key itself (the bot holds a placeholder, as in the isolated sandboxes), so the recording
// sees every exchange and the key stays on the host.
import { egressFor } from './bot-env.ts';
import { PLACEHOLDER_KEY, startEgressProxy } from './egress-proxy.ts';
import type { ExchangeTap } from '../util/exchange-tape/tape.ts';

/** The relay of a bot folder that names its LLM endpoint, and the bot's variables for it; undefined for any other folder. */
export async function loopbackRelay(
  dir: string,
  tap: ExchangeTap,
): Promise<{ env: Record<string, string>; close(): Promise<void> } | undefined> {
  const egress = egressFor(dir);
  if (!egress) return undefined;
  const proxy = await startEgressProxy({
    allow: [],
    upstream: { url: egress.upstream, headers: egress.headers },
    listen: { port: 0 },
    tap,
  });
  const env: Record<string, string> = {
    [egress.baseUrlVar]: `${proxy.address}${new URL(egress.upstream).pathname.replace(/\/+$/, '')}`,
  };
  for (const v of egress.keyVars) env[v] = PLACEHOLDER_KEY;
  return { env, close: () => proxy.close() };
}
