#!/usr/bin/env node
// Package tier: `npm run package` makes a VSIX with runtime files only; code-server installs it
// (`--install-extension`, as a user would) and the installed extension activates in a real
// workbench and shows its views. Prints the VSIX size and file list.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { require as tsxRequire } from 'tsx/cjs/api';
import * as H from '../harness/harness.mjs';
import { ensureCodeServer } from '../../scripts/tools.mjs';
import { workbench } from '../e2e/workbench.mjs';

const { workspaceStoreName } = tsxRequire('../../src/core/storeFiles/workspaceStore.ts', import.meta.url);

const root = H.repoRoot;
const fail = (msg) => {
  console.error(`package: FAILED — ${msg}`);
  process.exitCode = 1;
};

async function main() {
  const t0 = Date.now();
  const vsix = path.join(root, 'agent-rewind.vsix');
  fs.rmSync(vsix, { force: true });
  const r = spawnSync('npm', ['run', 'package'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) return fail(`npm run package exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  // vsce's and esbuild's warnings (a missing repository or icon, a bundling problem) would greet a publisher: none.
  const warnings = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /WARNING/.test(l));
  if (warnings.length) return fail(`npm run package warned:\n${warnings.join('\n')}`);
  console.log('package: vsce and the build packaged without a warning');
  const size = fs.statSync(vsix).size;
  // What is inside the artifact itself (unzip), or what vsce says it packs when unzip is missing.
  let list;
  try {
    list = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .split('\n')
      .filter((f) => f.startsWith('extension/'));
  } catch {
    list = execFileSync('npx', ['vsce', 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((f) => `extension/${f.replace(/^(README|CHANGELOG)\.md$/, (m) => m.toLowerCase()).replace(/^LICENSE$/, 'LICENSE.txt')}`);
  }
  console.log(`VSIX ${(size / 1024).toFixed(1)} KB, ${list.length} files:\n  ${list.join('\n  ')}`);
  const allowed =
    /^extension\/(package(\.nls)?\.json|l10n\/bundle\.l10n(\.[a-z-]+)?\.json|readme\.md|changelog\.md|LICENSE(\.txt)?|dist\/(extension|offHostWorker|cli|hook|commands)\.js|dist\/package\.json|dist\/webview\/(preview\.js|codicon\.(css|ttf))|media\/(icon\.(svg|png)|preview\.css|walkthrough\/[a-z]+\.md))$/i;
  const extra = list.filter((f) => !allowed.test(f));
  if (extra.length) return fail(`the VSIX holds files that are not runtime files: ${extra.join(', ')}`);
  for (const need of [
    'extension/dist/extension.js',
    'extension/dist/offHostWorker.js',
    'extension/dist/cli.js',
    'extension/dist/hook.js',
    'extension/dist/webview/preview.js',
    'extension/media/preview.css',
  ]) {
    if (!list.includes(need)) return fail(`the VSIX lacks ${need}`);
  }
  if (size > 1024 * 1024) return fail(`the VSIX is ${(size / 1024).toFixed(0)} KB; expected well under 1 MB`);
  // No network: the shipped code loads no network module and calls no fetch (the webview's CSP
  // allows no connection either: checked by the webview tier). The resident recorder talks to hooks through
  // files in the store (test/unit/noSocket.test.ts pins that at the source): not even node:net.
  const NETWORK = /require\("(node:)?(http|https|http2|net|tls|dgram|dns)"\)|\bfetch\(|XMLHttpRequest|WebSocket|sendBeacon|EventSource/g;
  for (const f of list.filter((x) => x.endsWith('.js'))) {
    const hits = fs.readFileSync(path.join(root, f.replace(/^extension\//, '')), 'utf8').match(NETWORK) ?? [];
    if (hits.length) return fail(`${f} can reach the network: ${[...new Set(hits)].join(', ')}`);
  }
  console.log('package: no network module or call in any shipped script');
  // Each shared builtin is required once per bundle (scripts/build.mjs's plugin), not copied per importing file at every start.
  for (const f of list.filter((x) => x.endsWith('.js') && !x.includes('/webview/'))) {
    const text = fs.readFileSync(path.join(root, f.replace(/^extension\//, '')), 'utf8');
    for (const b of ['fs', 'path', 'crypto', 'os', 'child_process']) {
      const n = text.split(`require("node:${b}")`).length - 1;
      if (n > 1) return fail(`${f} requires node:${b} ${n} times: the shared-builtins build plugin is not applied`);
    }
    if (/__toESM\(require\("node:(fs|path)"\)\)/.test(text)) return fail(`${f} copies node:fs or node:path per importing file`);
  }

  const runDir = H.makeRunDir({ prefix: 'agent-rewind-vsix-' });
  const { codeServerEntry, node } = await ensureCodeServer();
  const inst = spawnSync(
    node,
    [
      codeServerEntry,
      '--config',
      runDir.config,
      '--user-data-dir',
      runDir.userData,
      '--extensions-dir',
      runDir.extensions,
      '--install-extension',
      vsix,
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, HOME: runDir.dir, XDG_CONFIG_HOME: path.join(runDir.dir, 'xdg') },
    },
  );
  if (inst.status !== 0 || !/successfully installed/i.test(inst.stdout + inst.stderr))
    return fail(`code-server --install-extension failed:\n${inst.stdout}\n${inst.stderr}`);
  console.log(inst.stdout.trim().split('\n').pop());
  const ws = H.prepareWorkspace({ dest: path.join(runDir.dir, 'workspace') });
  const store = path.join(runDir.dir, 'store');
  H.writeUserSettings(runDir, { 'agentRewind.storeDirectory': store });
  const cs = await H.startCodeServer({ runDir, smokeDriver: false });
  const chromium = await H.startChromium({ runDir });
  try {
    await chromium.page.goto(H.workbenchUrl(cs, { folder: ws }));
    const wb = workbench(chromium.page);
    await wb.ready();
    const installedDir = fs.readdirSync(runDir.extensions).find((d) => d.startsWith('agent-rewind.agent-rewind-'));
    if (!installedDir || fs.lstatSync(path.join(runDir.extensions, installedDir)).isSymbolicLink())
      return fail('the extension is not installed from the VSIX');
    // No agent config in this workspace: the extension activates when its views are opened.
    await wb.openViewContainer('Agent Rewind');
    await wb.viewPane('Files');
    const st = await H.activationStatus(runDir, { wait: true, timeoutMs: 60000 });
    if (!st.activated) return fail('the installed extension never activated');
    if (st.error) return fail(`activation failed: ${st.error}`);
    await chromium.page
      .getByText(/Nothing recorded yet/)
      .first()
      .waitFor({ timeout: 30000 });
    if (fs.existsSync(store) && fs.readdirSync(store).length)
      return fail(`the extension created a store before anything was recorded: ${store}`);
    // storeDirectory is a parent: the workspace's own store is one folder inside it, made by the first
    // recorded event (the installed CLI's hook); the extension then writes its settings into it.
    const wsStore = path.join(store, workspaceStoreName(ws));
    const hook = spawnSync(process.execPath, [path.join(runDir.extensions, installedDir, 'dist', 'cli.js'), 'hook', 'claude'], {
      input: JSON.stringify({ hook_event_name: 'SessionStart', session_id: 'pkg', cwd: ws, source: 'startup', transcript_path: '' }),
      env: { ...process.env, AGENT_REWIND_STORE: wsStore },
      encoding: 'utf8',
    });
    if (hook.status !== 0 || hook.stdout) return fail(`the installed hook failed: ${hook.status} ${hook.stdout} ${hook.stderr}`);
    for (const end = Date.now() + 30000; !fs.existsSync(path.join(wsStore, 'config.json'));) {
      if (Date.now() > end) return fail(`the extension did not write its settings into the new store ${wsStore}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    // The store holds copies of source and conversations: owner-only, as the extension creates it.
    const modes = [wsStore, path.join(wsStore, 'store.json'), path.join(wsStore, 'config.json')]
      .filter((p) => fs.existsSync(p))
      .map((p) => [p === wsStore ? 'store' : path.basename(p), (fs.statSync(p).mode & 0o777).toString(8)]);
    const loose = modes.filter(([n, m]) => m !== (n === 'store' ? '700' : '600'));
    if (loose.length) return fail(`the store is not owner-only: ${loose.map(([n, m]) => `${n} ${m}`).join(', ')}`);
    console.log(`package: the store the extension created is owner-only (${modes.map(([n, m]) => `${n} ${m}`).join(', ')})`);
    await wb.screenshot('vsix-installed');
    console.log(`package: installed VSIX activated (${st.event}) and shows its views; ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  } finally {
    await chromium.stop();
    await cs.stop();
    H.cleanup();
  }
}

main().catch((e) => fail(e.stack || String(e)));
