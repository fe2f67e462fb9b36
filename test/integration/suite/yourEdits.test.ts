// "A checkpoint is what was on disk" and "your edits stay yours", in the real VS Code: the user's
// edit between turns comes back from the preview of the prompt after it (agent Edit and agent shell
// command); an unrecorded mid-turn change is listed as uncertain and goes through only with "Rewind
// anyway"; and after "Rewind anyway" and Undo, a preview of an earlier point refuses on the user's
// line and names how it came back.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import { HookSession } from './hookSession';
import { EXTENSION_ID } from './paths';
import { until } from './until';

suite('Your edits stay yours', function () {
  this.timeout(90000);
  let api: AgentRewindApi;
  let ws: string;
  const file = (rel: string) => path.join(ws, 'your-edits', rel);
  const read = (rel: string) => fs.readFileSync(file(rel), 'utf8');

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fs.mkdirSync(path.join(ws, 'your-edits'), { recursive: true });
  });

  const checkpointOf = async (session: HookSession, label: string) =>
    (
      await until(`the checkpoint "${label}"`, () =>
        api.model!.checkpoints.find((n) => n.checkpoint.session === session.session && n.checkpoint.label === label),
      )
    ).checkpoint.id;

  async function preview(target: string) {
    await vscode.commands.executeCommand('agentRewind.previewRewind', target);
    return until('the preview model', () => api.preview!.isOpen && api.preview!.current()?.target.id === target && api.preview!.current());
  }

  for (const via of ['edit', 'shell'] as const) {
    test(`user edit, agent ${via === 'edit' ? 'Edit' : 'shell command'}, rewind to the prompt in between: the user's line comes back`, async () => {
      const s = new HookSession(api.storeDir!, ws);
      const rel = `config-${via}.txt`;
      s.start();
      s.prompt(`make the ${via} config`);
      s.write(path.join('your-edits', rel), 'port=1\n');
      fs.appendFileSync(file(rel), 'mine=yes\n'); // the user saves a line of their own
      s.prompt(`bump the ${via} port`);
      const bumped = () => fs.writeFileSync(file(rel), read(rel).replace('port=1', 'port=2'));
      if (via === 'edit') s.tool('Edit', { file_path: file(rel), old_string: 'port=1', new_string: 'port=2' }, bumped);
      else s.tool('Bash', { command: `sed -i s/port=1/port=2/ your-edits/${rel}` }, bumped);
      const first = await checkpointOf(s, `make the ${via} config`);
      const bump = await checkpointOf(s, `bump the ${via} port`);

      const earlier = await preview(first);
      assert.deepEqual(
        earlier.warnings.map((w) => [path.basename(w.path), w.reason]),
        [[rel, 'observed']],
        'a rewind before the user’s edit says it reverts it',
      );
      const m = await preview(bump);
      assert.deepEqual(m.blocked, []);
      await api.preview!.handleMessage({ type: 'rewind', scope: 'files', compensations: [], force: false });
      await until('the user’s line back with the old port', () => read(rel) === 'port=1\nmine=yes\n');
    });
  }

  test('an unrecorded change inside a turn is uncertain: stopped, and "Rewind anyway" writes the later version', async () => {
    const s = new HookSession(api.storeDir!, ws);
    s.start();
    s.prompt('uncertain work');
    s.write(path.join('your-edits', 'gap.txt'), 'agent one\n');
    s.tool('Bash', { command: 'git push origin main' });
    fs.writeFileSync(file('gap.txt'), 'mine, mid-turn\n');
    s.tool('Edit', { file_path: file('gap.txt'), old_string: 'mine, mid-turn', new_string: 'agent two' }, () =>
      fs.writeFileSync(file('gap.txt'), 'agent two\n'),
    );
    const push = (
      await until('the before-push checkpoint', () =>
        api.model!.checkpoints.find((n) => n.checkpoint.session === s.session && n.checkpoint.kind === 'before-tool'),
      )
    ).checkpoint.id;
    const m = await preview(push);
    assert.deepEqual(
      m.blocked.map((b) => [path.basename(b.path), b.reason]),
      [['gap.txt', 'unrecorded-change']],
    );
    assert.match(m.blocked[0]!.detail ?? '', /Recorded at .*found different at/);
    const refused = await api.service!.apply(push);
    assert.equal(refused.status, 'refused');
    assert.equal(read('gap.txt'), 'agent two\n');
    await api.preview!.handleMessage({ type: 'rewind', scope: 'files', compensations: [], force: true });
    await until('the later version', () => read('gap.txt') === 'mine, mid-turn\n');
  });

  test('after "Rewind anyway" and Undo, a preview of an earlier point refuses on the user’s line and names it', async () => {
    const s = new HookSession(api.storeDir!, ws);
    s.start();
    s.prompt('Add the todo list');
    s.write(path.join('your-edits', 'todo.ts'), 'export const todos = [];\n');
    s.prompt('Add due dates');
    s.tool('Edit', { file_path: file('todo.ts'), old_string: '[]', new_string: '[{ due: 1 }]' }, () =>
      fs.writeFileSync(file('todo.ts'), 'export const todos = [{ due: 1 }];\n'),
    );
    fs.appendFileSync(file('todo.ts'), '// my own line\n');
    const list = await checkpointOf(s, 'Add the todo list');
    const due = await checkpointOf(s, 'Add due dates');

    const first = await preview(due);
    assert.deepEqual(
      first.blocked.map((b) => [path.basename(b.path), b.reason]),
      [['todo.ts', 'modified-outside']],
    );
    await api.preview!.handleMessage({ type: 'rewind', scope: 'files', compensations: [], force: true }); // Rewind anyway
    await until('the forced rewind', () => !read('todo.ts').includes('my own line'));
    const forced = await until('its checkpoint', () => api.model!.lastRewind()?.checkpoint.target === due && api.model!.lastRewind());
    const undo = await api.service!.apply(forced.checkpoint.id);
    assert.equal(undo.status, 'done');
    assert.match(read('todo.ts'), /my own line/);

    for (const target of [list, due]) {
      const m = await preview(target);
      assert.deepEqual(
        m.blocked.map((b) => [path.basename(b.path), b.reason]),
        [['todo.ts', 'your-edit']],
        'the second preview refuses, naming the user’s edit',
      );
      assert.match(m.blocked[0]!.detail ?? '', /^Your own edit, kept by the rewind at .+ and restored by Undo at .+\.$/);
      assert.equal((await api.service!.apply(target)).status, 'refused');
    }
    assert.match(read('todo.ts'), /my own line/);
    await api.preview!.handleMessage({ type: 'cancel' });
  });
});
