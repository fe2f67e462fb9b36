// The extension loads and activates in a real VS Code, and what package.json contributes matches what the
// extension registers. Written against package.json, so every check tightens as contributions land.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentRewindApi } from '../../../src/extension/extension';
import { HookSession } from './hookSession';
import { EXTENSION_ID, repoRoot } from './paths';
import { until } from './until';

interface CommandContribution {
  command: string;
  title?: string | { value: string };
  category?: string | { value: string };
}
interface Manifest {
  name: string;
  publisher: string;
  main?: string;
  contributes?: {
    commands?: CommandContribution[];
    menus?: Record<string, { command?: string; submenu?: string }[]>;
    viewsContainers?: Record<string, { id: string; title: string }[]>;
    views?: Record<string, { id: string; name: string }[]>;
  };
}

const text = (v: string | { value: string } | undefined) => (typeof v === 'string' ? v : v?.value);

suite('Activation', () => {
  let ext: vscode.Extension<{ activationMs: number }>;
  let manifest: Manifest;
  let contributed: string[];

  let activeAtStart = false;

  suiteSetup(() => {
    const found = vscode.extensions.getExtension<{ activationMs: number }>(EXTENSION_ID);
    assert.ok(found, `extension ${EXTENSION_ID} is not loaded; loaded: ${vscode.extensions.all.map((e) => e.id).join(', ')}`);
    ext = found;
    activeAtStart = ext.isActive;
    manifest = ext.packageJSON as Manifest;
    contributed = (manifest.contributes?.commands ?? []).map((c) => c.command);
  });

  test('in a workspace with no agent config it stays inactive until one of its views is opened', async () => {
    // This file runs first (the suites load in name order), before any suite calls activate().
    const ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const configs = ['.claude', '.github/hooks', '.codex', '.gemini', '.cursor', '.clinerules'].filter((f) =>
      fs.existsSync(path.join(ws, f)),
    );
    assert.deepEqual(configs, [], 'the fixture workspace holds no agent config');
    assert.equal(activeAtStart, false, 'active at startup in a workspace with no agent config');
    await vscode.commands.executeCommand('agentRewind.files.focus');
    await until('the Files view to activate the extension', () => ext.isActive);
  });

  test('is present, loaded from this checkout, with the manifest on disk', () => {
    assert.equal(fs.realpathSync(ext.extensionPath), fs.realpathSync(repoRoot));
    // VS Code hands the manifest out with its %key% strings replaced from package.nls.json: do the same to the file.
    const nls = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const localized = (_key: string, v: unknown) => (typeof v === 'string' ? v.replace(/^%([^%]+)%$/, (m, k: string) => nls[k] ?? m) : v);
    const onDisk = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'), localized) as Manifest;
    assert.equal(`${manifest.publisher}.${manifest.name}`, EXTENSION_ID);
    assert.deepEqual(manifest.contributes ?? {}, onDisk.contributes ?? {});
    assert.ok(fs.existsSync(path.join(repoRoot, manifest.main ?? 'dist/extension.js')), 'main bundle exists');
  });

  test('activates without throwing', async function () {
    const api = await ext.activate();
    assert.equal(ext.isActive, true);
    // Reported in the test output (the extension host's console does not reach the launcher).
    this.test!.title += ` (activate() ran in ${api.activationMs.toFixed(1)} ms, on opening the Files view)`;
  });

  test('command registry is readable (so the checks below are not vacuous)', async () => {
    const all = await vscode.commands.getCommands(true);
    assert.ok(all.length > 100, `only ${all.length} commands registered`);
    assert.ok(all.includes('workbench.action.files.save'));
  });

  test('every command contributed in package.json is registered after activation', async function () {
    assert.ok(contributed.length > 0, 'package.json contributes commands');
    await ext.activate();
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  test('every registered agentRewind.* command is contributed in package.json', async () => {
    await ext.activate();
    // VS Code itself registers <viewId>.focus/.open/.resetViewLocation/.toggleVisibility/.removeView per view.
    const viewIds = Object.values(manifest.contributes?.views ?? {})
      .flat()
      .map((v) => v.id);
    const generated = new Set(
      viewIds.flatMap((v) => ['focus', 'open', 'resetViewLocation', 'toggleVisibility', 'removeView'].map((s) => `${v}.${s}`)),
    );
    const ours = (await vscode.commands.getCommands(true)).filter((c) => c.startsWith('agentRewind.') && !generated.has(c));
    const extra = ours.filter((c) => !contributed.includes(c));
    assert.deepEqual(extra, [], `registered but not in contributes.commands: ${extra.join(', ')}`);
  });

  test('contributed commands have a title and the category "Agent Rewind"', function () {
    const cmds = manifest.contributes?.commands ?? [];
    assert.ok(cmds.length > 0, 'package.json contributes commands');
    for (const c of cmds) {
      assert.match(c.command, /^agentRewind\./, `command id ${c.command}`);
      assert.ok(text(c.title)?.trim(), `${c.command} has no title`);
      assert.equal(text(c.category), 'Agent Rewind', `${c.command} category`);
    }
  });

  test('menus reference only contributed commands', function () {
    const menus = manifest.contributes?.menus ?? {};
    const entries = Object.entries(menus).flatMap(([where, items]) => items.map((i) => ({ where, command: i.command })));
    assert.ok(entries.length > 0, 'package.json contributes menus');
    const bad = entries.filter((e) => e.command && !contributed.includes(e.command));
    assert.deepEqual(bad, []);
  });

  test('views live in declared containers; the "Agent Rewind" container holds Files and Conversation', function () {
    const containers = Object.values(manifest.contributes?.viewsContainers ?? {}).flat();
    const views = manifest.contributes?.views ?? {};
    assert.ok(containers.length > 0 && Object.keys(views).length > 0, 'package.json contributes a view container and views');
    const builtIn = new Set(['explorer', 'scm', 'debug', 'test', 'remote']);
    for (const where of Object.keys(views)) {
      assert.ok(builtIn.has(where) || containers.some((c) => c.id === where), `views under undeclared container ${where}`);
    }
    const ours = containers.find((c) => c.title === 'Agent Rewind');
    assert.ok(ours, 'an activity-bar container titled "Agent Rewind"');
    const names = (views[ours.id] ?? []).map((v) => v.name);
    assert.ok(names.includes('Files') && names.includes('Conversation'), `views in it: ${names.join(', ')}`);
  });
});

suite('Store created at the first recorded event', function () {
  this.timeout(90000);
  let api: AgentRewindApi;
  let ws: string;

  suiteSetup(async () => {
    api = await vscode.extensions.getExtension<AgentRewindApi>(EXTENSION_ID)!.activate();
    ws = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  });

  test('opening the workspace creates no store folder; the views show their welcome (nothing recorded yet)', async () => {
    assert.ok(api.storeDir, 'the store folder is known');
    assert.equal(fs.existsSync(api.storeDir), false, `${api.storeDir} was created before anything was recorded`);
    assert.deepEqual(api.files!.getChildren(), [], 'an empty Files view shows its welcome content');
    assert.equal(api.model!.checkpoints.length, 0);
    // Looking at storage use does not create it either.
    await vscode.commands.executeCommand('agentRewind.showStorage');
    assert.equal(fs.existsSync(api.storeDir), false);
  });

  test('a hook event creates it; the extension notices, writes its roots and settings in, and shows the checkpoint', async () => {
    const s = new HookSession(api.storeDir!, ws);
    s.start();
    s.prompt('the first prompt ever recorded here');
    await until('the Files view to show the first checkpoint', () =>
      api.model!.checkpoints.some((n) => n.checkpoint.label === 'the first prompt ever recorded here'),
    );
    await until("VS Code's folders and settings written into the new store", () => {
      const meta = JSON.parse(fs.readFileSync(path.join(api.storeDir!, 'store.json'), 'utf8')) as { roots: string[] };
      return meta.roots.includes(ws) && fs.existsSync(path.join(api.storeDir!, 'config.json'));
    });
    assert.ok(api.files!.getChildren().length > 0);
  });
});
