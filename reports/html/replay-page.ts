// Replay pages: replays/<id>.html beside replays/<id>.json, each a small file with its ViewerData
// inline and <script src="viewer.js">: one replays/viewer.js (the shell and every game's renderer)
// serves them all. Scripts load from file:// (only fetch does not), so the pages open from the
// run directory with no server and no network.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ViewerData, ViewerModule } from '../../games/core/viewer.ts';
import { gameDescriptor, gameIds } from '../../games/registry.ts';
import type { Replay } from '../../model/match.ts';
import { gamePath, PROJECT_ROOT } from '../../util/paths.ts';
import { loadGameModule } from '../../games/modules.ts';
import { escapeHtml, PAGE_CSS, scriptJson } from './page.ts';

const SHELL = path.join(PROJECT_ROOT, 'reports', 'html', 'viewer-shell.js');
const KIT = path.join(PROJECT_ROOT, 'reports', 'html', 'viewer-kit.js');

/** The viewer script every replay page loads: the renderers' shared helpers, each game's renderer, then the shell. */
export async function viewerScript(): Promise<string> {
  const parts: string[] = ['window.catarenaViewers = window.catarenaViewers || {};', await fs.readFile(KIT, 'utf8')];
  for (const game of gameIds()) {
    const file = gameDescriptor(game).modules.viewerScript;
    if (file) parts.push(`// ${game}\n${await fs.readFile(gamePath(game, file), 'utf8')}`);
  }
  return parts.join('\n\n');
}

const REPLAY_CSS = `
.main { display: flex; gap: 1.5rem; align-items: flex-start; flex-wrap: wrap; }
.board { min-width: 320px; }
.side { max-height: 80vh; overflow: auto; min-width: 16rem; }
.controls { display: flex; gap: .4rem; align-items: center; margin: .6rem 0; }
.controls input[type=range] { width: 18rem; }
.moves { padding-left: 4.2em; margin: 0; }
.moves li { cursor: pointer; padding: 1px 4px; content-visibility: auto; contain-intrinsic-size: auto 20px; }
.moves li.current { background: #ffe9a8; }
.moves li.failed { color: #555; }
.moves .error { color: #b00020; }

.result { font-weight: 600; }
`;

/** The HTML of one replay page. */
export function replayPage(data: ViewerData, backLink?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${data.game} ${data.variant}: ${data.seats.join(' vs ')}`)}</title>
<style>${PAGE_CSS}${REPLAY_CSS}</style></head>
<body>${backLink ? `<p><a href="${escapeHtml(backLink)}">← report</a></p>` : ''}<div id="replay"></div>
<script>window.CATARENA_REPLAY = ${scriptJson(data)};</script>
<script src="viewer.js"></script>
</body></html>
`;
}

/** ViewerData of a replay, from its game's viewer module; null for a game without one. */
export async function viewerDataOf(replay: Replay): Promise<ViewerData | null> {
  const viewerData = await loadGameModule<ViewerModule['viewerData']>(replay.result.spec.game, 'viewer');
  return viewerData ? viewerData(replay) : null;
}

/**
 * Writes replays/viewer.js and replays/<id>.html for every replay given (skipping pages newer
 * than their JSON). `extra` adds what only the whole run knows (a Bridge board's other room) to
 * a page's extras. Returns the ids that got a page.
 */
export async function writeReplayPages(replaysDir: string, ids: readonly string[], options: { backLink?: string; extra?: (id: string) => Record<string, unknown> | undefined } = {}): Promise<string[]> {
  const backLink = options.backLink ?? '../report.html';
  await fs.mkdir(replaysDir, { recursive: true });
  await fs.writeFile(path.join(replaysDir, 'viewer.js'), `${await viewerScript()}\n\n${await fs.readFile(SHELL, 'utf8')}`);
  const written: string[] = [];
  for (const id of ids) {
    const json = path.join(replaysDir, `${id}.json`);
    const html = path.join(replaysDir, `${id}.html`);
    const [src, out] = await Promise.all([fs.stat(json).catch(() => null), fs.stat(html).catch(() => null)]);
    if (!src) continue;
    if (out && out.mtimeMs >= src.mtimeMs) {
      written.push(id);
      continue;
    }
    const data = await viewerDataOf(JSON.parse(await fs.readFile(json, 'utf8')) as Replay);
    if (!data) continue;
    const more = options.extra?.(id);
    if (more) data.extra = { ...data.extra, ...more };
    await fs.writeFile(html, replayPage(data, backLink));
    written.push(id);
  }
  return written;
}
