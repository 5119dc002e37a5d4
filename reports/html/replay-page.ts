// The replay page: one replays/replay.html for every game of a run, opened as replay.html?id=<id>.
// It loads viewer.js (the shell and every game's renderer) and the game's <id>.view.js, its
// ViewerData as gzip in base64, which the browser inflates (DecompressionStream). Scripts load from
// file:// (fetch does not), so the page opens from the run directory with no server and no network.
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import path from 'node:path';
import type { ViewerData, ViewerModule } from '../../games/core/viewer.ts';
import { gameDescriptor, gameIds } from '../../games/registry.ts';
import type { Replay } from '../../records/match.ts';
import { gamePath, PROJECT_ROOT } from '../../util/paths.ts';
import { loadGameModule } from '../../games/modules.ts';
import { readReplayFile, replayMtime } from '../../records/replay-files.ts';
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

const gzip = promisify(zlib.gzip);

/** The shared page's name in a replays folder, and the address of one game on it (relative to the folder). */
export const REPLAY_PAGE = 'replay.html';
export const replayHref = (id: string) => `${REPLAY_PAGE}?id=${encodeURIComponent(id)}`;
/** A game's viewer data file beside its replay. */
export const viewDataFile = (replaysDir: string, id: string) => path.join(replaysDir, `${id}.view.js`);

/** The one replay page: reads ?id=, loads that game's <id>.view.js, inflates its data and shows it. */
export function sharedReplayPage(backLink?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>replay</title>
<style>${PAGE_CSS}${REPLAY_CSS}</style></head>
<body>${backLink ? `<p><a href="${escapeHtml(backLink)}">← report</a></p>` : ''}<div id="replay"></div>
<script src="viewer.js"></script>
<script>(function () {
  var id = new URLSearchParams(location.search).get('id') || '';
  var root = document.getElementById('replay');
  function say(text) { var p = document.createElement('p'); p.setAttribute('data-testid', 'replay-error'); p.textContent = text; root.replaceChildren(p); }
  if (!/^[A-Za-z0-9_-]+$/.test(id)) return say('no game named: open this page as replay.html?id=<match id> (the report links each game)');
  window.catarenaReplayData = function (base64) {
    var bytes = Uint8Array.from(atob(base64), function (c) { return c.charCodeAt(0); });
    new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(function (text) {
      var data = JSON.parse(text);
      document.title = data.game + ' ' + data.variant + ': ' + data.seats.join(' vs ');
      window.catarenaShowReplay(data);
    }, function (err) { say('cannot read the viewer data of ' + id + ': ' + err); });
  };
  var script = document.createElement('script');
  script.src = id + '.view.js';
  script.onerror = function () { say('no viewer data for ' + id + ' (' + id + '.view.js); rebuild it with: catarena report <run dir>'); };
  document.body.append(script);
})();</script>
</body></html>
`;
}

/** A game's viewer data file: its ViewerData, gzip in base64, handed to the shared page. */
export async function viewDataScript(data: ViewerData): Promise<string> {
  return `catarenaReplayData(${JSON.stringify((await gzip(JSON.stringify(data), { level: 9 })).toString('base64'))});\n`;
}

/**
 * Writes replays/viewer.js, replays/replay.html and replays/<id>.view.js for every replay given
 * (skipping data newer than its replay). `extra` adds what only the whole run knows (a Bridge
 * board's other room) to a game's extras. Returns the ids that can be shown (replay.html?id=<id>).
 */
export async function writeReplayPages(
  replaysDir: string,
  ids: readonly string[],
  options: { backLink?: string; extra?: (id: string) => Record<string, unknown> | undefined } = {},
): Promise<string[]> {
  const backLink = options.backLink ?? '../report.html';
  await fs.mkdir(replaysDir, { recursive: true });
  await fs.writeFile(
    path.join(replaysDir, 'viewer.js'),
    `${await viewerScript()}\n\n${await fs.readFile(SHELL, 'utf8')}`,
  );
  await fs.writeFile(path.join(replaysDir, REPLAY_PAGE), sharedReplayPage(backLink));
  const written: string[] = [];
  for (const id of ids) {
    const file = viewDataFile(replaysDir, id);
    const [src, out] = await Promise.all([replayMtime(replaysDir, id), fs.stat(file).catch(() => null)]);
    if (src === null) continue;
    if (out && out.mtimeMs >= src) {
      written.push(id);
      continue;
    }
    const data = await viewerDataOf(await readReplayFile(replaysDir, id));
    if (!data) continue;
    const more = options.extra?.(id);
    if (more) data.extra = { ...data.extra, ...more };
    await fs.writeFile(file, await viewDataScript(data));
    written.push(id);
  }
  return written;
}
