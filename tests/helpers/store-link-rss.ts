// Child process of tests/file-store-memory.test.ts: links STORE_LINK_DIR/logs (one large log file)
// into STORE_LINK_DIR/store, compressing it, and prints the stats with how much the process's
// peak RSS grew while it did (resourceUsage's maxRSS, in kB, before and after).
import path from 'node:path';
import { linkIntoStore } from '../../orchestrator/run/file-store.ts';

const dir = process.env.STORE_LINK_DIR!;
const before = process.resourceUsage().maxRSS;
const stats = await linkIntoStore(path.join(dir, 'store'), [path.join(dir, 'logs')], { compress: () => true });
const grownKb = process.resourceUsage().maxRSS - before;
process.stdout.write(JSON.stringify({ stats, grownKb }));
