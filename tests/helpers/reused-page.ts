// One Chromium page that a browser test file navigates from page to page, instead of a new page
// for each. A page of its own (browser.newPage(): a new context and renderer) costs about 1.2 s of
// CPU here, a navigation of an open page about 0.25 s (measured with cg.sh, 11 loads of a small
// page each way). What each load does is recorded from the navigation on, as tests/helpers/browser.ts
// records it for a page of its own: console errors, page errors, requests off the page's origin
// (or, for file:// pages, outside the folder tree it may load from), by the same rules.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { insideFolder, onOriginOf, REPLAY_DRAWN, replayQuery } from './browser.ts';

export interface PageLoad {
  page: Page;
  /** Console errors and uncaught page errors since this load began. */
  errors: string[];
  /** The uncaught page errors alone. */
  uncaught: string[];
  /** Requests since this load began that are off the origin (served) or outside `root` (files). */
  outside: string[];
}

export class ReusedPage {
  private errors: string[] = [];
  private uncaught: string[] = [];
  private outside: string[] = [];
  private inside: (url: string) => boolean = () => true;

  private constructor(readonly page: Page) {
    page.on('console', (m) => m.type() === 'error' && this.errors.push(m.text()));
    page.on('pageerror', (e) => {
      this.errors.push(String(e));
      this.uncaught.push(String(e));
    });
    page.on('request', (r) => {
      if (!this.inside(r.url())) this.outside.push(r.url());
    });
  }

  static async open(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<ReusedPage> {
    return new ReusedPage(await browser.newPage({ viewport }));
  }

  /** Loads a page a local server serves: anything requested off its origin (but data:) is outside. */
  async url(url: string): Promise<PageLoad> {
    return this.load(url, onOriginOf(url));
  }

  /** Loads a local file (with a query string); `root` bounds the files it may load. */
  async file(file: string, root = path.dirname(file), query = ''): Promise<PageLoad> {
    return this.load(`${pathToFileURL(file).href}${query}`, insideFolder(root));
  }

  /** One game on a run's shared replay page (replays/replay.html?id=<id>), once it is drawn. */
  async replay(replaysDir: string, id: string, root = path.dirname(replaysDir)): Promise<PageLoad> {
    const loaded = await this.file(path.join(replaysDir, 'replay.html'), root, replayQuery(id));
    await this.page.waitForSelector(REPLAY_DRAWN);
    return loaded;
  }

  close(): Promise<void> {
    return this.page.close();
  }

  private async load(url: string, inside: (url: string) => boolean): Promise<PageLoad> {
    // about:blank first: nothing the last page does (a late error, a request) counts for this one.
    await this.page.goto('about:blank');
    this.errors = [];
    this.uncaught = [];
    this.outside = [];
    this.inside = inside;
    const load: PageLoad = {
      page: this.page,
      errors: this.errors,
      uncaught: this.uncaught,
      outside: this.outside,
    };
    await this.page.goto(url, { waitUntil: 'load' });
    return load;
  }
}
