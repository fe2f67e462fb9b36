// Attempts in the real VS Code: prompt, rewind, prompt differently (recorded through the real hook
// path); the Files view shows the second attempt's prompt on the line and the first attempt as one
// row; Compare with Current opens the multi-file diff editor with the right pairs from the store;
// taking one file from the first attempt goes through the rewind service (an unsaved editor
// refuses it), and undo brings the current content back.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import type { FilesElement } from '../../../src/extension/views/filesView';
import { HookSession } from './hookSession';
import { EXTENSION_ID } from './paths';
import { until } from './until';

type AttemptEl = Extract<FilesElement, { kind: 'attempt' }>;
const label = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));

suite('Attempts', function () {
  this.timeout(120000);
  let api: AgentRewindApi;
  let ws: string;
  const file = (rel: string) => path.join(ws, 'attempts', rel);
  const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const s = new HookSession(api.storeDir!, ws);
    s.start();
    s.prompt('attempt one: greet');
    s.write('attempts/app.txt', 'greet\n');
    s.write('attempts/greet.txt', 'hi\n');
    const first = await until('the first prompt', () => api.model!.checkpoints.find((n) => n.label === 'attempt one: greet'));
    await until('its files', () => api.model!.turnFiles(first.checkpoint.id).length === 2);
    assert.equal((await api.service!.apply(first.checkpoint.id)).status, 'done');
    // Prompted differently in a new conversation (the first one would be told of the rewind first).
    const s2 = new HookSession(api.storeDir!, ws);
    s2.start();
    s2.prompt('attempt two: farewell');
    s2.write('attempts/app.txt', 'farewell\n');
    s2.write('attempts/bye.txt', 'bye\n');
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(path.join(ws, 'attempts'), { recursive: true, force: true });
  });

  const attemptRow = () =>
    until('the first attempt as a row', () => {
      api.model!.reload();
      return api
        .files!.getChildren()
        .find(
          (e): e is AttemptEl => e.kind === 'attempt' && e.attempt.prompts.some((p) => p.label === 'attempt one: greet') && !!e.attempt.end,
        );
    });

  test('the Files view: the second attempt on the line, the first one row with its prompt inside', async () => {
    const row = await attemptRow();
    const files = api.files!;
    const item = files.getTreeItem(row);
    assert.equal(label(item), `Attempt ${row.attempt.n}`);
    assert.match(String(item.description), /^1 prompt · 2 files · left \d/);
    assert.equal(item.contextValue, 'agentRewind.attempt');
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const top = files
      .getChildren()
      .map((e) => (e.kind === 'checkpoint' ? e.node.label : e.kind === 'attempt' ? `Attempt ${e.attempt.n}` : e.kind));
    assert.ok(top.includes('attempt two: farewell'), top.join(' | '));
    assert.ok(!top.includes('attempt one: greet'), 'the first attempt’s prompt is inside its row');
    // Newest first: the second attempt's prompt, then the row of the attempt it replaced.
    assert.ok(top.indexOf('attempt two: farewell') < top.indexOf(`Attempt ${row.attempt.n}`), top.join(' | '));
    const inside = files.getChildren(row).map((e) => (e.kind === 'checkpoint' ? e.node.label : e.kind));
    assert.deepEqual(inside, ['attempt one: greet']);
    assert.equal(files.getParent(files.getChildren(row)[0]!), row);
  });

  test('Compare with Current opens the multi-file diff editor with the attempt’s end and the current files', async () => {
    const row = await attemptRow();
    const pairs = (await vscode.commands.executeCommand('agentRewind.compareWithCurrent', row)) as [vscode.Uri, vscode.Uri, vscode.Uri][];
    const title = `Attempt ${row.attempt.n} ↔ Current`;
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
    const tab = await until('the multi-file diff editor', () => tabs().find((t) => t.label.includes(title)), 20000).catch(() => {
      throw new Error(`no tab titled "${title}"; tabs: ${JSON.stringify(tabs().map((t) => [t.label, t.input?.constructor?.name]))}`);
    });
    assert.ok(
      !(tab.input instanceof vscode.TabInputText) && !(tab.input instanceof vscode.TabInputTextDiff),
      'one editor for all the files',
    );
    assert.deepEqual(
      pairs.map(([f]) => path.basename(f.fsPath)),
      ['app.txt', 'bye.txt', 'greet.txt'],
    );
    const text = async (u: vscode.Uri) => (await vscode.workspace.openTextDocument(u)).getText();
    const byName = new Map(pairs.map((p) => [path.basename(p[0].fsPath), p]));
    const [, appBefore, appAfter] = byName.get('app.txt')!;
    assert.equal(appBefore.scheme, 'agent-rewind-snapshot');
    assert.equal(await text(appBefore), 'greet\n');
    assert.equal(appAfter.toString(), vscode.Uri.file(file('app.txt')).toString(), 'the current side is the file itself');
    const [, greetBefore, greetAfter] = byName.get('greet.txt')!;
    assert.equal(await text(greetBefore), 'hi\n');
    assert.equal(await text(greetAfter), '', 'deleted since: an empty side from the store, no file made');
    const [, byeBefore, byeAfter] = byName.get('bye.txt')!;
    assert.equal(await text(byeBefore), '');
    assert.equal(byeAfter.fsPath, file('bye.txt'));
    // The editor asked for the recorded sides through the read-only scheme: they are open documents now.
    await until('the editor’s documents', () =>
      [appBefore, greetBefore].every((u) => vscode.workspace.textDocuments.some((d) => d.uri.toString() === u.toString())),
    );
    assert.equal(fs.existsSync(file('greet.txt')), false, 'comparing wrote nothing');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('take one file from the first attempt: refused over an unsaved editor, then taken, then undone', async () => {
    const row = await attemptRow();
    const end = row.attempt.end!.id;
    const doc = await vscode.workspace.openTextDocument(file('app.txt'));
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'unsaved '));
    const refused = await api.service!.apply(end, { paths: [file('app.txt')] });
    assert.equal(refused.status, 'vetoed');
    assert.equal(read('app.txt'), 'farewell\n', 'nothing written');
    await vscode.commands.executeCommand('workbench.action.files.revert');

    const took = await api.service!.apply(end, { paths: [file('greet.txt')] });
    assert.equal(took.status, 'done');
    assert.equal(read('greet.txt'), 'hi\n');
    assert.equal(read('app.txt'), 'farewell\n', 'only that file');
    assert.equal(read('bye.txt'), 'bye\n');
    // Taking a file stays in the attempt in progress: the first attempt is still one row, left where it was.
    const after = await attemptRow();
    assert.equal(after.attempt.n, row.attempt.n);
    assert.equal(after.attempt.end!.id, end);

    const last = await until('the take’s checkpoint', () => {
      const l = api.model!.lastRewind();
      return l && l.checkpoint.partial && l;
    });
    assert.equal((await api.service!.apply(last.checkpoint.id)).status, 'done');
    assert.equal(fs.existsSync(file('greet.txt')), false, 'undo took it away again');
    assert.equal(read('app.txt'), 'farewell\n');
  });
});
