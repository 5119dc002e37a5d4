// The reports name hidden information that was not enforced: a tourney through the real CLI in
// each sandbox that cannot vouch for its bots' game-server calls (helpers/hidden-info.ts), with the
// cheating bot among the agents' bots, warns in report.md and report.html and lists every strategy's
// seats in the Integrity section. (What a vouching sandbox records, hidden_info_request, is checked
// against the section in the per-game tests.)
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN, tempDir } from './helpers/bots.ts';
import { catarena } from './helpers/cli.ts';
import { HIDDEN_INFO_SANDBOXES, peekerBot } from './helpers/hidden-info.ts';

describe.each(HIDDEN_INFO_SANDBOXES.filter((box) => !box.vouches))('reports, $name sandbox', (box) => {
  it('warn that hidden information was not enforced, naming every strategy', async () => {
    const out = tempDir('catarena-hidden-report-');
    const r = await catarena(
      'tourney',
      '--games',
      'undercover',
      '--variants',
      'variant',
      '--rounds',
      '1',
      '--reps',
      '1',
      '--agents',
      [
        `dir:${peekerBot('undercover')}`,
        `dir:${BUILTIN('random', 'undercover')}`,
        `dir:${BUILTIN('heuristic', 'undercover')}`,
      ].join(','),
      '--sandbox',
      box.kind,
      '--out',
      out,
    );
    expect(r.code, r.stderr).toBe(0);
    const [run] = fs.readdirSync(out).filter((d) => d.startsWith('tourney-'));
    const read = (f: string) => fs.readFileSync(path.join(out, run!, f), 'utf8');
    const journal = read('journal.jsonl')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.spec);
    expect(journal.length).toBeGreaterThan(0);
    for (const result of journal)
      expect(result.integrity.map((e: { kind: string }) => e.kind)).toEqual(
        result.spec.seats.map(() => 'hidden_info_not_enforced'),
      );
    const md = read('report.md');
    const warning = md.split('\n').find((l) => l.includes('Hidden information not enforced for'));
    expect(warning).toBeDefined();
    for (const s of ['peeker@1', 'random@1', 'heuristic@1']) {
      expect(warning).toContain(s);
      expect(md).toMatch(new RegExp(`^\\| ${s} \\| undercover-variant \\| hidden_info_not_enforced: `, 'm'));
    }
    const html = read('report.html');
    expect(html).toContain('<h2 id="integrity">Integrity</h2>');
    expect(html).toMatch(/<p class="warn"><strong>Hidden information not enforced for [^<]*peeker@1/);
    expect(r.stderr + r.stdout).toContain('Hidden information not enforced for');
  }, 60_000);
});
