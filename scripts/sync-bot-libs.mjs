#!/usr/bin/env node
// Copies the libraries the reference bots share into their folders, so the bots (which must be
// self-contained: they are copied elsewhere and into containers) carry one source's code:
//   games/chess/engine/chess-core.mjs → every folder under games/chess/bots/ (the move generator
//                                        of the rules engine)
//   games/chess/engine/chess-requests.mjs → the same folders (reading a /move body, the variant's
//                                        obstacles from the game server)
//   games/core/bot-http.mjs           → every Node bot folder under games/*/bots/ (the HTTP plumbing)
//   games/core/go/httpbot.go          → every Go bot folder under games/*/bots/ (the go task track's bots)
//   games/core/go/start_ai.sh         → the same folders (build with the go command, offline, then run)
//   games/undercover/engine/statement-check.mjs → every Node bot folder under games/undercover/bots/
//                                        (the arena's statement check)
//   games/undercover/words.json       → every folder under games/undercover/bots/ that carries a
//                                        words.json (the heuristic bot's association list)
// Only Node bot folders (with a bot.mjs) get the .mjs libraries and only Go bot folders (with a
// main.go) the Go one: a bot folder holds one language (the task-track language check).
// tests/chess-bots.test.ts and tests/undercover-bots.test.ts fail when a copy differs.
// Usage: node scripts/sync-bot-libs.mjs [--check]   (--check: report differences, copy nothing)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GAMES = path.join(ROOT, 'games');
/** Every games/<game>/bots folder. */
const allBotsDirs = () =>
  fs
    .readdirSync(GAMES, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(GAMES, d.name, 'bots')))
    .map((d) => path.join(GAMES, d.name, 'bots'))
    .sort();
/** [source file, folder whose every subfolder with the marker file gets a copy, marker] */
export const LIBS = [
  [path.join(ROOT, 'games/chess/engine/chess-core.mjs'), path.join(ROOT, 'games/chess/bots'), 'bot.mjs'],
  [path.join(ROOT, 'games/chess/engine/chess-requests.mjs'), path.join(ROOT, 'games/chess/bots'), 'bot.mjs'],
  ...allBotsDirs().map((botsDir) => [path.join(ROOT, 'games/core/bot-http.mjs'), botsDir, 'bot.mjs']),
  ...allBotsDirs().flatMap((botsDir) =>
    ['httpbot.go', 'start_ai.sh'].map((file) => [path.join(ROOT, 'games/core/go', file), botsDir, 'main.go']),
  ),
  [path.join(ROOT, 'games/undercover/engine/statement-check.mjs'), path.join(ROOT, 'games/undercover/bots'), 'bot.mjs'],
  [path.join(ROOT, 'games/undercover/words.json'), path.join(ROOT, 'games/undercover/bots'), 'words.json'],
];

/** Every copy that should exist: { source, target, same }. */
export function botLibCopies() {
  const out = [];
  for (const [source, botsDir, marker] of LIBS) {
    const text = fs.readFileSync(source);
    for (const d of fs.readdirSync(botsDir, { withFileTypes: true })) {
      if (!d.isDirectory() || !fs.existsSync(path.join(botsDir, d.name, marker))) continue;
      const target = path.join(botsDir, d.name, path.basename(source));
      const same = fs.existsSync(target) && fs.readFileSync(target).equals(text);
      out.push({ source, target, same });
    }
  }
  return out;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const { source, target, same } of botLibCopies()) {
    const rel = path.relative(ROOT, target);
    if (same) continue;
    stale++;
    if (check) console.log(`differs: ${rel}`);
    else {
      fs.copyFileSync(source, target);
      console.log(`updated: ${rel}`);
    }
  }
  if (!stale) console.log('all bot copies are up to date');
  if (check && stale) process.exit(1);
}
