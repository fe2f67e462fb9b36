// One truth on every surface: for one store, what a rewind to each checkpoint would write is the
// same number in `agent-rewind checkpoints --json` (toRewind), in the Files view's row and its
// tooltip, and in the preview; the status bar counts the prompts the Files view lists, names the
// pre-call checkpoints apart, and names each recording agent with the file holding its hooks.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import type { FilesElement } from '../../../src/extension/views/filesView';
import { CLI, HookSession } from './hookSession';
import { EXTENSION_ID } from './paths';
import { until } from './until';

interface CliCheckpoint {
  id: string;
  kind: string;
  label: string;
  toRewind: number;
}

const words = (n: number) => (n === 0 ? 'nothing to rewind' : `${n} file${n === 1 ? '' : 's'} to rewind`);

suite('one count on every surface', function () {
  this.timeout(120000);
  let api: AgentRewindApi;
  let ws: string;
  let session: HookSession;

  const cliCheckpoints = (): CliCheckpoint[] => {
    const r = spawnSync(process.execPath, [CLI, 'checkpoints', '--json'], {
      env: { ...process.env, AGENT_REWIND_STORE: api.storeDir!, ELECTRON_RUN_AS_NODE: '1' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as CliCheckpoint[];
  };

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    session = new HookSession(api.storeDir!, ws);
    session.start();
    session.prompt('One count: add two files');
    session.write('count/a.txt', 'a1\n');
    session.write('count/b.txt', 'b1\n');
    session.prompt('One count: edit one and push');
    session.tool('Edit', { file_path: path.join(ws, 'count/a.txt'), old_string: 'a1', new_string: 'a2' }, () =>
      fs.writeFileSync(path.join(ws, 'count/a.txt'), 'a2\n'),
    );
    session.tool('Bash', { command: 'git push origin main' });
    session.write('count/c.txt', 'c1\n');
    session.start(); // a second start (as a resume would be): a row of its own, in time order
    session.prompt('One count: one more');
    session.write('count/d.txt', 'd1\n');
    await until('the Files view to show this session', () => {
      const n = api.model!.checkpoints.filter((c) => c.checkpoint.session === session.session).length;
      return n === 6 && cliCheckpoints().filter((c) => c.label.startsWith('One count: one more')).length === 1;
    });
  });

  test('CLI toRewind = Files view row = its tooltip = the preview, for every checkpoint of the session', async () => {
    const cli = cliCheckpoints().filter((c) => api.model!.find(c.id)?.checkpoint.session === session.session);
    assert.equal(cli.length, 6, 'two starts, three prompts, one checkpoint before the push');
    for (const c of cli) {
      const el = api.files!.checkpointElement(c.id) as FilesElement | undefined;
      assert.ok(el, `the Files view shows ${c.label}`);
      const item = api.files!.getTreeItem(el);
      // A folded checkpoint is shown by the row it is folded into: the same files, so the same count.
      const text = typeof item.label === 'string' ? item.label : String(item.label?.label);
      assert.ok(text.startsWith(`${words(c.toRewind)} ·`), `row "${c.label}": ${text} vs ${c.toRewind}`);
      const tip = (item.tooltip as vscode.MarkdownString).value;
      const tipCount = c.toRewind === 0 ? /changes nothing/ : new RegExp(`\\b${c.toRewind} files? will change`);
      assert.match(tip, tipCount, `tooltip of "${c.label}"`);
      await vscode.commands.executeCommand('agentRewind.previewRewind', c.id);
      const m = (await api.preview!.settled())!;
      assert.equal(m.files.length, c.toRewind, `preview of "${c.label}"`);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The numbers are the session's own, not all zeros: the oldest start rewinds all four files.
    assert.deepEqual(
      cli.map((c) => c.toRewind),
      [4, 4, 3, 2, 1, 1],
    );
  });

  test('the status bar counts the prompts the Files view lists; pre-call checkpoints are named apart', () => {
    api.status!.update();
    const { text, tooltip } = api.status!.shown;
    const all = cliCheckpoints();
    const prompts = all.filter((c) => c.kind === 'prompt').length;
    const rows = api.model!.turns.filter((t) => t.node.checkpoint.kind === 'prompt').length;
    assert.equal(rows, prompts, 'the Files view lists one row per prompt');
    assert.match(text, new RegExp(`\\b${prompts} prompts?$`));
    assert.match(tooltip, new RegExp(`\\b${prompts} prompts?\\b.* in the Files view`));
    const beforeCalls = all.filter((c) => c.kind === 'before-tool').length;
    assert.ok(beforeCalls >= 1);
    assert.match(tooltip, new RegExp(`\\b${beforeCalls} checkpoints? before a command that cannot be undone`));
  });

  test('"Recording:" names each agent whose hooks are installed, with the file that holds them', async () => {
    const settings = path.join(ws, '.claude', 'settings.local.json');
    const before = fs.existsSync(settings) ? fs.readFileSync(settings) : null;
    await vscode.commands.executeCommand('agentRewind.connectClaude');
    try {
      api.model!.reload(); // the status bar follows the model's refresh
      await until('the tooltip to name Claude Code', () => /Recording:/.test(api.status!.shown.tooltip));
      assert.match(api.status!.shown.tooltip, /Claude Code: hooks in .*\.claude\/settings\.local\.json/);
    } finally {
      await vscode.commands.executeCommand('agentRewind.disconnectClaude');
      if (before) fs.writeFileSync(settings, before);
    }
  });
});
