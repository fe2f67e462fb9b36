// The Files view on a timeline of 10,000 checkpoints (bench/scaleStore.mjs, appended to this run's
// store): grouped by session, a group's rows built only when it is expanded and shown 50 at a
// time with Load more, a filter by prompt text. The store is put back as it was afterwards (a
// replaced log: the model reads it whole again). Times are printed, not asserted.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { buildScaleStore } from '../../../bench/scaleStore.mjs';
import type { AgentRewindApi } from '../../../src/extension/extension';
import { type FilesElement, GROUP_AFTER, PAGE } from '../../../src/extension/views/filesView';
import { HookSession } from './hookSession';
import { EXTENSION_ID } from './paths';
import { until } from './until';

const label = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));

suite('Files view at 10,000 checkpoints', function () {
  this.timeout(180000);
  let api: AgentRewindApi;
  let log: string;
  let before: Buffer;
  let tmp: string;
  let countBefore = 0;

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    log = path.join(api.storeDir!, 'files.jsonl');
    // The store exists only after a first recorded event (this suite may run alone).
    if (!fs.existsSync(log)) new HookSession(api.storeDir!, vscode.workspace.workspaceFolders![0]!.uri.fsPath).start();
    before = fs.existsSync(log) ? fs.readFileSync(log) : Buffer.alloc(0);
    countBefore = api.model!.checkpoints.length;
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-scale-view-'));
    const built = buildScaleStore(path.join(tmp, 'store'), path.join(tmp, 'ws'), { checkpoints: 10000, files: 50 });
    assert.equal(built.ids.length, 10000);
    // Every odd session is Cursor's, so the groups show two agents by their display names and icons.
    let text = Buffer.from(
      fs
        .readFileSync(path.join(tmp, 'store', 'files.jsonl'), 'utf8')
        .split('\n')
        .map((l) => (/"session":"sess-\d{3}[13579]-/.test(l) ? l.replace('"agent":"claude"', '"agent":"cursor"') : l))
        .join('\n'),
    );
    if (before.length && before[before.length - 1] !== 0x0a) text = Buffer.concat([Buffer.from('\n'), text]);
    fs.appendFileSync(log, text);
    await until('the model to read the appended 10,000 checkpoints', () => api.model!.checkpoints.length >= countBefore + 10000, 60000);
  });

  suiteTeardown(async () => {
    api.files!.setFilter('');
    fs.writeFileSync(log + '.restore', before);
    fs.renameSync(log + '.restore', log);
    await until('the model to read the restored log whole', () => api.model!.checkpoints.length === countBefore, 60000);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test('grouped by session, lazy, 50 rows a page with Load more', async () => {
    const files = api.files!;
    let t = performance.now();
    const roots = files.getChildren();
    const items = roots.map((el) => files.getTreeItem(el));
    console.log(`root of ${api.model!.turns.length} rows: ${roots.length} groups in ${(performance.now() - t).toFixed(1)} ms`);
    assert.ok(api.model!.turns.length > GROUP_AFTER);
    assert.ok(
      // Attempts whose session has no row left on the line (earlier suites' attempts in this store) stand at the root.
      roots.every((el) => el.kind === 'session' || el.kind === 'attempt'),
      `every root row is a session group or an attempt: ${roots
        .filter((el) => el.kind !== 'session' && el.kind !== 'attempt')
        .map((el) => `${el.kind} ${files.getTreeItem(el).label as string}`)
        .join('; ')}`,
    );
    const groups = roots.filter(
      (el): el is Extract<FilesElement, { kind: 'session' }> => el.kind === 'session' && el.session.startsWith('sess-'),
    );
    assert.equal(groups.length, 100, 'one group per generated session');
    const itemOf = (prefix: string) => {
      const g = groups.find((el) => el.session.startsWith(prefix));
      assert.ok(g, `a group for session ${prefix}…`);
      return items[roots.indexOf(g)]!;
    };
    for (const [prefix, name, icon] of [
      ['sess-0002-', 'Claude Code', 'sparkle'],
      ['sess-0003-', 'Cursor', 'inspect'],
    ] as const) {
      const item = itemOf(prefix);
      const g = groups.find((el) => el.session.startsWith(prefix))!;
      // Named by what tells it from the others: its newest prompt (its first row, on the first page), its agent by its icon.
      assert.equal(label(item), g.turns[0]!.node.label, `${prefix}'s group is named by its newest prompt`);
      assert.match(label(item), /^Prompt \d+: refactor module/);
      // appendText writes a space as &nbsp;
      assert.ok((item.tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ').includes(name), `the tooltip names ${name}`);
      assert.match(String(item.description), /^99 prompts · \S/, 'the count, then the time span');
      assert.equal((item.iconPath as vscode.ThemeIcon | undefined)?.id, icon, `${prefix}'s group shows ${name}'s icon`);
    }
    const first = items[roots.indexOf(groups[0]!)]!;
    const n = groups[0]!.turns.length;
    assert.equal(n, 100, "a session's start is a row of its own: 99 prompts and the start");
    assert.equal(first.description?.toString().split(' · ')[0], '99 prompts', 'the group counts its prompts');
    assert.equal(first.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, 'children are built on expand');

    t = performance.now();
    let rows = files.getChildren(groups[0]);
    rows.forEach((el) => files.getTreeItem(el));
    console.log(`a group's first page: ${(performance.now() - t).toFixed(1)} ms`);
    assert.equal(rows.length, PAGE + 1);
    assert.equal(rows.filter((el) => el.kind === 'checkpoint').length, PAGE);
    const more = rows[PAGE]!;
    assert.equal(more.kind, 'more');
    const moreItem = files.getTreeItem(more);
    assert.equal(label(moreItem), `Load ${n - PAGE} more`, 'as many as are left');
    assert.equal(moreItem.description, `${n - PAGE} not shown`);
    assert.equal(moreItem.command?.command, 'agentRewind.loadMore');
    // The newest prompt first; the row says what a rewind to it would write, as every row does.
    const top = rows[0]!;
    assert.ok(top.kind === 'checkpoint');
    assert.match(label(files.getTreeItem(top)), /^(\d+ files? to rewind|nothing to rewind) · /);
    assert.equal(label(files.getTreeItem(groups[0]!)), top.node.label, "the group's name is its first row: Load more never hides it");

    await vscode.commands.executeCommand(moreItem.command!.command, ...(moreItem.command!.arguments ?? []));
    rows = files.getChildren(groups[0]);
    assert.equal(rows.length, n, 'the second page, and no Load more left');
    assert.ok(rows.every((el) => el.kind === 'checkpoint'));

    // A prompt's children (its turn's files) are built when it is expanded.
    const children = files.getChildren(rows[10]!);
    assert.ok(
      children.some((el) => el.kind === 'file'),
      'a prompt row holds the files its turn edited',
    );
    // reveal() finds a row beyond the first page through its group.
    const far = groups[5]!.turns[80]!.node.checkpoint.id;
    const el = files.checkpointElement(far)!;
    assert.equal(files.getParent(el), groups[5]);
    assert.ok(files.getChildren(groups[5]).includes(el), 'the group shows far enough to hold the revealed row');
  });

  test('filter by prompt text, paged, its count said; clearing it groups again with the open group still open', async () => {
    const files = api.files!;
    const open = files.getChildren().find((el) => el.kind === 'session' && el.session.startsWith('sess-'))!;
    await files.tree!.reveal(open, { expand: true });
    await until('the group to be open', () => files.getTreeItem(open).collapsibleState === vscode.TreeItemCollapsibleState.Expanded);
    files.setFilter('Prompt 1234:');
    let roots = files.getChildren();
    assert.equal(roots.length, 1);
    assert.ok(roots[0]!.kind === 'checkpoint' && roots[0]!.node.label.startsWith('Prompt 1234: '));
    files.setFilter('REFACTOR MODULE M3 ');
    assert.equal(files.filterMessage(), 'Prompts containing "REFACTOR MODULE M3": 1000 matches');
    roots = files.getChildren();
    assert.equal(roots.length, PAGE + 1, 'a page of the matches and Load more');
    assert.ok(roots.slice(0, PAGE).every((el) => el.kind === 'checkpoint' && el.node.label.includes('refactor module m3 ')));
    const more = roots[PAGE]!;
    assert.ok(
      more.kind === 'more' && more.remaining === 1000 - PAGE,
      `1000 prompts mention m3 (got ${more.kind === 'more' ? more.remaining + PAGE : '?'})`,
    );
    files.loadMore(more.key);
    assert.equal(files.getChildren().length, 2 * PAGE + 1);
    files.setFilter('no prompt says this');
    assert.deepEqual(files.getChildren(), []);
    files.setFilter('');
    assert.ok(files.getChildren().every((el) => el.kind === 'session' || el.kind === 'attempt'));
    const back = files.getChildren().find((el) => el.kind === 'session' && el.key === (open.kind === 'session' ? open.key : ''))!;
    assert.equal(files.getTreeItem(back).collapsibleState, vscode.TreeItemCollapsibleState.Expanded, 'the group the user had open');
  });
});
