// What game renderers share (browser, no imports): loaded before them in every replay page's
// viewer.js (reports/html/replay-page.ts), as window.catarenaViewerKit; the replay shell and the
// human seat's page, loaded after it, take their element helper from it too.
window.catarenaViewerKit = {
  /** Adds a renderer's CSS to the page once, under the style element id. */
  addStyle(id, css) {
    if (document.getElementById(id)) return;
    const style = document.createElement('style');
    style.id = id;
    style.textContent = css;
    document.head.append(style);
  },
  /**
   * An element with attributes ("class" as its className, on<event> as a listener) and children:
   * the helper of the replay shell (viewer-shell.js) and the human seat's page (human-page.js).
   */
  element(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') node.className = v;
      else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const c of children) node.append(c);
    return node;
  },
  /** A new element with an optional class and text. */
  el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  },
  /**
   * Moves as numbered rows of `perRow` (chess: 1. e4 e5), for a move list: [{number, moves}]; a
   * game that starts with its second side to move leaves the first cell of row 1 empty (null).
   */
  moveRows(texts, perRow = 2, offset = 0) {
    const cells = [...Array(offset).fill(null), ...texts];
    const rows = [];
    for (let i = 0; i < cells.length; i += perRow)
      rows.push({ number: i / perRow + 1, moves: cells.slice(i, i + perRow) });
    return rows;
  },
};
