// The strategy evolution (reports/evolution/) at paper scale: what building it costs for every
// track of a run of T agents × N rounds whose bots are large and differ, with a workspace per
// strategy that holds every agent's previous bot (T copies) and a long CLI transcript.
//   npm run bench -- evolution [--agents 10] [--rounds 4] [--tracks 8]
// The bots: each track's reference heuristic bot (JavaScript, 540 to 1,270 lines) grown by each
// agent with code of the other games' bots and its own edits, then edited a little from round to
// round (a few agents copying the previous leader's files), a vendored node_modules folder in some;
// the transcripts: Claude Code's and Codex's recorded outputs (tests/fixtures/transcripts) repeated
// to about 600 kB, as a long session's output. Prints wall and CPU time per track and in all, the
// size of the evolution's share of report.html, and writes nothing outside a temporary folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { trackEvolution, type EvolutionStrategy, type EvolutionTrack } from '../reports/evolution/evolution.ts';
import { evolutionSectionHtml } from '../reports/evolution/evolution-html.ts';
import { evolutionMarkdown } from '../reports/evolution/evolution-markdown.ts';
import { referenceBotDir } from '../util/paths.ts';
import { roundDirName, RUN_DIRS, RUN_FILES } from '../records/run-layout.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

function lcg(seed: number) {
  return () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
}

/** Every line of a text edited with probability p: changed, dropped, or a new line after it. */
function edit(text: string, p: number, r: () => number, tag: string): string {
  return text
    .split('\n')
    .flatMap((line, k) => {
      const x = r();
      if (x < p / 3) return [`${line} // ${tag} ${k}`];
      if (x < (2 * p) / 3) return [];
      if (x < p) return [line, `  const ${tag}_${k} = ${Math.floor(r() * 100)};`];
      return [line];
    })
    .join('\n');
}

export async function benchEvolution() {
  const T = arg('agents', 10);
  const N = arg('rounds', 4);
  const trackCount = arg('tracks', 8);
  const games = ['gomoku', 'chess', 'holdem', 'bridge'];
  const tracks = games
    .flatMap((g) => ['standard', 'variant'].map((v) => ({ game: g, variant: v })))
    .slice(0, trackCount);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-bench-evolution-'));
  const transcripts = ['claude-code', 'codex'].map((c) => {
    const text = fs
      .readFileSync(path.join(here, '..', 'tests', 'fixtures', 'transcripts', `${c}.txt`), 'utf8')
      .split('\n--- stderr ---\n')[0]!;
    return {
      kind: `cli:${c}/bench`,
      text: `${Array.from({ length: Math.ceil(600_000 / text.length) }, () => text).join('\n')}\n--- stderr ---\n`,
    };
  });
  const agents = Array.from({ length: T }, (_, i) => `agent${i + 1}`);
  console.log(
    `building ${trackCount} tracks × ${T} agents × ${N} rounds (${trackCount * T * N} strategies, each workspace with ${T} previous bots) in ${root} …`,
  );
  const t0 = performance.now();
  const inputs: Array<{ game: string; variant: string; strategies: EvolutionStrategy[] }> = [];
  for (const { game, variant } of tracks) {
    const r = lcg(games.indexOf(game) * 7 + (variant === 'variant' ? 1 : 0) + 1);
    const base = referenceBotDir(game, 'heuristic');
    const others = games.filter((g) => g !== game).map((g) => referenceBotDir(g, 'heuristic'));
    const track = path.join(root, `${game}-${variant}`);
    const strategies: EvolutionStrategy[] = [];
    for (let n = 1; n <= N; n++) {
      for (const [i, agent] of agents.entries()) {
        const dir = path.join(track, roundDirName(n), RUN_DIRS.strategies, agent);
        if (n === 1) {
          fs.cpSync(base, dir, { recursive: true });
          // Each agent grows its bot its own way: another game's engine file, and its own edits.
          const extra = others[i % others.length]!;
          for (const f of fs
            .readdirSync(extra)
            .filter((f) => f.endsWith('.mjs') && f !== 'bot-http.mjs')
            .slice(0, 1 + (i % 2))) {
            fs.writeFileSync(
              path.join(dir, `extra-${f}`),
              edit(fs.readFileSync(path.join(extra, f), 'utf8'), 0.3, r, agent),
            );
          }
          for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.mjs')))
            fs.writeFileSync(path.join(dir, f), edit(fs.readFileSync(path.join(dir, f), 'utf8'), 0.2, r, agent));
          if (i % 3 === 0)
            for (let k = 0; k < 300; k++)
              fs.mkdirSync(path.join(dir, 'node_modules', `pkg${k}`), { recursive: true }),
                fs.writeFileSync(path.join(dir, 'node_modules', `pkg${k}`, 'index.js'), 'module.exports = 1;\n');
        } else {
          // A few edits to its own previous bot; every third agent copies the previous round's first agent's files.
          const prev = path.join(track, roundDirName(n - 1), RUN_DIRS.strategies, agent);
          fs.cpSync(i % 3 === 2 ? path.join(track, roundDirName(n - 1), RUN_DIRS.strategies, agents[0]!) : prev, dir, {
            recursive: true,
          });
          for (const f of fs.readdirSync(dir).filter((f) => f.endsWith('.mjs')))
            fs.writeFileSync(
              path.join(dir, f),
              edit(fs.readFileSync(path.join(dir, f), 'utf8'), 0.03, r, `${agent}r${n}`),
            );
        }
        const workspace = path.join(track, roundDirName(n), RUN_DIRS.workspaces, agent);
        if (n > 1)
          for (const a of agents)
            fs.cpSync(
              path.join(track, roundDirName(n - 1), RUN_DIRS.strategies, a),
              path.join(workspace, 'last_round', a),
              {
                recursive: true,
                filter: (src) => !src.includes('node_modules'),
              },
            );
        fs.mkdirSync(path.join(workspace, RUN_DIRS.logs), { recursive: true });
        fs.writeFileSync(path.join(workspace, RUN_DIRS.logs, RUN_FILES.roundReport), '{}');
        const transcript = transcripts[i % transcripts.length]!;
        fs.writeFileSync(path.join(workspace, '.agent-output-1.txt'), transcript.text);
        strategies.push({
          id: `${agent}@r${n}`,
          agent,
          round: n,
          agentKind: transcript.kind,
          status: 'ok',
          dir,
          workspace,
          buildLog: '## validation: passed\n',
        });
      }
    }
    inputs.push({ game, variant, strategies });
  }
  console.log(`built in ${((performance.now() - t0) / 1000).toFixed(0)} s; building the evolution …`);

  const perTrack: Array<{ track: string; ms: number; cpuMs: number; flags: number }> = [];
  const evolutions: EvolutionTrack[] = [];
  const cpu0 = process.cpuUsage();
  const w0 = performance.now();
  for (const input of inputs) {
    const G = Object.fromEntries(
      agents.map((a, i) => [a, Array.from({ length: N }, (_, n) => 0.3 + 0.05 * ((i + n) % 7))]),
    );
    const e = await trackEvolution({
      track: `${input.game}-${input.variant}`,
      game: input.game,
      variant: input.variant,
      agents,
      rounds: N,
      strategies: input.strategies,
      G,
      base: [referenceBotDir(input.game, 'random')],
    });
    evolutions.push(e);
    perTrack.push({ track: e.track, ms: e.ms, cpuMs: e.cpuMs, flags: e.flags.filter((f) => f.borrowed).length });
  }
  const html = evolutionSectionHtml(evolutions, { diffHref: () => 'x.diff' });
  const markdown = evolutionMarkdown(evolutions);
  const wallMs = Math.round(performance.now() - w0);
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = Math.round((cpu.user + cpu.system) / 1000);
  const loc = evolutions.flatMap((e) => e.steps.map((s) => s.profile.linesOfCode));
  const result = {
    agents: T,
    rounds: N,
    tracks: trackCount,
    strategies: loc.length,
    linesOfCode: { min: Math.min(...loc), max: Math.max(...loc) },
    wallMs,
    cpuMs,
    htmlBytes: Buffer.byteLength(html),
    markdownBytes: Buffer.byteLength(markdown),
    perTrack,
  };
  for (const t of perTrack)
    console.log(
      `  ${t.track.padEnd(16)} ${String(t.ms).padStart(6)} ms wall ${String(t.cpuMs).padStart(6)} ms CPU, ${t.flags} borrowed-code flags`,
    );
  console.log(
    `evolution of ${loc.length} strategies (${result.linesOfCode.min}–${result.linesOfCode.max} lines of code each): ${(wallMs / 1000).toFixed(1)} s wall, ${(cpuMs / 1000).toFixed(1)} s CPU; report.html share ${(result.htmlBytes / 1024).toFixed(0)} KiB, report.md share ${(result.markdownBytes / 1024).toFixed(0)} KiB`,
  );
  fs.rmSync(root, { recursive: true, force: true });
  return result;
}
