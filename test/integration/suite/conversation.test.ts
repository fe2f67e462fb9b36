// The conversation timeline in a real VS Code, from a transcript written by the real Claude Code
// CLI (fixture) and the hook payloads of that same session replayed through the real hook path:
// the tree, a conversation-only rewind (fork + the resume command it offers), and "both".
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import type { ConvElement } from '../../../src/extension/views/conversationView';
import { CLI } from './hookSession';
import { EXTENSION_ID, repoRoot } from './paths';
import { until } from './until';

const FIXTURES = path.join(repoRoot, 'test/fixtures/transcripts');
const label = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));
const sha = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');

suite('Conversation timeline (real Claude Code transcript)', function () {
  this.timeout(60000);
  let api: AgentRewindApi;
  let project: string;
  let transcript: string;
  let sessionId: string;

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    const ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    project = path.join(ws, 'conv-project');
    fs.mkdirSync(project, { recursive: true });
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-it-home-'));
    const swap = (s: string) => s.split('/home/user/project').join(project).split('/home/user').join(home);
    const src = fs.readFileSync(path.join(FIXTURES, 'real-2.1.332-two-prompts.jsonl'), 'utf8');
    sessionId = JSON.parse(src.split('\n')[0]!).sessionId ?? JSON.parse(src.split('\n').find((l) => l.includes('"sessionId"'))!).sessionId;
    transcript = path.join(home, '.claude', 'projects', 'p', `${sessionId}.jsonl`);
    fs.mkdirSync(path.dirname(transcript), { recursive: true });
    fs.writeFileSync(transcript, swap(src), { mode: 0o600 });
    // Replay the same session's hook payloads, doing each tool's file effect between Pre and Post.
    for (const line of fs.readFileSync(path.join(FIXTURES, 'real-2.1.332-two-prompts.hooks.jsonl'), 'utf8').trim().split('\n')) {
      const p = JSON.parse(swap(line));
      p.transcript_path = transcript;
      const r = spawnSync(process.execPath, [CLI, 'hook', 'claude'], {
        input: JSON.stringify(p),
        env: { ...process.env, AGENT_REWIND_STORE: api.storeDir!, ELECTRON_RUN_AS_NODE: '1' },
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      if (p.hook_event_name !== 'PreToolUse') continue;
      const i = p.tool_input;
      if (p.tool_name === 'Write') fs.writeFileSync(i.file_path, i.content);
      if (p.tool_name === 'Edit') fs.writeFileSync(i.file_path, fs.readFileSync(i.file_path, 'utf8').replace(i.old_string, i.new_string));
    }
    // Read from the transcript (the prompts carry its uuids), not only from what the hooks recorded.
    await until('the session in the Conversation view', () =>
      api.conversation!.all.find((s) => s.id === sessionId && s.prompts.length === 2 && s.prompts.every((p) => p.uuid)),
    );
  });

  suiteTeardown(() => fs.rmSync(project, { recursive: true, force: true })); // the next suites expect the fixture workspace

  const sessionEl = () => api.conversation!.getChildren().find((e) => e.kind === 'session' && e.session.id === sessionId)!;
  const promptEls = () =>
    api
      .conversation!.getChildren(sessionEl())
      .filter((e): e is Extract<ConvElement, { kind: 'prompt' }> => e.kind === 'prompt')
      .reverse(); // the view lists them newest first: here in the order they were prompted

  test('shows the real prompts in order, their tool calls, and what can be forked', () => {
    const prompts = promptEls();
    assert.deepEqual(
      prompts.map((p) => label(api.conversation!.getTreeItem(p))),
      ['Create notes.txt and todo.txt, then list the folder', 'Mark the first todo done and push'],
    );
    const first = api.conversation!.getTreeItem(prompts[0]!);
    const second = api.conversation!.getTreeItem(prompts[1]!);
    assert.doesNotMatch(String(first.contextValue), /forkable/, 'nothing to resume before the first prompt');
    // Read by the view worker (the real bundle in this VS Code), not on the extension host.
    assert.ok(api.viewWorker!.offHost && api.viewWorker!.answers > 0, 'the view worker answered');
    assert.match(String(second.contextValue), /hasCheckpoint.*forkable/);
    const tools = api.conversation!.getChildren(prompts[1]).map((t) => api.conversation!.getTreeItem(t));
    assert.deepEqual(tools.map(label), ['Edit: conv-project/todo.txt', 'not undoable · Bash: git push origin main']);
    assert.equal((tools[1]!.iconPath as vscode.ThemeIcon).id, 'error');
  });

  test('a conversation-only rewind forks before the prompt, keeps the files, and offers `claude --resume <new id>`', async () => {
    const before = sha(transcript);
    const todo = fs.readFileSync(path.join(project, 'todo.txt'), 'utf8');
    await vscode.commands.executeCommand('agentRewind.rewindConversation', promptEls()[1]);
    const m = (await api.preview!.settled())!;
    assert.deepEqual(m.scope.available, ['files', 'conversation', 'both']);
    assert.equal(m.scope.default, 'conversation');
    assert.deepEqual({ kept: m.conversation!.kept, dropped: m.conversation!.dropped }, { kept: 1, dropped: 1 });
    assert.deepEqual(m.conversation!.filesKeepingEdits, ['conv-project/todo.txt']);
    assert.deepEqual(
      m.notUndone.map((n) => n.summary),
      ['git push origin main'],
    );
    // The terminal's PATH (terminal.integrated.env) decides whether the resume command can run there.
    const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-claude-bin-'));
    fs.writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\necho resumed "$@"\n', { mode: 0o755 });
    const term0 = vscode.workspace.getConfiguration('terminal.integrated');
    await term0.update('env.linux', { PATH: `${bin}:\${env:PATH}` }, vscode.ConfigurationTarget.Global);
    await api.preview!.handleMessage({ type: 'rewind', scope: 'conversation', compensations: [], force: false });
    const offer = await until('the fork', () => api.rewinder!.lastResume);
    await term0.update('env.linux', undefined, vscode.ConfigurationTarget.Global);
    assert.equal(offer.resolved, fs.realpathSync(path.join(bin, 'claude')), 'claude found on the terminal PATH');
    assert.equal(offer.command, `claude --resume ${offer.fork.session}`);
    assert.deepEqual(offer.notice.actions, ['Resume in Terminal', 'Copy Command']);
    assert.equal(offer.cwd, project, 'the terminal opens in the session folder');
    assert.equal(path.dirname(offer.fork.transcript), path.dirname(transcript), 'the fork sits beside its parent');
    assert.equal(fs.statSync(offer.fork.transcript).mode & 0o777, 0o600);
    assert.equal(sha(transcript), before, 'the parent transcript is byte-identical');
    assert.equal(fs.readFileSync(path.join(project, 'todo.txt'), 'utf8'), todo, 'files are untouched');
    const term = api.rewinder!.openTerminal()!;
    assert.equal(term.name, 'Claude Code (rewound)');
    assert.equal((term.creationOptions as vscode.TerminalOptions).cwd, project);
    term.dispose();
    // The fork appears under its parent.
    await until(
      'the fork under its parent',
      () => sessionEl().kind === 'session' && (sessionEl() as Extract<ConvElement, { kind: 'session' }>).session.forks.length === 1,
    );
    const fork = api.conversation!.getChildren(sessionEl()).find((e) => e.kind === 'session')!;
    assert.equal(api.conversation!.getTreeItem(fork).contextValue, 'agentRewind.session.transcript');
    assert.match(String(api.conversation!.getTreeItem(fork).description), /fork/);
  });

  test('"both" rewinds the files to the prompt\'s checkpoint and forks the conversation', async () => {
    await vscode.commands.executeCommand('agentRewind.rewindBoth', promptEls()[1]);
    const m = (await api.preview!.settled())!;
    assert.equal(m.scope.default, 'both');
    assert.deepEqual(
      m.files.map((f) => [f.rel, f.action]),
      [['conv-project/todo.txt', 'restore']],
    );
    const forksBefore = (sessionEl() as Extract<ConvElement, { kind: 'session' }>).session.forks.length;
    await api.preview!.handleMessage({ type: 'rewind', scope: 'both', compensations: [], force: false });
    await until('the files rewind', () => fs.readFileSync(path.join(project, 'todo.txt'), 'utf8') === '- [ ] write tests\n');
    await until('a second fork', () => (sessionEl() as Extract<ConvElement, { kind: 'session' }>).session.forks.length === forksBefore + 1);
    // Files-only from the same prompt: the scope offers all three, files is the default.
    await vscode.commands.executeCommand('agentRewind.rewindFilesBeforePrompt', promptEls()[1]);
    assert.equal((await api.preview!.settled())!.scope.default, 'files');
    await api.preview!.handleMessage({ type: 'cancel' });
  });

  test("when `claude` is not on the terminal's PATH: a warning names it, gives the install and the resume command, and offers no terminal", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-no-claude-'));
    const term0 = vscode.workspace.getConfiguration('terminal.integrated');
    await term0.update('env.linux', { PATH: empty }, vscode.ConfigurationTarget.Global);
    const terminals = vscode.window.terminals.length;
    const previous = api.rewinder!.lastResume;
    try {
      await vscode.commands.executeCommand('agentRewind.rewindConversation', promptEls()[1]);
      await api.preview!.handleMessage({ type: 'rewind', scope: 'conversation', compensations: [], force: false });
      const offer = await until('the fork', () => api.rewinder!.lastResume !== previous && api.rewinder!.lastResume);
      assert.equal(offer.resolved, undefined, 'claude is not found');
      assert.equal(offer.command, `claude --resume ${offer.fork.session}`);
      assert.ok(fs.existsSync(offer.fork.transcript), 'the fork is made all the same');
      const { text, actions } = offer.notice;
      assert.match(text, /`claude` must be installed: it is not on the terminal's PATH/);
      assert.ok(text.includes('Install Claude Code (npm install -g @anthropic-ai/claude-code)'), text);
      assert.ok(text.endsWith(`then run: claude --resume ${offer.fork.session}`), text);
      assert.deepEqual(actions, ['Copy Command'], 'no "Resume in Terminal"');
      assert.equal(vscode.window.terminals.length, terminals, 'no terminal started');
    } finally {
      await term0.update('env.linux', undefined, vscode.ConfigurationTarget.Global);
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
