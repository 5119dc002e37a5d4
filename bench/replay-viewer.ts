// The replay viewer on long Hold'em table rounds: a synthetic replay made with the rules and
// seeded random legal actions (mostly folds and calls, so a 9-seat table with deep stacks plays to
// the 720-hand cap), then
//   1. viewerData in Node (games/holdem/viewer/data.ts), median of a few runs;
//   2. the page: bytes of replays/<id>.html (its ViewerData inline) and of the shared viewer.js;
//   3. Chromium (Debian's, through playwright-core; skipped without it), measured in the page:
//      opening it from file:// (navigation start to the load event, the first step drawn: the
//      inline data parsed, the shell's move list built, the renderer run); jumping to the last
//      step and stepping ← → (the click or key handler plus a forced layout: the shell's work and
//      the renderer's); and the renderer alone (holdem render() of a random step, with layout).
// `benchReplayViewer()` returns the numbers and prints a short table. Run directly:
//   node --import tsx bench/replay-viewer.ts [hands] [seats]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRng } from '../util/rng.ts';
import { holdem, tableValidActions, type TableState } from '../games/holdem/table.ts';
import { holdemWire } from '../games/holdem/wire.ts';
import type { Action } from '../games/holdem/hand.ts';
import { viewerData } from '../games/holdem/viewer/data.ts';
import { DEFAULT_LIMITS, matchId, type MatchSpec, type MoveRecord, type Replay } from '../records/match.ts';
import { replayPage, viewerScript } from '../reports/html/replay-page.ts';
import { hasChromium, launchChromium, openFile } from '../tests/helpers/browser.ts';
import { RUN_DIRS, RUN_FILES } from '../records/run-layout.ts';

export interface SyntheticHoldem {
  seats?: number;
  variant?: 'standard' | 'variant';
  /** The hand cap (the table plays to it unless someone takes every chip first). */
  hands?: number;
  startingChips?: number;
  seed?: number;
}

/**
 * A Hold'em replay as the runner would record it, played by the rules with seeded random legal
 * actions: folds 40%, checks/calls 52%, raises 8% (to between the minimum and 3× it).
 */
export function syntheticHoldemReplay(options: SyntheticHoldem = {}): Replay {
  const seats = options.seats ?? 9;
  const variant = options.variant ?? 'standard';
  const handCap = options.hands ?? 720;
  const startingChips = options.startingChips ?? 200_000;
  const seed = options.seed ?? 1;
  const spec: MatchSpec = {
    game: 'holdem',
    variant,
    seats: Array.from({ length: seats }, (_, i) => `bot${i + 1}`),
    seed,
    limits: { ...DEFAULT_LIMITS, moveMs: 3_000 },
    policy: 'strict',
    options: { startingChips, handCap },
  };
  const rng = createRng(seed ^ 0x5eed);
  let state: TableState = holdem.init(variant, createRng(seed), { seats, options: spec.options });
  const setup = holdemWire.setup!(state);
  const moves: MoveRecord[] = [];
  const stats = spec.seats.map(() => ({ moves: 0, totalMs: 0, maxMs: 0, errors: {} }));
  const t0 = performance.now();
  while (!state.finished) {
    const seat = state.hand.toAct!;
    const valid = tableValidActions(state);
    const has = (a: string) => valid.find((v) => v.action === a);
    const r = rng.float();
    let action: Action;
    const raise = has('raise');
    if (r < 0.08 && raise && raise.action === 'raise')
      action = { action: 'raise', amount: rng.int(raise.min, Math.min(raise.max, raise.min * 3)) };
    else if (r < 0.48 && !has('check')) action = { action: 'fold' };
    else action = has('check') ? { action: 'check' } : has('call') ? { action: 'call' } : { action: 'all_in' };
    state = holdem.apply(state, seat, action);
    const latencyMs = rng.int(1, 400) / 10;
    moves.push({ ply: moves.length, seat, action: holdemWire.encode(action), latencyMs });
    const st = stats[seat]!;
    st.moves++;
    st.totalMs += latencyMs;
    st.maxMs = Math.max(st.maxMs, latencyMs);
  }
  const outcome = holdem.outcome(state)!;
  return {
    result: {
      id: matchId(spec),
      spec,
      serverGameId: 'holdem_synthetic',
      scores: outcome.scores,
      winner: outcome.winner,
      termination: 'normal',
      reason: outcome.reason,
      offender: null,
      ...(outcome.places ? { places: outcome.places } : {}),
      ...(outcome.detail ? { detail: outcome.detail } : {}),
      plies: moves.length,
      seatStats: stats,
      startedAt: new Date().toISOString(),
      durationMs: performance.now() - t0,
    },
    setup,
    moves,
  };
}

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => +x.toFixed(1);

export interface ReplayViewerBench {
  seats: number;
  hands: number;
  moves: number;
  viewerDataMs: number;
  pageBytes: number;
  viewerJsBytes: number;
  /** Chromium (null without it): open to the load event, jump to the last step, one step, the renderer alone. */
  openMs: number | null;
  lastMs: number | null;
  stepMs: number | null;
  renderMs: number | null;
}

/** Writes the page of `replay` into `dir` (with viewer.js) and measures it; returns the numbers. */
export async function measureReplayPage(replay: Replay, dir: string): Promise<ReplayViewerBench> {
  const times: number[] = [];
  let data = viewerData(replay);
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    data = viewerData(replay);
    times.push(performance.now() - t);
  }
  const html = replayPage(data);
  fs.mkdirSync(dir, { recursive: true });
  const script = await viewerScript();
  // The shell after the renderers, as writeReplayPages writes viewer.js.
  const shell = fs.readFileSync(path.join(import.meta.dirname, '..', 'reports', 'html', 'viewer-shell.js'), 'utf8');
  fs.writeFileSync(path.join(dir, RUN_FILES.viewer), `${script}\n\n${shell}`);
  const file = path.join(dir, `${data.id}.html`);
  fs.writeFileSync(file, html);
  const hands = (data.extra as { hands: unknown[] }).hands.length;
  const row: ReplayViewerBench = {
    seats: data.seats.length,
    hands,
    moves: data.moves.length,
    viewerDataMs: ms(median(times)),
    pageBytes: Buffer.byteLength(html),
    viewerJsBytes: fs.statSync(path.join(dir, RUN_FILES.viewer)).size,
    openMs: null,
    lastMs: null,
    stepMs: null,
    renderMs: null,
  };
  if (!hasChromium) return row;
  const browser = await launchChromium();
  try {
    const opened = await openFile(browser, file, dir);
    await opened.page.waitForSelector('[data-testid="holdem-table"]');
    row.openMs = ms(
      (await opened.page.evaluate(`performance.getEntriesByType('navigation')[0].loadEventEnd`)) as number,
    );
    if (opened.errors.length) throw new Error(`the page logged errors: ${opened.errors.join('; ')}`);
    // In-page timings: the handler runs synchronously; reading offsetHeight forces the layout.
    row.lastMs = ms(
      (await opened.page.evaluate(
        `(() => { const t = performance.now(); document.querySelector('[data-testid="last"]').click(); document.body.offsetHeight; return performance.now() - t; })()`,
      )) as number,
    );
    const steps = (await opened.page.evaluate(`(() => {
      const key = (k) => document.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
      const out = [];
      for (let i = 0; i < 40; i++) { const t = performance.now(); key(i < 20 ? 'ArrowLeft' : 'ArrowRight'); document.body.offsetHeight; out.push(performance.now() - t); }
      return out;
    })()`)) as number[];
    row.stepMs = ms(median(steps));
    const renders = (await opened.page.evaluate(`(() => {
      const data = window.CATARENA_REPLAY;
      const div = document.createElement('div');
      document.body.append(div);
      const out = [];
      for (let i = 0; i < 50; i++) {
        const step = Math.floor(Math.random() * (data.moves.length + 1));
        div.replaceChildren();
        const t = performance.now();
        window.catarenaViewers.holdem.render(div, data, step);
        div.offsetHeight;
        out.push(performance.now() - t);
      }
      div.remove();
      return out;
    })()`)) as number[];
    row.renderMs = ms(median(renders));
    await opened.page.close();
  } finally {
    await browser.close();
  }
  return row;
}

export async function benchReplayViewer(hands = 720, seats = 9): Promise<ReplayViewerBench> {
  const replay = syntheticHoldemReplay({ hands, seats });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-viewer-bench-'));
  try {
    const row = await measureReplayPage(replay, path.join(dir, RUN_DIRS.replays));
    console.log(
      `Replay viewer: a synthetic Hold'em table round (${row.seats} seats, ${row.hands} hands, ${row.moves} moves)${hasChromium ? '' : ' (no Chromium: browser timings skipped)'}`,
    );
    console.table([
      {
        'viewerData ms': row.viewerDataMs,
        'page kB': +(row.pageBytes / 1024).toFixed(1),
        'viewer.js kB': +(row.viewerJsBytes / 1024).toFixed(1),
        'open ms': row.openMs,
        'last step ms': row.lastMs,
        'step ms': row.stepMs,
        'render ms': row.renderMs,
      },
    ]);
    return row;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchReplayViewer(Number(process.argv[2]) || 720, Number(process.argv[3]) || 9);
}
