#!/usr/bin/env node
// `npm start`: a real VS Code (code-server) on localhost with Agent Rewind loaded and a demo workspace.
// Builds the extension, installs code-server when missing, prepares .demo/ (a workspace whose agent session
// is recorded through the real hook path by scripts/demo/record.mjs when that script exists), then serves
// VS Code until Ctrl-C. No browser needed here: open the printed URL in yours.
//
//   npm start [-- --fresh] [-- --port N]        (or PORT=N npm start; it binds 127.0.0.1 only: there is no auth)
//   --fresh: rebuild the demo workspace and store even if .demo/ already has them
//   --no-build: use the dist/ that is there (fails when dist/extension.js is missing)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as H from '../test/harness/harness.mjs';
import { ensureCodeServer, repoRoot } from './tools.mjs';
import { require as tsxRequire } from 'tsx/cjs/api';

const { workspaceStoreName } = tsxRequire('../src/core/storeFiles/workspaceStore.ts', import.meta.url);

const argv = process.argv.slice(2);
const opt = (n) => {
  const i = argv.indexOf(n);
  return i >= 0 ? argv[i + 1] : undefined;
};
const fresh = argv.includes('--fresh');
const say = (m) => console.log(`[start] ${m}`);

const demoDir = path.join(repoRoot, '.demo');
const ws = path.join(demoDir, 'workspace');
// `agentRewind.storeDirectory` is a parent: the workspace's store is <stores>/<name>-<id>/, as the extension computes it.
const storeParent = path.join(demoDir, 'stores');
const store = path.join(storeParent, workspaceStoreName(ws));
const claudeHome = path.join(storeParent, 'claude-home'); // scripts/demo/record.mjs keeps it beside the store
const demoBin = path.join(demoDir, 'bin');
const marker = path.join(demoDir, 'demo.json');
const recorder = path.join(repoRoot, 'scripts/demo/record.mjs');

function build() {
  say('building the extension (node scripts/build.mjs)…');
  // Quiet unless it fails: the URL should be the last thing on the screen.
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'scripts/build.mjs')], { cwd: repoRoot, encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    throw new Error('the build failed (see above); fix it and run npm start again.');
  }
}

function writeSmallDemo() {
  fs.mkdirSync(path.join(ws, 'src'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'README.md'), '# Demo project\n\nA small project for trying Agent Rewind.\n');
  fs.writeFileSync(
    path.join(ws, 'src/math.js'),
    "'use strict';\n\nfunction add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n",
  );
  fs.writeFileSync(
    path.join(ws, 'src/math.test.js'),
    "'use strict';\nconst assert = require('node:assert');\nconst { add } = require('./math');\n\nassert.strictEqual(add(2, 3), 5);\nconsole.log('ok');\n",
  );
}

function prepareDemo() {
  const prev = (() => {
    try {
      return JSON.parse(fs.readFileSync(marker, 'utf8'));
    } catch {
      return null;
    }
  })();
  const canRecord = fs.existsSync(recorder);
  // Reuse what is there (the user may have been trying things), unless asked, or a recording is now possible.
  if (!fresh && prev && prev.store === store && fs.existsSync(ws) && (prev.recorded || !canRecord)) {
    say(`reusing the demo in ${path.relative(repoRoot, demoDir)}/ (npm start -- --fresh rebuilds it)`);
    return prev;
  }
  fs.rmSync(ws, { recursive: true, force: true });
  fs.rmSync(store, { recursive: true, force: true });
  fs.mkdirSync(ws, { recursive: true });
  let recorded = false;
  if (canRecord) {
    say(`recording a demo agent session: node scripts/demo/record.mjs ${path.relative(repoRoot, ws)} ${path.relative(repoRoot, store)}`);
    const r = spawnSync(process.execPath, [recorder, ws, store], { cwd: repoRoot, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`scripts/demo/record.mjs failed (exit ${r.status ?? r.signal}); npm start -- --fresh retries.`);
    recorded = true;
  } else {
    writeSmallDemo();
    say(
      'no recorded agent session is available (scripts/demo/record.mjs does not exist yet): the demo workspace has a few files and an empty store',
    );
  }
  const info = { recorded, workspace: ws, store, time: new Date().toISOString() };
  fs.writeFileSync(marker, JSON.stringify(info, null, 2));
  return info;
}

/**
 * The demo shows the safety check: code-server saves edits after a delay by default, so an unsaved editor (which
 * a rewind refuses to overwrite) could never be seen. Autosave is off in the demo workspace's settings.
 */
function demoSettings() {
  const file = path.join(ws, '.vscode', 'settings.json');
  let settings = {};
  try {
    settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    // none yet (or not plain JSON: replaced, it is ours)
  }
  const want = { ...settings, 'files.autoSave': 'off', ...demoTerminalEnv() };
  if (JSON.stringify(want) === JSON.stringify(settings)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(want, null, 2) + '\n');
}

/**
 * "Resume in Terminal" after a conversation rewind runs `claude --resume <id>`: the demo's terminals get the Claude Code
 * CLI the demo recorded with on their PATH (as .demo/bin/claude), and its transcripts (the CLI ran with its own HOME).
 */
function demoTerminalEnv() {
  let bin;
  try {
    bin = tsxRequire('../test/compat/claudeCli.ts', import.meta.url).ensureClaude({ install: false, log: () => {} }).bin;
  } catch {
    return {}; // not installed: the extension says how to install it when it offers to resume
  }
  fs.mkdirSync(demoBin, { recursive: true });
  fs.rmSync(path.join(demoBin, 'claude'), { force: true });
  fs.symlinkSync(bin, path.join(demoBin, 'claude'));
  const env = { PATH: `${demoBin}${path.delimiter}\${env:PATH}`, CLAUDE_CONFIG_DIR: path.join(claudeHome, '.claude') };
  return { 'terminal.integrated.env.linux': env, 'terminal.integrated.env.osx': env };
}

async function choosePort() {
  const wanted = opt('--port') || process.env.PORT;
  if (wanted) {
    const p = Number(wanted);
    if (!Number.isInteger(p) || p <= 0 || p > 65535) throw new Error(`invalid port "${wanted}"`);
    if (!(await H.portIsFree(p))) throw new Error(`port ${p} on 127.0.0.1 is in use; choose another with PORT=N npm start.`);
    return p;
  }
  if (await H.portIsFree(8080)) return 8080;
  const p = await H.freePort();
  say(`port 8080 is in use; using ${p}`);
  return p;
}

async function main() {
  if (argv.includes('--no-build')) H.assertBuilt(repoRoot);
  else build();
  await ensureCodeServer();
  const demo = prepareDemo();
  demoSettings();
  const port = await choosePort();

  // code-server state lives in .demo/code-server/ (kept between starts: open editors, layout).
  const runDir = H.makeRunDir({ dir: path.join(demoDir, 'code-server') });
  H.writeUserSettings(runDir, { 'agentRewind.storeDirectory': storeParent, 'git.enabled': true, 'git.autoRepositoryDetection': true });
  H.installExtensionLink(runDir, repoRoot); // installed as a symlink: no URL payload or smoke-test driver needed

  let stopping = false;
  H.handleSignals({
    exitCode: 0,
    onSignal: () => {
      stopping = true;
    },
    onStopped: () => say('code-server stopped. Bye.'),
  });
  const cs = await H.startCodeServer({
    runDir,
    host: '127.0.0.1',
    port,
    smokeDriver: false,
    isolateHome: false,
    folder: ws,
    quiet: true,
    env: { AGENT_REWIND_STORE: store },
  });
  const url = `${cs.base}/?folder=${ws}`; // plain, readable; equivalent to the encoded form
  const page = await H.httpGet(H.workbenchUrl(cs, { folder: ws }), 10000);
  if (page.status !== 200) throw new Error(`code-server answered ${page.status} for ${url}; log: ${cs.logFile}`);

  const line = '─'.repeat(72);
  console.log(`\n${line}\n  Agent Rewind in VS Code (code-server ${(await ensureCodeServer()).version}) is running.\n`);
  console.log(`  Open:       ${url}`);
  console.log(`  Workspace:  ${ws}`);
  console.log(`  Store:      ${store}${demo.recorded ? '  (holds a recorded agent session)' : '  (empty: no recorded session available)'}`);
  console.log(`  Log:        ${cs.logFile}`);
  console.log(`\n  Press Ctrl-C to stop.\n${line}\n`);

  // Stay in the foreground until a signal; if code-server dies by itself, say so and fail. When our parent
  // goes away (e.g. `npm start` killed by pid: npm's shell dies without passing the signal on), stop too.
  const parent = process.ppid;
  await new Promise((resolve) => {
    const iv = setInterval(() => {
      if (stopping) return;
      if (cs.exited()) {
        clearInterval(iv);
        resolve();
        return;
      }
      if (process.ppid !== parent) {
        clearInterval(iv);
        stopping = true;
        say('the parent process is gone: stopping code-server');
        H.cleanup().then(() => process.exit(0));
      }
    }, 500);
  });
  console.error(`[start] code-server exited unexpectedly (${JSON.stringify(cs.exited())}); last log lines:\n${H.tailFile(cs.logFile, 30)}`);
  await H.cleanup();
  process.exit(1);
}

main().catch(async (e) => {
  console.error(`[start] ${e.message}`);
  await H.cleanup();
  process.exit(1);
});
