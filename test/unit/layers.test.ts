// The layering of src/ (README, Layout) is kept by the compiler (project references: a file may import only
// its own project and the ones it references; `vscode` resolves only in src/extension) and by the
// linter (no-restricted-imports per folder). These tests break a rule on purpose and expect the
// build and the lint to fail — in a copy of the project's tsconfig files, never in the real tree.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { ESLint } from 'eslint';

const root = path.resolve(__dirname, '..', '..');
const LAYERS = ['core', 'recording', 'agents', 'resident', 'cli', 'shared', 'webview', 'extension'];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-layers-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A copy of the project's tsconfig files with one small file per layer, plus `probe` written into `layer`. */
function build(layer: string, probe: string): { status: number | null; out: string } {
  const dir = fs.mkdtempSync(path.join(tmp, 'p-'));
  fs.copyFileSync(path.join(root, 'tsconfig.base.json'), path.join(dir, 'tsconfig.base.json'));
  fs.copyFileSync(path.join(root, 'src', 'vscode-is-imported-only-under-src-extension.ts'), path.join(dir, 'src-guard.ts'));
  fs.mkdirSync(path.join(dir, 'src'));
  fs.renameSync(path.join(dir, 'src-guard.ts'), path.join(dir, 'src', 'vscode-is-imported-only-under-src-extension.ts'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  for (const l of LAYERS) {
    fs.mkdirSync(path.join(dir, 'src', l));
    fs.copyFileSync(path.join(root, 'src', l, 'tsconfig.json'), path.join(dir, 'src', l, 'tsconfig.json'));
    fs.writeFileSync(path.join(dir, 'src', l, 'ok.ts'), `export const ${l} = 1;\n`);
  }
  fs.writeFileSync(path.join(dir, 'src', layer, 'probe.ts'), probe);
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ files: [], references: LAYERS.map((l) => ({ path: `./src/${l}` })) }));
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b'], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { status: r.status, out: r.stdout + r.stderr };
}

const eslint = new ESLint({ cwd: root });
/** Lint errors for `text` as if it were the file `file` of the project. */
async function lint(file: string, text: string): Promise<number> {
  const [r] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return r!.errorCount;
}

test('the copy builds when every layer keeps to its imports (the control case)', () => {
  const r = build(
    'extension',
    "import * as vscode from 'vscode';\nimport { core } from '../core/ok';\nexport const v = [vscode.version, core];\n",
  );
  assert.equal(r.status, 0, r.out);
});

test('a vscode import in core fails the build, naming the rule', () => {
  const r = build('core', "import * as vscode from 'vscode';\nexport const v = vscode;\n");
  assert.notEqual(r.status, 0);
  assert.match(r.out, /vscode-is-imported-only-under-src-extension/);
});

test('core importing extension code, or recording importing an agent adapter, fails the build', () => {
  const up = build('core', "import { extension } from '../extension/ok';\nexport const v = extension;\n");
  assert.notEqual(up.status, 0);
  assert.match(up.out, /TS6307/);
  const side = build('recording', "import { agents } from '../agents/ok';\nexport const v = agents;\n");
  assert.notEqual(side.status, 0);
  assert.match(side.out, /TS6307/);
});

test('the webview gets no node modules and the core no DOM', () => {
  assert.notEqual(build('webview', "import * as fs from 'node:fs';\nexport const v = fs;\n").status, 0);
  assert.notEqual(build('core', 'export const v = document.body;\n').status, 0);
});

test('the linter refuses the same imports, per folder', async () => {
  assert.ok((await lint('src/core/probe.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n")) > 0);
  assert.ok((await lint('src/core/probe.ts', "import { x } from '../recording/recorder';\nexport const v = x;\n")) > 0);
  assert.ok((await lint('src/agents/claude/probe.ts', "import { x } from '../../cli/main';\nexport const v = x;\n")) > 0);
  assert.ok((await lint('src/webview/probe.ts', "import * as fs from 'node:fs';\nexport const v = fs;\n")) > 0);
  assert.equal(await lint('src/extension/probe.ts', "import * as vscode from 'vscode';\nexport const v = vscode;\n"), 0);
});

test('the resident recorder sits between the recording and the CLI: it names no agent, imports no CLI, and only the CLI imports it', async () => {
  const importing = (from: string) => `import * as m from '${from}';\nexport const v = m;\n`;
  const up = build('resident', "import { cli } from '../cli/ok';\nexport const v = cli;\n");
  assert.notEqual(up.status, 0);
  assert.match(up.out, /TS6307/);
  assert.notEqual(build('resident', "import { agents } from '../agents/ok';\nexport const v = agents;\n").status, 0);
  assert.equal(build('cli', "import { resident } from '../resident/ok';\nexport const v = resident;\n").status, 0, 'the CLI may use it');
  assert.ok((await lint('src/resident/probe.ts', importing('../cli/hook'))) > 0, 'the resident does not import the hook');
  assert.ok((await lint('src/resident/probe.ts', importing('../agents/detect'))) > 0, 'the resident is handed its parser');
  assert.ok((await lint('src/recording/probe.ts', importing('../resident/watcher'))) > 0, 'the recording stands below it');
  assert.ok((await lint('src/extension/views/probe.ts', importing('../../resident/residentWire'))) > 0, 'the extension reads the store');
  assert.equal(await lint('src/cli/probe.ts', importing('../resident/forward')), 0);
  assert.equal(await lint('src/resident/probe.ts', importing('../recording/payload')), 0);
});

test("the core's subsystems stack: a lower one importing a higher one fails the lint, the other way round passes", async () => {
  const importing = (from: string) => `import * as m from '${from}';\nexport const v = m;\n`;
  assert.ok((await lint('src/core/storeFiles/probe.ts', importing('../timeline/timeline'))) > 0, 'the store files read no timeline');
  assert.ok((await lint('src/core/timeline/probe.ts', importing('../store'))) > 0, 'the timeline does not open the store');
  assert.ok((await lint('src/core/store.ts', importing('./rewind/plan'))) > 0, 'the store facade does not plan');
  assert.ok((await lint('src/core/rewind/probe.ts', importing('../upkeep/gc'))) > 0, 'a rewind does not collect garbage');
  assert.ok((await lint('src/core/shell/probe.ts', importing('../storeFiles/records'))) > 0, 'shell parsing stands below the store');
  assert.equal(await lint('src/core/upkeep/probe.ts', importing('../rewind/journal')), 0);
  assert.equal(await lint('src/core/rewind/probe.ts', importing('../timeline/changeSet')), 0);
  assert.equal(await lint('src/core/timeline/probe.ts', importing('../storeFiles/records')), 0);
  assert.ok((await lint('src/core/upkeep/probe.ts', importing('../../recording/recorder'))) > 0, 'the outer layers stay fenced');
});

test("the extension's feature folders stack the same way, and the composition root may use them all", async () => {
  const importing = (from: string) => `import * as m from '${from}';\nexport const v = m;\n`;
  assert.ok((await lint('src/extension/views/probe.ts', importing('../rewind/rewindService'))) > 0, 'a view does not rewind');
  assert.ok((await lint('src/extension/model/probe.ts', importing('../views/filesView'))) > 0, 'the model draws no view');
  assert.ok((await lint('src/extension/offHost/probe.ts', importing('../model/timelineModel'))) > 0, 'the worker knows no model');
  assert.ok((await lint('src/extension/rewind/probe.ts', importing('../preview/previewPanel'))) > 0, 'a rewind opens no preview');
  assert.ok((await lint('src/extension/settings.ts', importing('./views/filesView'))) > 0, 'the settings stand below the features');
  assert.equal(await lint('src/extension/preview/probe.ts', importing('../rewind/rewindReporter')), 0);
  assert.equal(
    await lint('src/extension/model/probe.ts', importing('../../core/rewind/safety')),
    0,
    "the core's rewind/ is not the extension's",
  );
  assert.equal(await lint('src/extension/probe.ts', importing('./commands/commands')), 0);
});

test('what a notification, quick pick or progress says goes through vscode.l10n.t, or the lint fails', async () => {
  const head = "import * as vscode from 'vscode';\n";
  const bad = [
    "export const v = vscode.window.showInformationMessage('Rewound.');\n",
    'export const v = (n: number) => vscode.window.showWarningMessage(`Busy (${n})`);\n',
    "export const v = vscode.window.showQuickPick(['a'], { placeHolder: 'Which file?' });\n",
    "export const v = vscode.window.withProgress({ location: 15, title: 'Planning…' }, async () => 1);\n",
  ];
  for (const text of bad) assert.ok((await lint('src/extension/views/probe.ts', head + text)) > 0, text);
  const good = "export const v = vscode.window.showInformationMessage(vscode.l10n.t('Rewound {0} files.', 3), vscode.l10n.t('Undo'));\n";
  assert.equal(await lint('src/extension/views/probe.ts', head + good), 0);
});

/** The localization rule's errors alone (a probe's unused declarations are another rule's business). */
async function unlocalized(file: string, text: string): Promise<number> {
  const [r] = await eslint.lintText(text, { filePath: path.join(root, file) });
  return r!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').length;
}

test('tree items, the status bar, tooltips, buttons, modals and what the preview is sent go through vscode.l10n.t, or the lint fails', async () => {
  const head =
    "import * as vscode from 'vscode';\ndeclare const item: vscode.TreeItem;\ndeclare const bar: vscode.StatusBarItem;\ndeclare const n: number;\n";
  const bad = [
    "item.label = 'Load more';\n",
    'item.description = `${n} not shown`;\n',
    "item.tooltip = 'Session start';\n",
    "export const v = new vscode.TreeItem('Attempt 1');\n",
    'export const v = new vscode.TreeItem(`Attempt ${n}`);\n',
    "bar.text = '$(history) prompts';\n",
    "bar.tooltip = new vscode.MarkdownString('**Agent Rewind** — Recording');\n",
    "bar.name = 'Agent Rewind';\n",
    "export const v = new vscode.MarkdownString().appendMarkdown('\\n\\nResident recorder: not running');\n",
    "export const v = vscode.window.showWarningMessage(vscode.l10n.t('Take {0}?', n), 'Take');\n",
    "export const v = vscode.window.showWarningMessage(vscode.l10n.t('Take?'), { modal: true, detail: 'Only this file changes.' });\n",
    "item.command = { command: 'agentRewind.loadMore', title: 'Load More' };\n",
    "export const v = (w: vscode.Webview) => w.postMessage({ type: 'error', message: 'Planning was cancelled.' });\n",
    "export const v = vscode.window.createWebviewPanel('agentRewind.preview', 'Rewind Preview', 1);\n",
    // A message the exporter cannot read: not a literal.
    'export const v = (s: string) => vscode.l10n.t(s);\n',
  ];
  for (const text of bad) assert.ok((await unlocalized('src/extension/views/probe.ts', head + text)) > 0, text);
  const good = [
    "item.label = vscode.l10n.t('Load {0} more', n);\n",
    "item.description = `${vscode.l10n.t('{0} not shown', n)} · ${n}`;\n",
    "bar.text = `$(${n ? 'sync~spin' : 'history'}) ${n}`;\n",
    "export const v = new vscode.MarkdownString().appendMarkdown('\\n\\n$(warning) ');\n",
    "item.id = 'more:files'; item.contextValue = 'agentRewind.loadMore';\n",
    "export const v = vscode.window.createWebviewPanel('agentRewind.preview', vscode.l10n.t('Rewind Preview'), 1);\n",
  ];
  for (const text of good) assert.equal(await unlocalized('src/extension/views/probe.ts', head + text), 0, text);
});

test("the preview page's words go through l10n.t (its bundle comes from the extension), or the lint fails", async () => {
  const head =
    "import { h } from './dom';\nimport { l10n } from './l10n';\nimport { button, iconButton, note } from './widgets';\ndeclare const n: number;\ndeclare const el: HTMLElement;\nconst f = () => undefined;\n";
  const bad = [
    "export const v = h('p', { class: 'intro' }, 'Nothing to rewind');\n",
    "export const v = h('span', { class: 'row-tag' }, 'unsaved');\n",
    "export const v = h('p', null, `${n} files will change`);\n",
    "export const v = button('Rewind', { key: 'rewind', onClick: f });\n",
    "export const v = iconButton('refresh', 'Refresh the preview', 'refresh', f);\n",
    "export const v = note('pass', 'quiet', 'no commands were recorded');\n",
    "el.textContent = 'Working…';\n",
    "export const v = h('span', { class: 'counts', title: 'Approximate line counts' });\n",
    "export const v = h('span', { class: 'ins', 'aria-label': `${n} added` });\n",
    "export const v = { word: 'Restore' };\n",
    'export const v = (s: string) => l10n.t(`Rewind ${s}`);\n',
  ];
  for (const text of bad) assert.ok((await unlocalized('src/webview/probe.ts', head + text)) > 0, text);
  const good = [
    "export const v = h('p', { class: 'intro warning', id: 'h-files' }, l10n.t('Nothing to rewind'));\n",
    "export const v = iconButton('refresh', l10n.t('Refresh the preview'), 'refresh', f);\n",
    "export const v = note('pass', 'quiet', l10n.t('Nothing outside your files needs undoing.'));\n",
    "export const v = h('span', { class: 'ins', 'aria-label': l10n.t('{0} added', n) }, `+${n}`);\n",
    "document.addEventListener('keydown', (e) => { if (e.key === 'Escape') f(); });\n",
  ];
  for (const text of good) assert.equal(await unlocalized('src/webview/probe.ts', head + text), 0, text);
});

test('a source file over 600 lines fails the lint (a subsystem that outgrows it becomes a folder)', async () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';
  assert.equal(await lint('src/core/probe.ts', body(600)), 0);
  assert.ok((await lint('src/core/probe.ts', body(601))) > 0);
  assert.ok((await lint('src/extension/probe.ts', body(601))) > 0);
});

test('the extension host never waits on a child process: sync child_process calls, sync git and makePlan fail the lint', async () => {
  const bad = [
    "import { execFileSync } from 'node:child_process';\nexport const v = execFileSync;\n",
    "import * as cp from 'node:child_process';\nexport const v = cp.spawnSync('git', ['status']);\n",
    "export const v = require('node:child_process').execSync('git status');\n",
    "import { git } from '../core/git/run';\nexport const v = git;\n",
    "import { uncommittedPaths } from '../core/git/status';\nexport const v = uncommittedPaths;\n",
    "import { makePlan } from '../core/rewind/plan';\nexport const v = makePlan;\n",
  ];
  for (const text of bad) assert.ok((await lint('src/extension/probe.ts', text)) > 0, text);
  // The control cases: git without blocking, and the one planner.
  assert.equal(await lint('src/extension/probe.ts', "import { gitAsync } from '../core/git/run';\nexport const v = gitAsync;\n"), 0);
  assert.equal(
    await lint('src/extension/rewind/rewindService.ts', "import { makePlan } from '../../core/rewind/plan';\nexport const v = makePlan;\n"),
    0,
  );
  assert.ok(
    (await lint('src/extension/rewind/rewindService.ts', "import { git } from '../../core/git/run';\nexport const v = git;\n")) > 0,
  );
});

test("the views' line counts and transcripts are made off the host: only offHost/ may count or parse (the worker, and its fallbacks)", async () => {
  const counting = "import { lineStats } from '../core/timeline/lineStats';\nexport const v = lineStats;\n";
  const parsing = "import { followAnyTimeline } from '../agents/capabilities';\nexport const v = followAnyTimeline;\n";
  assert.ok((await lint('src/extension/probe.ts', counting)) > 0, 'a view counting lines on the host');
  assert.ok((await lint('src/extension/probe.ts', parsing)) > 0, 'a view parsing a transcript on the host');
  assert.ok(
    (await lint('src/extension/probe.ts', "import type { LineStats } from '../core/timeline/lineStats';\nexport type V = LineStats;\n")) ===
      0,
  );
  assert.equal(await lint('src/extension/offHost/probe.ts', counting.replaceAll('../', '../../')), 0);
  assert.equal(await lint('src/extension/offHost/probe.ts', parsing.replaceAll('../', '../../')), 0);
  assert.ok(
    (await lint('src/extension/offHost/probe.ts', "import { makePlan } from '../../core/rewind/plan';\nexport const v = makePlan;\n")) > 0,
  );
});
