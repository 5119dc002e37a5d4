// rerun.md: what `catarena rerun` found, for a person: the replay's counts, each divergence with
// both versions of the request side by side (a JSON diff), and the games and W entries that differ
// from the original run (docs/rerun.md explains the expected causes).
import type { RerunResult } from './rerun.ts';

const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v)).slice(0, 300).replace(/\|/g, '\\|');

function divergenceSection(r: RerunResult): string[] {
  if (!r.divergences.length) return ['No request differed from the recording.'];
  return r.divergences.flatMap((d) => [
    `### ${d.agent}, ${d.track || '(no track)'}, round ${d.round}: request ${d.order}${d.attempt ? ` (attempt ${d.attempt})` : ''}`,
    `${d.method} ${d.path}; ${d.recordedOrder ? `the recording's next request was number ${d.recordedOrder}` : 'the recording holds no further request of this agent and round'}.`,
    '| where | recorded | rerun |',
    '|---|---|---|',
    ...d.differences.map((x) => `| \`${x.path}\` | ${show(x.recorded)} | ${show(x.rerun)} |`),
  ]);
}

export function rerunMarkdown(r: RerunResult): string {
  const lines = [
    `# Rerun of ${r.from}`,
    '',
    `- Rerun directory: \`${r.runDir}\``,
    ...(r.fork
      ? [
          `- Fork: ${r.fork.agent} as ${r.fork.spec} from round ${r.fork.fromRound ?? 1}, live; the other agents replayed. Its games differ by design.`,
        ]
      : []),
    `- ${r.identical ? 'Identical: every game and every W entry as in the original, no request diverged.' : '**Differs from the original** (below).'}`,
    `- Recorded exchanges: ${r.recorded}; replayed ${r.replayed}, refused after a divergence ${r.refused}, sent live ${r.forwarded}.`,
    `- Games: ${r.games.compared} compared, ${r.games.same} the same, ${r.games.differences.length} different.`,
    `- W: ${r.W.compared} entries compared, ${r.W.differences.length} different.`,
    '',
    '## Divergences (the first differing request of each agent and round)',
    '',
    ...divergenceSection(r),
    '',
    '## Games that differ',
    '',
    ...(r.games.differences.length
      ? [
          '| game | seats | seed | original | rerun |',
          '|---|---|---|---|---|',
          ...r.games.differences.map(
            (g) => `| ${g.game} | ${g.seats.join(' vs ')} | ${g.seed} | ${show(g.original)} | ${show(g.rerun)} |`,
          ),
        ]
      : ['None.']),
    '',
    '## W entries that differ',
    '',
    ...(r.W.differences.length
      ? [
          '| track | row | column | original | rerun |',
          '|---|---|---|---|---|',
          ...r.W.differences.map((w) => `| ${w.track} | ${w.row} | ${w.column} | ${w.original} | ${w.rerun} |`),
        ]
      : ['None.']),
    '',
    'Why games can differ with every answer replayed: see docs/rerun.md, section "Why a rerun can differ".',
  ];
  return `${lines.join('\n')}\n`;
}
