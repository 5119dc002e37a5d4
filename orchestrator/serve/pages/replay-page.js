// `catarena serve`'s replay page (browser, no imports; loaded after viewer.js and the replay
// shell, reports/html/viewer-shell.js): /run/<name>/replay?id=<match id> shows one finished game
// of any run, a play or arena run's too (which has no report and so no replays/replay.html). The
// game's viewer data comes from /run/<name>/replay-data?id=…, built by the server from the replay file.
(function () {
  'use strict';
  const run = window.CATARENA_SERVE.run;
  const base = `/run/${encodeURIComponent(run)}/`;
  const id = new URLSearchParams(location.search).get('id') || '';
  const root = document.getElementById('replay');
  const { el } = window.catarenaServe; // dom.js
  document.querySelector('nav.top').append(' · ', el('a', { href: base }, run));
  const say = (text) =>
    root.replaceChildren(el('p', { 'data-testid': 'replay-error' }, text, ' · ', el('a', { href: base }, 'the run')));
  fetch(`${base}replay-data?id=${encodeURIComponent(id)}`)
    .then(async (res) => {
      if (!res.ok) return say(await res.text());
      const data = await res.json();
      document.title = `${data.game} ${data.variant}: ${data.seats.join(' vs ')}`;
      window.catarenaShowReplay(data);
    })
    .catch((err) => say(`cannot load the replay: ${err}`));
})();
