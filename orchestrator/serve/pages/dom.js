// `catarena serve`'s pages' one DOM helper (browser, no imports): loaded before runs-page.js,
// run-page.js and queue-page.js (server.ts), which take it as `window.catarenaServe.el`.
(function () {
  'use strict';
  /** An element with attributes ("class" as its className) and children (null and undefined skipped). */
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') node.className = v;
      else node.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  };
  window.catarenaServe = { el };
})();
