// Shared by the hidden-information tests (tests/hidden-info-*.test.ts): the sandboxes they run in,
// the cheating bot (tests/fixtures/bots/peeker.mjs) and what its log says it got.
import fs from 'node:fs';
import path from 'node:path';
import type { IntegrityEvent, MatchResult } from '../../records/match.ts';
import { createSandbox } from '../../sandbox/index.ts';
import type { Sandbox } from '../../sandbox/types.ts';
import { integrityMarkdown, integrityRows } from '../../reports/integrity.ts';
import { botDir, dockerReady } from './bots.ts';

/** A sandbox the cheats are tried in, and whether it vouches for its bots' game-server calls (BotHandle.callerId). */
export interface HiddenInfoSandbox {
  name: string;
  /** The --sandbox value of the CLI. */
  kind: string;
  vouches: boolean;
  create(): Sandbox;
}

/**
 * The sandboxes to try the cheats in. Extend the list with a new sandbox kind: one that vouches must
 * keep every other seat's private state from the cheater; one that does not must have its seats
 * recorded as `hidden_info_not_enforced`.
 */
export const HIDDEN_INFO_SANDBOXES: HiddenInfoSandbox[] = [
  ...(dockerReady() ? [{ name: 'docker', kind: 'docker', vouches: true, create: () => createSandbox('docker') }] : []),
  // The default: bubblewrap, whose relays vouch for each bot's game-server calls.
  { name: 'process', kind: 'process', vouches: true, create: () => createSandbox('process') },
  // The unsafe sandbox: its bots' connections cannot be told apart (no caller id).
  { name: 'unsafe', kind: 'unsafe', vouches: false, create: () => createSandbox('unsafe') },
];

/** The cheating bot for `game`: plays legally, polls every other seat's private state, reads its own. */
export function peekerBot(game: 'holdem' | 'bridge' | 'undercover', name = 'peeker'): string {
  const source = path.resolve(import.meta.dirname, '../fixtures/bots/peeker.mjs');
  return botDir(name, `#!/bin/bash\ncd "$(dirname "$0")"\nexec node peeker.mjs "$1" ${game}\n`, {
    'peeker.mjs': fs.readFileSync(source, 'utf8'),
  });
}

/** What the peeker's processes (every instance of strategy `id`) logged in an arena run's logs/. */
export function peekerLog(runDir: string, id = 'peeker'): { saw: string[]; own: string[]; lists: string[][] } {
  const dir = path.join(runDir, 'logs');
  const lines = fs
    .readdirSync(dir)
    .filter((f) => f === `${id}.log` || f.startsWith(`${id}#`))
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n'));
  return {
    saw: lines.filter((l) => l.startsWith('SAW ')),
    own: lines.filter((l) => l.startsWith('OWN ')),
    lists: lines.filter((l) => l.startsWith('LIST ')).map((l) => JSON.parse(l.slice(5)) as string[]),
  };
}

/** The integrity events of strategy `id`'s seats over results. */
export function eventsOf(results: readonly MatchResult[], id: string): IntegrityEvent[] {
  return results.flatMap((r) => (r.integrity ?? []).filter((e) => r.spec.seats[e.seat] === id));
}

/**
 * What each sandbox kind must show for a cheater `id` among honest bots: a vouching sandbox kept
 * every other seat's private state from it and recorded its requests (and nothing unenforced); one
 * that cannot vouch recorded every seat of every game as not enforced. Either way the cheater read
 * its own seat's private state each turn.
 */
export function expectOutcome(
  expect: typeof import('vitest').expect,
  box: HiddenInfoSandbox,
  results: readonly MatchResult[],
  log: ReturnType<typeof peekerLog>,
  id = 'peeker',
): void {
  expect(results.length).toBeGreaterThan(0);
  // A read the game server did not answer in 2 s (a loaded CI machine) is neither served nor refused.
  expect(log.own.filter((l) => l.endsWith(' ok')).length, 'the cheater read its own seat').toBeGreaterThan(0);
  expect(
    log.own.filter((l) => l.endsWith(' missing')),
    'its own seat was always served',
  ).toEqual([]);
  const kinds = (r: MatchResult) => new Set((r.integrity ?? []).map((e) => e.kind));
  if (box.vouches) {
    expect(log.saw, "no other seat's private state reached the cheater").toEqual([]);
    const requests = eventsOf(results, id).filter((e) => e.kind === 'hidden_info_request');
    expect(requests.length, 'its requests are recorded against its seat').toBeGreaterThan(0);
    expect(requests.reduce((n, e) => n + e.count, 0)).toBeGreaterThan(requests.length);
    expect(requests[0]!.detail).toMatch(/^GET \/games\//);
    for (const r of results) expect(kinds(r).has('hidden_info_not_enforced')).toBe(false);
    // The report's Integrity section names the attempt against the strategy.
    const { game, variant } = results[0]!.spec;
    const [section] = integrityMarkdown([{ game, variant, integrity: integrityRows(results, (s) => `${s}@1`) }]);
    expect(section).toMatch(
      new RegExp(`\\| ${id}@1 \\| ${game}-${variant} \\| hidden_info_request: .* \\| \\d+ \\| \\d+ \\| \`GET /games/`),
    );
    // Nothing is recorded against the honest bots.
    for (const r of results)
      for (const e of r.integrity ?? []) expect(r.spec.seats[e.seat], JSON.stringify(e)).toBe(id);
  } else {
    for (const r of results) {
      const unenforced = (r.integrity ?? []).filter((e) => e.kind === 'hidden_info_not_enforced');
      expect(unenforced.map((e) => e.seat)).toEqual(r.spec.seats.map((_, seat) => seat));
    }
  }
}
