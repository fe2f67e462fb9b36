// One presentation model, every surface (issue 42): on one scripted store — prompts, a checkpoint
// before a call that cannot be undone, a resume, a rewind, its undo, the rewind again and new work (a
// second attempt), files taken from the first attempt, a switch back to it — every row of the Files view
// (label, description, the count in its tooltip), the attempt rows, the Conversation view, the status bar
// and the preview's header say what the CLI's --json says for the same point. And the preview follows
// the world: an unsaved edit reverted, its "Stopped: unsaved changes" goes away by itself.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import type { ConvElement } from '../../../src/extension/views/conversationView';
import type { FilesElement } from '../../../src/extension/views/filesView';
import { attemptDescription, promptWords, rowTitle, type CheckpointRow } from '../../../src/core/timeline/presentation';
import { rewindCountWords, treeLabel } from '../../../src/shared/text';
import { clockTime } from '../../../src/shared/time';
import { CLI, HookSession } from './hookSession';
import { EXTENSION_ID } from './paths';
import { until } from './until';

type CliRow = Omit<CheckpointRow, 'time'> & { time: string; foldedInto?: string };
interface CliAttempt {
  n: number;
  current: boolean;
  end: string | null;
  left: string | null;
  prompts: { label: string }[];
  files: string[];
}

const label = (item: vscode.TreeItem) => (typeof item.label === 'string' ? item.label : (item.label?.label ?? ''));
/** A tooltip's text (appendText writes a space as &nbsp;). */
const tipOf = (item: vscode.TreeItem) =>
  (typeof item.tooltip === 'string' ? item.tooltip : (item.tooltip?.value ?? '')).replace(/&nbsp;/g, ' ');

suite('one presentation model on every surface', function () {
  this.timeout(240000);
  let api: AgentRewindApi;
  let ws: string;
  let before: Set<string>;
  const sessions: string[] = [];
  const file = (rel: string) => path.join(ws, 'one-model', rel);

  const cli = <T>(...args: string[]): T => {
    const r = spawnSync(process.execPath, [CLI, ...args, '--json'], {
      env: { ...process.env, AGENT_REWIND_STORE: api.storeDir!, ELECTRON_RUN_AS_NODE: '1' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    return JSON.parse(r.stdout) as T;
  };
  const ours = () => cli<CliRow[]>('checkpoints', '--folds').filter((c) => !before.has(c.id));
  /** The model has read every checkpoint the CLI lists (the store watcher is debounced). */
  const caughtUp = (what: string) =>
    until(what, () => {
      const rows = ours();
      return rows.length > 0 && rows.every((r) => api.model!.find(r.id)) && rows;
    });
  const idOf = async (text: string) => (await until(text, () => ours().find((c) => c.label === text)))!.id;
  const apply = async (to: string, paths?: string[]) => {
    const r = await api.service!.apply(to, paths ? { paths } : {});
    assert.equal(r.status, 'done', `rewind to ${to}`);
    await caughtUp('the rewind recorded');
  };

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    if (!fs.existsSync(path.join(api.storeDir!, 'files.jsonl'))) new HookSession(api.storeDir!, ws).start();
    before = new Set(cli<CliRow[]>('checkpoints').map((c) => c.id));
    const s1 = new HookSession(api.storeDir!, ws);
    sessions.push(s1.session);
    s1.start();
    s1.prompt('One model: write the notes');
    s1.write('one-model/a.txt', 'a1\n');
    s1.tool('Bash', { command: 'git push origin main' }); // a checkpoint before it
    s1.write('one-model/b.txt', 'b1\n');
    s1.hook({ hook_event_name: 'SessionStart', source: 'resume' });
    s1.prompt('One model: add c');
    s1.write('one-model/c.txt', 'c1\n');
    const addC = await idOf('One model: add c');
    await caughtUp('the first session');
    await apply(addC); // a rewind
    await apply(api.model!.lastRewind()!.checkpoint.id); // its undo
    await apply(addC); // the rewind again, then new work: a second attempt
    const s2 = new HookSession(api.storeDir!, ws);
    sessions.push(s2.session);
    s2.start();
    s2.prompt('One model: c differently');
    s2.write('one-model/c.txt', 'c2\n');
    s2.write('one-model/d.txt', 'd2\n');
    await idOf('One model: c differently');
    const first = await until('the first attempt left', () =>
      cli<CliAttempt[]>('attempts').find((a) => a.end && a.prompts.some((p) => p.label === 'One model: add c')),
    );
    await caughtUp('the second attempt');
    await apply(first.end!, [file('c.txt')]); // a take
    await apply(first.end!); // a switch back to the first attempt
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(path.join(ws, 'one-model'), { recursive: true, force: true });
  });

  test('every Files view row says what `checkpoints --json` says: label, count, tooltip count', async () => {
    const rows = await caughtUp('every checkpoint');
    const kinds = new Set(rows.map((r) => r.kind));
    assert.deepEqual([...kinds].sort(), ['before-tool', 'prompt', 'rewind', 'session-start'], 'the script made every kind');
    assert.ok(
      rows.some((r) => /^Before taking files from Attempt \d+$/.test(r.label)),
      rows.map((r) => r.label).join(' | '),
    );
    assert.ok(
      rows.some((r) => /^Before switching to Attempt \d+$/.test(r.label)),
      rows.map((r) => r.label).join(' | '),
    );
    // A row whose workspace state is its neighbour's folds into that row (core/timeline/folding.ts): named in its
    // tooltip, still a rewind target; every other row is a row of its own.
    const rowOf = (id: string) => api.files!.checkpointElement(id)!;
    const hostOf = (id: string) => {
      const el = rowOf(id);
      return el.kind === 'checkpoint' ? el.node : undefined;
    };
    const folded = rows.filter((r) => hostOf(r.id)?.checkpoint.id !== r.id);
    assert.ok(
      folded.every((r) => hostOf(r.id)?.folded.some((f) => f.checkpoint.id === r.id)),
      folded.map((r) => r.label).join(' | '),
    );
    // The CLI tells the same story: `foldedInto` names the row each folded checkpoint is shown on, and only those.
    assert.ok(folded.length > 0, 'the script made a row that folds');
    assert.deepEqual(
      rows.map((r) => [r.id, r.foldedInto ?? null]),
      rows.map((r) => [r.id, folded.includes(r) ? hostOf(r.id)!.checkpoint.id : null]),
      'foldedInto is the row the Files view shows each checkpoint on',
    );
    for (const r of rows.filter((x) => !folded.includes(x))) {
      const item = api.files!.getTreeItem(rowOf(r.id));
      const row = { ...r, time: Date.parse(r.time) };
      // The count leads the label (it survives the default sidebar width), then the row's title; a rewind's row leads
      // with its title (its action) and says its count first in its description.
      const expected =
        r.kind === 'rewind' ? treeLabel(r.label) : treeLabel(`${rewindCountWords(r.toRewind)} · ${treeLabel(rowTitle(row))}`);
      assert.equal(label(item), expected, `label of ${r.id}`);
      // A rewind's row says its count first in its description; every other row says its time first.
      assert.equal(
        String(item.description).startsWith(`${rewindCountWords(r.toRewind)} · `),
        r.kind === 'rewind',
        `description of ${r.label}: ${String(item.description)}`,
      );
      const count = r.toRewind === 0 ? /changes nothing/ : new RegExp(`\\b${r.toRewind} files? will change`);
      assert.match(tipOf(item), count, `tooltip of ${r.label}`);
      assert.match(
        tipOf(item),
        new RegExp(clockTime(row.time).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
        `time in the tooltip of ${r.label}`,
      );
    }
  });

  test('every attempt row says what `attempts --json` says', () => {
    api.model!.reload();
    const attempts = cli<CliAttempt[]>('attempts').filter((a) => !a.current);
    assert.ok(attempts.length >= 1);
    const shown = new Map(
      api
        .files!.getChildren()
        .filter((e): e is Extract<FilesElement, { kind: 'attempt' }> => e.kind === 'attempt')
        .map((e) => [e.attempt.n, api.files!.getTreeItem(e)]),
    );
    for (const a of attempts) {
      const item = shown.get(a.n);
      assert.ok(item, `attempt ${a.n} has a row`);
      assert.equal(label(item), `Attempt ${a.n}`);
      const row = { prompts: a.prompts.length, files: a.files.length, left: a.left ? Date.parse(a.left) : null };
      assert.equal(
        String(item.description),
        attemptDescription({ ...row, n: a.n, current: a.current, sessions: 0, agents: [], firstPrompt: null }, (t) => clockTime(t)),
      );
    }
  });

  test('the status bar counts the prompts `status --json` counts', () => {
    api.status!.update();
    const status = cli<{ counts: { prompts: number; sessions: number } }>('status');
    assert.ok(api.status!.shown.text.endsWith(promptWords(status.counts.prompts)), api.status!.shown.text);
  });

  test('the Conversation view lists, for each session, the prompts `checkpoints --json` has of it', async () => {
    const rows = ours();
    for (const s of sessions) {
      const expected = rows.filter((r) => r.session === s && r.kind === 'prompt').map((r) => r.label);
      const el = await until(`session ${s} in the Conversation view`, () =>
        api
          .conversation!.getChildren()
          .find((e) => e.kind === 'session' && e.session.id === s && e.session.prompts.length === expected.length),
      );
      const prompts = api
        .conversation!.getChildren(el)
        .filter((e): e is Extract<ConvElement, { kind: 'prompt' }> => e.kind === 'prompt')
        .map((e) => label(api.conversation!.getTreeItem(e)));
      assert.deepEqual([...prompts].sort(), [...expected].sort());
      assert.match(tipOf(api.conversation!.getTreeItem(el)), new RegExp(`\\b${promptWords(expected.length)}\\b`));
    }
  });

  test('the preview’s header and file count are the row’s, for every checkpoint', async () => {
    for (const r of ours()) {
      await vscode.commands.executeCommand('agentRewind.previewRewind', r.id);
      const m = (await api.preview!.settled())!;
      assert.deepEqual(
        { id: m.target.id, label: m.target.label, kind: m.target.kind, time: Date.parse(m.target.time), files: m.files.length },
        { id: r.id, label: r.label, kind: r.kind, time: Date.parse(r.time), files: r.toRewind },
      );
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the preview follows the world: an unsaved edit reverted, "Stopped: unsaved changes" goes away by itself', async () => {
    const target = await idOf('One model: write the notes');
    await vscode.commands.executeCommand('agentRewind.previewRewind', target);
    const m = (await api.preview!.settled())!;
    assert.ok(
      m.files.some((f) => f.path === file('a.txt')),
      'a rewind there deletes a.txt',
    );
    const doc = await vscode.workspace.openTextDocument(file('a.txt'));
    const editor = await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), 'my unsaved note\n'));
    await api.preview!.handleMessage({ type: 'refresh' }); // as the refresh button does: the page says "Stopped"
    assert.deepEqual(
      (await api.preview!.settled())!.dirty.map((d) => d.path),
      [file('a.txt')],
    );
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await until('the revert', () => !doc.isDirty);
    // No refresh asked for: the page checks again by itself (the revert comes within the wait after the edit,
    // so it is compared with what the refresh showed, not with what the following saw last).
    await until('the preview to see no unsaved file', () => api.preview!.current()?.dirty.length === 0);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
