// `catarena history` and its page (index.html) show how each night ended: finished, failed,
// missed (the nights list in a real redis-server, with --queue), killed or failed run folders
// (status.json), and indexed runs whose folder was deleted; a change of setup is marked between
// the rows and breaks the chart lines; `--schedule` filters. The page's headline, checked in
// Debian's Chromium, flags the agent whose S fell below its band (reports/night-regression.ts),
// and agent ids and reasons written by hostile agents are shown as text, never run or loaded.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRedis } from '../orchestrator/queue/connection.ts';
import { recordNight } from '../orchestrator/queue/nights.ts';
import { localHistory, queueHistory } from '../orchestrator/run/history-sources.ts';
import { RUNS_KEY, writeHistoryPage } from '../orchestrator/run/run-index.ts';
import { nightAgainstBand } from '../reports/night-regression.ts';
import type { RunIndexEntry } from '../records/tourney.ts';
import { hasChromium, openFile, sharedChromium } from './helpers/browser.ts';
import { tempDir } from './helpers/bots.ts';
import { catarena } from './helpers/cli.ts';
import { hasRedis, startRedis, type TestRedis } from './helpers/redis.ts';

const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const HOSTILE_REASON = '<script>window.__pwned=2</script> bot said so';

/** A finished night of schedule "nightly" on day `day` with these agents' S. */
function night(out: string, day: number, S: Record<string, number>): RunIndexEntry {
  const runId = `nightly-202601${String(day).padStart(2, '0')}-020000`;
  return {
    runId,
    runDir: path.join(out, runId),
    schedule: 'nightly',
    finishedAt: `2026-01-${String(day).padStart(2, '0')}T02:30:00.000Z`,
    games: ['gomoku'],
    rounds: 1,
    matches: 2,
    reused: 0,
    rules: { gomoku: 'v1' },
    leaderboard: Object.entries(S).map(([agent, meanS]) => ({
      agent,
      meanRankS: 1,
      meanRankL: null,
      meanS,
      meanL: null,
    })),
    tracks: [
      {
        track: 'gomoku-standard',
        perAgent: Object.fromEntries(
          Object.entries(S).map(([a, s]) => [
            a,
            {
              S: { point: s, lo: s - 0.1, hi: s + 0.1, samples: 50 },
              L: { point: null, lo: null, hi: null, samples: 0 },
            },
          ]),
        ),
      },
    ],
  };
}

/**
 * A runs folder: day 1 with another agent (the setup changes after it) and its folder deleted;
 * days 2–5 with `steady` and the hostile id, whose S falls from ~0.5 to 0.1 on day 5; a night
 * whose folder says it failed (a hostile message), and one still "running" whose process is gone.
 */
function runsFolder(): { out: string; entries: RunIndexEntry[] } {
  const out = tempDir('catarena-history-');
  const entries = [
    night(out, 1, { steady: 0.5, retired: 0.5 }),
    night(out, 2, { steady: 0.5, [HOSTILE]: 0.5 }),
    night(out, 3, { steady: 0.45, [HOSTILE]: 0.55 }),
    night(out, 4, { steady: 0.52, [HOSTILE]: 0.48 }),
    night(out, 5, { steady: 0.9, [HOSTILE]: 0.1 }),
  ];
  for (const e of entries.slice(1)) fs.mkdirSync(e.runDir, { recursive: true });
  fs.writeFileSync(path.join(out, 'index.jsonl'), entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
  const status = (name: string, state: string, message?: string) => {
    const dir = path.join(out, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'config.json'), '{}');
    fs.writeFileSync(
      path.join(dir, 'status.json'),
      JSON.stringify({
        state,
        kind: 'tourney',
        pid: 2 ** 22 + 1, // no such process
        pidStart: null,
        host: os.hostname(),
        startedAt: '2026-01-06T02:00:01.000Z',
        updatedAt: state === 'failed' ? '2026-01-06T02:05:00.000Z' : '2026-01-07T02:05:00.000Z',
        ...(message ? { message } : {}),
      }),
    );
  };
  status('nightly-20260106-020000', 'failed', HOSTILE_REASON);
  status('nightly-20260107-020000', 'running');
  return { out, entries };
}

describe('history: status, setup changes, schedules and the headline', () => {
  it('the band: the last night against the previous ones since the setup changed', () => {
    const { entries } = runsFolder();
    const band = nightAgainstBand(entries)!;
    expect(band.runId).toBe('nightly-20260105-020000');
    expect(band.previous).toEqual(['nightly-20260102-020000', 'nightly-20260103-020000', 'nightly-20260104-020000']);
    expect(band.regressed).toEqual([HOSTILE]);
    expect(band.agents.find((a) => a.agent === 'steady')!.flag).toBe('above');
    // Fewer than three comparable nights: no band, no flag.
    expect(nightAgainstBand(entries.slice(0, 4))!.agents.every((a) => a.band === null && a.flag === null)).toBe(true);
  });

  it('history lists failed, killed and deleted runs, marks the setup change, filters by schedule', async () => {
    const { out } = runsFolder();
    const text = await catarena('history', '-o', out);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.split('\n');
    const row = (id: string) => lines.find((l) => l.includes(id)) ?? '';
    expect(row('nightly-20260101-020000')).toMatch(/\sfolder deleted\s/);
    expect(row('nightly-20260105-020000')).toMatch(/\sfinished\s/);
    expect(row('nightly-20260106-020000')).toMatch(/\sfailed\s.*\(<script>window.__pwned=2<\/script> bot said so\)/);
    expect(row('nightly-20260107-020000')).toMatch(/\skilled\s/);
    const marker = lines.findIndex((l) => l.includes('setup changed'));
    expect(lines[marker]).toContain(`nightly: setup changed: agents +${HOSTILE} −retired`);
    expect(lines[marker - 1]).toContain('nightly-20260101-020000');
    expect(lines[marker + 1]).toContain('nightly-20260102-020000');
    const other = await catarena('history', '-o', out, '--schedule', 'weekly');
    expect(other.stderr).toMatch(/no run or night of schedule weekly here; schedules: nightly/);
  }, 30_000);

  describe.runIf(hasRedis() || Boolean(process.env.CI))('from the queue', () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    }, 30_000);
    afterAll(() => redis?.stop());

    it('history --queue shows missed and failed nights, and one finished whose folder is gone', async () => {
      const { entries } = runsFolder();
      await withRedis(redis.url, async (r) => {
        await r.rpush(RUNS_KEY, ...entries.slice(1).map((e) => JSON.stringify(e)));
        for (const e of entries) {
          const firedAt = e.finishedAt.replace('02:30', '02:00');
          await recordNight(r, { schedule: 'nightly', firedAt, state: 'started', runDir: e.runDir });
          await recordNight(r, { schedule: 'nightly', firedAt, state: 'finished', runDir: e.runDir });
        }
        await recordNight(r, { schedule: 'nightly', firedAt: '2026-01-08T02:00:00.000Z', state: 'missed' });
        await recordNight(r, {
          schedule: 'weekly',
          firedAt: '2026-01-08T03:00:00.000Z',
          state: 'failed',
          reason: HOSTILE_REASON,
          attempt: 3,
          attempts: 3,
        });
      });
      const text = await catarena('history', '--queue', redis.url, '--schedule', 'nightly');
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/\smissed\s+nightly@2026-01-08T02:00:00.000Z/);
      expect(text.stdout).toMatch(/\sfolder deleted\s+nightly-20260101-020000/); // the run list no longer has it
      expect(text.stdout).not.toContain('weekly');
      const json = JSON.parse((await catarena('history', '--queue', redis.url, '--json')).stdout);
      expect(
        json.filter((r: { status: string }) => r.status !== 'finished').map((r: { status: string }) => r.status),
      ).toEqual(['folder deleted', 'missed', 'failed']);
    }, 30_000);

    it.runIf(hasChromium)(
      'the page: headline with the regressed agent flagged, nights not finished, hostile text inert',
      async () => {
        const { out } = runsFolder();
        const local = await localHistory(out);
        const queued = await withRedis(redis.url, queueHistory);
        const page = await writeHistoryPage(path.join(out, 'index.jsonl'), local.entries, {
          ends: [...local.ends, ...queued.ends.filter((e) => e.status === 'missed' || e.status === 'failed')],
          deleted: local.deleted,
        });
        const browser = await sharedChromium();
        const { page: tab, errors, outside } = await openFile(browser, page);
        try {
          const headline = tab.locator('section.headline[data-schedule="nightly"]');
          await expect(headline.locator('h3').textContent()).resolves.toContain(
            'last run nightly-20260105-020000 (2026-01-05 02:30 UTC) against the previous 3',
          );
          const flagOf = async (agent: string) =>
            (
              await headline
                .locator('tr[data-agent]')
                .evaluateAll((rows) =>
                  rows.map((r) => [r.getAttribute('data-agent'), r.getAttribute('data-flag'), r.textContent]),
                )
            ).find(([a]) => a === agent);
          expect(await flagOf(HOSTILE)).toEqual([
            HOSTILE,
            'below',
            expect.stringContaining('below its band (regressed)'),
          ]);
          expect((await flagOf('steady'))![1]).toBe('above');
          await expect(tab.locator('body').textContent()).resolves.toContain('mean ± 2 sd');
          const notFinished = await tab
            .locator('#not-finished tbody tr')
            .evaluateAll((rows) =>
              rows.map((r) => [r.getAttribute('data-status'), r.querySelector('.reason')?.textContent]),
            );
          expect(notFinished.map(([s]) => s).sort()).toEqual(['failed', 'failed', 'killed', 'missed']);
          expect(notFinished.filter(([, reason]) => reason === HOSTILE_REASON)).toHaveLength(2);
          await expect(tab.locator('[data-testid=not-finished-since]').textContent()).resolves.toMatch(
            /failed .*missed/,
          );
          // The deleted run is listed without a link; the setup change breaks the charts' lines.
          const deleted = tab.locator('#runs tr', { hasText: 'nightly-20260101-020000' });
          await expect(deleted.locator('td.status').textContent()).resolves.toBe('folder deleted');
          await expect(deleted.locator('a').count()).resolves.toBe(0);
          await expect(tab.locator('svg text', { hasText: 'setup changed' }).count()).resolves.toBeGreaterThan(0);
          // Hostile ids and reasons stayed text: nothing ran, nothing was loaded.
          expect(await tab.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
          expect(await tab.locator('img, script').count()).toBe(0);
          expect(errors).toEqual([]);
          expect(outside).toEqual([]);
        } finally {
          await tab.close();
        }
      },
      30_000,
    );
  });
});
