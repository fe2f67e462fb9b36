// Checks of the test harness itself: what the launcher injects (env, user settings, a fresh workspace copy)
// really reaches the extension host. Also holds the deliberate failure that proves a failing test makes the
// run exit non-zero: AGENT_REWIND_HARNESS_FAIL=1 npm test integration (or node test/integration/run.mjs --fail).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { repoRoot } from './paths';

suite('Harness', () => {
  test('env from the launcher reaches the extension host', () => {
    assert.ok(process.env.AGENT_REWIND_TEST_RESULTS, 'AGENT_REWIND_TEST_RESULTS is set');
    assert.ok(process.env.AGENT_REWIND_TEST_STORE, 'AGENT_REWIND_TEST_STORE is set');
    assert.ok(path.isAbsolute(process.env.AGENT_REWIND_TEST_STORE));
  });

  test('injected user settings are visible through the configuration API', () => {
    const store = vscode.workspace.getConfiguration('agentRewind').get<string>('storeDirectory');
    assert.equal(store, process.env.AGENT_REWIND_TEST_STORE);
    // and the harness's quiet defaults are in the same settings file
    assert.equal(vscode.workspace.getConfiguration('telemetry').get('telemetryLevel'), 'off');
  });

  test('the workspace is a fresh copy of the fixture, not the fixture itself', async () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1);
    const ws = folders[0].uri.fsPath;
    assert.ok(!fs.realpathSync(ws).startsWith(fs.realpathSync(repoRoot) + path.sep), `workspace ${ws} is inside the repo`);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(ws, 'src/greet.js')));
    assert.match(doc.getText(), /function greet\(name\)/);
    const found = await vscode.workspace.findFiles('**/*.txt');
    assert.deepEqual(
      found.map((u) => path.relative(ws, u.fsPath)),
      ['notes.txt'],
    );
  });

  test('self-check: fails on purpose when AGENT_REWIND_HARNESS_FAIL=1', () => {
    assert.notEqual(process.env.AGENT_REWIND_HARNESS_FAIL, '1', 'deliberate failure requested by AGENT_REWIND_HARNESS_FAIL=1');
  });
});
