// Keep both, in the real VS Code: the preview's chosen files and hunks are what the rewind writes
// (the page's rewind message, through the same core options as the CLI's --path/--hunks), Keep mine
// from the preview and from the refusal's "Keep Mine" button writes the merge (the user's lines byte
// for byte, the agent's reverted), and a file whose changes conflict is not written at all.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import { HookSession } from './hookSession';
import { EXTENSION_ID } from './paths';
import { until } from './until';

const lines = (n: number, p = 'line') => Array.from({ length: n }, (_, i) => `${p} ${i + 1}\n`);
const replace = (all: string[], at: number, v: string) => all.map((l, i) => (i === at ? v : l));

suite('Keep both: chosen files and hunks, keep mine', function () {
  this.timeout(120000);
  let api: AgentRewindApi;
  let ws: string;
  const file = (rel: string) => path.join(ws, 'keep-both', rel);
  const read = (rel: string) => fs.readFileSync(file(rel));

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    fs.mkdirSync(path.join(ws, 'keep-both'), { recursive: true });
  });

  const checkpointOf = async (session: HookSession, label: string) =>
    (
      await until(`the checkpoint "${label}"`, () =>
        api.model!.checkpoints.find((n) => n.checkpoint.session === session.session && n.checkpoint.label === label),
      )
    ).checkpoint.id;

  async function preview(target: string) {
    await vscode.commands.executeCommand('agentRewind.previewRewind', target);
    await until('the preview model', () => api.preview!.isOpen && api.preview!.current()?.target.id === target);
    return (await api.preview!.settled())!;
  }

  /** The refusal's buttons are offered as a warning: answered here by `pick` (recorded), the real one put back after. */
  async function answering<T>(pick: string | undefined, run: () => Promise<T>): Promise<{ result: T; offered: string[][] }> {
    const real = vscode.window.showWarningMessage;
    const offered: string[][] = [];
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = (_m: string, ...rest: unknown[]) => {
      const items = rest.filter((r): r is string => typeof r === 'string');
      offered.push(items);
      return Promise.resolve(pick && items.includes(pick) ? pick : undefined);
    };
    try {
      return { result: await run(), offered };
    } finally {
      (vscode.window as { showWarningMessage: unknown }).showWarningMessage = real;
    }
  }

  /** An agent that wrote `rel` (50 lines) in one prompt, then changed lines 3 and 40 in the next. */
  async function agentTwoHunks(rel: string) {
    const s = new HookSession(api.storeDir!, ws);
    const base = lines(50);
    const agent = replace(replace(base, 2, 'agent 3\n'), 39, 'agent 40\n');
    s.start();
    s.prompt(`write ${rel}`);
    s.write(path.join('keep-both', rel), base.join(''));
    s.prompt(`change ${rel}`);
    s.tool('Edit', { file_path: file(rel), old_string: 'line 3\n', new_string: 'agent 3\n' }, () =>
      fs.writeFileSync(file(rel), agent.join('')),
    );
    return { s, base, agent, point: await checkpointOf(s, `change ${rel}`) };
  }

  test('the chosen hunk of a file and no other file: the disk holds exactly those lines', async () => {
    const { s, agent, point } = await agentTwoHunks('two-hunks.txt');
    // The same prompt also changed another file, left unticked on the page.
    s.tool('Write', { file_path: file('other.txt'), content: 'agent other\n' }, () => fs.writeFileSync(file('other.txt'), 'agent other\n'));
    const m = await preview(point);
    const two = m.files.find((f) => f.rel.endsWith('two-hunks.txt'))!;
    assert.deepEqual(
      two.hunks?.map((h) => [h.from, h.minusLines, h.plusLines]),
      [
        [[3, 1], ['agent 3'], ['line 3']],
        [[40, 1], ['agent 40'], ['line 40']],
      ],
      'each hunk with its lines, as the page shows them',
    );
    assert.ok(m.files.some((f) => f.rel.endsWith('other.txt')));
    await api.preview!.handleMessage({
      type: 'rewind',
      scope: 'files',
      compensations: [],
      force: false,
      files: [{ path: two.path, hunks: [two.hunks![1]!.id] }],
    });
    await until('the chosen hunk written', () => read('two-hunks.txt').equals(Buffer.from(replace(agent, 39, 'line 40\n').join(''))));
    assert.equal(read('other.txt').toString(), 'agent other\n', 'the unticked file is left as it is');
    // One rewind, undoable as any: its checkpoint is partial (a take), and undoing it puts the agent's lines back.
    const last = await until(
      'the rewind checkpoint',
      () => api.model!.lastRewind()?.checkpoint.target === point && api.model!.lastRewind(),
    );
    assert.equal(last.checkpoint.partial, true);
    assert.equal((await api.service!.apply(last.checkpoint.id)).status, 'done');
    assert.equal(read('two-hunks.txt').toString(), agent.join(''));
  });

  test('Keep mine from the preview, and from the refusal’s Keep Mine button: the merge, the user’s lines byte for byte', async () => {
    const { agent, base, point } = await agentTwoHunks('mine.txt');
    // The user edits lines 10–11 afterwards with CRLF line ends, and leaves the last line without its newline.
    const own = (all: string[]) => [...all.slice(0, 9), 'my ten\r\n', 'my eleven\r\n', ...all.slice(11, 49), 'line 50'];
    const mine = own(agent).join('');
    fs.writeFileSync(file('mine.txt'), mine);
    const merged = own(base).join('');
    const m = await preview(point);
    const blocked = m.blocked.find((b) => b.rel.endsWith('mine.txt'));
    assert.equal(blocked?.merge, 'clean');
    const f = m.files.find((x) => x.rel.endsWith('mine.txt'))!;
    assert.deepEqual(
      f.hunks?.map((h) => [h.from[0], h.touchesMine === true]),
      [
        [3, false],
        [10, true],
        [40, false],
        [50, true],
      ],
      'the hunks that would take back the user’s lines say so; the agent’s do not',
    );

    // Rewind without a way out: refused, and the warning offers Keep Mine. Picking it writes the merge.
    const { offered } = await answering('Keep Mine', () =>
      api.preview!.handleMessage({ type: 'rewind', scope: 'files', compensations: [], force: false }),
    );
    assert.ok(
      offered.some((o) => o.includes('Keep Mine')),
      JSON.stringify(offered),
    );
    await until('the merge written', () => read('mine.txt').equals(Buffer.from(merged)));
    const done = await until('the rewind', () => api.model!.lastRewind()?.checkpoint.target === point && api.model!.lastRewind());
    assert.equal((await api.service!.apply(done.checkpoint.id)).status, 'done', 'undo');
    assert.equal(read('mine.txt').toString(), mine, 'undo restores the exact bytes before');

    // From the preview itself: Keep mine ticked is the page's keepMine.
    await preview(point);
    await api.preview!.handleMessage({ type: 'rewind', scope: 'files', compensations: [], force: false, keepMine: true });
    await until('the merge written again', () => read('mine.txt').equals(Buffer.from(merged)));
  });

  test('Take Files from an attempt offers the same choice: its preview lists the hunks, and the chosen one is taken', async () => {
    const first = new HookSession(api.storeDir!, ws);
    first.start();
    first.prompt('kb attempt one');
    first.write(path.join('keep-both', 'att.txt'), replace(replace(lines(10), 1, 'one 2\n'), 7, 'one 8\n').join(''));
    const point = await checkpointOf(first, 'kb attempt one');
    await until('its file', () => api.model!.turnFiles(point).length === 1);
    assert.equal((await api.service!.apply(point)).status, 'done');
    const second = new HookSession(api.storeDir!, ws);
    second.start();
    second.prompt('kb attempt two');
    second.write(path.join('keep-both', 'att.txt'), lines(10).join(''));
    const attempt = await until('the first attempt, left', () => {
      api.model!.reload();
      return api.model!.attempts.attempts.find((a) => a.end && a.prompts.some((p) => p.label === 'kb attempt one'));
    });
    const real = { pick: vscode.window.showQuickPick, warn: vscode.window.showWarningMessage };
    const w = vscode.window as unknown as Record<string, unknown>;
    const offered: string[][] = [];
    w.showQuickPick = async (items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>) =>
      (await items).filter((i) => i.label.endsWith('att.txt'));
    w.showWarningMessage = (_m: string, ...rest: unknown[]) => {
      offered.push(rest.filter((r): r is string => typeof r === 'string'));
      return Promise.resolve('Choose Files and Lines…');
    };
    try {
      await vscode.commands.executeCommand('agentRewind.takeFromAttempt', { kind: 'attempt', attempt });
    } finally {
      w.showQuickPick = real.pick;
      w.showWarningMessage = real.warn;
    }
    assert.deepEqual(offered, [['Take', 'Choose Files and Lines…']]);
    await until('the preview of the take', () => api.preview!.isOpen && api.preview!.current()?.target.id === attempt.end!.id);
    const m = (await api.preview!.settled())!;
    assert.deepEqual(
      m.files.map((f) => [path.basename(f.path), f.hunks?.map((h) => h.from[0])]),
      [['att.txt', [2, 8]]],
    );
    const f = m.files[0]!;
    await api.preview!.handleMessage({
      type: 'rewind',
      scope: 'files',
      compensations: [],
      force: false,
      files: [{ path: f.path, hunks: [f.hunks![1]!.id] }],
    });
    await until('the chosen line taken', () => read('att.txt').toString() === replace(lines(10), 7, 'one 8\n').join(''));
  });

  test('a file where the user’s and the agent’s changes touch the same lines is not written, with Keep mine or its button', async () => {
    const { agent, point } = await agentTwoHunks('clash.txt');
    const mine = replace(agent, 39, 'my 40\n').join('');
    fs.writeFileSync(file('clash.txt'), mine);
    const m = await preview(point);
    assert.equal(m.blocked.find((b) => b.rel.endsWith('clash.txt'))?.merge, 'conflict');
    const { offered } = await answering('Keep Mine', () =>
      api.preview!.handleMessage({ type: 'rewind', scope: 'files', compensations: [], force: false, keepMine: true }),
    );
    assert.equal(offered.length, 1, 'refused: the warning says so');
    assert.equal(offered[0]!.includes('Keep Mine'), false, 'no Keep Mine again once chosen');
    assert.equal(read('clash.txt').toString(), mine, 'nothing written');
    await api.preview!.handleMessage({ type: 'cancel' });
  });

  /** Two files of one prompt: `rel` (a conflict: the user and the agent both changed line 40) and `rel`-other.txt (clean). */
  async function conflictAndOther(rel: string) {
    const { s, base, agent, point } = await agentTwoHunks(rel);
    const other = rel.replace('.txt', '-other.txt');
    s.tool('Write', { file_path: file(other), content: 'agent other\n' }, () => fs.writeFileSync(file(other), 'agent other\n'));
    const mine = replace(agent, 39, 'my 40\n').join('');
    fs.writeFileSync(file(rel), mine);
    return { base, agent, point, other, mine };
  }

  test('a conflicting file: the preview shows each side of the plan’s exact ranges; Leave It Out rewinds the rest and leaves it byte for byte', async () => {
    const { base, point, other, mine } = await conflictAndOther('side.txt');
    const m = await preview(point);
    const b = m.blocked.find((x) => x.rel.endsWith('side.txt'))!;
    assert.equal(b.merge, 'conflict');
    // The ranges are the plan's own (what `plan --json` names), each with its lines: yours, the point's, the agent's.
    const plan = await api.service!.plan(point);
    const verdict = plan.merges.get(b.path);
    assert.equal(verdict?.merge, 'conflict');
    assert.deepEqual(
      b.conflicts?.map((c) => c.from),
      verdict.merge === 'conflict' && verdict.conflicts.map((c) => c.from),
    );
    assert.deepEqual(b.conflicts, [
      { from: [40, 1], target: [40, 1], base: [40, 1], lines: { mine: ['my 40'], target: ['line 40'], base: ['agent 40'] }, more: 0 },
    ]);
    assert.equal(base[39], 'line 40\n');
    assert.ok(m.stamp, 'the model names its plan');
    // Leave it out: the page unticks it; with Keep mine the other file is rewound, this one is not touched.
    const rest = m.files.filter((f) => f.path !== b.path).map((f) => ({ path: f.path }));
    assert.deepEqual(
      rest.map((f) => path.basename(f.path)),
      [other],
    );
    const before = read('side.txt');
    await api.preview!.handleMessage({
      type: 'rewind',
      scope: 'files',
      compensations: [],
      force: false,
      keepMine: true,
      files: rest,
      stamp: m.stamp!,
    });
    await until('the other file rewound', () => !fs.existsSync(file(other)));
    assert.ok(read('side.txt').equals(before), 'the conflicting file is left byte for byte');
    assert.equal(before.toString(), mine);
    const last = await until('the rewind', () => api.model!.lastRewind()?.checkpoint.target === point && api.model!.lastRewind());
    assert.equal(last.checkpoint.partial, true);
  });

  test('Open in Diff Editor: the rewind point (read-only, from the store) on the left, the file on disk on the right', async () => {
    const { point } = await conflictAndOther('diffed.txt');
    const m = await preview(point);
    const b = m.blocked.find((x) => x.rel.endsWith('diffed.txt'))!;
    await api.preview!.handleMessage({ type: 'openConflict', path: b.path });
    const tab = await until('the diff tab', () => {
      const t = vscode.window.tabGroups.activeTabGroup.activeTab;
      return t?.input instanceof vscode.TabInputTextDiff && t.input.modified.fsPath === b.path ? t : undefined;
    });
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal(input.modified.scheme, 'file');
    assert.equal(input.original.scheme, 'agent-rewind-snapshot');
    assert.equal(tab.label, 'diffed.txt (at the rewind point ↔ yours on disk)');
    // The left side is the file at the rewind point, byte for byte as the rewind would write it; the right side is the disk.
    const plan = await api.service!.plan(point);
    assert.equal(new URLSearchParams(input.original.query).get('h'), plan.changes.find((c) => c.path === b.path)!.to.hash);
    const left = await vscode.workspace.openTextDocument(input.original);
    assert.equal(left.getText(), lines(50).join(''));
    const right = await vscode.workspace.openTextDocument(input.modified);
    assert.equal(right.getText(), read('diffed.txt').toString());
    // The user resolves it: line 40 as at the rewind point (the same change as the rewind's). The preview plans again by itself.
    const stamp = api.preview!.current()!.stamp;
    fs.writeFileSync(file('diffed.txt'), read('diffed.txt').toString().replace('my 40\n', 'line 40\n'));
    const resolved = await until('the preview planned again', () => {
      const c = api.preview!.current();
      return c && c.stamp !== stamp ? c : undefined;
    });
    assert.equal(resolved.blocked.find((x) => x.path === b.path)?.merge, 'clean', 'Keep mine now merges it');
    assert.equal(resolved.blocked.find((x) => x.path === b.path)?.conflicts, undefined);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await api.preview!.handleMessage({ type: 'cancel' });
  });

  test('a file changed on disk between the preview and the click: nothing is written, the new plan says so, the next click rewinds', async () => {
    const { s, agent, point } = await agentTwoHunks('moved.txt');
    s.tool('Write', { file_path: file('moved-b.txt'), content: 'agent b\n' }, () => fs.writeFileSync(file('moved-b.txt'), 'agent b\n'));
    const m = await preview(point);
    assert.deepEqual(m.blocked, [], 'nothing stops it as shown');
    const rewinds = api.model!.checkpoints.filter((c) => c.checkpoint.kind === 'rewind').length;
    // The user saves moved-b.txt after the preview was made; the click (even with Rewind anyway) names the plan it saw.
    fs.writeFileSync(file('moved-b.txt'), 'mine b\n');
    await api.preview!.handleMessage({ type: 'rewind', scope: 'files', compensations: [], force: true, stamp: m.stamp! });
    const again = await until('the new plan, with what changed', () => {
      const c = api.preview!.current();
      return c?.notice && c.stamp !== m.stamp ? c : undefined;
    });
    assert.equal(
      again.notice,
      'moved-b.txt changed on disk after this preview was made — check the new plan. Nothing was written.'.replace(
        'moved-b.txt',
        path.join('keep-both', 'moved-b.txt'),
      ),
    );
    assert.equal(read('moved.txt').toString(), agent.join(''), 'nothing written');
    assert.equal(read('moved-b.txt').toString(), 'mine b\n', 'nothing written');
    assert.equal(api.model!.checkpoints.filter((c) => c.checkpoint.kind === 'rewind').length, rewinds, 'no rewind recorded');
    assert.deepEqual(
      again.blocked.map((b) => path.basename(b.path)),
      ['moved-b.txt'],
      'the new plan: the user’s file now stops it',
    );
    // The next click, on the new plan, rewinds (Rewind anyway: the user's content is kept in the store).
    await api.preview!.handleMessage({ type: 'rewind', scope: 'files', compensations: [], force: true, stamp: again.stamp! });
    await until('the rewind', () => !fs.existsSync(file('moved-b.txt')));
    assert.equal(read('moved.txt').toString(), lines(50).join(''));
  });
});
