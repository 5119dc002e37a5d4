// Task tracks (standard | ml | js | go): the option, the task prompt, the language check at build,
// and the offline reference bots of each track. The Docker part plays two real tourney runs in the
// bot image (CATARENA_DOCKER=1 or a working engine with the current image): one with an agent on
// the go track and one on js (agentTracks), the other on ml (which also enters a Python bot on the
// go track, refused). Over 30 s with Docker: the go/js run builds and plays every paper game in
// containers, the ml run trains its model.
// Over 30 s: Docker only: the Go and JavaScript reference bots are built in the bot image and
// play all four games, and the ML one trains.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildWorkspace } from '../agents/core/workspace.ts';
import { TASK_TRACK_PROMPTS } from '../agents/core/task-track-prompt.ts';
import { gamesWithTrackReference, mlTrainingBudgetS, trackReferenceDir } from '../agents/offline/track-reference.ts';
import { gameIds } from '../games/registry.ts';
import { TASK_TRACKS, taskTrackOf } from '../records/task-track.ts';
import { resolveConfig } from '../orchestrator/config/tourney-config.ts';
import { detectBotLanguages, languageProblem } from '../orchestrator/language-check.ts';
import { checkAgentTracks } from '../orchestrator/tourney/develop.ts';
import { readIndexFile } from '../orchestrator/run/run-index.ts';
import {
  languageTable,
  mlAbilityTable,
  scoresFromIndex,
  taskTrackSections,
  type TaskTrackScore,
} from '../reports/markdown-task-tracks.ts';
import { runTourney } from '../orchestrator/tourney/tourney.ts';
import { BUILTIN, botDir, dockerReady, tempDir } from './helpers/bots.ts';

const PAPER_GAMES = ['gomoku', 'chess', 'holdem', 'bridge'];
const pythonBot = () => botDir('py_bot', 'exec python3 bot.py "$1"', { 'bot.py': 'print("a python bot")\n' });

describe('task track option', () => {
  it('defaults to standard, takes --track values and per-agent tracks, refuses others by name', () => {
    expect(resolveConfig({}).track).toBe('standard');
    const config = resolveConfig({ track: 'go', agentTracks: { cautious: 'js' } });
    expect(taskTrackOf(config, 'cautious')).toBe('js');
    expect(taskTrackOf(config, 'aggressive')).toBe('go');
    expect(() => resolveConfig({ track: 'rust' as never })).toThrow(/track: .*"standard"/s);
    expect(() => checkAgentTracks({ agentTracks: { cautios: 'go' } }, [{ id: 'cautious' }])).toThrow(
      /agentTracks names no agent of this run: cautios; the agents are cautious/,
    );
  });

  it("adds the track's section to the task (TASK.md), none for standard", async () => {
    for (const track of TASK_TRACKS) {
      const ws = await buildWorkspace({
        dir: tempDir(),
        game: 'gomoku',
        variant: 'standard',
        round: 1,
        agentId: 'a',
        seed: 1,
        moveTimeoutMs: 1000,
        taskTrack: track,
      });
      const text = fs.readFileSync(path.join(ws.dir, 'TASK.md'), 'utf8');
      expect(text).toBe(ws.task);
      if (track === 'standard') expect(text).not.toMatch(/Task track/);
      else expect(text).toContain(TASK_TRACK_PROMPTS[track].join('\n'));
    }
  });
});

describe('language check', () => {
  it("accepts each track's reference bots and any bot on the standard track", () => {
    for (const game of PAPER_GAMES) {
      expect(languageProblem(trackReferenceDir(game, 'go'), 'go')).toBeNull();
      expect(languageProblem(BUILTIN('heuristic', game), 'js')).toBeNull();
      expect(languageProblem(BUILTIN('heuristic', game), 'standard')).toBeNull();
    }
    expect(languageProblem(trackReferenceDir('gomoku', 'ml'), 'ml')).toBeNull();
    expect(languageProblem(pythonBot(), 'standard')).toBeNull();
    expect(detectBotLanguages(trackReferenceDir('chess', 'go')).launched.map((l) => l.language)).toEqual(['go']);
  });

  it('refuses a bot in another language with its reason', () => {
    expect(languageProblem(pythonBot(), 'go')).toMatch(
      /^wrong language for the go task track \(the bot must be written in Go\): start_ai.sh runs python \(bot.py\)$/,
    );
    expect(languageProblem(trackReferenceDir('gomoku', 'go'), 'js')).toBe(
      'wrong language for the js task track (the bot must be written in JavaScript (Node.js)): start_ai.sh runs go (httpbot.go, main.go)',
    );
    expect(languageProblem(BUILTIN('heuristic'), 'ml')).toMatch(
      /ml task track \(the bot must be written in Python\): start_ai.sh runs node/,
    );
    // Started right, but carrying another language's code.
    const mixed = botDir('mixed', 'exec node bot.mjs "$1"', { 'bot.mjs': '', 'helper.py': '' });
    expect(languageProblem(mixed, 'js')).toMatch(/the bot folder holds Python files \(helper.py\)/);
    // Wrappers and variable assignments before the command still count.
    expect(
      detectBotLanguages(
        botDir('wrapped', 'nice -n 10 go build -o /tmp/b ./*.go\nPORT=$1 exec python3 bot.py', { 'main.go': '' }),
      )
        .launched.map((l) => l.language)
        .sort(),
    ).toEqual(['go', 'python']);
    // A comment naming python is not a command.
    const commented = botDir('commented', '# not python: node only\nexec node bot.mjs "$1"', { 'bot.mjs': '' });
    expect(languageProblem(commented, 'js')).toBeNull();
  });
});

describe('track reference bots', () => {
  it('exist for js and go in every paper game and for ml in gomoku; a game without one is named', () => {
    expect(gamesWithTrackReference('go')).toEqual(expect.arrayContaining(PAPER_GAMES));
    expect(gamesWithTrackReference('ml')).toContain('gomoku');
    for (const game of PAPER_GAMES) expect(fs.existsSync(path.join(BUILTIN('heuristic', game), 'bot.mjs'))).toBe(true);
    expect(() => trackReferenceDir('chess', 'ml')).toThrow(
      /no ml reference bot for chess \(games\/chess\/bots\/ml\); offline agents play the ml task track in: gomoku/,
    );
    for (const game of gameIds().filter((g) => !PAPER_GAMES.includes(g)))
      expect(() => trackReferenceDir(game, 'go')).toThrow(new RegExp(`no go reference bot for ${game}`));
    expect(mlTrainingBudgetS(30 * 60_000)).toBe(20);
    expect(mlTrainingBudgetS(1_000)).toBe(5);
  });

  it('carry the one source of the Go HTTP plumbing and start script (games/core/go)', () => {
    for (const file of ['httpbot.go', 'start_ai.sh']) {
      const source = fs.readFileSync(path.resolve(import.meta.dirname, '../games/core/go', file));
      for (const game of gamesWithTrackReference('go')) {
        const copy = path.join(trackReferenceDir(game, 'go'), file);
        expect(fs.readFileSync(copy).equals(source), `${copy} differs: run node scripts/sync-bot-libs.mjs`).toBe(true);
      }
    }
  });
});

describe('task-track reports', () => {
  const score = (
    agent: string,
    taskTrack: TaskTrackScore['taskTrack'],
    track: string,
    S: number | null,
    L: number | null = null,
    run = 'r1',
  ): TaskTrackScore => ({ run, agent, taskTrack, track, S, L });

  it('ML ability (Table 14 layout): S and L per game for the agents on the ml track, then the means', () => {
    const table = mlAbilityTable([
      score('a', 'ml', 'gomoku-standard', 0.6, 0.1),
      score('b', 'ml', 'gomoku-standard', 0.4, -0.1),
      score('c', 'go', 'gomoku-standard', 0.9),
    ])!;
    expect(table.split('\n')[0]).toMatch(/agent .*gomoku-standard S .*gomoku-standard L .*mean S .*mean L/);
    expect(table).toMatch(/a .*0\.600 .*0\.100 .*0\.600 .*0\.100/);
    expect(table).not.toMatch(/\| c /);
    expect(mlAbilityTable([score('a', 'go', 'gomoku-standard', 0.5)])).toBeNull();
  });

  it('languages (Table 15 layout): S per language, mean and variance per agent; none with one language each', () => {
    const scores = [
      score('a', 'js', 'gomoku-standard', 0.6, null, 'r1'),
      score('a', 'js', 'chess-standard', 0.4, null, 'r1'),
      score('a', 'go', 'gomoku-standard', 0.3, null, 'r2'),
      score('b', 'go', 'gomoku-standard', 0.7, null, 'r2'),
    ];
    const table = languageTable(scores)!;
    expect(table.split('\n')[0]).toMatch(/agent .*S Go .*S JavaScript \(Node.js\) .*mean S .*variance/);
    // a: Go 0.3, JavaScript mean(0.6, 0.4) = 0.5 → mean 0.4, variance 0.01.
    expect(table).toMatch(/\| a +\| 0\.300 +\| 0\.500 +\| 0\.400 +\| 0\.0100 +\|/);
    expect(table).toMatch(/\| b +\| 0\.700 +\| — +\| 0\.700 +\| — +\|/);
    expect(
      languageTable([score('a', 'js', 'gomoku-standard', 0.6), score('b', 'go', 'gomoku-standard', 0.5)]),
    ).toBeNull();
    expect(taskTrackSections([score('a', 'standard', 'gomoku-standard', 0.5)])).toEqual([]);
    expect(taskTrackSections(scores)[0]).toMatch(/## Task tracks[\s\S]*### Languages \(Table 15 layout\)/);
  });

  it('reads task tracks from index entries; entries from before count as standard', () => {
    const iv = (point: number) => ({ point, lo: null, hi: null, samples: 0 });
    const entry = (runId: string, taskTracks?: Record<string, 'go' | 'js'>) => ({
      runId,
      runDir: runId,
      finishedAt: '',
      games: [],
      rounds: 1,
      matches: 0,
      reused: 0,
      leaderboard: [],
      tracks: [{ track: 'gomoku-standard', perAgent: { a: { S: iv(0.5), L: iv(0) } } }],
      ...(taskTracks ? { taskTracks } : {}),
    });
    expect(scoresFromIndex([entry('old'), entry('new', { a: 'go' })]).map((s) => s.taskTrack)).toEqual([
      'standard',
      'go',
    ]);
  });
});

const dockerWorks = process.env.CATARENA_DOCKER === '1' || (process.env.CATARENA_DOCKER !== '0' && dockerReady());

describe.skipIf(!dockerWorks)('a tourney round on each task track in the Docker sandbox', () => {
  const agents = ['offline:cautious', 'offline:aggressive'];
  const out = tempDir(); // one run index for the runs of this block
  const playRound = async (
    track: 'standard' | 'ml' | 'js' | 'go',
    games: string[],
    extraAgents: string[] = [],
    agentTracks: Record<string, 'standard' | 'ml' | 'js' | 'go'> = {},
    extra: { developTimeoutMs?: number } = {},
  ) => {
    const runDir = path.join(out, `run-${track}-${games.join('-')}`);
    const config = resolveConfig({
      games,
      rounds: 1,
      variants: ['standard'],
      agents: [...agents, ...extraAgents],
      track,
      agentTracks,
      sandbox: 'docker',
      concurrency: 2,
      bootstrapSamples: 50,
      reps: 1,
      // A Go bot compiles in its container (one pinned core) before it answers: 1 s alone, but over
      // the 20 s default while CI's other Docker files kept both cores busy (one CI run).
      startTimeoutMs: 60_000,
      ...extra,
    });
    const summary = await runTourney({ config, runDir });
    const journal = fs
      .readFileSync(path.join(runDir, 'journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { termination: string; game: string; spec: { seats: string[] } });
    return { runDir, summary, journal };
  };
  const expectPlayed = (
    r: Awaited<ReturnType<typeof playRound>>,
    games: string[],
    agentIds = ['cautious', 'aggressive'],
  ) => {
    expect(r.summary.tracks.map((t) => t.game).sort()).toEqual([...games].sort());
    for (const t of r.summary.tracks) {
      for (const s of t.strategies.filter((x) => agentIds.includes(x.agent)))
        expect(s.status, `${t.game} ${s.id}: ${s.failure}`).toBe('ok');
      expect(t.games, t.game).toBeGreaterThan(0);
    }
    const abnormal = r.journal.filter((g) => g.termination !== 'normal');
    expect(abnormal, JSON.stringify(abnormal.slice(0, 2))).toEqual([]);
  };

  // One run for both: cautious on the go track (the run's), aggressive on js (agentTracks), so the
  // Go and the JavaScript bots are built, checked and played side by side (a run each before).
  it('go and js: Go reference bots build in the image, and the tuned JavaScript heuristic bots, validate and play all four games (one run)', async () => {
    const r = await playRound('go', PAPER_GAMES, [], { aggressive: 'js' });
    expectPlayed(r, PAPER_GAMES);
    const recordOf = (game: string, agent: string) =>
      JSON.parse(
        fs.readFileSync(
          path.join(r.runDir, 'tracks', `${game}-standard`, 'round_1', 'strategies', `${agent}.strategy.json`),
          'utf8',
        ),
      );
    for (const game of PAPER_GAMES) {
      const record = recordOf(game, 'cautious');
      expect(record.taskTrack).toBe('go');
      expect(fs.existsSync(path.join(record.dir, 'main.go'))).toBe(true);
      const js = recordOf(game, 'aggressive');
      expect(js.taskTrack).toBe('js');
      expect(languageProblem(js.dir, 'js')).toBeNull();
      // Every request reached a route of its own bot (httpbot.go logs the others; GET / is the TCP health probe).
      const logDir = path.join(r.runDir, 'bot-logs', `${game}-standard`);
      const logs = fs.readdirSync(logDir).map((f) => fs.readFileSync(path.join(logDir, f), 'utf8'));
      expect(
        logs
          .join('')
          .split('\n')
          .filter((l) => / 404 for (?!GET \/$)/.test(l)),
        game,
      ).toEqual([]);
    }
  }, 900_000);

  it('ml: the Gomoku model is trained with scikit-learn at build time, the bot loads it in the image and plays; a wrong-language bot on the go track is refused with its reason', async () => {
    // One run: the offline agents on the ml track, a Python bot entered on the go track (agentTracks).
    // A 40 s development budget: the ml agents train for a quarter of it, 10 s (20 s with the
    // default budget; mlTrainingBudgetS), still hundreds of samples.
    const r = await playRound(
      'ml',
      ['gomoku'],
      [`dir:${pythonBot()}#pybot`],
      { pybot: 'go' },
      { developTimeoutMs: 40_000 },
    );
    const refused = r.summary.tracks[0]!.strategies.find((s) => s.agent === 'pybot')!;
    expect(refused.status).toBe('failed');
    expect(refused.failure).toMatch(
      /invalid_bot.*wrong language for the go task track \(the bot must be written in Go\): start_ai.sh runs python \(bot.py\)/,
    );
    // The refused bot forfeits its games: the others' games are all normal.
    expectPlayed({ ...r, journal: r.journal.filter((g) => !g.spec.seats.includes('pybot@r1')) }, ['gomoku']);
    const dir = path.join(r.runDir, 'tracks', 'gomoku-standard', 'round_1', 'strategies', 'cautious');
    const training = JSON.parse(fs.readFileSync(path.join(dir, 'training.json'), 'utf8'));
    expect(training.samples).toBeGreaterThan(100);
    expect(training.budget_s).toBe(10);
    expect(training.self_play_s).toBeLessThanOrEqual(training.budget_s + 5);
    expect(fs.existsSync(path.join(dir, 'model.pkl'))).toBe(true);
    expect(fs.readFileSync(path.join(r.runDir, 'report.md'), 'utf8')).toMatch(
      /### ML ability \(Table 14 layout\)\n\n[^\n]*\n\n\| agent +\| gomoku-standard S/,
    );
  }, 600_000);

  it('the run index gives the language table over the go/js and ml runs', async () => {
    // cautious played Go and Python, aggressive JavaScript and Python: each row has its two
    // languages, a dash for the third, and its mean and variance.
    const table = languageTable(scoresFromIndex(await readIndexFile(path.join(out, 'index.jsonl'))))!;
    expect(table.split('\n')[0]).toMatch(/S Go .*S JavaScript \(Node.js\) .*S Python .*variance/);
    expect(table).toMatch(/\| cautious +\| \d\.\d{3} +\| — +\| \d\.\d{3} +\| \d\.\d{3} +\| \d\.\d{4} +\|/);
    expect(table).toMatch(/\| aggressive +\| — +\| \d\.\d{3} +\| \d\.\d{3} +\| \d\.\d{3} +\| \d\.\d{4} +\|/);
  });
});
