// The extension loads and activates in a real VS Code, and what package.json contributes matches what the
// extension registers. Written against package.json, so every check tightens as contributions land.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, repoRoot } from './paths';

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

  suiteSetup(() => {
    const found = vscode.extensions.getExtension<{ activationMs: number }>(EXTENSION_ID);
    assert.ok(found, `extension ${EXTENSION_ID} is not loaded; loaded: ${vscode.extensions.all.map((e) => e.id).join(', ')}`);
    ext = found;
    manifest = ext.packageJSON as Manifest;
    contributed = (manifest.contributes?.commands ?? []).map((c) => c.command);
  });

  test('is present, loaded from this checkout, with the manifest on disk', () => {
    assert.equal(fs.realpathSync(ext.extensionPath), fs.realpathSync(repoRoot));
    const onDisk = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as Manifest;
    assert.equal(`${manifest.publisher}.${manifest.name}`, EXTENSION_ID);
    assert.deepEqual(manifest.contributes ?? {}, onDisk.contributes ?? {});
    assert.ok(fs.existsSync(path.join(repoRoot, manifest.main ?? 'dist/extension.js')), 'main bundle exists');
  });

  test('activates without throwing', async function () {
    const api = await ext.activate();
    assert.equal(ext.isActive, true);
    // Reported in the test output (the extension host's console does not reach the launcher).
    this.test!.title += ` (activate() ran in ${api.activationMs.toFixed(1)} ms, after startup: onStartupFinished)`;
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
