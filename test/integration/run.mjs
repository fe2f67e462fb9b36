#!/usr/bin/env node
// Integration tier: runs the mocha suite in test/integration/suite/ inside code-server's REAL extension host,
// with this checkout loaded as a development extension, on a fresh copy of the fixture workspace.
//
//   node test/integration/run.mjs [--fail] [--grep RE] [--keep] [--verbose] [--timeout SEC] [--fixture DIR] [--git] [--oldest]
//   --oldest       the smoke test on the OLDEST VS Code package.json's engines.vscode claims (scripts/tools.mjs
//                  OLDEST): the single-folder pass, only SMOKE_GREP's tests (activation, one preview, one rewind)
//   --fixture DIR  copy DIR as the workspace (default test/harness/workspace); --git makes the copy a git repo
//   AGENT_REWIND_TEST_SETTINGS='{"agentRewind.retentionDays": 3}'  extra user settings (JSON object)
//
// Needs `npm run build` first (dist/extension.js). Installs code-server / Chromium when missing.
// Env passed into the extension host: AGENT_REWIND_TEST_RESULTS (results file), AGENT_REWIND_TEST_STORE
// (also set as the user setting agentRewind.storeDirectory), plus every AGENT_REWIND_TEST_* and
// AGENT_REWIND_HARNESS_* variable of this process (e.g. AGENT_REWIND_HARNESS_FAIL=1) except *_GREP:
// a filter is only ever --grep. Exit 1 also when a pass's folder is missing or a pass (or, with --grep, the run) ran 0 tests.
// Exit: 0 all passed, 1 test failures, 2 harness error or timeout.
import { spawnSync } from 'node:child_process';
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as H from '../harness/harness.mjs';
import { ensureChromium, ensureCodeServer } from '../../scripts/tools.mjs';

const argv = process.argv.slice(2);
const flag = (n) => argv.includes(n);
const opt = (n, d) => {
  const i = argv.indexOf(n);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : d;
};
if (flag('--keep')) process.env.AGENT_REWIND_KEEP_RUN = '1';
const oldest = flag('--oldest');
// Every ensureCodeServer() of this process (the harness's too) then gives the oldest release.
if (oldest) process.env.AGENT_REWIND_VSCODE = 'oldest';
// What the oldest VS Code must show working: the extension activates with every command, the preview plans,
// and a rewind through it writes the disk (and its undo brings it back). Titles of the main suite's tests.
// Each must match a test that passed: a renamed test fails the smoke run instead of quietly leaving it.
const SMOKE = ['^Activation ', '^Agent Rewind in VS Code the preview lists', '^Agent Rewind in VS Code rewinds through the preview'];
const grep = opt('--grep', oldest ? SMOKE.join('|') : undefined);

const root = H.repoRoot;
// Under the repo so `mocha` resolves from its node_modules; one folder per run, so runs in the same checkout
// at the same time do not delete each other's bundles.
const outBase = path.join(root, 'out/test/integration');
// Two passes: the main suite in a one-folder workspace, then the multi-root suite in a two-folder one.
const PASSES = [
  { name: 'single folder', suiteDir: path.join(root, 'test/integration/suite'), multiRoot: false },
  { name: 'multi-root', suiteDir: path.join(root, 'test/integration/multiroot'), multiRoot: true },
].filter((p) => !oldest || !p.multiRoot);
let suiteDir;
let outDir;

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

async function bundleSuite() {
  const own = fs
    .readdirSync(suiteDir)
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => path.join(suiteDir, f));
  const shared = path.join(root, 'test/integration/suite/index.ts'); // the mocha runner serves every pass
  const entries = [shared, ...own];
  if (!entries.some((e) => e.endsWith('.test.ts'))) throw new Error(`no *.test.ts in ${suiteDir}`);
  fs.mkdirSync(outBase, { recursive: true });
  for (const d of fs.readdirSync(outBase)) {
    // leftovers of runs that were killed
    const m = /^run-(\d+)$/.exec(d);
    if (!m || (!pidAlive(Number(m[1])) && Number(m[1]) !== process.pid)) fs.rmSync(path.join(outBase, d), { recursive: true, force: true });
  }
  fs.rmSync(outDir, { recursive: true, force: true });
  await esbuild.build({
    // Named entries: every bundle lands flat in outDir (the runner loads *.test.js beside index.js).
    entryPoints: Object.fromEntries(entries.map((e) => [path.basename(e, '.ts'), e])),
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return entries.length - 1;
}

// The realAgents suite records with the real Codex and Gemini CLIs: install the pinned clients now (once,
// into .vscode-test/, as the compat tier does), not inside the extension host's time limit. A failure is
// only logged: the suite then fails with the reason.
function ensureRealAgents() {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'test/integration/realAgents/record.ts', '--ensure'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    timeout: 30 * 60 * 1000,
  });
  if (r.status === 0) H.log(r.stdout.trim());
  else
    console.error(
      `[integration] the real agent CLIs could not be installed (${r.error?.message ?? 'see above'}): the realAgents suites will fail`,
    );
}

async function main() {
  const t0 = Date.now();
  if (!oldest) ensureRealAgents(); // the smoke test records through hooks only
  const { version } = await ensureCodeServer();
  H.log(`code-server ${version}${oldest ? ' (the oldest VS Code package.json claims)' : ''}`);
  let worst = 0;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const pass of PASSES) {
    if (!fs.existsSync(pass.suiteDir)) {
      // A missing suite is a failure, never a quiet pass.
      console.error(`[integration] pass "${pass.name}": its folder ${path.relative(root, pass.suiteDir)} is missing`);
      worst = Math.max(worst, 1);
      failed += 1;
      continue;
    }
    suiteDir = pass.suiteDir;
    outDir = path.join(outBase, `run-${process.pid}`, path.basename(pass.suiteDir));
    H.log(`=== integration pass: ${pass.name} ===`);
    const r = await runPass(pass);
    worst = Math.max(worst, r.code);
    // A pass that ran nothing proves nothing (a grep may leave one pass empty: then the run as a whole must not be).
    if (r.counts.passed + r.counts.failed === 0 && !grep) {
      console.error(`[integration] pass "${pass.name}" ran 0 tests`);
      worst = Math.max(worst, 1);
    }
    if (oldest && !opt('--grep')) {
      const none = SMOKE.filter((re) => !r.passedTitles.some((t) => new RegExp(re).test(t)));
      for (const re of none) console.error(`[integration] smoke test: no passed test matches /${re}/`);
      if (none.length) worst = Math.max(worst, 1);
    }
    passed += r.counts.passed;
    failed += r.counts.failed;
    skipped += r.counts.skipped;
  }
  const what = oldest ? `smoke test on the oldest VS Code (code-server ${version})` : 'integration (all passes)';
  console.log(`${what}: ${passed} passed, ${failed} failed, ${skipped} skipped in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  if (passed + failed === 0) {
    console.error(`[integration] no test ran${grep ? ` (--grep ${grep} matched nothing)` : ''}`);
    worst = Math.max(worst, 1);
  }
  return worst;
}

async function runPass(pass) {
  const t0 = Date.now();
  try {
    H.assertBuilt(root);
  } catch (e) {
    console.error(`[integration] ${e.message}`);
    return { code: 2, counts: { passed: 0, failed: 1, skipped: 0 }, passedTitles: [] };
  }
  await ensureChromium();
  await ensureCodeServer();
  const files = await bundleSuite();
  H.log(`bundled ${files} test file(s) into ${path.relative(root, outDir)}/ (${Date.now() - t0} ms)`);

  const runDir = H.makeRunDir({ prefix: 'agent-rewind-it-' });
  const store = path.join(runDir.dir, 'store');
  const env = { AGENT_REWIND_TEST_STORE: store, AGENT_REWIND_REPO_ROOT: root };
  for (const [k, v] of Object.entries(process.env)) {
    // Never a *_GREP from the caller's shell: a stale filter would quietly run a fraction of the suite.
    if (
      /^AGENT_REWIND_(TEST|HARNESS)_/.test(k) &&
      !/_GREP$/.test(k) &&
      !['AGENT_REWIND_TEST_RESULTS', 'AGENT_REWIND_TEST_SETTINGS'].includes(k)
    )
      env[k] = v;
  }
  if (flag('--fail')) env.AGENT_REWIND_HARNESS_FAIL = '1';
  if (grep) env.AGENT_REWIND_TEST_GREP = grep;
  const timeoutSec = Number(opt('--timeout', process.env.AGENT_REWIND_TEST_TIMEOUT || '600'));
  H.log(`run dir ${runDir.dir}${process.env.AGENT_REWIND_KEEP_RUN ? ' (kept)' : ''}`);

  let extraSettings = {};
  if (process.env.AGENT_REWIND_TEST_SETTINGS) {
    try {
      extraSettings = JSON.parse(process.env.AGENT_REWIND_TEST_SETTINGS);
    } catch (e) {
      throw new Error(`AGENT_REWIND_TEST_SETTINGS is not JSON: ${e.message}`, { cause: e });
    }
  }
  const r = await H.runExtensionTests({
    runDir,
    extensionTestsPath: path.join(outDir, 'index'),
    ...(opt('--fixture') ? { fixture: path.resolve(opt('--fixture')) } : {}),
    git: flag('--git'),
    multiRoot: pass.multiRoot,
    // The probe extension's custom editor (a tab with unsaved work and no text document) for the unsaved-work guard.
    installedExtensionDirs: [path.join(root, 'test/e2e/probe-ext')],
    settings: { 'agentRewind.storeDirectory': store, ...extraSettings },
    env,
    timeoutMs: timeoutSec * 1000,
    verbose: flag('--verbose'),
  });

  console.log('\n---------------- mocha (extension host) ----------------');
  console.log(r.output ?? '(the suite wrote no results)');
  console.log('--------------------------------------------------------');
  if (r.code !== 0 || flag('--verbose')) {
    // Expected noise: the gallery points at a dead port on purpose; stack frames of workbench errors.
    const tail = (r.logTail || '')
      .split('\n')
      .filter((l) => !/^\s+at /.test(l) && !/ECONNREFUSED 127\.0\.0\.1:9\b/.test(l))
      .slice(-40)
      .join('\n');
    console.log(`workbench log (last lines):\n${tail || '(none)'}\n\ncode-server log (last lines):\n${r.codeServerLog}`);
  }
  const res = r.results;
  if (res) {
    for (const t of res.tests.filter((x) => x.state === 'failed')) console.log(`FAILED: ${t.title}`);
  }
  H.log(
    `exit via ${r.via}; workbench ${r.timings.workbench ?? '-'}s, total ${r.timings.total.toFixed(1)}s after launch; peak memory: ${H.memReport()}`,
  );
  if (r.via === 'timeout') console.error(`[integration] timed out after ${timeoutSec}s (set AGENT_REWIND_TEST_TIMEOUT or --timeout)`);
  // A plain closing line that CI can read.
  if (res) console.log(`integration: ${res.passes} passed, ${res.failures} failed, ${res.pending} skipped`);
  else console.log('integration: 0 passed, 1 failed');
  H.log(`integration pass "${pass.name}" ${r.code === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  const counts = res ? { passed: res.passes, failed: res.failures, skipped: res.pending } : { passed: 0, failed: 1, skipped: 0 };
  const passedTitles = (res?.tests ?? []).filter((t) => t.state === 'passed').map((t) => t.title);
  return { code: r.code, counts, passedTitles };
}

process.on('exit', () => {
  if (!process.env.AGENT_REWIND_KEEP_RUN && outDir) fs.rmSync(outDir, { recursive: true, force: true });
});
main().then(
  async (code) => {
    await H.cleanup();
    process.exit(code);
  },
  async (e) => {
    console.error(`[integration] harness error: ${e?.stack || e}`);
    await H.cleanup();
    process.exit(2);
  },
);
