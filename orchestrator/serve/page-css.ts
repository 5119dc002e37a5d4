// `catarena serve`'s pages' own styles (beside reports/html/page.ts's PAGE_CSS), laid out for
// 360 px and up: wide tables scroll inside their own box, long names wrap or are cut with the full
// name in the title, and boards in flight are scaled down to their box (run-page.js), so no page
// scrolls sideways.
export { REPLAY_CSS } from '../../reports/html/replay-page.ts';

export const SERVE_CSS = `
nav.top { margin-bottom: .5rem; }
.state { display: inline-block; padding: 0 .4em; border-radius: 3px; font-size: .85em; font-weight: 600; }
.state.running { background: #c8e6c9; color: #1b5e20; }
.state.finished { background: #e3f2fd; color: #0d47a1; }
.state.killed, .state.failed { background: #ffcdd2; color: #b71c1c; }
.state.interrupted, .state.moved, .state.unknown { background: #eee; color: #555; }
.grid { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
.grid > * { min-width: 0; max-width: 100%; }
.boards { display: flex; flex-wrap: wrap; gap: 1rem; }
.boards .game { border: 1px solid #ddd; border-radius: 4px; padding: .4rem; width: 300px; max-width: 100%; box-sizing: border-box; overflow-x: clip; }
.boards .game .board { overflow-x: clip; }
.boards .game svg { width: 100%; height: auto; }
.boards .game .board-status { font-size: .8em; }
table.W td.cell { width: 2.2em; text-align: center; font-size: .75em; }
table.W th { font-size: .75em; font-weight: 500; max-width: 9em; overflow: hidden; text-overflow: ellipsis; }
table.runs td.what, table.runs td.last { text-align: left; white-space: normal; min-width: 12em; max-width: 28em; overflow-wrap: anywhere; }
table.runs td.name { white-space: normal; overflow-wrap: anywhere; min-width: 8em; }
table.leaderboard td.agent { max-width: 16em; overflow: hidden; text-overflow: ellipsis; }
.rule { max-width: 60em; }
.progress { font-family: ui-monospace, monospace; font-size: .85em; max-height: 12em; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
.agents pre { max-height: 6em; overflow: auto; font-size: .75em; margin: .2em 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.agents summary { overflow-wrap: anywhere; }
.failures li { color: #b00020; overflow-wrap: anywhere; }
/* A phone: each run a card of labelled lines rather than a table to scroll. */
@media (max-width: 640px) {
  table.runs, table.runs tbody, table.runs tr, table.runs td { display: block; width: auto; max-width: none; }
  table.runs thead { display: none; }
  table.runs tr { border: 1px solid #ddd; border-radius: 4px; margin-bottom: .5rem; padding: .2rem .4rem; }
  table.runs td { border: none; text-align: left; white-space: normal; min-width: 0; padding: 1px 0; }
  table.runs td[data-label]::before { content: attr(data-label) ": "; color: #777; }
}
ol.games li { margin: .1em 0; overflow-wrap: anywhere; }
`;
