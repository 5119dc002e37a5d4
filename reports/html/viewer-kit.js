// What game renderers share (browser, no imports): loaded before them in every replay page's
// viewer.js (reports/html/replay-page.ts), as window.catarenaViewerKit.
window.catarenaViewerKit = {
  /** Adds a renderer's CSS to the page once, under the style element id. */
  addStyle(id, css) {
    if (document.getElementById(id)) return;
    const style = document.createElement('style');
    style.id = id;
    style.textContent = css;
    document.head.append(style);
  },
  /** A new element with an optional class and text. */
  el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  },
};
