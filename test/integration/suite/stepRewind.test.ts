// Finer than a turn, in the real VS Code: three writes in one turn recorded through the real hook
// path; each step in the Conversation view lists the file it changed (a diff of just that step);
// "Rewind Files to Before This Step" on the second opens the same preview for `before:<call id>`
// (files only: the conversation cannot be cut mid-turn, and the page says why), the rewind keeps the
// first write and undoes the second and third, and undo brings them back; restoring one file to
// before a step goes through the same safety check.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import type { ConvElement } from '../../../src/extension/views/conversationView';
import { HookSession } from './hookSession';
import { EXTENSION_ID } from './paths';
import { until } from './until';

type ToolEl = Extract<ConvElement, { kind: 'tool' }>;
const label = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));

suite('Rewind to before a step', function () {
  this.timeout(90000);
  let api: AgentRewindApi;
  let ws: string;
  let s: HookSession;
  const file = (rel: string) => path.join(ws, 'steps', rel);
  const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    s = new HookSession(api.storeDir!, ws);
    s.start();
    s.prompt('three steps');
    s.write('steps/a.txt', 'a one\n');
    s.write('steps/b.txt', 'b two\n');
    s.write('steps/a.txt', 'a three\n');
    s.tool('Bash', { command: 'git push origin main' });
    s.prompt('after the steps');
  });

  suiteTeardown(() => fs.rmSync(path.join(ws, 'steps'), { recursive: true, force: true }));

  const tools = async (): Promise<ToolEl[]> => {
    const c = api.conversation!;
    const session = await until('the session', () => c.getChildren().find((e) => e.kind === 'session' && e.session.id === s.session));
    const prompt = await until('the prompt with three steps', () =>
      c.getChildren(session).find((e) => e.kind === 'prompt' && e.prompt.text === 'three steps' && e.prompt.tools.length === 4),
    );
    return c.getChildren(prompt) as ToolEl[];
  };

  test('each step lists the file it changed, with a diff of just that step', async () => {
    const c = api.conversation!;
    const steps = await tools();
    const items = steps.map((t) => c.getTreeItem(t));
    assert.deepEqual(items.map(label), ['Write: steps/a.txt', 'Write: steps/b.txt', 'Write: steps/a.txt', 'Bash: git push origin main']);
    for (const i of items.slice(0, 3)) assert.match(String(i.contextValue), /^agentRewind\.tool\.rewindable\.recorded$/);
    assert.equal(items[3]!.contextValue, 'agentRewind.tool.irreversible.recorded');
    assert.equal(c.getChildren(steps[3]).length, 0, 'a push changes no file');
    const third = c.getChildren(steps[2]);
    assert.equal(third.length, 1);
    c.getTreeItem(third[0]!); // asks for its counts, made in the view worker
    await api.lineStats!.settled();
    const fileItem = c.getTreeItem(third[0]!);
    assert.equal(fileItem.contextValue, 'agentRewind.stepFile');
    assert.equal(fileItem.description, 'steps · +1 −1');
    // The step's diff: "a one" (before this call) ↔ "a three" (after it), not the turn's.
    await vscode.commands.executeCommand(fileItem.command!.command, ...(fileItem.command!.arguments ?? []));
    const tab = await until('the diff tab', () => vscode.window.tabGroups.activeTabGroup.activeTab);
    assert.match(tab.label, /a\.txt \(before ↔ after step 3 of 4\)/);
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), 'a one\n');
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), 'a three\n');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('"Rewind Files to Before This Step" on the second write: files only, the first write stays, undo brings the rest back', async () => {
    const second = (await tools())[1]!;
    await vscode.commands.executeCommand('agentRewind.rewindFilesBeforeStep', second);
    const m = await until(
      'the preview of the step',
      () => api.preview!.isOpen && api.preview!.current()?.target.step && api.preview!.current(),
    );
    assert.equal(m.target.id, second.tool.id);
    assert.deepEqual(m.target.step, { step: 2, of: 4, tool: 'Write', summary: 'steps/b.txt' });
    assert.deepEqual(
      m.files.map((f) => [f.rel, f.action]),
      [
        ['steps/a.txt', 'restore'],
        ['steps/b.txt', 'delete'],
      ],
    );
    // What will not be undone comes from the calls after the step: the push.
    assert.deepEqual(
      m.notUndone.map((n) => [n.tool, n.summary, n.effect]),
      [['Bash', 'git push origin main', 'irreversible']],
    );
    assert.deepEqual(m.scope.available, ['files']);
    assert.equal(m.scope.default, 'files');
    assert.match(m.scope.unavailableReason ?? '', /middle of a turn/);
    // Asking for the conversation anyway is refused, and nothing is written.
    await api.preview!.handleMessage({ type: 'rewind', scope: 'both', compensations: [], force: false });
    assert.equal(read('b.txt'), 'b two\n');

    await api.preview!.handleMessage({ type: 'rewind', scope: 'files', compensations: [], force: false });
    await until('the rewind', () => !fs.existsSync(file('b.txt')));
    assert.equal(read('a.txt'), 'a one\n', 'the first write stays, the third is undone');
    const last = await until('the rewind checkpoint', () => api.model!.lastRewind());
    assert.equal(last.checkpoint.targetCall, second.tool.id);
    const undo = await api.service!.apply(last.checkpoint.id);
    assert.equal(undo.status, 'done');
    assert.equal(read('a.txt'), 'a three\n');
    assert.equal(read('b.txt'), 'b two\n');
  });

  test('"Restore This File to Before This Step" is refused like any rewind when the file holds the user’s work', async () => {
    const third = (await tools())[2]!;
    fs.writeFileSync(file('a.txt'), 'mine now\n'); // the user's own change, after the agent's
    const plan = await api.service!.plan(`before:${third.tool.id}`, { paths: [file('a.txt')] });
    assert.deepEqual(
      plan.blocked.map((b) => [path.basename(b.path), b.reason]),
      [['a.txt', 'modified-outside']],
    );
    const r = await api.service!.apply(`before:${third.tool.id}`, { paths: [file('a.txt')] });
    assert.equal(r.status, 'refused');
    assert.equal(read('a.txt'), 'mine now\n', 'nothing was written');
    const forced = await api.service!.apply(`before:${third.tool.id}`, { paths: [file('a.txt')], force: true });
    assert.equal(forced.status, 'done');
    assert.equal(read('a.txt'), 'a one\n');
    assert.equal(read('b.txt'), 'b two\n', 'only that file changes');
    assert.equal((await api.service!.apply(api.model!.lastRewind()!.checkpoint.id)).status, 'done');
    assert.equal(read('a.txt'), 'mine now\n', 'undo brings the user’s content back');
  });
});
