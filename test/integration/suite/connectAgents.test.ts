// Connect Agents… in a real VS Code: the command writes each chosen agent's own config, the status
// bar's list names them, and Disconnect Agents… removes them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import { EXTENSION_ID } from './paths';

suite('Connect Agents (cursor, cline, and the agents from their docs)', function () {
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

  test('the agents from their docs: OpenCode, Qwen Code, Droid, Auggie, Windsurf and Kiro connect and disconnect through the command', async () => {
    const agents = ['opencode', 'qwen', 'droid', 'auggie', 'windsurf', 'kiro'];
    await vscode.commands.executeCommand('agentRewind.connectAgents', agents);
    const plugin = fs.readFileSync(path.join(ws, '.opencode/plugins/agent-rewind.js'), 'utf8');
    assert.ok(plugin.includes(JSON.stringify(api.storeDir!)), 'the OpenCode plugin carries the store');
    for (const rel of ['.qwen/settings.json', '.factory/settings.json', '.augment/settings.json', '.windsurf/hooks.json'])
      assert.ok(fs.readFileSync(path.join(ws, rel), 'utf8').includes('--connected-by=agent-rewind'), rel);
    assert.ok(fs.existsSync(path.join(ws, '.kiro/hooks/agent-rewind-promptSubmit.kiro.hook')));
    assert.deepEqual(api.agents!.connectedNames(vscode.workspace.workspaceFolders!), [
      'OpenCode',
      'Qwen Code',
      'Factory Droid',
      'Auggie (Augment)',
      'Windsurf (Cascade)',
      'Kiro (IDE & CLI)',
    ]);
    await vscode.commands.executeCommand('agentRewind.disconnectAgents', agents);
    for (const dir of ['.opencode', '.qwen', '.factory', '.augment', '.windsurf', '.kiro'])
      assert.equal(fs.existsSync(path.join(ws, dir)), false, dir);
    assert.deepEqual(api.agents!.connectedNames(vscode.workspace.workspaceFolders!), []);
  });
});
