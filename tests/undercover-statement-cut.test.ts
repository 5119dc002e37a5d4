// A bot's 1 MB Undercover statement was stored whole: a 3 MB strategy record (its validation
// answers), a 6 MB round report that rival agents read, and every rival's /speak body carried it.
// A statement over the game's limit (MAX_STATEMENT_CHARS) fails the check whatever follows, so
// only its start is kept, saying so; the speaker is eliminated exactly as before.
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runArena } from '../orchestrator/arena.ts';
import { GameServerPool } from '../orchestrator/game-server/game-servers.ts';
import { cutStatement } from '../games/undercover/wire.ts';
import { MAX_STATEMENT_CHARS, statementFault } from '../games/undercover/engine/statement-check.mjs';
import { DEFAULT_LIMITS } from '../records/match.ts';
import { createSandbox } from '../sandbox/index.ts';
import { BUILTIN, botDir } from './helpers/bots.ts';
import { catarena } from './helpers/cli.ts';

/** 1 MB: under the 1 MiB a bot answer may have, so the answer is read and played. */
const HUGE = 1_000_000;

/** An Undercover bot whose every statement is 1 MB long (and that votes for the first candidate). */
function megabyteBot(): string {
  const server = `import http from 'node:http';
const huge = 'a loud clue '.repeat(${HUGE / 12 + 1}).slice(0, ${HUGE});
http.createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    const body = raw ? JSON.parse(raw) : {};
    const answer = req.url === '/speak' ? { statement: huge } : req.url === '/vote' ? { vote: body.candidates?.[0] ?? 0 } : { status: 'healthy' };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
}).listen(Number(process.argv[2]), '127.0.0.1');
`;
  return botDir('loud', '#!/bin/bash\ncd "$(dirname "$0")"\nexec node loud.mjs "$1"\n', { 'loud.mjs': server });
}

const sandbox = createSandbox('unsafe');
afterAll(() => sandbox.close());

describe('Undercover statements over the limit are stored cut', () => {
  it('cutStatement keeps the start, says how long it was, and fails the check as the whole did', () => {
    const whole = 'a loud clue '.repeat(HUGE / 12);
    const cut = cutStatement(whole);
    expect(cut.length).toBeLessThan(MAX_STATEMENT_CHARS + 80);
    expect(cut.startsWith(whole.slice(0, MAX_STATEMENT_CHARS))).toBe(true);
    expect(cut).toContain(`[cut by catarena: ${whole.length} characters; the limit is ${MAX_STATEMENT_CHARS}]`);
    expect(statementFault(cut, 'apple')).toBe(statementFault(whole, 'apple'));
    expect(cutStatement('short and fine')).toBe('short and fine');
    // A surrogate pair is never split.
    expect(cutStatement(`${'x'.repeat(MAX_STATEMENT_CHARS - 1)}😀${'y'.repeat(10)}`)).not.toMatch(
      /[\ud800-\udbff](?![\udc00-\udfff])/,
    );
  });

  it('a game with a 1 MB statement stores a replay and journal line of kilobytes, the statement cut', async () => {
    const hosts = new GameServerPool({ preferCatarenaPorts: false });
    const runDir = path.join(fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'cut-')), 'run');
    try {
      const { results } = await runArena({
        game: 'undercover',
        variant: 'standard',
        bots: [
          { id: 'loud', dir: megabyteBot() },
          { id: 'random', dir: BUILTIN('random', 'undercover') },
          { id: 'random-2', dir: BUILTIN('random', 'undercover') },
        ],
        reps: 1,
        maxGames: 1,
        seed: 5,
        concurrency: 1,
        limits: { ...DEFAULT_LIMITS, moveMs: 5_000 },
        policy: 'strict',
        runDir,
        sandbox,
        hosts,
      });
      expect(results).toHaveLength(1);
      const journal = fs.readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8');
      expect(journal.length).toBeLessThan(64 * 1024);
      const replayFile = fs.readdirSync(path.join(runDir, 'replays')).find((f) => f.endsWith('.json.gz'))!;
      const replay = gunzipSync(fs.readFileSync(path.join(runDir, 'replays', replayFile))).toString();
      expect(replay.length).toBeLessThan(256 * 1024);
      expect(replay).toContain(`[cut by catarena: ${HUGE} characters; the limit is ${MAX_STATEMENT_CHARS}]`);
    } finally {
      await hosts.closeAll();
    }
  }, 90_000);

  it('validate keeps the cut statement in its report', async () => {
    const r = await catarena('validate', megabyteBot(), '-g', 'undercover', '--sandbox', 'unsafe', '--json');
    expect(r.stdout.length).toBeLessThan(64 * 1024);
    const report = JSON.parse(r.stdout) as { positions: Array<{ answer?: { statement?: string } }> };
    const spoken = report.positions.map((p) => p.answer?.statement).filter((s) => s !== undefined);
    expect(spoken.length).toBeGreaterThan(0);
    for (const s of spoken) expect(s).toContain(`[cut by catarena: ${HUGE} characters`);
  }, 60_000);
});
