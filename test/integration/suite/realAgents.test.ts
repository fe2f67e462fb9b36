// Sessions recorded by the REAL Codex CLI and Gemini CLI (pinned, offline against the compat tier's
// scripted model servers: test/integration/realAgents/record.ts) into the store this VS Code watches,
// in a project folder of its workspace, our hooks connected as "Connect Agents…" writes them. Then,
// in the real VS Code: the Conversation view shows each session with its agent, prompts and tool
// calls; the preview plans a files rewind to before the first prompt, the rewind puts the bytes back
// on disk, undo brings the agent's work back; a conversation rewind forks where the client finds it
// (the parent byte-identical) and offers the client's own resume command in a terminal.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ConvElement } from '../../../src/extension/views/conversationView';
import type { AgentRewindApi } from '../../../src/extension/extension';
import type { Recorded } from '../realAgents/record';
import { EXTENSION_ID, repoRoot } from './paths';
import { until } from './until';

const label = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));
const sha = (f: string) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');

/** Runs the recorder in its own node process (asynchronously: the extension host keeps watching the store meanwhile). */
function record(agent: 'codex' | 'gemini', project: string, store: string): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join('test', 'integration', 'realAgents', 'record.ts'), agent, project, store],
      {
        cwd: repoRoot,
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`recording the real ${agent} session failed (exit ${code}): ${err.trim().slice(-1500)}`));
      else resolve(JSON.parse(out.trim().split('\n').pop()!) as Recorded);
    });
  });
}

const CASES = [
  {
    agent: 'codex' as const,
    name: 'Codex CLI',
    tools: ['apply_patch: src/greet.js, src/app.js', "Bash: sed -i 's/port=80/port=8080/' config.ini"],
    tools2: ['apply_patch: README.md'],
    plan: { 'src/greet.js': 'delete', 'src/app.js': 'restore', 'config.ini': 'restore', 'README.md': 'restore' },
    resume: (id: string) => `codex resume ${id}`,
    exe: 'codex',
  },
  {
    agent: 'gemini' as const,
    name: 'Gemini CLI',
    tools: ['write_file: CHANGELOG.md', 'replace: version.txt', 'run_shell_command: rm old-notes.txt'],
    tools2: ['replace: CHANGELOG.md'],
    plan: { 'CHANGELOG.md': 'delete', 'version.txt': 'restore', 'old-notes.txt': 'recreate' },
    resume: (id: string) => `gemini --resume ${id}`,
    exe: 'gemini',
  },
];

for (const c of CASES) {
  suite(`Real ${c.name} session in VS Code`, function () {
    this.timeout(120000);
    let api: AgentRewindApi;
    let project: string;
    let rec: Recorded;
    const rel = (f: string) => path.join(path.basename(project), f);
    const onDisk = () =>
      Object.fromEntries(
        Object.keys(rec.before).map((f) => [
          f,
          fs.existsSync(path.join(project, f)) ? fs.readFileSync(path.join(project, f), 'utf8') : null,
        ]),
      );

    suiteSetup(async function () {
      this.timeout(600000); // one real session of two prompts, on a shared machine
      api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
      project = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, `${c.agent}-project`);
      rec = await record(c.agent, project, api.storeDir!);
      // Read from the agent's transcript (the prompts carry its ids), not only from what the hooks recorded.
      await until('the session with both prompts in the Conversation view', () =>
        api.conversation!.all.find((s) => s.id === rec.session && s.prompts.length === 2 && s.prompts.every((p) => p.uuid)),
      );
    });

    suiteTeardown(() => {
      // The next suites expect the fixture workspace.
      if (project) fs.rmSync(project, { recursive: true, force: true });
      if (rec) fs.rmSync(rec.root, { recursive: true, force: true });
    });

    const sessionEl = () => api.conversation!.getChildren().find((e) => e.kind === 'session' && e.session.id === rec.session)!;
    const promptEls = () =>
      api
        .conversation!.getChildren(sessionEl())
        .filter((e): e is Extract<ConvElement, { kind: 'prompt' }> => e.kind === 'prompt')
        .reverse(); // the view lists them newest first: here in the order they were prompted

    test(`the ${c.name} session: its agent, its real prompts in order and their tool calls`, () => {
      const errors = path.join(api.storeDir!, 'errors.log');
      assert.ok(!fs.existsSync(errors) || !fs.readFileSync(errors, 'utf8').includes(rec.session), 'every real payload was accepted');
      const item = api.conversation!.getTreeItem(sessionEl());
      assert.match(label(item), new RegExp(`^${c.name} · `), 'the session row starts with its agent');
      assert.doesNotMatch(String(item.description), /files only/, 'its conversation can be rewound');
      const prompts = promptEls();
      assert.deepEqual(
        prompts.map((p) => label(api.conversation!.getTreeItem(p))),
        rec.prompts,
      );
      const tools = (p: ConvElement) => api.conversation!.getChildren(p).map((t) => label(api.conversation!.getTreeItem(t)));
      assert.deepEqual(tools(prompts[0]!), c.tools);
      assert.deepEqual(tools(prompts[1]!), c.tools2);
      assert.doesNotMatch(
        String(api.conversation!.getTreeItem(prompts[0]!).contextValue),
        /forkable/,
        'nothing to resume before the first',
      );
      assert.match(String(api.conversation!.getTreeItem(prompts[1]!).contextValue), /hasCheckpoint.*forkable/);
    });

    test(`files: the preview plans the rewind to before the first ${c.name} prompt, the bytes come back, undo restores the agent's work`, async () => {
      assert.deepEqual(onDisk(), rec.after, 'the agent left its work on disk');
      await vscode.commands.executeCommand('agentRewind.rewindFilesBeforePrompt', promptEls()[0]);
      const m = (await api.preview!.settled())!;
      assert.equal(m.scope.default, 'files');
      assert.deepEqual(
        Object.fromEntries(m.files.map((f) => [f.rel, f.action])),
        Object.fromEntries(Object.entries(c.plan).map(([f, a]) => [rel(f), a])),
      );
      await api.preview!.handleMessage({ type: 'rewind', scope: 'files', compensations: [], force: false });
      await until('the rewind on disk', () => JSON.stringify(onDisk()) === JSON.stringify(rec.before));
      assert.deepEqual(onDisk(), rec.before, 'every file byte-exact as before the first prompt');
      const last = await until('the rewind checkpoint', () => api.model!.lastRewind());
      const undo = await api.service!.apply(last.checkpoint.id);
      assert.equal(undo.status, 'done');
      assert.deepEqual(onDisk(), rec.after, 'undo brings back every file as the agent left it');
    });

    test(`conversation: the fork before the second prompt lands where ${c.name} finds it and offers \`${c.resume('<id>')}\``, async () => {
      const parent = sha(rec.transcript);
      const files = onDisk();
      await vscode.commands.executeCommand('agentRewind.rewindConversation', promptEls()[1]);
      const m = (await api.preview!.settled())!;
      assert.deepEqual(m.scope.available, ['files', 'conversation', 'both']);
      assert.equal(m.scope.default, 'conversation');
      assert.deepEqual({ kept: m.conversation!.kept, dropped: m.conversation!.dropped }, { kept: 1, dropped: 1 });
      // The real client on the terminal's PATH (terminal.integrated.env): the offer resolves it there.
      const term0 = vscode.workspace.getConfiguration('terminal.integrated');
      await term0.update('env.linux', { PATH: `${rec.binDir}:\${env:PATH}` }, vscode.ConfigurationTarget.Global);
      const before = api.rewinder!.lastResume;
      await api.preview!.handleMessage({ type: 'rewind', scope: 'conversation', compensations: [], force: false });
      const offer = await until('the fork', () => api.rewinder!.lastResume !== before && api.rewinder!.lastResume);
      await term0.update('env.linux', undefined, vscode.ConfigurationTarget.Global);
      assert.equal(offer.command, c.resume(offer.fork.session));
      assert.notEqual(offer.fork.session, rec.session);
      assert.equal(fs.realpathSync(offer.resolved!), fs.realpathSync(path.join(rec.binDir, c.exe)), `${c.exe} found on the terminal PATH`);
      assert.equal(offer.cwd, project, 'the terminal opens in the session folder');
      // Where the client looks: Codex under $CODEX_HOME/sessions, Gemini in the project's chats folder.
      assert.ok(
        offer.fork.transcript.startsWith(rec.sessionsDir + path.sep) && fs.existsSync(offer.fork.transcript),
        `${offer.fork.transcript} is under ${rec.sessionsDir}`,
      );
      assert.equal(sha(rec.transcript), parent, 'the parent session file is byte-identical');
      assert.deepEqual(onDisk(), files, 'a conversation-only rewind leaves the files');
      const term = api.rewinder!.openTerminal()!;
      assert.equal(term.name, `${c.name} (rewound)`);
      assert.equal((term.creationOptions as vscode.TerminalOptions).cwd, project);
      term.dispose();
      await until('the fork under its parent', () => {
        const s = sessionEl();
        return s.kind === 'session' && s.session.forks.some((f) => f.id === offer.fork.session);
      });
    });
  });
}
