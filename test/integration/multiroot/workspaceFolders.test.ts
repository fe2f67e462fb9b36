// The folders VS Code has open are the workspace the hooks record: the extension names them in the
// store's workspace-folders.json (and rewrites it when folders come and go), and a session started
// outside all of them records its file tools only and says so in its session-start label.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import { HookSession } from '../suite/hookSession';
import { EXTENSION_ID } from '../suite/paths';
import { until } from '../suite/until';

suite('Workspace folders as roots (multi-root)', function () {
  this.timeout(120000);
  let api: AgentRewindApi;
  const listed = () => {
    try {
      return (JSON.parse(fs.readFileSync(path.join(api.storeDir!, 'workspace-folders.json'), 'utf8')).folders as string[]).slice().sort();
    } catch {
      return [];
    }
  };
  const open = () => vscode.workspace.workspaceFolders!.map((f) => f.uri.fsPath).sort();

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
  });

  test('the store names every open folder, and follows a folder added and removed', async () => {
    assert.equal(open().length, 2);
    assert.deepEqual(listed(), open());
    const third = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ar-it-third-')));
    assert.ok(vscode.workspace.updateWorkspaceFolders(2, 0, { uri: vscode.Uri.file(third) }));
    await until('the added folder in workspace-folders.json', () => listed().includes(third));
    assert.deepEqual(listed(), open());
    assert.ok(vscode.workspace.updateWorkspaceFolders(2, 1));
    await until('the removed folder gone from workspace-folders.json', () => !listed().includes(third));
    assert.deepEqual(listed(), open());
    fs.rmSync(third, { recursive: true, force: true });
  });

  test('a session outside every open folder records its file tools only, and its label says so', async () => {
    const sibling = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ar-it-sibling-')));
    const s = new HookSession(api.storeDir!, sibling, 'session-sibling');
    s.start();
    s.prompt('Work outside the workspace');
    s.write('outside.txt', 'agent\n');
    const start = await until('the sibling session in the Files view', () =>
      api.model!.checkpoints.find((n) => n.checkpoint.session === 'session-sibling' && n.checkpoint.kind === 'session-start'),
    );
    assert.match(start.checkpoint.label, /shell capture off: .* is outside the folders open in VS Code/);
    assert.equal(fs.existsSync(path.join(api.storeDir!, 'scan', 'session-sibling.scan')), false, 'no baseline of the sibling');
    const meta = JSON.parse(fs.readFileSync(path.join(api.storeDir!, 'store.json'), 'utf8'));
    assert.ok(!meta.roots.includes(sibling), 'the sibling is no root');
    const log = fs.readFileSync(path.join(api.storeDir!, 'files.jsonl'), 'utf8');
    assert.match(log, new RegExp(`"path":"${path.join(sibling, 'outside.txt')}"`), 'its Write is recorded');
    fs.rmSync(sibling, { recursive: true, force: true });
  });
});
