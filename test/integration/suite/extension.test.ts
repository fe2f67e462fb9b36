// The extension against a session recorded through the real hook path: trees, preview, a full
// rewind through the host's message handling with the disk checked, refusal on a dirty editor,
// undo, Connect / Disconnect.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import type { ConvElement } from '../../../src/extension/views/conversationView';
import type { FilesElement } from '../../../src/extension/views/filesView';
import { WorkerClient } from '../../../src/extension/offHost/workerClient';
import { RewindService } from '../../../src/extension/rewind/rewindService';
import { CLI, HookSession } from './hookSession';
import { EXTENSION_ID } from './paths';
import { until } from './until';

const label = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));
/** A tooltip as it reads: agent text goes in through appendText (spaces as &nbsp;, markdown characters escaped). */
const shownText = (tip: vscode.MarkdownString) => tip.value.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
/** A checkpoint row's label leads with its count ("3 files to rewind · "): what follows it. */
const rowText = (item: vscode.TreeItem) => label(item).replace(/^(\d+ files? to rewind|nothing to rewind) · /, '');

suite('Agent Rewind in VS Code', function () {
  this.timeout(60000);
  let api: AgentRewindApi;
  let ws: string;
  let session: HookSession;
  const read = (rel: string) => fs.readFileSync(path.join(ws, rel), 'utf8');

  suiteSetup(async () => {
    const ext = vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!;
    api = await ext.activate();
    console.log(`activation took ${api.activationMs.toFixed(1)} ms`);
    assert.ok(api.storeDir, 'the extension opened a store');
    assert.equal(
      path.dirname(api.storeDir),
      path.resolve(process.env.AGENT_REWIND_TEST_STORE!),
      'its own store in the configured parent folder',
    );
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fs.writeFileSync(path.join(ws, 'app.js'), 'console.log("v1");\n');
    session = new HookSession(api.storeDir!, ws);
    session.start();
    session.prompt('Create the greeting module');
    session.write('greeting.js', 'module.exports = "hi";\n');
    session.tool('Edit', { file_path: path.join(ws, 'app.js'), old_string: 'v1', new_string: 'v2' }, () =>
      fs.writeFileSync(path.join(ws, 'app.js'), 'console.log("v2");\n'),
    );
    session.prompt('Ship it <b>now</b> & push');
    session.write('src/deep/new.js', 'export {};\n');
    session.tool('Bash', { command: 'git -C . push origin main' });
    session.tool('Read', { file_path: path.join(ws, 'app.js') });
    // The store watcher refreshes the views on its own.
    await until('the Files view to show the 4 checkpoints', () => mine().length === 4);
  });

  /** This suite's checkpoints (other suites record into the same store). */
  const mine = () => api.model!.checkpoints.filter((n) => n.checkpoint.session === session.session);
  const prompt = (text: string) => api.model!.checkpoints.find((n) => n.checkpoint.label === text)!.checkpoint.id;

  test("a baseline running in an agent's hook shows window progress until the hook says it is done", async () => {
    assert.equal(api.status!.showingProgress, false, 'the real SessionStart finished its baseline: no progress left showing');
    const file = path.join(api.storeDir!, 'capture.json');
    const before = fs.readFileSync(file, 'utf8');
    const all = JSON.parse(before);
    const running = { session: 'baseline-test', root: ws, state: 'baseline', files: 0, limit: 50000, time: Date.now() };
    fs.writeFileSync(file, JSON.stringify({ sessions: { ...all.sessions, 'baseline-test': running } }));
    await until('the baseline progress', () => api.status!.showingProgress);
    fs.writeFileSync(
      file,
      JSON.stringify({ sessions: { ...all.sessions, 'baseline-test': { ...running, state: 'on', files: 3, time: Date.now() } } }),
    );
    await until('the progress to end', () => !api.status!.showingProgress);
    fs.writeFileSync(file, before);
  });

  test('the Files view lists one row per prompt newest first, with its turn inside, counts and a diff command', async () => {
    const roots = api.files!.getChildren().filter((el) => el.kind === 'checkpoint' && el.node.checkpoint.session === session.session);
    const items = roots.map((el) => api.files!.getTreeItem(el));
    // The checkpoint before the push is inside its turn; the session start (nothing changed before the first prompt) is
    // folded into that prompt's row, and named in its tooltip.
    assert.deepEqual(items.map(rowText), ['Ship it <b>now</b> & push', 'Create the greeting module']);
    assert.match(shownText(items[1]!.tooltip as vscode.MarkdownString), /Session started \(startup\)/);
    const inShip = (api.files!.getChildren(roots[0]) as FilesElement[]).map((el) => label(api.files!.getTreeItem(el)));
    assert.match(inShip[0]!, /^(\d+ files? to rewind|nothing to rewind) · Before Bash: git -C \. push/);
    assert.match(label(items[1]!), /^\d+ files? to rewind · /);
    assert.equal(items[1]!.contextValue, 'agentRewind.checkpoint.prompt.folded');
    assert.equal(items[1]!.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const children = (api.files!.getChildren(roots[1]) as FilesElement[]).map((el) => [el, api.files!.getTreeItem(el)] as const);
    assert.ok(
      children.every(([el]) => el.kind === 'file'),
      'a prompt holds its files, never a session start',
    );
    const fileItems = children.filter(([el]) => el.kind === 'file').map(([, i]) => i);
    assert.deepEqual(fileItems.map(label).sort(), ['app.js', 'greeting.js']);
    const appEl = children.find(([, i]) => label(i) === 'app.js')![0];
    // Drawn at once; its counts are made in the view worker, and a row drawn without them is drawn again.
    const redrawn: unknown[] = [];
    const sub = api.files!.onDidChangeTreeData((e) => Array.isArray(e) && redrawn.push(...e));
    const counting = /\+… −…/.test(String(api.files!.getTreeItem(appEl).description));
    await api.lineStats!.settled();
    sub.dispose();
    // Drawn without its counts (they come from the worker), it is drawn again once they are made; drawn with them, it need not be.
    assert.ok(!counting || redrawn.includes(appEl), 'the row waiting for its counts is drawn again');
    const app = api.files!.getTreeItem(appEl);
    assert.match(String(app.description), /\+1 −1/);
    assert.equal(app.command?.command, 'agentRewind.openFileDiff');
    await vscode.commands.executeCommand('agentRewind.openFileDiff', ...(app.command!.arguments ?? []));
    const tab = await until(
      'a diff editor',
      () =>
        vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff &&
        vscode.window.tabGroups.activeTabGroup.activeTab,
    );
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal(input.original.scheme, 'agent-rewind-snapshot');
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), 'console.log("v1");\n');
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), 'console.log("v2");\n');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the Conversation view shows the session, its prompts and tool calls with effect icons', async () => {
    await api.conversation!.refresh(); // the view reads what changed (off the host), then shows it
    const sessions = api.conversation!.getChildren().filter((e) => e.kind === 'session' && e.session.id === session.session);
    assert.equal(sessions.length, 1);
    const prompts = api.conversation!.getChildren(sessions[0]) as ConvElement[];
    // Newest first, as the Files view lists them; a prompt's calls in the order they ran.
    assert.deepEqual(
      prompts.map((p) => label(api.conversation!.getTreeItem(p))),
      ['Ship it <b>now</b> & push', 'Create the greeting module'],
    );
    const tools = api.conversation!.getChildren(prompts[0]).map((t) => api.conversation!.getTreeItem(t));
    // Ordinary calls carry no tag; the one that cannot be undone leads with it (what stays visible at the default width).
    assert.deepEqual(tools.map(label), [
      'Write: ' + path.join('src', 'deep', 'new.js'),
      'not undoable · Bash: git -C . push origin main',
      'Read: app.js',
    ]);
    assert.deepEqual(
      tools.map((t) => t.description),
      [undefined, 'checkpoint before this call', undefined],
    );
    const push = tools[1]!;
    assert.equal((push.iconPath as vscode.ThemeIcon).id, 'error', 'irreversible calls stand out');
    assert.match(String(api.conversation!.getTreeItem(prompts[0]!).contextValue), /hasCheckpoint/);
  });

  test('the preview lists what will not be undone, the files and nothing blocked', async () => {
    await vscode.commands.executeCommand('agentRewind.previewRewind', prompt('Ship it <b>now</b> & push'));
    assert.equal(api.preview!.isOpen, true);
    const m = (await api.preview!.settled())!;
    assert.deepEqual(
      m.notUndone.map((n) => [n.tool, n.summary, n.effect, n.severity]),
      [['Bash', 'git -C . push origin main', 'irreversible', 'high']],
    );
    assert.deepEqual(
      m.files.map((f) => [f.rel, f.action]),
      [[path.join('src', 'deep', 'new.js'), 'delete']],
    );
    assert.deepEqual(m.blocked, []);
    assert.deepEqual(m.scope.available, ['files']);
    // The row counts exactly what the preview lists.
    const row = api
      .files!.getChildren()
      .find((el) => el.kind === 'checkpoint' && el.node.checkpoint.id === prompt('Ship it <b>now</b> & push'))!;
    const n = m.files.length;
    assert.match(label(api.files!.getTreeItem(row)), new RegExp(`^${n} files? to rewind ·`));
    assert.equal(api.planner!.offHost, true, 'the plan came from the worker thread, not the extension host');
  });

  test('closing the preview while it plans cancels the plan: no model for it; the next preview plans again', async () => {
    const target = prompt('Ship it <b>now</b> & push');
    // Shown and closed in the same turn of the event loop: the worker cannot have answered yet.
    api.preview!.show({ targetId: target, scope: 'files' });
    const closing = api.preview!.handleMessage({ type: 'cancel' });
    await closing;
    assert.equal(api.preview!.isOpen, false);
    assert.equal(await api.preview!.settled(), undefined, 'the cancelled plan never became the model');
    await vscode.commands.executeCommand('agentRewind.previewRewind', target);
    const m = (await api.preview!.settled())!;
    assert.equal(m.target.id, target);
    assert.deepEqual(
      m.files.map((f) => f.rel),
      [path.join('src', 'deep', 'new.js')],
    );
    assert.equal(api.planner!.offHost, true);
    await api.preview!.handleMessage({ type: 'cancel' });
  });

  test("clean-up and storage counts run in the extension's worker bundle, on a copy of this store", async () => {
    // A copy: the suite's own store stays as the other tests expect it. A year from now, 30 days' retention drops every checkpoint.
    const copy = fs.mkdtempSync(path.join(path.dirname(api.storeDir!), 'gc-copy-'));
    fs.cpSync(api.storeDir!, copy, { recursive: true });
    try {
      const later = Date.now() + 365 * 86400000;
      const onHost = () => Promise.reject(new Error('ran on the extension host'));
      const usage = await api.planner!.usage(copy, later, onHost);
      assert.ok(usage.totalBytes > 0 && usage.sessions.length > 0, 'the worker counted the store');
      const ids = fs
        .readFileSync(path.join(copy, 'files.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{"t":"checkpoint"'))
        .map((l) => (JSON.parse(l) as { id: string }).id);
      const report = await api.planner!.gc(copy, 30, later, {}, onHost);
      assert.ok(report.droppedCheckpoints > 0, `the worker cleaned up: ${JSON.stringify(report)}`);
      // All of them are older than 30 days then; no clean-up removes the undo of the last rewind (and what follows it).
      const from = report.kept.length ? Math.min(...report.kept.map((k) => ids.indexOf(k.checkpoint))) : ids.length;
      assert.ok(from >= 0, `the rewinds it kept are checkpoints of the store: ${JSON.stringify(report.kept)}`);
      assert.equal(report.keptCheckpoints, ids.length - from, `only the guarded rewinds on are kept: ${JSON.stringify(report.kept)}`);
      assert.equal(api.planner!.offHost, true);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  test('a plan worker that cannot start: the same plan, made on the extension host, and the output says so once', async () => {
    const target = prompt('Ship it <b>now</b> & push');
    const lines: string[] = [];
    const broken = new WorkerClient(path.join(api.storeDir!, 'no-such-worker.js'), (l) => lines.push(l));
    const service = new RewindService(api.model!.store, api.model!, broken);
    try {
      const here = await service.plan(target);
      const worker = await api.service!.plan(target);
      assert.deepEqual(here.files, worker.files);
      assert.deepEqual(here.notUndone, worker.notUndone);
      assert.equal(broken.offHost, false);
      await service.plan(target);
      assert.equal(lines.length, 1);
      assert.match(lines[0]!, /planned on the extension host/);
    } finally {
      broken.dispose();
    }
  });

  test('refuses while an affected file has unsaved changes, writing nothing', async () => {
    const doc = await vscode.workspace.openTextDocument(path.join(ws, 'greeting.js'));
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// my unsaved note\n'));
    assert.equal(doc.isDirty, true);
    const before = fs.readFileSync(path.join(api.storeDir!, 'files.jsonl'), 'utf8');
    const r = await api.service!.apply(prompt('Create the greeting module'));
    assert.equal(r.status, 'vetoed');
    assert.deepEqual(r.status === 'vetoed' && r.paths, [path.join(ws, 'greeting.js')]);
    assert.equal(read('greeting.js'), 'module.exports = "hi";\n');
    assert.equal(fs.readFileSync(path.join(api.storeDir!, 'files.jsonl'), 'utf8'), before, 'nothing recorded');
    await vscode.commands.executeCommand('workbench.action.files.revert');
    // Closing before the revert has landed asks "Save changes?" (a modal), and the next test's rewind
    // would then meet an unsaved editor: wait until nothing is dirty, in the document or its tab.
    await until('the revert', () => !doc.isDirty && !vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.isDirty)));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('rewinds through the preview exactly as the webview asks, verifies the disk, and undo brings it back', async () => {
    const target = prompt('Create the greeting module');
    await vscode.commands.executeCommand('agentRewind.rewindFilesToHere', target);
    await api.preview!.handleMessage({ type: 'rewind', scope: 'files', compensations: [], force: false });
    await until('the rewind', () => !fs.existsSync(path.join(ws, 'greeting.js')));
    assert.equal(read('app.js'), 'console.log("v1");\n');
    assert.equal(fs.existsSync(path.join(ws, 'src', 'deep')), false, 'folders the agent created are gone');
    assert.equal(api.preview!.isOpen, false, 'the preview closes after rewinding');
    const last = await until(
      'the rewind checkpoint',
      () => api.model!.lastRewind()?.checkpoint.target === target && api.model!.lastRewind(),
    );
    assert.equal(last.checkpoint.target, target);
    // Same store, same records as the CLI: the CLI sees the rewind and can plan its undo.
    const cli = spawnSync(process.execPath, [CLI, 'plan', '--to', last.checkpoint.id, '--json'], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', AGENT_REWIND_STORE: api.storeDir! },
      encoding: 'utf8',
    });
    assert.equal(cli.status, 0, cli.stderr);
    assert.deepEqual(
      JSON.parse(cli.stdout)
        .files.map((f: { path: string }) => path.relative(ws, f.path))
        .sort(),
      ['app.js', 'greeting.js', path.join('src', 'deep', 'new.js')],
    );
    const undo = await api.service!.apply(last.checkpoint.id);
    assert.equal(undo.status, 'done');
    assert.equal(read('greeting.js'), 'module.exports = "hi";\n');
    assert.equal(read('app.js'), 'console.log("v2");\n');
    assert.equal(read('src/deep/new.js'), 'export {};\n');
  });

  test('Connect and Disconnect Claude Code leave valid, merged settings and undo exactly', async () => {
    const file = path.join(ws, '.claude', 'settings.local.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const original =
      JSON.stringify(
        {
          permissions: { allow: ['Bash(npm test)'] },
          hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] }] },
        },
        null,
        2,
      ) + '\n';
    fs.writeFileSync(file, original);
    await vscode.commands.executeCommand('agentRewind.connectClaude');
    const connected = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.deepEqual(connected.permissions, { allow: ['Bash(npm test)'] });
    const pre = connected.hooks.PreToolUse.flatMap((g: { hooks: { command: string }[] }) => g.hooks.map((h) => h.command));
    assert.ok(pre.includes('echo mine'), 'the user hook is kept');
    const ours = pre.find((c: string) => c.includes('--connected-by=agent-rewind'))!;
    assert.ok(ours.includes(api.storeDir!), 'the hook command carries the store');
    for (const ev of ['SessionStart', 'UserPromptSubmit', 'PostToolUse']) assert.ok(connected.hooks[ev], ev);
    // The hook command works as Claude Code runs it: through a shell, payload on stdin.
    const before = api.model!.checkpoints.length;
    const r = spawnSync('/bin/sh', ['-c', ours], {
      input: JSON.stringify({
        session_id: 'via-settings',
        cwd: ws,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'from the connected hook',
      }),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    await until('the prompt recorded through the connected hook', () => api.model!.checkpoints.length === before + 1);
    await vscode.commands.executeCommand('agentRewind.connectClaude');
    assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), connected, 'connecting twice changes nothing');
    await vscode.commands.executeCommand('agentRewind.disconnectClaude');
    assert.equal(fs.readFileSync(file, 'utf8'), original, 'disconnect restores the file exactly');
  });
});
