// What an agent looked at before writing its bot (reports/evolution/agent-reads.ts), read from
// the record each kind of agent leaves in its round workspace: the four CLIs' own output, recorded
// from the pinned CLIs against catarena's scripted API servers in the paper's Table 12 scenario
// (tests/fixtures/transcripts: grep the round report for wins, list last_round, read two rivals'
// code and its own, copy the leader's folder, write notes); the built-in agent's tool log and, for
// runs made before it, its build log; the offline agents' file log, from a real develop; and the
// shell commands through which agents mostly look (reports/evolution/shell-paths.ts).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentReads, buildLogCalls, classify } from '../reports/evolution/agent-reads.ts';
import { shellPathUses } from '../reports/evolution/shell-paths.ts';
import { TOOL_LOG_FILE, type ToolLogLine } from '../records/agent-activity.ts';
import { buildWorkspace } from '../agents/core/workspace.ts';
import { createOfflineAgent } from '../agents/offline/index.ts';
import type { RoundReport } from '../records/tourney.ts';
import { BUILTIN, tempDir } from './helpers/bots.ts';

const TRANSCRIPTS = path.resolve(import.meta.dirname, 'fixtures/transcripts');
const AGENTS = ['aggressive', 'cautious', 'imitator'];

/** A round-2 workspace of agent "cautious" as buildWorkspace lays it out, with the given record files in its root. */
function workspace(records: Record<string, string>): string {
  const dir = tempDir('catarena-reads-');
  for (const agent of AGENTS) {
    fs.mkdirSync(path.join(dir, 'last_round', agent), { recursive: true });
    for (const f of ['params.json', 'bot.mjs', 'engine.mjs', 'start_ai.sh'])
      fs.writeFileSync(path.join(dir, 'last_round', agent, f), `${agent} ${f}\n`);
  }
  fs.mkdirSync(path.join(dir, 'logs'));
  fs.writeFileSync(path.join(dir, 'logs', 'round_report.json'), '{}');
  fs.mkdirSync(path.join(dir, 'gomoku', 'AI_example'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'gomoku', 'README.md'), '# gomoku\n');
  fs.writeFileSync(path.join(dir, 'TASK.md'), '# task\n');
  fs.mkdirSync(path.join(dir, 'develop_ai'));
  for (const [name, text] of Object.entries(records)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

describe("CLI transcripts (the paper's Table 12 scenario, recorded from each pinned CLI)", () => {
  const cases = [
    // [cli, what the grep of the report looks like, the rivals' files it read]
    {
      cli: 'claude-code',
      source: 'Claude Code stream-json',
      logs: ['round_report.json'],
      imitator: ['bot.mjs'],
      failedWrite: true,
    },
    {
      cli: 'codex',
      source: 'Codex JSON',
      logs: ['round_report.json'],
      imitator: ['bot.mjs', 'params.json'],
      failedWrite: false,
    },
    { cli: 'gemini-cli', source: 'Gemini CLI stream-json', logs: ['.'], imitator: ['bot.mjs'], failedWrite: false },
    { cli: 'qwen-code', source: 'Qwen Code JSON', logs: ['.'], imitator: ['bot.mjs'], failedWrite: true },
  ];
  for (const c of cases) {
    it(`${c.cli}: the report grepped, the agents listed, two rivals' code and its own read, the leader's folder copied, then the first write`, async () => {
      const ws = workspace({ '.agent-output-1.txt': fs.readFileSync(path.join(TRANSCRIPTS, `${c.cli}.txt`), 'utf8') });
      const r = (await agentReads({ workspace: ws, agent: 'cautious', kind: `cli:${c.cli}/scripted` }))!;
      expect(r.source).toBe(`${c.source} output (1 attempt)`);
      expect(r.toolCalls).toBe(7);
      expect(r.logs).toEqual(c.logs);
      expect(r.listedAgents).toBe(true);
      expect(r.own).toEqual(['params.json']);
      expect(r.rivals).toEqual({ aggressive: ['params.json', '.'], imitator: c.imitator });
      expect(r.copied).toEqual(['aggressive']);
      expect(r.task).toEqual([]);
      // Call 6 copies the leader's folder into develop_ai: the first write. Everything it looked at came before.
      expect(r.firstWrite).toBe(6);
      expect(r.accesses.filter((a) => a.category !== 'output' && a.category !== 'other').every((a) => a.before)).toBe(
        true,
      );
      expect(r.accesses.find((a) => a.action === 'copy')).toMatchObject({
        call: 6,
        path: 'last_round/aggressive',
        category: 'rival',
        agent: 'aggressive',
        before: true,
      });
      // The notes written last (Claude Code and Qwen Code refuse to overwrite a file they have not read).
      const notes = r.accesses.filter((a) => a.path === 'develop_ai/NOTES.md');
      expect(notes).toHaveLength(1);
      expect(notes[0]!.ok === false).toBe(c.failedWrite);
    });
  }

  it('reads every attempt in order, and tells a CLI whose output holds no tool events', async () => {
    const claude = fs.readFileSync(path.join(TRANSCRIPTS, 'claude-code.txt'), 'utf8');
    const ws = workspace({
      '.agent-output-1.txt': claude,
      '.agent-output-2.txt': claude,
      '.agent-output-10.txt': '{"type":"result","subtype":"success"}\n--- stderr ---\n',
    });
    const r = (await agentReads({ workspace: ws, agent: 'cautious', kind: 'cli:claude-code' }))!;
    expect(r.source).toBe('Claude Code stream-json output (3 attempts)');
    expect(r.toolCalls).toBe(14);
    expect(r.accesses.at(-1)!.attempt).toBe(2);
    // Claude Code before stream-json (a result object only): no calls, nothing looked at.
    const old = (await agentReads({
      workspace: workspace({ '.agent-output-1.txt': '{"type":"result","num_turns":3}\n--- stderr ---\n' }),
      agent: 'cautious',
      kind: 'cli:claude-code',
    }))!;
    expect([old.toolCalls, old.own, old.rivals, old.logs]).toEqual([0, [], {}, []]);
  });
});

describe("the built-in agent's records", () => {
  it('its tool log: list, read, search and copy by command, globs expanded against the workspace', async () => {
    const lines: ToolLogLine[] = [
      { attempt: 1, step: 1, tool: 'list_files', input: { path: '.', recursive: true }, ok: true },
      { attempt: 1, step: 2, tool: 'read_file', input: { path: 'logs/round_report.json', offset: 0 }, ok: true },
      {
        attempt: 1,
        step: 3,
        tool: 'run_command',
        input: { command: 'cat last_round/*/params.json | head -40' },
        ok: true,
      },
      {
        attempt: 1,
        step: 4,
        tool: 'read_file',
        input: { path: 'last_round/imitator/engine.mjs', offset: 0 },
        ok: true,
      },
      { attempt: 1, step: 5, tool: 'read_file', input: { path: 'TASK.md', offset: 0 }, ok: true },
      { attempt: 1, step: 6, tool: 'write_file', input: { path: 'develop_ai/bot.mjs', chars: 900 }, ok: true },
      { attempt: 1, step: 7, tool: 'read_file', input: { path: 'last_round/aggressive/bot.mjs', offset: 0 }, ok: true },
      { attempt: 1, step: 8, tool: 'read_file', input: { path: '../../etc/passwd', offset: 0 }, ok: false },
      { attempt: 2, step: 1, tool: 'test_bot', input: {}, ok: true },
    ];
    const ws = workspace({ [TOOL_LOG_FILE]: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n` });
    const r = (await agentReads({ workspace: ws, agent: 'cautious', kind: 'builtin:openai/gpt-x' }))!;
    expect(r.source).toBe('built-in agent tool log');
    expect(r.toolCalls).toBe(9);
    expect(r.logs).toEqual(['round_report.json']);
    expect(r.own).toEqual(['params.json']);
    expect(r.rivals).toEqual({ aggressive: ['params.json', 'bot.mjs'], imitator: ['params.json', 'engine.mjs'] });
    expect(r.task).toEqual(['TASK.md']);
    expect(r.firstWrite).toBe(6);
    expect(r.accesses.filter((a) => a.path === 'last_round/aggressive/bot.mjs')[0]!.before).toBe(false);
    expect(r.accesses.some((a) => a.path.includes('passwd'))).toBe(false); // outside the workspace
  });

  it('its build log, for runs made before the tool log (arguments shortened to 120 characters)', async () => {
    const log = [
      '## attempt 1/3: openai/gpt-x',
      '- list_files(last_round) ok, 2 ms',
      '- read_file(last_round/imitator/bot.mjs) ok, 1 ms',
      '- run_command(grep -n wins logs/round_report.json) ok (exit code 0), 15 ms',
      '- write_file(develop_ai/bot.mjs, 1200 chars) ok, 1 ms',
      '## attempt 2/3: openai/gpt-x',
      '- read_file(last_round/cautious/params.json @100) ERROR: no such file',
    ].join('\n');
    expect(buildLogCalls(log).map((c) => `${c.attempt} ${c.tool} ${JSON.stringify(c.input)} ${c.ok}`)).toEqual([
      '1 list_files {"path":"last_round"} true',
      '1 read_file {"path":"last_round/imitator/bot.mjs"} true',
      '1 run_command {"command":"grep -n wins logs/round_report.json"} true',
      '1 write_file {"path":"develop_ai/bot.mjs"} true',
      '2 read_file {"path":"last_round/cautious/params.json"} false',
    ]);
    const r = (await agentReads({
      workspace: workspace({}),
      agent: 'cautious',
      kind: 'builtin:openai/gpt-x',
      buildLog: log,
    }))!;
    expect(r.source).toMatch(/build log/);
    expect([r.listedAgents, r.rivals, r.logs, r.own, r.firstWrite]).toEqual([
      true,
      { imitator: ['bot.mjs'] },
      ['round_report.json'],
      [],
      4,
    ]);
  });

  it('no record for agents that keep none (dir:, llm-player)', async () => {
    expect(await agentReads({ workspace: workspace({}), agent: 'x', kind: 'dir' })).toBeNull();
    expect(await agentReads({ workspace: workspace({}), agent: 'x', kind: 'llm-player:openai/m' })).toBeNull();
  });
});

describe("the offline agents' file log", () => {
  it("a real round-2 develop: the report, the list of agents, every agent's params.json, then its writes", async () => {
    const prev = tempDir('catarena-prev-');
    const bots: Array<{ agent: string; dir: string }> = [];
    for (const agent of AGENTS) {
      const dir = path.join(prev, 'bots', agent);
      fs.cpSync(BUILTIN('heuristic'), dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'params.json'),
        JSON.stringify({
          ...JSON.parse(fs.readFileSync(path.join(dir, 'params.json'), 'utf8')),
          name: agent,
          depth: 2,
        }),
      );
      bots.push({ agent, dir });
    }
    const h2h = { games: 2, wins: 1, draws: 0, losses: 1, score: 0.5 };
    const report: RoundReport = {
      game: 'gomoku',
      variant: 'standard',
      round: 1,
      policy: 'strict',
      games: 6,
      strategies: AGENTS.map((a) => ({ id: `${a}@r1`, agent: a, round: 1, status: 'ok' as const })),
      standings: AGENTS.map((a) => ({ id: `${a}@r1`, agent: a, round: 1, ...h2h, failures: {}, avgMoveMs: 10 })),
      pairwise: Object.fromEntries(
        AGENTS.map((a) => [`${a}@r1`, Object.fromEntries(AGENTS.filter((b) => b !== a).map((b) => [`${b}@r1`, h2h]))]),
      ),
    };
    fs.mkdirSync(path.join(prev, 'logs'));
    fs.writeFileSync(path.join(prev, 'logs', 'round_report.json'), JSON.stringify(report));
    const agent = createOfflineAgent('offline:imitator', 1);
    const ws = await buildWorkspace({
      dir: path.join(tempDir(), 'ws'),
      game: 'gomoku',
      variant: 'standard',
      round: 2,
      agentId: agent.id,
      seed: 1,
      moveTimeoutMs: 2000,
      previous: { bots, logsDir: path.join(prev, 'logs') },
    });
    await agent.develop(ws, { wallMs: 60_000 });
    const r = (await agentReads({ workspace: ws.dir, agent: agent.id, kind: agent.kind }))!;
    expect(r.source).toBe('offline agent file log');
    expect(r.listedAgents).toBe(true);
    expect(r.own).toEqual(['params.json']);
    expect(r.rivals).toEqual({ aggressive: ['params.json'], cautious: ['params.json'] });
    expect(r.logs).toEqual(['round_report.json']);
    expect(r.firstWrite).toBe(6); // list + 3 params + the report, then it writes its bot
    expect(r.accesses.filter((a) => a.action === 'write').map((a) => a.path)).toEqual(
      expect.arrayContaining(['develop_ai/params.json', 'develop_ai/NOTES.md', 'develop_ai/start_ai.sh']),
    );
  });
});

describe('the offline agents on the go track', () => {
  it('copy the Go reference bot: a file log of writes only, nothing of the workspace read', async () => {
    const agent = createOfflineAgent('offline:cautious', 1);
    const ws = await buildWorkspace({
      dir: path.join(tempDir(), 'ws'),
      game: 'gomoku',
      variant: 'standard',
      round: 1,
      agentId: agent.id,
      seed: 1,
      moveTimeoutMs: 2000,
      taskTrack: 'go',
    });
    await agent.develop(ws, { wallMs: 60_000 });
    const r = (await agentReads({ workspace: ws.dir, agent: agent.id, kind: agent.kind }))!;
    expect(r.source).toBe('offline agent file log');
    expect([r.own, r.rivals, r.logs, r.task, r.firstWrite]).toEqual([[], {}, [], [], 1]);
    expect(r.accesses.map((a) => a.path)).toEqual(
      expect.arrayContaining(['develop_ai/main.go', 'develop_ai/start_ai.sh', 'develop_ai/NOTES.md']),
    );
  });
});

describe('shell commands', () => {
  const cases: Array<[string, string[]]> = [
    ['grep -n \'"wins"\' logs/round_report.json | head -20', ['search logs/round_report.json']],
    ['/bin/bash -lc "sed -n \'1,120p\' last_round/a/params.json"', ['read last_round/a/params.json']],
    ['cd last_round && cat a/bot.py b/bot.py > /dev/null', ['read last_round/a/bot.py', 'read last_round/b/bot.py']],
    ['cp -r last_round/a/. develop_ai/ && ls develop_ai', ['copy last_round/a', 'write develop_ai', 'list develop_ai']],
    ['grep -rn score logs/ last_round/b', ['search logs', 'search last_round/b']],
    ['rg -e wins -g "*.json" logs', ['search logs']],
    ['grep -r wins', ['search .']],
    ['find last_round -name "*.py" -exec cat {} \\;', ['list last_round']],
    ['python3 develop_ai/bot.py 8080 & sleep 1; curl -s localhost:8080/health', ['run develop_ai/bot.py']],
    ['python3 -c "print(1)"; node -e "1"', []],
    ['head -n 30 TASK.md; tail -5 gomoku/README.md', ['read TASK.md', 'read gomoku/README.md']],
    [
      'echo "$(cat last_round/a/params.json)" > develop_ai/params.json',
      ['read last_round/a/params.json', 'write develop_ai/params.json'],
    ],
    [
      "cat > develop_ai/start_ai.sh <<'EOF'\ncat secret.txt\nEOF\nchmod +x develop_ai/start_ai.sh",
      ['write develop_ai/start_ai.sh'],
    ],
    [
      'diff last_round/a/engine.mjs last_round/b/engine.mjs',
      ['read last_round/a/engine.mjs', 'read last_round/b/engine.mjs'],
    ],
    ['cat $FILE "$DIR/x" ~/notes /tmp/log', ['read /tmp/log', 'read ~/notes']],
    ['timeout 10 node develop_ai/bot.mjs 9000 2>&1 | tee out.log', ['run develop_ai/bot.mjs', 'write out.log']],
    ["sed -i 's/2/3/' develop_ai/params.json", ['write develop_ai/params.json']],
  ];
  it.each(cases)('%s', (command, expected) => {
    expect(
      shellPathUses(command)
        .map((u) => `${u.action} ${u.path}`)
        .sort(),
    ).toEqual([...expected].sort());
  });

  it('places paths: own and rivals under last_round/, the reports, the task, the bot folder', () => {
    expect(classify('last_round/cautious/bot.py', 'cautious')).toEqual({ category: 'own', agent: 'cautious' });
    expect(classify('last_round/imitator', 'cautious')).toEqual({ category: 'rival', agent: 'imitator' });
    expect(classify('last_round', 'cautious')).toEqual({ category: 'other' });
    expect(classify('logs/gomoku_arena_report_1.csv', 'cautious')).toEqual({ category: 'logs' });
    expect(classify('gomoku_variant/rules_variant.md', 'cautious')).toEqual({ category: 'task' });
    expect(classify('develop_ai/bot.py', 'cautious')).toEqual({ category: 'output' });
    expect(classify('.agent-tools.jsonl', 'cautious')).toEqual({ category: 'other' });
  });
});
