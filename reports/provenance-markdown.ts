// report.md's "Reproducibility" section: the run's provenance.json in a few lines (the file has it all).
import type { Provenance, ProvenanceSession } from '../records/provenance.ts';

const short = (id: string) => id.replace(/^sha256:/, '').slice(0, 12);

function sessionLine(s: ProvenanceSession): string {
  const commit = s.catarena.commit
    ? ` (commit ${s.catarena.commit.slice(0, 10)}${s.catarena.dirty ? ', with local changes' : ''})`
    : '';
  const images = Object.entries(s.images ?? {})
    .filter(([, img]) => img)
    .map(([name, img]) => `${name} ${img!.tag}${img!.id ? ` = ${short(img!.id)}` : ' (not inspected)'}`);
  const clis = Object.entries(s.clis ?? {}).map(([pkg, v]) => `${pkg} ${v}`);
  return [
    `catarena ${s.catarena.version}${commit}`,
    `Node ${s.node}`,
    `${s.os.platform}/${s.os.arch}`,
    ...(images.length ? [`images: ${images.join(', ')}`] : []),
    ...(clis.length ? [`CLIs: ${clis.join(', ')}`] : []),
  ].join(' · ');
}

export function provenanceMarkdown(p: Provenance): string {
  const seeds = p.tracks.map((t) => `${t.track} ${t.seed}`).join(', ');
  const rules = Object.entries(p.rules)
    .map(([game, label]) => `${game} ${label}`)
    .join(', ');
  const sessions = p.sessions.map(
    (s, i) => `- ${p.sessions.length > 1 ? (i === 0 ? 'started: ' : 'resumed: ') : ''}${sessionLine(s)}`,
  );
  return [
    '## Reproducibility',
    `Seed ${p.seed} (tracks: ${seeds}) · rules: ${rules} · sandbox ${p.sandbox}. Everything in provenance.json.`,
    sessions.join('\n'),
  ].join('\n\n');
}
