// Connect Agents… in a real VS Code: the command writes each chosen agent's own config, the status
// bar's list names them, and Disconnect Agents… removes them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import { EXTENSION_ID } from './paths';

suite('Connect Agents (cursor, cline)', function () {
  this.timeout(60000);
  let api: AgentRewindApi;
  let ws: string;

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  });

  test('Connect Agents… writes .cursor/hooks.json and the Cline scripts; the status bar names them; Disconnect removes them', async () => {
    await vscode.commands.executeCommand('agentRewind.connectAgents', ['cursor', 'cline']);
    const cursor = JSON.parse(fs.readFileSync(path.join(ws, '.cursor/hooks.json'), 'utf8'));
    assert.equal(cursor.version, 1);
    assert.ok(cursor.hooks.afterFileEdit[0].command.includes(api.storeDir!), 'the Cursor hook carries the store');
    const script = path.join(ws, '.clinerules/hooks/PreToolUse');
    assert.ok(fs.statSync(script).mode & 0o100, 'the Cline script is executable');
    assert.deepEqual(api.agents!.connectedNames(vscode.workspace.workspaceFolders!), ['Cursor', 'Cline']);
    await vscode.commands.executeCommand('agentRewind.disconnectAgents', ['cursor', 'cline']);
    assert.equal(fs.existsSync(path.join(ws, '.cursor')), false);
    assert.equal(fs.existsSync(path.join(ws, '.clinerules')), false);
    assert.deepEqual(api.agents!.connectedNames(vscode.workspace.workspaceFolders!), []);
  });
});
