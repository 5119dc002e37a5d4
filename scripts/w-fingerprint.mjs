#!/usr/bin/env node
// A refactor must not change behaviour: this runs the same small tourneys with deterministic bots
// (the reference heuristic bots with fixed search and no noise, three settings per game, entered
// as dir: agents), one game at a time at concurrency 1, and prints the sha256 of every W.json.
// Run it before and after a change; the lines must be identical.
//   node scripts/w-fingerprint.mjs [--games gomoku,chess,holdem,bridge] [--keep]
// Uses only the CLI (bin/catarena.mjs), so it works across internal changes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const games = (arg('--games') ?? 'gomoku,chess,holdem,bridge').split(',');

// Settings that finish their search long before any deadline and use no noise: the same requests
// get the same answers in any run.
const SETTINGS = {
  gomoku: [
    { depth: 2, candidates: 8, timeBudgetMs: 60000, randomness: 0 },
    { depth: 2, candidates: 6, attack: 1.4, defense: 0.8, timeBudgetMs: 60000, randomness: 0 },
    { depth: 1, candidates: 10, attack: 0.8, defense: 1.3, timeBudgetMs: 60000, randomness: 0 },
  ],
  chess: [
    { depth: 1, timeBudgetMs: 60000, randomness: 0 },
    { depth: 2, timeBudgetMs: 60000, randomness: 0, mobility: 2 },
    { depth: 1, timeBudgetMs: 60000, randomness: 0, materialScale: 1.5, kingSafety: 0.5 },
  ],
  holdem: [
    { simulations: 60, timeBudgetMs: 60000, randomness: 0, tightness: 0.5, aggression: 0.5 },
    { simulations: 60, timeBudgetMs: 60000, randomness: 0, tightness: 0.2, aggression: 0.8 },
    { simulations: 60, timeBudgetMs: 60000, randomness: 0, tightness: 0.8, aggression: 0.3 },
  ],
  bridge: [
    { randomness: 0, timeBudgetMs: 60000 },
    { randomness: 0, timeBudgetMs: 60000, openMin: 10, aggression: 0.8 },
    { randomness: 0, timeBudgetMs: 60000, openMin: 14, aggression: 0.2 },
  ],
};

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'catarena-fingerprint-'));
const lines = [];
for (const game of games) {
  const agents = SETTINGS[game].map((params, k) => {
    const dir = path.join(work, game, `bot${k + 1}`);
    fs.cpSync(path.join(root, 'games', game, 'bots', 'heuristic'), dir, { recursive: true });
    const file = path.join(dir, 'params.json');
    fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), ...params }, null, 2));
    return `dir:${dir}#${game}${k + 1}`;
  });
  const config = path.join(work, `${game}.json`);
  fs.writeFileSync(
    config,
    JSON.stringify({
      rounds: 2,
      games: [game],
      agents,
      seed: 7,
      concurrency: 1,
      bootstrapSamples: 100,
      reps: game === 'holdem' ? 2 : game === 'bridge' ? 2 : 1,
    }),
  );
  const out = execFileSync(
    process.execPath,
    [path.join(root, 'bin', 'catarena.mjs'), 'tourney', '--config', config, '--out', path.join(work, 'runs'), '--json'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const runDir = JSON.parse(out).runDir;
  for (const track of fs.readdirSync(path.join(runDir, 'tracks')).sort()) {
    const w = fs.readFileSync(path.join(runDir, 'tracks', track, 'W.json'));
    lines.push(`${track} W.json ${createHash('sha256').update(w).digest('hex')}`);
  }
}
console.log(lines.join('\n'));
if (!process.argv.includes('--keep')) fs.rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
