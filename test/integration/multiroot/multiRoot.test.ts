// A multi-root workspace: one store for every folder, every folder's files recorded and rewound,
// paths shown with their folder's name, sessions grouped and rewindable one at a time, and
// Connect writing into each folder.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import { HookSession } from '../suite/hookSession';
import { EXTENSION_ID } from '../suite/paths';
import { until } from '../suite/until';

suite('Multi-root workspace', function () {
  this.timeout(60000);
  let api: AgentRewindApi;
  let alpha: string;
  let beta: string;
  let first: string;
  let sa: HookSession;
  let sb: HookSession;

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    const folders = vscode.workspace.workspaceFolders!;
    assert.equal(folders.length, 2, 'the harness opened two folders');
    [alpha, beta] = folders.map((f) => f.uri.fsPath) as [string, string];
    sa = new HookSession(api.storeDir!, alpha, 'session-alpha');
    sb = new HookSession(api.storeDir!, beta, 'session-beta');
    assert.equal(fs.existsSync(api.storeDir!), false, 'no store before the first recorded event');
    sa.start();
    // The first event creates the store; the extension then writes both of VS Code's folders into it.
    await until('one store to know both folders', () => {
      const file = path.join(api.storeDir!, 'store.json');
      const roots = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')).roots as string[]) : [];
      return roots.includes(alpha) && roots.includes(beta);
    });
    sa.prompt('Add a.txt in alpha');
    sa.write('a.txt', 'alpha\n');
    sb.start();
    sb.prompt('Add b.txt in beta');
    sb.write('b.txt', 'beta\n');
    sa.write('shared-name.txt', 'from alpha\n');
    await until('both sessions', () => api.model!.checkpoints.length === 4);
    first = api.model!.checkpoints.find((n) => n.checkpoint.label === 'Add a.txt in alpha')!.checkpoint.id;
  });

  test('files are shown relative to their folder, with its name', async () => {
    assert.equal(api.model!.relative(path.join(alpha, 'a.txt')), 'alpha/a.txt');
    assert.equal(api.model!.relative(path.join(beta, 'b.txt')), 'beta/b.txt');
    const m = api.service!.previewModel(await api.service!.plan(first), { default: 'files', available: ['files'] }, null, null);
    assert.deepEqual(m.files.map((f) => f.rel).sort(), ['alpha/a.txt', 'alpha/shared-name.txt', 'beta/b.txt']);
    assert.deepEqual(m.sessions, ['session-alpha', 'session-beta'], 'the preview groups by session');
  });

  test("rewinding only one session's changes leaves the other folder's session alone", async () => {
    const r = await api.service!.apply(first, { sessions: ['session-beta'] });
    assert.equal(r.status, 'done');
    assert.equal(fs.existsSync(path.join(beta, 'b.txt')), false);
    assert.equal(fs.readFileSync(path.join(alpha, 'a.txt'), 'utf8'), 'alpha\n');
    assert.equal(fs.readFileSync(path.join(alpha, 'shared-name.txt'), 'utf8'), 'from alpha\n');
  });

  test('a rewind of everything restores files in both folders', async () => {
    const r = await api.service!.apply(first);
    assert.equal(r.status, 'done');
    assert.equal(fs.existsSync(path.join(alpha, 'a.txt')), false);
    assert.equal(fs.existsSync(path.join(alpha, 'shared-name.txt')), false);
    assert.equal(fs.existsSync(path.join(beta, 'b.txt')), false);
  });

  test('Connect with "All folders" writes hooks into every folder', async () => {
    let settled = false;
    const done = Promise.resolve(vscode.commands.executeCommand('agentRewind.connectClaude')).finally(() => (settled = true));
    // No fixed sleep: accept the pick ("All folders" is first) until the command has gone on — a
    // pick not shown yet is simply not there to accept.
    const end = Date.now() + 60000;
    while (!settled && Date.now() < end) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((r) => setTimeout(r, 250));
    }
    await done;
    for (const f of [alpha, beta]) {
      const s = JSON.parse(fs.readFileSync(path.join(f, '.claude', 'settings.local.json'), 'utf8'));
      assert.ok(JSON.stringify(s.hooks.PreToolUse).includes(api.storeDir!), `${path.basename(f)} is connected to the one store`);
    }
  });
});
