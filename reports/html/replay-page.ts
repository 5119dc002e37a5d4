// The replay page: one replays/replay.html for every game of a run, opened as replay.html?id=<id>.
// It loads viewer.js (the shell and every game's renderer), views.js (which bundle holds which
// game) and the game's bundle, view-<track>-<n>.js: its games' ViewerData as one gzip in base64,
// which the browser inflates (DecompressionStream). A bundle per track, not a file per game: a
// small file takes a whole disk block, and games of a track compress better together. Scripts
// load from file:// (fetch does not), so the page opens from the run directory with no server and
// no network.
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import path from 'node:path';
import type { ViewerData, ViewerModule, ViewerPerspective } from '../../games/core/viewer.ts';
import { gameDescriptor, gameIds } from '../../games/registry.ts';
import type { Replay } from '../../records/match.ts';
import { gamePath, PROJECT_ROOT } from '../../util/paths.ts';
import { loadGameModule } from '../../games/modules.ts';
import { readReplayFile, replayMtime } from '../../records/replay-files.ts';
import { escapeHtml, PAGE_CSS, scriptJson } from './page.ts';
import { writeFileAtomic } from '../../util/fs.ts';
import { RUN_FILES } from '../../records/run-layout.ts';

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

export const REPLAY_CSS = `
.main { display: flex; gap: 1.5rem; align-items: flex-start; flex-wrap: wrap; }
.main > * { min-width: 0; max-width: 100%; }
.board { min-width: min(320px, 100%); overflow: hidden; }
.side { max-height: 80vh; overflow: auto; min-width: min(16rem, 100%); }
.controls { display: flex; gap: .4rem; align-items: center; margin: .6rem 0; flex-wrap: wrap; }
.controls input[type=range] { width: 18rem; max-width: 100%; flex: 1 1 8rem; }
.moves.paired { list-style: none; padding-left: 0; }
.moves.paired li { display: grid; grid-template-columns: 2.5em minmax(4em, 7em) minmax(4em, 7em); gap: .3em; cursor: default; }
.moves.paired li span.ply { cursor: pointer; padding: 0 3px; }
.moves.paired li span.ply.current { background: #ffe9a8; }
.moves.paired li .no { color: #777; text-align: right; }
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
<script src="${RUN_FILES.viewer}"></script>
</body></html>
`;
}

/** Loads a game's viewer module (what its first viewerDataOf waits for); null for a game without one. */
export const viewerModuleOf = (game: string) => loadGameModule<ViewerModule['viewerData']>(game, 'viewer');

/** ViewerData of a replay, from its game's viewer module (as `perspective` may see it, when given); null for a game without one. */
export async function viewerDataOf(replay: Replay, perspective?: ViewerPerspective): Promise<ViewerData | null> {
  const viewerData = await viewerModuleOf(replay.result.spec.game);
  return viewerData ? viewerData(replay, perspective) : null;
}

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/** The shared page's name in a replays folder, and the address of one game on it (relative to the folder). */
export const REPLAY_PAGE = RUN_FILES.replayPage;
export const replayHref = (id: string) => `${REPLAY_PAGE}?id=${encodeURIComponent(id)}`;
/** The viewer data's index in a replays folder: which bundle holds each game. */
export const VIEW_INDEX = RUN_FILES.viewIndex;
/** A bundle of viewer data: view-<bundle>-<n>.js (`bundle` names a track). */
const bundleFile = (bundle: string, n: number) => `view-${bundle}-${n}.js`;
const BUNDLE_FILE = /^view-(.+)-(\d+)\.js$/;
/**
 * Games go together in one bundle up to this much JSON: the page inflates and parses a whole bundle
 * to show one, and the writer holds one bundle's data (and its gzip) at a time.
 */
const BUNDLE_JSON_BYTES = 1 << 20;
/** A game's viewer data file in runs written before bundles (one file per game, deleted when its bundle is written). */
const legacyViewFile = (replaysDir: string, id: string) => path.join(replaysDir, `${id}.view.js`);

/** The one replay page: reads ?id=, finds the game's bundle in views.js, loads it, inflates it and shows the game. */
export function sharedReplayPage(backLink?: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>replay</title>
<style>${PAGE_CSS}${REPLAY_CSS}</style></head>
<body>${backLink ? `<p><a href="${escapeHtml(backLink)}">← report</a></p>` : ''}<div id="replay"></div>
<script src="${RUN_FILES.viewer}"></script>
<script>(function () {
  var id = new URLSearchParams(location.search).get('id') || '';
  var root = document.getElementById('replay');
  function say(text) { var p = document.createElement('p'); p.setAttribute('data-testid', 'replay-error'); p.textContent = text; root.replaceChildren(p); }
  function missing() { say('no viewer data for ' + id + ' (${VIEW_INDEX} does not list it); rebuild it with: catarena report <run dir>'); }
  function load(src, onerror) { var s = document.createElement('script'); s.src = src; s.onerror = onerror; document.body.append(s); }
  if (!/^[A-Za-z0-9_-]+$/.test(id)) return say('no game named: open this page as replay.html?id=<match id> (the report links each game)');
  window.catarenaReplayIndex = function (index) {
    var file = Object.keys(index).find(function (f) { return index[f].indexOf(id) >= 0; });
    if (!file) return missing();
    load(file, function () { say('cannot load ' + file + ', the viewer data of ' + id + '; rebuild it with: catarena report <run dir>'); });
  };
  window.catarenaReplayBundle = function (base64) {
    var bytes = Uint8Array.from(atob(base64), function (c) { return c.charCodeAt(0); });
    new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text().then(function (text) {
      var data = JSON.parse(text)[id];
      if (!data) return missing();
      document.title = data.game + ' ' + data.variant + ': ' + data.seats.join(' vs ');
      window.catarenaShowReplay(data);
    }, function (err) { say('cannot read the viewer data of ' + id + ': ' + err); });
  };
  load('${VIEW_INDEX}', function () { say('no viewer data (${VIEW_INDEX}) beside this page; rebuild it with: catarena report <run dir>'); });
})();</script>
</body></html>
`;
}

/** A bundle's script: its games' ViewerData by id, as JSON, gzip in base64, handed to the shared page. */
async function bundleScript(entries: ReadonlyArray<[string, string]>): Promise<string> {
  const text = `{${entries.map(([id, json]) => `${JSON.stringify(id)}:${json}`).join(',')}}`;
  return `catarenaReplayBundle(${JSON.stringify((await gzip(text, { level: 9 })).toString('base64'))});\n`;
}

/** A bundle's games: id → ViewerData as JSON text. */
async function readBundle(file: string): Promise<Map<string, string>> {
  const script = await fs.readFile(file, 'utf8');
  const base64 = JSON.parse(/^catarenaReplayBundle\((".*")\);\s*$/s.exec(script)![1]!) as string;
  const all = JSON.parse((await gunzip(Buffer.from(base64, 'base64'))).toString('utf8')) as Record<string, unknown>;
  return new Map(Object.entries(all).map(([id, data]) => [id, JSON.stringify(data)]));
}

/** views.js: bundle file → the ids it holds; empty when there is none. */
export async function readViewIndex(replaysDir: string): Promise<Map<string, string[]>> {
  const text = await fs.readFile(path.join(replaysDir, VIEW_INDEX), 'utf8').catch(() => null);
  if (text === null) return new Map();
  return new Map(
    Object.entries(JSON.parse(/^catarenaReplayIndex\((.*)\);\s*$/s.exec(text)![1]!) as Record<string, string[]>),
  );
}

const indexScript = (index: Map<string, string[]>) =>
  `catarenaReplayIndex({\n${[...index]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([file, ids]) => `${JSON.stringify(file)}:${JSON.stringify(ids)}`)
    .join(',\n')}\n});\n`;

/** A game's viewer data, as the shared page finds it (views.js, then its bundle); null when it has none. */
export async function readViewData(replaysDir: string, id: string): Promise<ViewerData | null> {
  for (const [file, ids] of await readViewIndex(replaysDir))
    if (ids.includes(id)) {
      const json = (await readBundle(path.join(replaysDir, file))).get(id);
      return json === undefined ? null : (JSON.parse(json) as ViewerData);
    }
  return null;
}

/** writeReplayPages of one replays folder at a time: the tracks of a run write theirs as each finishes. */
const writing = new Map<string, Promise<unknown>>();

/**
 * Writes replays/viewer.js, replays/replay.html, and the viewer data of every replay given in
 * bundles of `bundle` (view-<bundle>-<n>.js, each game's data kept from the bundle while it is
 * newer than its replay), listed in views.js. `extra` adds what only the whole run knows (a Bridge
 * board's other room) to a game's extras. Returns the ids that can be shown (replay.html?id=<id>).
 */
export async function writeReplayPages(
  replaysDir: string,
  ids: readonly string[],
  options: { backLink?: string; bundle?: string; extra?: (id: string) => Record<string, unknown> | undefined } = {},
): Promise<string[]> {
  const key = path.resolve(replaysDir);
  const previous = writing.get(key) ?? Promise.resolve();
  const done = previous.catch(() => {}).then(() => writeReplayPagesNow(replaysDir, ids, options));
  writing.set(key, done);
  try {
    return await done;
  } finally {
    if (writing.get(key) === done) writing.delete(key);
  }
}

type ReplayPagesOptions = {
  backLink?: string;
  bundle?: string;
  extra?: (id: string) => Record<string, unknown> | undefined;
};

async function writeReplayPagesNow(
  replaysDir: string,
  ids: readonly string[],
  options: ReplayPagesOptions,
): Promise<string[]> {
  const backLink = options.backLink ?? `../${RUN_FILES.reportHtml}`;
  const bundle = (options.bundle ?? 'games').replace(/[^A-Za-z0-9_-]/g, '_');
  await fs.mkdir(replaysDir, { recursive: true });
  await fs.writeFile(
    path.join(replaysDir, RUN_FILES.viewer),
    `${await viewerScript()}\n\n${await fs.readFile(SHELL, 'utf8')}`,
  );
  await fs.writeFile(path.join(replaysDir, REPLAY_PAGE), sharedReplayPage(backLink));
  const w = new BundleWriter(replaysDir, bundle, ids, await readViewIndex(replaysDir));
  await w.addNamed(options.extra);
  await w.keepUnnamed();
  await w.finish();
  return ids.filter((id) => w.shown.has(id));
}

/**
 * One bundle's rewrite (writeReplayPagesNow). Games go into bundles as they come, each bundle
 * written when full: the track's data is never held whole. New bundles are written beside the old
 * ones (.new) and replace them at the end, so games kept from an old bundle can still be read from it.
 */
class BundleWriter {
  /** The bundle's files before this call. */
  private readonly mine: string[];
  /** Each game the bundle held: its bundle file and that file's time. */
  private readonly before = new Map<string, { file: string; mtime: number }>();
  /** Each old bundle file's games, as JSON (to tell an unchanged bundle) and as a list. */
  private readonly held: Map<string, string>;
  private readonly oldIndex: Map<string, string[]>;
  private openBundle: { file: string; games: Map<string, string> } | null = null;
  readonly shown = new Set<string>();
  private readonly kept = new Set<string>();
  private readonly replaced: string[] = [];
  private chunk: Array<[string, string]> = [];
  private size = 0;
  private bundles = 0;

  constructor(
    private readonly replaysDir: string,
    private readonly bundle: string,
    private readonly ids: readonly string[],
    /** The view index: other bundles' entries stay, this bundle's are written anew. */
    private readonly index: Map<string, string[]>,
  ) {
    this.mine = [...index.keys()].filter((f) => BUNDLE_FILE.exec(f)?.[1] === bundle);
    this.held = new Map(this.mine.map((f) => [f, JSON.stringify(index.get(f))]));
    this.oldIndex = new Map(this.mine.map((f) => [f, index.get(f)!]));
  }

  /**
   * What this bundle held: each game's bundle file and its time; a game's data is kept while the
   * file is newer than its replay. Read back one bundle at a time, as games are kept from it.
   */
  private async readBefore(): Promise<void> {
    for (const file of this.mine) {
      let st: fsSync.Stats;
      try {
        st = fsSync.statSync(path.join(this.replaysDir, file));
      } catch {
        continue;
      }
      for (const id of this.oldIndex.get(file)!) this.before.set(id, { file, mtime: st.mtimeMs });
    }
    for (const file of this.mine) this.index.delete(file);
  }

  private async oldJson(file: string, id: string): Promise<string | undefined> {
    if (this.openBundle?.file !== file)
      this.openBundle = { file, games: await readBundle(path.join(this.replaysDir, file)) };
    return this.openBundle.games.get(id);
  }

  private async flush(): Promise<void> {
    const { chunk } = this;
    if (!chunk.length) return;
    const file = bundleFile(this.bundle, ++this.bundles);
    const unchanged =
      this.mine.includes(file) &&
      chunk.every(([id]) => this.kept.has(id)) &&
      this.held.get(file) === JSON.stringify(chunk.map(([id]) => id));
    if (!unchanged) {
      await fs.writeFile(path.join(this.replaysDir, `${file}.new`), await bundleScript(chunk));
      this.replaced.push(file);
    }
    this.index.set(
      file,
      chunk.map(([id]) => id),
    );
    this.chunk = [];
    this.size = 0;
  }

  private async add(id: string, json: string): Promise<void> {
    if (this.chunk.length && this.size + json.length > BUNDLE_JSON_BYTES) await this.flush();
    this.chunk.push([id, json]);
    this.size += json.length;
    this.shown.add(id);
  }

  /**
   * An old bundle that would be written again as it is (the same games in the same order, all
   * kept, and after them the game its successor began with) is taken whole, without reading it:
   * a tourney adds each round's games after the bundles of the rounds before.
   */
  private async wholeBundle(at: number): Promise<string[] | null> {
    const { ids, mine, oldIndex } = this;
    if (this.chunk.length) return null;
    const file = bundleFile(this.bundle, this.bundles + 1);
    const next = bundleFile(this.bundle, this.bundles + 2);
    const games = mine.includes(file) && mine.includes(next) ? oldIndex.get(file)! : null;
    if (!games?.length || ids[at + games.length] !== oldIndex.get(next)![0]) return null;
    for (let k = 0; k <= games.length; k++) {
      const id = ids[at + k]!;
      const old = this.before.get(id);
      const src = await replayMtime(this.replaysDir, id);
      if (this.shown.has(id) || src === null || !old || old.mtime < src) return null;
      if (k < games.length && (id !== games[k] || old.file !== file)) return null;
    }
    return games;
  }

  /** The games named, in order: whole old bundles, kept data, or data read anew from the replay. */
  async addNamed(extra: ReplayPagesOptions['extra']): Promise<void> {
    await this.readBefore();
    const { ids, replaysDir } = this;
    for (let at = 0; at < ids.length; at++) {
      const whole = await this.wholeBundle(at);
      if (whole) {
        this.index.set(bundleFile(this.bundle, ++this.bundles), whole);
        for (const id of whole) {
          this.kept.add(id);
          this.shown.add(id);
        }
        at += whole.length - 1;
        continue;
      }
      const id = ids[at]!;
      if (this.shown.has(id)) continue;
      const src = await replayMtime(replaysDir, id);
      if (src === null) continue;
      const old = this.before.get(id);
      const json = old && old.mtime >= src ? await this.oldJson(old.file, id) : undefined;
      if (json !== undefined) {
        this.kept.add(id);
        await this.add(id, json);
        continue;
      }
      const data = await viewerDataOf(await readReplayFile(replaysDir, id));
      if (!data) continue;
      const more = extra?.(id);
      if (more) data.extra = { ...data.extra, ...more };
      await this.add(id, JSON.stringify(data));
    }
  }

  /** Games the bundle held that this call did not name stay, while their replay does. */
  async keepUnnamed(): Promise<void> {
    for (const [id, old] of this.before) {
      if (this.shown.has(id) || (await replayMtime(this.replaysDir, id)) === null) continue;
      const json = await this.oldJson(old.file, id);
      if (json === undefined) continue;
      this.kept.add(id);
      await this.add(id, json);
    }
  }

  /** The last bundle written, the new ones in place of the old, the view index, legacy files gone. */
  async finish(): Promise<void> {
    const { replaysDir } = this;
    await this.flush();
    for (const file of this.replaced)
      await fs.rename(path.join(replaysDir, `${file}.new`), path.join(replaysDir, file));
    for (const file of this.mine) if (!this.index.has(file)) await fs.rm(path.join(replaysDir, file), { force: true });
    await writeFileAtomic(path.join(replaysDir, VIEW_INDEX), indexScript(this.index));
    // A run written before bundles: its per-game files are in the bundle now (removed synchronously:
    // a tourney's thousand games would be as many hops to libuv's pool, most for files not there).
    for (const id of this.shown) fsSync.rmSync(legacyViewFile(replaysDir, id), { force: true });
  }
}
