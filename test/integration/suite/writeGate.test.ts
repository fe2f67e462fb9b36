// One write path, in the real VS Code: a buffer dirtied after the preview opened refuses the rewind
// (nothing written), and so does one dirtied between the rewind's check and its write — the check
// is repeated at the moment of writing. Connect Agents… refuses while the config file it would
// write has unsaved changes in an editor.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { applyRewind, type FileWriter } from '../../../src/core/rewind/apply';
import { readJournal } from '../../../src/core/rewind/journal';
import { Store } from '../../../src/core/store';
import type { AgentRewindApi } from '../../../src/extension/extension';
import { dirtyAmong } from '../../../src/extension/rewind/rewindService';
import { editorGate, workspaceEditWriter } from '../../../src/extension/rewind/workspaceEditWriter';
import { HookSession } from './hookSession';
import { EXTENSION_ID } from './paths';
import { until } from './until';

suite('One write path: unsaved work is checked again at the moment of writing', function () {
  this.timeout(90000);
  let api: AgentRewindApi;
  let ws: string;
  const file = (rel: string) => path.join(ws, 'write-gate', rel);
  const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fs.mkdirSync(path.join(ws, 'write-gate'), { recursive: true });
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /** A session that writes `rel` twice across two prompts; returns the first prompt's checkpoint. */
  async function twoVersions(rel: string): Promise<string> {
    const s = new HookSession(api.storeDir!, ws);
    s.start();
    s.prompt(`first ${rel}`);
    s.write(path.join('write-gate', rel), 'agent v1\n');
    s.prompt(`second ${rel}`);
    s.write(path.join('write-gate', rel), 'agent v2\n');
    const cp = await until(`the checkpoint of ${rel}`, () =>
      api.model!.checkpoints.find((n) => n.checkpoint.session === s.session && n.checkpoint.label === `second ${rel}`),
    );
    return cp.checkpoint.id;
  }

  async function typeInto(doc: vscode.TextDocument, text: string): Promise<void> {
    const editor = await vscode.window.showTextDocument(doc);
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(0, 0), text)));
    assert.ok(doc.isDirty, 'the buffer is dirty');
  }

  test('a buffer dirtied after the preview opened: the rewind is refused, nothing written', async () => {
    const target = await twoVersions('after-preview.txt');
    const doc = await vscode.workspace.openTextDocument(file('after-preview.txt'));
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('agentRewind.previewRewind', target);
    const model = await until(
      'the preview',
      () => api.preview!.isOpen && api.preview!.current()?.target.id === target && api.preview!.current(),
    );
    assert.deepEqual(model.dirty, [], 'clean when the preview opened');
    assert.deepEqual(
      model.files.map((f) => path.basename(f.path)),
      ['after-preview.txt'],
    );
    await typeInto(doc, 'mine ');
    const r = await api.service!.apply(target);
    assert.equal(r.status, 'vetoed');
    assert.deepEqual('paths' in r && r.paths, [file('after-preview.txt')]);
    assert.equal(read('after-preview.txt'), 'agent v2\n', 'nothing written');
    assert.equal(doc.getText(), 'mine agent v2\n', 'the unsaved buffer is as the user left it');
  });

  test('a buffer dirtied between the check and the write: refused at the moment of writing, nothing written, no journal left', async () => {
    const target = await twoVersions('at-write.txt');
    const doc = await vscode.workspace.openTextDocument(file('at-write.txt'));
    await vscode.window.showTextDocument(doc);
    const store = Store.open(api.storeDir!);
    const gate = editorGate((paths) => dirtyAmong(paths));
    const real = workspaceEditWriter(store, gate);
    let checked: string[] | undefined;
    // The user types after the check under the store lock has passed, just before the files are written.
    const late: FileWriter = {
      ...real,
      async begin(writes) {
        checked = [...gate.seen.keys()];
        await typeInto(doc, 'typed late ');
        return real.begin!(writes);
      },
    };
    const r = await applyRewind(store, target, { veto: gate.veto }, late);
    assert.ok(checked && checked.length === 1, 'the check passed, with the open document’s version seen');
    assert.equal(r.status, 'vetoed');
    assert.deepEqual('paths' in r && r.paths, [file('at-write.txt')]);
    assert.equal(read('at-write.txt'), 'agent v2\n', 'nothing written');
    assert.equal(doc.getText(), 'typed late agent v2\n');
    assert.equal(readJournal(store), null, 'the transaction is finished');
    // Saved, it is the user's change: the next rewind is refused by the safety check, not silently written.
    assert.ok(await doc.save());
    const after = await api.service!.apply(target);
    assert.equal(after.status, 'refused');
    assert.equal(read('at-write.txt'), 'typed late agent v2\n');
  });

  test('Connect refuses while .claude/settings.local.json has unsaved changes; the file on disk is untouched', async () => {
    const settings = path.join(ws, '.claude', 'settings.local.json');
    const hadDir = fs.existsSync(path.dirname(settings));
    const original = fs.existsSync(settings) ? fs.readFileSync(settings) : null;
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    const before = '{\n    "permissions": { "allow": [] }\n}\n';
    fs.writeFileSync(settings, before);
    try {
      const doc = await vscode.workspace.openTextDocument(settings);
      await typeInto(doc, ' ');
      await vscode.commands.executeCommand('agentRewind.connectAgents', ['claude']);
      assert.equal(fs.readFileSync(settings, 'utf8'), before, 'nothing written behind the unsaved editor');
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.commands.executeCommand('agentRewind.connectAgents', ['claude']);
      const written = fs.readFileSync(settings, 'utf8');
      assert.match(written, /"hooks"/, 'saved (clean), it is connected');
      assert.match(written, /^\{\n {4}"permissions"/, "the user's formatting is kept");
      await vscode.commands.executeCommand('agentRewind.disconnectAgents', ['claude']);
    } finally {
      if (original) fs.writeFileSync(settings, original);
      else if (hadDir) fs.rmSync(settings, { force: true });
      else fs.rmSync(path.dirname(settings), { recursive: true, force: true });
    }
  });
});
