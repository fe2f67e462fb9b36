// The real Claude Code CLI (2.1.332) end to end, offline against the scripted model: a two-prompt
// session recorded through our hooks, forked before its second prompt by `agent-rewind conversation
// fork`, then `claude -p --resume <fork id>`. The model must receive exactly the first turn plus the
// new prompt, with every tool call answered (the mock answers 400 otherwise), and our re-grounding.
// When the pinned CLI cannot be installed: in CI (CI=true) the test fails, naming why — a tier that
// cannot run its real client must not pass by skipping; elsewhere (offline) it is skipped, saying so.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { claudeBin, runClaude, type ScriptStep, startMock, transcriptPath, writeHooks } from '../fixtures/transcripts/realClaude';
import { CLI, cliJson } from '../helpers/cli';
import { tempDir } from '../helpers/tmp';

const bin = claudeBin();
const inCi = !!process.env.CI && process.env.CI !== 'false';
const missing =
  'the pinned Claude Code CLI could not be installed from the npm registry (see the message above; AGENT_REWIND_CLAUDE_BIN points at another binary)';
const skip = bin || inCi ? false : `${missing}; in CI (CI=true) this fails instead`;
if (skip) process.stderr.write(`[claude] SKIPPED the real Claude Code test: ${skip}\n`);

/** The binary, or (in CI) a failure that says why there is none. */
function requireBin(): string {
  return bin ?? failMissing();
}

function failMissing(): never {
  throw new Error(
    `CI=true and ${missing}: the real-client test must run in CI. Make the npm registry reachable or set AGENT_REWIND_CLAUDE_BIN.`,
  );
}

const sha = (f: string) => createHash('sha256').update(fs.readFileSync(f)).digest('hex');

test(
  'a fork made by agent-rewind resumes in the real CLI with exactly the kept turn, and the agent is re-grounded',
  { skip, timeout: 180000 },
  async () => {
    const claude = requireBin();
    const root = tempDir('ar-real-');
    const home = path.join(root, 'home');
    const ws = path.join(root, 'project');
    const store = path.join(root, 'store');
    fs.mkdirSync(home);
    fs.mkdirSync(ws);
    execFileSync('git', ['init', '-q', ws]);
    writeHooks(ws, `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} hook claude`);
    const script: ScriptStep[] = [
      {
        text: "I'll create both files.",
        tool_uses: [
          { name: 'Write', input: { file_path: path.join(ws, 'notes.txt'), content: 'Meeting notes\n' } },
          { name: 'Write', input: { file_path: path.join(ws, 'todo.txt'), content: '- [ ] write tests\n' } },
        ],
      },
      { tool_use: { name: 'Bash', input: { command: 'ls', description: 'List the folder' } } },
      { text: 'Created notes.txt and todo.txt.' },
      { tool_use: { name: 'Edit', input: { file_path: path.join(ws, 'todo.txt'), old_string: '- [ ]', new_string: '- [x]' } } },
      { tool_use: { name: 'Bash', input: { command: 'git push origin main', description: 'Push' } } },
      { text: 'Marked it done; the push failed.' },
      { text: 'Understood: I will not push.' },
    ];
    const mock = await startMock(root, script);
    try {
      const env = { AGENT_REWIND_STORE: store };
      const run = (args: string[]) => {
        const r = runClaude(claude, { home, cwd: ws, port: mock.port, args, env });
        assert.equal(r.status, 0, `claude ${args.join(' ')} failed: ${r.stderr || r.stdout}`);
        return r;
      };
      const first = run(['Create notes.txt and todo.txt, then list the folder']);
      const parentSession = first.json!.session_id as string;
      run(['--resume', parentSession, 'Mark the first todo done and push']);
      const parentFile = transcriptPath(home, ws, parentSession);
      const parentHash = sha(parentFile);
      const before = mock.requests();
      assert.equal(before.length, 6);
      assert.deepEqual(
        before.flatMap((r) => r.problems),
        [],
      );

      const shown = cliJson(['conversation', 'show', '--transcript', parentFile], { store });
      assert.deepEqual(
        shown.prompts.map((p: { text: string }) => p.text),
        ['Create notes.txt and todo.txt, then list the folder', 'Mark the first todo done and push'],
      );
      const fork = cliJson(['conversation', 'fork', '--transcript', parentFile, '--before', shown.prompts[1].uuid], { store });
      assert.equal(path.dirname(fork.transcript), path.dirname(parentFile));

      const resumed = run(['--resume', fork.session, 'Mark it done, but do not push']);
      assert.equal(resumed.json!.session_id, fork.session, 'the CLI resumed our fork under its own id');
      assert.equal(resumed.json!.is_error, false);

      const req = mock.requests()[6]!;
      assert.deepEqual(req.problems, [], 'no tool_use without its tool_result');
      // The conversation the model got: the parent's first turn exactly as the parent sent it at its
      // second prompt, then the new prompt — nothing of the discarded turn.
      const turns = (summary: string) => summary.split(' | ');
      const parentAtSecond = turns(before[3]!.summary);
      const got = turns(req.summary);
      const firstTurn = parentAtSecond.slice(
        0,
        parentAtSecond.findIndex((m) => m.includes('Mark the first todo done')),
      );
      assert.deepEqual(got.slice(0, firstTurn.length), firstTurn);
      assert.equal(
        firstTurn.filter((m) => m.startsWith('assistant:')).join(' | '),
        "assistant:T(I'll create both files.),U(Write),U(Write) | assistant:U(Bash) | assistant:T(Created notes.txt and todo.txt.)",
      );
      const rest = got.slice(firstTurn.length);
      assert.ok(
        rest.some((m) => m.startsWith('user:') && m.includes('T(Mark it done, but do not push)')),
        req.summary,
      );
      assert.ok(!rest.some((m) => m.startsWith('assistant:')), `no assistant turn after the cut: ${req.summary}`);
      // The discarded prompt appears once: quoted in our re-grounding, never as a message.
      assert.equal(req.text.split('Mark the first todo done and push').length - 1, 1);
      assert.ok(req.text.includes('cut before the prompt "Mark the first todo done and push"'));
      assert.doesNotMatch(req.summary, /U\(Edit\)/);

      // Our SessionStart output reached the model (session_id of the resume = the fork's id).
      assert.match(req.text, /\[Agent Rewind\] This conversation was rewound/);
      assert.ok(req.text.includes(`- ${path.join(ws, 'todo.txt')}`), 'todo.txt still holds the discarded edit');
      assert.match(req.text, /Bash: git push origin main \(irreversible\)/);

      const starts = fs
        .readFileSync(path.join(store, 'files.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .filter((r) => r.kind === 'session-start');
      assert.deepEqual(
        starts.map((r) => [r.session, r.source]),
        [
          [parentSession, 'startup'],
          [parentSession, 'resume'],
          [fork.session, 'resume'],
        ],
      );
      assert.equal(sha(parentFile), parentHash, 'the parent is byte-identical after fork and resume');
      // The resumed fork keeps growing in its own file and still reads as a clean conversation.
      const after = cliJson(['conversation', 'show', '--transcript', fork.transcript], { store });
      assert.deepEqual(
        after.prompts.map((p: { text: string }) => p.text),
        ['Create notes.txt and todo.txt, then list the folder', 'Mark it done, but do not push'],
      );
    } finally {
      mock.stop();
    }
  },
);
