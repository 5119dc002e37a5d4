// A real Chromium (Debian's /usr/bin/chromium through playwright-core; never a browser download)
// for testing catarena's HTML pages as a user opens them: from file://, with every console error,
// page error and network request recorded, and a screenshot kept when CATARENA_TEST_SHOTS names a folder.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = process.env.CATARENA_CHROMIUM ?? '/usr/bin/chromium';

/** True when the browser tests can run here (Chromium installed). */
export const hasChromium = fs.existsSync(CHROMIUM);

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * One Chromium for every browser test file a vitest worker runs (files share a worker's modules:
 * isolate is off), instead of a launch per file: a launch and close cost about 3 s of CPU here.
 * Pages are what files open and close; the browser goes when the worker exits (Playwright kills
 * the browsers it launched on exit, and Chromium exits when its pipe to the worker closes).
 */
export function sharedChromium(): Promise<Browser> {
  const holder = globalThis as { __catarenaChromium?: Promise<Browser> };
  holder.__catarenaChromium ??= launchChromium().then((browser) => {
    browser.on('disconnected', () => {
      if (holder.__catarenaChromium) delete holder.__catarenaChromium; // a crashed browser is launched again
    });
    return browser;
  });
  return holder.__catarenaChromium;
}

export interface OpenedPage {
  page: Page;
  /** Console errors and uncaught page errors. */
  errors: string[];
  /** Every request the page made that is not a file:// URL of the page's own folder tree. */
  outside: string[];
  /** Every URL requested. */
  requests: string[];
}

/** Whether a request of a page a local server serves at `url` stays on its origin (data: URLs do). */
export function onOriginOf(url: string): (request: string) => boolean {
  const origin = new URL(url).origin;
  return (request) => request.startsWith(`${origin}/`) || request.startsWith('data:');
}

/** Whether a request of a local file page stays inside the folder tree `root` (data: and about: URLs do). */
export function insideFolder(root: string): (request: string) => boolean {
  const rootUrl = pathToFileURL(root).href;
  return (request) => request.startsWith(rootUrl) || request.startsWith('data:') || request.startsWith('about:');
}

/** What a run's shared replay page (replays/replay.html?id=<id>) shows once it has drawn a game, or failed to. */
export const REPLAY_DRAWN = '[data-testid=step], [data-testid=replay-error]';

/** The query that opens game `id` on a run's shared replay page. */
export const replayQuery = (id: string) => `?id=${encodeURIComponent(id)}`;

/** Opens a page a local server serves and records what it does: any request off its origin (but data:) is outside. */
export async function openUrl(browser: Browser, url: string): Promise<Pick<OpenedPage, 'page' | 'errors' | 'outside'>> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const inside = onOriginOf(url);
  const errors: string[] = [];
  const outside: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    if (!inside(r.url())) outside.push(r.url());
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors, outside };
}

/** Opens one game on a run's shared replay page (replays/replay.html?id=<id>) once it is drawn. */
export async function openReplayPage(
  browser: Browser,
  replaysDir: string,
  id: string,
  root = path.dirname(replaysDir),
): Promise<OpenedPage> {
  const opened = await openFile(browser, path.join(replaysDir, 'replay.html'), root, replayQuery(id));
  await opened.page.waitForSelector(REPLAY_DRAWN);
  return opened;
}

/** Opens a local file (with a query string) and records what it does; `root` bounds the files it may load. */
export async function openFile(
  browser: Browser,
  file: string,
  root = path.dirname(file),
  query = '',
): Promise<OpenedPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  const requests: string[] = [];
  const outside: string[] = [];
  const inside = insideFolder(root);
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => {
    const url = r.url();
    requests.push(url);
    if (!inside(url)) outside.push(url);
  });
  await page.goto(`${pathToFileURL(file).href}${query}`, { waitUntil: 'load' });
  return { page, errors, outside, requests };
}

/**
 * Where screenshots go: the folder CATARENA_TEST_SHOTS names, else nowhere. A test's own folders
 * are removed when the run ends (tests/global-setup.ts), so a shot kept there was never seen, and a
 * full-page shot is the dearest thing a browser test does (16 s of Chromium CPU for the 720-hand
 * Hold'em replay, whose move list Chromium then paints in full).
 */
export const SHOTS_DIR = process.env.CATARENA_TEST_SHOTS ? path.resolve(process.env.CATARENA_TEST_SHOTS) : null;

/**
 * Keeps a full-page screenshot as `<CATARENA_TEST_SHOTS>/<name>` when that folder is set (a person
 * looking at the pages, or a CI that keeps the folder); returns its path, or null.
 */
export async function screenshot(page: Page, name: string): Promise<string | null> {
  if (!SHOTS_DIR) return null;
  const kept = path.join(SHOTS_DIR, name);
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: kept, fullPage: true });
  return kept;
}
