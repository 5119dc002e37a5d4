// report.html of a four-game tourney: its size, the time to write the reports (summarize: W,
// intervals, ratings, replay pages, HTML) and the time Chromium takes to open it from file://
// (load event, all charts in the DOM). Target: a few MB at most, open in under 2 s.
//   npm run bench -- report-html [--run-dir <an existing tourney run>]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { summarizeRun } from '../orchestrator/tourney/summarize.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { launchChromium, openFile } from '../tests/helpers/browser.ts';
import { summary } from './stats.ts';
import { RUN_DIRS, RUN_FILES } from '../records/run-layout.ts';

export async function benchReportHtml(existing?: string) {
  let runDir = existing;
  if (!runDir) {
    runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-bench-report-'));
    const config = resolveConfig({
      rounds: 2,
      games: ['gomoku', 'chess', 'holdem', 'bridge'],
      concurrency: os.availableParallelism(),
      bootstrapSamples: 1000,
      out: path.dirname(runDir),
    });
    console.log(`playing a 2-round tourney of all four games into ${runDir} …`);
    await runTourney({ config, runDir });
  }
  const t0 = performance.now();
  await summarizeRun(runDir);
  const summarizeMs = performance.now() - t0;
  const file = path.join(runDir, RUN_FILES.reportHtml);
  const bytes = fs.statSync(file).size;
  const replayPages = fs.readdirSync(path.join(runDir, RUN_DIRS.replays)).filter((f) => f.endsWith('.html'));
  const browser = await launchChromium();
  const open: number[] = [];
  let svgs = 0;
  try {
    for (let k = 0; k < 5; k++) {
      const t = performance.now();
      const { page, errors } = await openFile(browser, file, runDir);
      svgs = await page.locator('svg').count();
      open.push(performance.now() - t);
      if (errors.length) throw new Error(`console errors: ${errors.join('; ')}`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  const result = {
    runDir,
    bytes,
    summarizeMs: Math.round(summarizeMs),
    replayPages: replayPages.length,
    svgs,
    openMs: summary(open),
  };
  console.log(
    `report.html: ${(bytes / 1024).toFixed(0)} KiB, ${svgs} charts; summarize (W, metrics, replay pages, HTML): ${(summarizeMs / 1000).toFixed(1)} s; ${replayPages.length} replay pages`,
  );
  console.log(
    `open in Chromium (load, 5 runs): p50 ${result.openMs.p50.toFixed(0)} ms, max ${result.openMs.max.toFixed(0)} ms`,
  );
  return result;
}
