// The one open folder is named in the store's workspace-folders.json, which the hooks read to tell a
// session in the workspace from one outside it (the multi-root pass covers folders coming and going).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import { EXTENSION_ID } from './paths';

suite('Workspace folders as roots (single folder)', () => {
  test('the store names the open folder', async () => {
    const api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    const file = JSON.parse(fs.readFileSync(path.join(api.storeDir!, 'workspace-folders.json'), 'utf8'));
    assert.deepEqual(file, { folders: [vscode.workspace.workspaceFolders![0]!.uri.fsPath] });
  });
});
