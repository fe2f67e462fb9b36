// The Files view reads as a story, in the real VS Code: rows of identical workspace state fold into
// one (a resume right before its prompt, a checkpoint before a push the turn had not yet changed
// anything before) and stay rewind targets; a row with nothing under it has no arrow; a step inside
// a turn lists no second copy of the turn's files; the filter says how many match and clearing it
// keeps open rows open; both views list prompts in one order; a view drops its listeners when disposed.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import type { TimelineModel } from '../../../src/extension/model/timelineModel';
import { ConversationView } from '../../../src/extension/views/conversationView';
import { type FilesElement, FilesView } from '../../../src/extension/views/filesView';
import { StatusBar } from '../../../src/extension/views/statusBar';
import { HookSession } from './hookSession';
import { EXTENSION_ID } from './paths';
import { until } from './until';

type Row = Extract<FilesElement, { kind: 'checkpoint' }>;
const label = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));
const COUNT = /^(\d+ files? to rewind|nothing to rewind) · /;

suite('The Files view as a story', function () {
  this.timeout(90000);
  let api: AgentRewindApi;
  let s: HookSession;
  const mine = () =>
    api.files!.getChildren().filter((el): el is Row => el.kind === 'checkpoint' && el.node.checkpoint.session === s.session);
  const byText = (text: string) => mine().find((el) => el.node.label === text)!;

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    const ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    s = new HookSession(api.storeDir!, ws);
    s.start();
    s.prompt('story: write a');
    s.write('story/a.txt', 'a1\n');
    s.hook({ hook_event_name: 'SessionStart', source: 'resume' }); // nothing changed since: folds into the next prompt
    s.prompt('story: push, then write b');
    s.tool('Bash', { command: 'git push origin main' }); // before any change of this turn: folds into its prompt
    s.write('story/b.txt', 'b1\n');
    s.prompt('story: just a question');
    s.prompt('story: write c, then push');
    s.write('story/c.txt', 'c1\n');
    s.tool('Bash', { command: 'git push origin main' }); // after c.txt was written: a row of its own inside the turn
    await until(
      'the eight checkpoints of the session',
      () => api.model!.checkpoints.filter((n) => n.checkpoint.session === s.session).length === 8,
    );
    await until('the four rows', () => mine().length === 4);
  });

  suiteTeardown(() => api.files!.setFilter(''));

  test('a resume and a before-call row identical to their prompt fold into its row, named in its tooltip and still rewind targets', async () => {
    const files = api.files!;
    assert.deepEqual(
      mine().map((el) => label(files.getTreeItem(el)).replace(COUNT, '')),
      ['story: write c, then push', 'story: just a question', 'story: push, then write b', 'story: write a'],
      'no "Session started" rows, no row per checkpoint of the same files',
    );
    const row = byText('story: push, then write b');
    const item = files.getTreeItem(row);
    // Agent text goes in through appendText (spaces as &nbsp;, markdown characters escaped): read it as shown.
    const tip = (item.tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ').replace(/\\(.)/g, '$1');
    assert.match(tip, /Session started \(resume\)/);
    assert.match(tip, /Before Bash: git push origin main/);
    assert.match(String(item.contextValue), /\.folded$/, 'its context menu offers Rewind to…');
    assert.deepEqual(
      row.node.folded.map((n) => n.checkpoint.kind),
      ['session-start', 'before-tool'],
    );
    // Under the prompt: its file only, the folded step is no row.
    assert.deepEqual(
      files.getChildren(row).map((el) => el.kind),
      ['file'],
    );
    // The folded resume is still a target: reveal finds its row, and a preview of it plans what the row's would.
    const resume = row.node.folded[0]!.checkpoint.id;
    assert.equal(files.checkpointElement(resume), row);
    await vscode.commands.executeCommand('agentRewind.previewRewind', resume);
    const folded = (await api.preview!.settled())!;
    await vscode.commands.executeCommand('agentRewind.previewRewind', row.node.checkpoint.id);
    const own = (await api.preview!.settled())!;
    assert.equal(folded.target.id, resume);
    assert.deepEqual(
      folded.files.map((f) => f.rel),
      own.files.map((f) => f.rel),
    );
    assert.ok(own.files.length > 0);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('no arrow on a row with nothing under it; a step inside a turn does not list the turn’s files again', () => {
    const files = api.files!;
    const question = files.getTreeItem(byText('story: just a question'));
    assert.equal(question.collapsibleState, vscode.TreeItemCollapsibleState.None);
    const turn = byText('story: write c, then push');
    const under = files.getChildren(turn);
    assert.deepEqual(
      under.map((el) => el.kind),
      ['checkpoint', 'file'],
      'the step before the push, then the turn’s file',
    );
    const step = files.getTreeItem(under[0]!);
    assert.match(label(step), /Before Bash: git push origin main/);
    assert.equal(step.collapsibleState, vscode.TreeItemCollapsibleState.None, 'its files are its prompt’s');
    assert.deepEqual(files.getChildren(under[0]!), []);
    assert.equal(files.getTreeItem(turn).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
  });

  test('the filter says how many prompts match; clearing it keeps open what was open', async () => {
    const files = api.files!;
    const turn = byText('story: write c, then push');
    await files.tree!.reveal(turn, { expand: true });
    await until('the row to be open', () => files.getTreeItem(turn).collapsibleState === vscode.TreeItemCollapsibleState.Expanded);
    files.setFilter('story: write');
    assert.equal(files.tree!.message, 'Prompts containing "story: write": 2 matches');
    assert.equal(files.getChildren().length, 2);
    files.setFilter('story: just');
    assert.equal(files.tree!.message, 'Prompts containing "story: just": 1 match');
    files.setFilter('');
    assert.equal(files.tree!.message, undefined);
    const again = byText('story: write c, then push');
    assert.equal(files.getTreeItem(again).collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
  });

  test('both views list the prompts in one order: newest first', async () => {
    await api.conversation!.refresh();
    const session = api.conversation!.getChildren().find((e) => e.kind === 'session' && e.session.id === s.session)!;
    const conv = api.conversation!.getChildren(session).map((e) => label(api.conversation!.getTreeItem(e)));
    const files = mine().map((el) => el.node.label);
    assert.deepEqual(conv, files);
    assert.equal(conv[0], 'story: write c, then push');
  });

  test('a view drops every listener it added to the model when it is disposed', () => {
    let live = 0;
    const counting: vscode.Event<void> = (listener, thisArg) => {
      live++;
      const sub = api.model!.onDidChange(listener, thisArg);
      return { dispose: () => (live--, sub.dispose()) };
    };
    const model = new Proxy(api.model!, {
      get: (t, k) => (k === 'onDidChange' ? counting : (Reflect.get(t, k, t) as unknown)),
    }) as TimelineModel;
    const ready = new vscode.EventEmitter<void>();
    const views: vscode.Disposable[] = [
      new FilesView(model, { of: () => undefined, onReady: ready.event }),
      new ConversationView({ prepare: async () => {}, build: () => [] }, counting, (p) => path.basename(p)),
      new StatusBar(model, () => []),
    ];
    assert.ok(live >= 3, `each view listens (${live})`);
    for (const v of views) v.dispose();
    assert.equal(live, 0, 'no listener left on the model');
    ready.dispose();
  });
});
