// Runs the extension inside a REAL VS Code: code-server (VS Code 1.139 server + web workbench, on Node 24)
// driven by Debian's Chromium over CDP (playwright-core). Used by test/integration/run.mjs (mocha in the
// extension host), test/e2e/run.mjs (clicks + screenshots) and scripts/start.mjs (npm start).
//
// Everything we spawn is detached, i.e. leads its own process group, and is stopped by that group's id
// only (SIGTERM, then SIGKILL). Every run gets a throw-away folder: code-server user data (quiet settings
// plus the caller's), extensions dir, XDG dirs, Chromium profile and HOME, an empty code-server config and
// a fresh copy of the fixture workspace.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium, ensureCodeServer, repoRoot } from '../../scripts/tools.mjs';

export { repoRoot };
export const EXTENSION_ID = 'agent-rewind.agent-rewind';
const HARNESS_DIR = path.dirname(fileURLToPath(import.meta.url));
export const defaultFixture = path.join(HARNESS_DIR, 'workspace');

const t0 = Date.now();
export const stamp = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
export const log = (...a) => console.log(`[harness ${stamp()}]`, ...a);
/** The interval between two looks at a condition in a polling loop (never a wait for something by itself). */
const POLL_MS = 200;
const nextPoll = () => new Promise((r) => setTimeout(r, POLL_MS));

// Quiet, deterministic user settings: no telemetry, updates, gallery lookups, welcome pages, AI chat.
export const QUIET_SETTINGS = {
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'workbench.enableExperiments': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'git.autoRepositoryDetection': false,
  'npm.fetchOnlinePackageInfo': false,
  'json.schemaDownload.enable': false,
  'typescript.disableAutomaticTypeAcquisition': true,
  'typescript.surveys.enabled': false,
  'window.restoreWindows': 'none',
  'files.hotExit': 'off',
};

// ------------------------------------------------------------------ small utilities
export function freePort(host = '127.0.0.1') {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export function portIsFree(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

export function httpGet(url, timeoutMs = 3000) {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        if (body.length < 1e6) body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode, body, headers: res.headers }));
    });
    req.on('error', () => resolve({ status: 0, body: '' }));
    req.setTimeout(timeoutMs, () => {
      req.destroy();
      resolve({ status: 0, body: '' });
    });
  });
}

export async function waitFor(fn, timeoutMs, what) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${(timeoutMs / 1000).toFixed(0)}s waiting for ${what}`);
    await nextPoll();
  }
}

export function tailFile(file, n = 40) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-n).join('\n');
  } catch {
    return '(unreadable)';
  }
}

// ------------------------------------------------------------------ process bookkeeping
const owned = []; // { name, pid } — each pid leads its own process group
const tempDirs = [];
let handlersInstalled = false;

function killGroup(pid, sig) {
  try {
    process.kill(-pid, sig);
    return true;
  } catch {
    /* no such group */
  }
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}
function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops one process group we started: SIGTERM, then SIGKILL after graceMs. */
export async function stopGroup(pid, { graceMs = 4000, name = String(pid) } = {}) {
  if (!groupAlive(pid)) return;
  killGroup(pid, 'SIGTERM');
  const end = Date.now() + graceMs;
  while (Date.now() < end && groupAlive(pid)) await nextPoll();
  if (groupAlive(pid)) {
    log(`${name} (group ${pid}) ignored SIGTERM; SIGKILL`);
    killGroup(pid, 'SIGKILL');
  }
  const i = owned.findIndex((p) => p.pid === pid);
  if (i >= 0) owned.splice(i, 1);
}

function track(name, pid) {
  owned.push({ name, pid });
  installHandlers();
}

/** The pids (= process-group ids) this process started and has not stopped yet. */
export const ownedProcesses = () => owned.map((p) => ({ ...p }));

let cleaning = null;
/** Stops everything we started (by process group) and removes temp dirs not marked to keep. */
export function cleanup() {
  if (!cleaning) {
    cleaning = (async () => {
      await Promise.all([...owned].map((p) => stopGroup(p.pid, { name: p.name })));
      for (const d of tempDirs) {
        try {
          fs.rmSync(d, { recursive: true, force: true });
        } catch {
          /* best effort */
        }
      }
      tempDirs.length = 0;
    })();
  }
  return cleaning;
}

let signalExitCode = 130;
let onSignalHook = null;
let onStoppedHook = null;
/** How a signal (SIGINT/SIGTERM/SIGHUP) ends this process: onSignal(sig) runs at once, then everything we
 *  started is stopped, then onStopped(sig) runs (it may return a promise), then the process exits with exitCode. */
export function handleSignals({ exitCode = 130, onSignal = null, onStopped = null } = {}) {
  signalExitCode = exitCode;
  onSignalHook = onSignal;
  onStoppedHook = onStopped;
  installHandlers();
}

function installHandlers() {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    for (const p of owned) killGroup(p.pid, 'SIGKILL');
    for (const d of tempDirs) {
      try {
        fs.rmSync(d, { recursive: true, force: true });
      } catch {
        /* best effort */
      }
    }
  });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      log(`got ${sig}, stopping what this run started`);
      try {
        onSignalHook?.(sig);
      } catch {
        /* the hook's problem must not block the clean-up */
      }
      cleanup()
        .then(() => onStoppedHook?.(sig))
        .finally(() => process.exit(signalExitCode));
    });
  }
}

// ------------------------------------------------------------------ memory sampling
// Per process group we own: summed RSS (over-counts shared pages) and summed PSS (shared pages split
// between the processes that map them: the honest "how much memory does this take" number). Peaks kept.
const memPeak = {};
let memTimer = null;
function pssKb(pid) {
  try {
    const m = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+) kB/m);
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
function sampleMem() {
  let out;
  try {
    out = execFileSync('ps', ['-e', '-o', 'pid=,pgid=,rss='], { encoding: 'utf8' });
  } catch {
    return;
  }
  const groups = new Map(owned.map((p) => [p.pid, { name: p.name, rss: 0, pss: 0 }]));
  for (const line of out.split('\n')) {
    const [pid, g, r] = line.trim().split(/\s+/).map(Number);
    const grp = groups.get(g);
    if (grp) {
      grp.rss += r;
      grp.pss += pssKb(pid);
    }
  }
  let rss = 0,
    pss = 0;
  for (const { name, rss: r, pss: p } of groups.values()) {
    rss += r;
    pss += p;
    const cur = memPeak[name] || (memPeak[name] = { rss: 0, pss: 0 });
    cur.rss = Math.max(cur.rss, r);
    cur.pss = Math.max(cur.pss, p);
  }
  const tot = memPeak.total || (memPeak.total = { rss: 0, pss: 0 });
  tot.rss = Math.max(tot.rss, rss);
  tot.pss = Math.max(tot.pss, pss);
}
/** Samples memory of each process group we own every 500 ms; memReport() prints the peaks. */
export function startMemSampler() {
  if (memTimer) return;
  memTimer = setInterval(sampleMem, 500);
  memTimer.unref();
}
export const memPeaksMiB = () =>
  Object.fromEntries(Object.entries(memPeak).map(([k, v]) => [k, { pss: Math.round(v.pss / 1024), rss: Math.round(v.rss / 1024) }]));
export const memReport = () =>
  Object.entries(memPeaksMiB())
    .map(([k, v]) => `${k} ${v.pss} MiB PSS (${v.rss} RSS)`)
    .join(', ');

// ------------------------------------------------------------------ run folder, settings, fixture
/**
 * Makes a throw-away run folder under `base` (default the OS temp dir), removed by cleanup() unless keep is
 * true (or AGENT_REWIND_KEEP_RUN=1); or, with `dir`, uses (and keeps) that fixed folder.
 */
export function makeRunDir({
  prefix = 'agent-rewind-vscode-',
  base = os.tmpdir(),
  dir: fixedDir,
  keep = !!process.env.AGENT_REWIND_KEEP_RUN,
} = {}) {
  let dir;
  if (fixedDir) {
    // a fixed, reused folder (npm start): never removed by cleanup()
    fs.mkdirSync(fixedDir, { recursive: true });
    dir = fs.realpathSync(fixedDir);
    keep = true;
  } else {
    fs.mkdirSync(base, { recursive: true });
    dir = fs.realpathSync(fs.mkdtempSync(path.join(base, prefix)));
  }
  const p = {
    dir,
    userData: path.join(dir, 'user-data'),
    extensions: path.join(dir, 'extensions'),
    home: path.join(dir, 'home'),
    xdgConfig: path.join(dir, 'xdg/config'),
    xdgData: path.join(dir, 'xdg/data'),
    xdgCache: path.join(dir, 'xdg/cache'),
    xdgState: path.join(dir, 'xdg/state'),
    chromiumProfile: path.join(dir, 'chromium/profile'),
    chromiumHome: path.join(dir, 'chromium/home'),
    config: path.join(dir, 'code-server.yaml'),
    logs: path.join(dir, 'logs'),
  };
  for (const d of [
    p.userData,
    p.extensions,
    p.home,
    p.xdgConfig,
    p.xdgData,
    p.xdgCache,
    p.xdgState,
    p.chromiumProfile,
    p.chromiumHome,
    p.logs,
  ]) {
    fs.mkdirSync(d, { recursive: true });
  }
  fs.writeFileSync(p.config, ''); // keeps code-server from writing ~/.config/code-server/config.yaml (with a password)
  writeUserSettings(p, {});
  if (!keep) tempDirs.push(dir);
  return p;
}

/**
 * Writes the quiet defaults overlaid with `settings` as both the user settings (<user-data>/User/settings.json)
 * and the remote machine settings (<user-data>/Machine/settings.json). The window is a remote one (the
 * workbench talks to the code-server host), where settings of `"scope": "machine"` (or machine-overridable)
 * are taken from the Machine file only and ignored in the User file.
 */
export function writeUserSettings(runDir, settings = {}) {
  const json = JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2);
  const files = ['User', 'Machine'].map((d) => path.join(runDir.userData, d, 'settings.json'));
  for (const f of files) {
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, json);
  }
  return files[0];
}

/**
 * Copies a fixture folder to a fresh workspace (fixture null: an empty one). With git: true it becomes a repository with one commit
 * (fixed identity and dates, so hashes are stable). Returns the workspace's real path.
 */
export function prepareWorkspace({ fixture = defaultFixture, dest, git = false }) {
  fs.rmSync(dest, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  if (fixture === null)
    fs.mkdirSync(dest, { recursive: true }); // null: an empty workspace
  else if (fs.existsSync(fixture)) fs.cpSync(fixture, dest, { recursive: true });
  else throw new Error(`fixture folder ${fixture} does not exist`);
  if (git) {
    const env = {
      ...process.env,
      GIT_AUTHOR_NAME: 'Fixture',
      GIT_AUTHOR_EMAIL: 'fixture@example.invalid',
      GIT_COMMITTER_NAME: 'Fixture',
      GIT_COMMITTER_EMAIL: 'fixture@example.invalid',
      GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
      GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
    };
    for (const args of [
      ['init', '-q', '-b', 'main'],
      ['add', '-A'],
      ['commit', '-q', '-m', 'fixture'],
    ]) {
      const r = spawnSync('git', args, { cwd: dest, env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`git ${args[0]} in fixture workspace failed: ${r.stderr}`);
    }
  }
  return fs.realpathSync(dest);
}

/** Links the extension folder into an --extensions-dir as an installed extension (a symlink, not a copy:
 *  a copy would break module resolution of anything resolved from the repo's node_modules). */
export function installExtensionLink(runDir, extensionDir = repoRoot) {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
  const link = path.join(runDir.extensions, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
  fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync(extensionDir, link, 'dir');
  return link;
}

export function assertBuilt(extensionDir = repoRoot) {
  const manifest = JSON.parse(fs.readFileSync(path.join(extensionDir, 'package.json'), 'utf8'));
  const main = path.resolve(extensionDir, manifest.main || 'dist/extension.js');
  if (!fs.existsSync(main)) {
    throw new Error(`${path.relative(process.cwd(), main) || main} is missing: run \`npm run build\` first.`);
  }
  return main;
}

// ------------------------------------------------------------------ code-server
/** True when version `a` (x.y.z) is older than `b`. */
function olderThan(a = '0', b) {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) < (y[i] || 0);
  return false;
}

/**
 * Starts code-server in its own process group and waits for /healthz.
 * opts: runDir (from makeRunDir), env (added to code-server's env: the extension host inherits it),
 * host/port, smokeDriver (needed for the `payload` dev/test params), isolateHome (HOME -> run dir),
 * folder (opened by default when the URL has none), extraArgs.
 */
export async function startCodeServer({
  runDir,
  env = {},
  host = '127.0.0.1',
  port,
  smokeDriver = true,
  isolateHome = true,
  folder,
  extraArgs = [],
  quiet = false,
} = {}) {
  const { codeServerEntry, node, version } = await ensureCodeServer();
  port = port || (await freePort(host));
  // code-server before 4.100 has no --vscode-option; it takes VS Code's flag once its parser knows it (smokeDriverFlag.cjs).
  const vscodeOption = !olderThan(version, '4.100.0');
  const args = [
    ...(smokeDriver && !vscodeOption ? ['--require', path.join(HARNESS_DIR, 'smokeDriverFlag.cjs')] : []),
    codeServerEntry,
    '--config',
    runDir.config,
    '--bind-addr',
    `${host}:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    // The built workbench reads extensionDevelopmentPath/extensionTestsPath from the URL's `payload` only
    // when the smoke-test driver is enabled; this passes --enable-smoke-test-driver to the VS Code server.
    ...(smokeDriver ? (vscodeOption ? ['--vscode-option', 'enable-smoke-test-driver'] : ['--enable-smoke-test-driver']) : []),
    '--user-data-dir',
    runDir.userData,
    '--extensions-dir',
    runDir.extensions,
    ...extraArgs,
    ...(folder ? [folder] : []),
  ];
  const logFile = path.join(runDir.logs, 'code-server.log');
  const out = fs.openSync(logFile, 'a');
  const childEnv = {
    ...process.env,
    PATH: `${path.dirname(node)}:${process.env.PATH}`,
    XDG_CONFIG_HOME: runDir.xdgConfig,
    XDG_DATA_HOME: runDir.xdgData,
    XDG_CACHE_HOME: runDir.xdgCache,
    XDG_STATE_HOME: runDir.xdgState,
    ...(isolateHome ? { HOME: runDir.home } : {}),
    // The extension gallery points at a dead local port: no open-vsx.org traffic from a closed network.
    EXTENSIONS_GALLERY: JSON.stringify({
      serviceUrl: 'http://127.0.0.1:9/gallery',
      itemUrl: 'http://127.0.0.1:9/item',
      resourceUrlTemplate: 'http://127.0.0.1:9/r/{publisher}/{name}/{version}/{path}',
    }),
    ...env,
  };
  // Variables of the process that starts us (e.g. when npm start runs inside a VS Code terminal) would
  // confuse the server into talking to another VS Code.
  for (const k of Object.keys(childEnv)) {
    if (/^(VSCODE_(?!PORTABLE)|ELECTRON_RUN_AS_NODE$)/.test(k) && !(k in env)) delete childEnv[k];
  }
  const child = spawn(node, args, { detached: true, stdio: ['ignore', out, out], env: childEnv });
  fs.closeSync(out);
  track('code-server', child.pid);
  let exited = null;
  child.on('exit', (code, sig) => {
    exited = { code, sig };
  });
  const base = `http://${host}:${port}`;
  await waitFor(
    async () => {
      if (exited) throw new Error(`code-server exited early (${JSON.stringify(exited)}); log ${logFile}:\n${tailFile(logFile, 20)}`);
      return (await httpGet(`${base}/healthz`, 2000)).status === 200;
    },
    90000,
    'code-server /healthz',
  );
  if (!quiet) log(`code-server pid ${child.pid} on ${base} (log ${logFile})`);
  return {
    pid: child.pid,
    port,
    host,
    base,
    authority: `${host}:${port}`,
    logFile,
    exited: () => exited,
    stop: () => stopGroup(child.pid, { name: 'code-server' }),
  };
}

/** vscode-remote URI of a path on the code-server machine (what `payload` entries expect). */
export const remoteUri = (cs, absPath) => `vscode-remote://${cs.authority}${path.resolve(absPath)}`;

/** The workbench URL that opens `folder`, with optional payload ([key, value] pairs). */
export function workbenchUrl(cs, { folder, workspaceFile, payload } = {}) {
  const q = [];
  if (workspaceFile) q.push(`workspace=${encodeURIComponent(path.resolve(workspaceFile))}`);
  else if (folder) q.push(`folder=${encodeURIComponent(path.resolve(folder))}`);
  if (payload) q.push(`payload=${encodeURIComponent(JSON.stringify(payload))}`);
  return `${cs.base}/${q.length ? `?${q.join('&')}` : ''}`;
}

// ------------------------------------------------------------------ Chromium over CDP
/** Starts Debian's Chromium (own process group, throw-away profile and HOME) and connects playwright-core. */
export async function startChromium({ runDir, width = 1400, height = 900, headless = true } = {}) {
  const { chromium: chromiumPath } = await ensureChromium();
  const { chromium } = await import('playwright-core');
  const args = [
    ...(headless ? ['--headless'] : []),
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-extensions',
    '--disable-dev-shm-usage',
    '--disable-breakpad',
    '--disable-crash-reporter',
    '--disable-features=Translate,MediaRouter,OptimizationHints',
    '--password-store=basic',
    '--use-mock-keychain',
    `--window-size=${width},${height}`,
    `--user-data-dir=${runDir.chromiumProfile}`,
    '--remote-debugging-address=127.0.0.1',
    '--remote-debugging-port=0',
    'about:blank',
  ];
  const home = runDir.chromiumHome; // crashpad DB, dconf and friends stay out of the real HOME
  const child = spawn(chromiumPath, args, {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XDG_DATA_HOME: path.join(home, '.local/share'),
    },
  });
  track('chromium', child.pid);
  const errLog = fs.createWriteStream(path.join(runDir.logs, 'chromium.log'));
  const wsUrl = await new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(
      () => reject(new Error(`chromium printed no DevTools URL within 30s; see ${runDir.logs}/chromium.log`)),
      30000,
    );
    child.stderr.on('data', (d) => {
      errLog.write(d);
      buf += d;
      const m = buf.match(/DevTools listening on (ws:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (c, s) => {
      clearTimeout(timer);
      reject(new Error(`chromium exited (${c ?? s}); see ${runDir.logs}/chromium.log`));
    });
  });
  child.stderr.on('data', (d) => errLog.write(d));
  const browser = await chromium.connectOverCDP(wsUrl);
  const context = browser.contexts()[0];
  const page = context.pages()[0] || (await context.newPage());
  await page.setViewportSize({ width, height });
  return {
    browser,
    context,
    page,
    pid: child.pid,
    stop: async () => {
      // browser.close() only disconnects a CDP-attached browser; ask Chromium itself to quit, then make sure.
      try {
        const cdp = await browser.newBrowserCDPSession();
        await cdp.send('Browser.close');
      } catch {
        /* already gone */
      }
      await browser.close().catch(() => {});
      await stopGroup(child.pid, { name: 'chromium', graceMs: 3000 });
    },
  };
}

// ------------------------------------------------------------------ extension host log (server side)
/** Text of the remote extension host log(s) of a run: <user-data>/logs/<time>/exthost<N>/remoteexthost.log. */
export function extensionHostLog(runDir) {
  const root = path.join(runDir.userData, 'logs');
  let text = '';
  try {
    for (const session of fs.readdirSync(root).sort()) {
      const dir = path.join(root, session);
      if (!fs.statSync(dir).isDirectory()) continue;
      for (const host of fs
        .readdirSync(dir)
        .filter((d) => /^exthost\d+$/.test(d))
        .sort()) {
        const f = path.join(dir, host, 'remoteexthost.log');
        if (fs.existsSync(f)) text += fs.readFileSync(f, 'utf8');
      }
    }
  } catch {
    /* no logs yet */
  }
  return text;
}

/**
 * What the extension host says about activating `id`: { activated, event, error } — error holds the logged
 * failure (message and first stack lines) when activation threw. Waits up to timeoutMs for the activation
 * line when wait is true, then a moment for a failure line to follow it.
 */
const FAILURE_GRACE_MS = 1000;

/**
 * package.json as VS Code shows it: every `%key%` string replaced by its text in package.nls.json (the
 * workbench never shows the keys, so tests that look for contributed words must look for these).
 */
export function localizedManifest() {
  const nls = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.nls.json'), 'utf8'));
  return JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'), (_key, v) =>
    typeof v === 'string' ? v.replace(/^%([^%]+)%$/, (m, k) => nls[k] ?? m) : v,
  );
}

export async function activationStatus(runDir, { id = EXTENSION_ID, wait = true, timeoutMs = 30000 } = {}) {
  const esc = id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const started = new RegExp(`_doActivateExtension ${esc}[^\\n]*activationEvent: '([^']*)'`);
  const failed = new RegExp(`Activating extension ${esc} failed[^\\n]*\\n((?:.*\\n){0,6})`);
  const end = Date.now() + (wait ? timeoutMs : 0);
  let m = started.exec(extensionHostLog(runDir));
  while (!m && Date.now() < end) {
    await nextPoll();
    m = started.exec(extensionHostLog(runDir));
  }
  if (!m) return { activated: false, event: null, error: null };
  // A failure is logged once activate() has thrown or rejected, after the activation line: looked for
  // until it appears or FAILURE_GRACE_MS have passed (a wait for something that should not come is bounded).
  let f = failed.exec(extensionHostLog(runDir));
  for (const until = Date.now() + (wait ? FAILURE_GRACE_MS : 0); !f && Date.now() < until; f = failed.exec(extensionHostLog(runDir)))
    await nextPoll();
  return { activated: true, event: m[1], error: f ? f[1].trim() : null };
}

// ------------------------------------------------------------------ high-level entry points
/**
 * Opens the workbench on a fresh workspace with the extension loaded.
 *   mode 'development' (default): as a development extension through the URL payload (smoke-test driver on);
 *   mode 'installed': symlinked into the extensions dir (a normal start, no payload needed).
 * opts: extensionDir, extraExtensionDirs (more extensions loaded the same way), installedExtensionDirs (linked into
 * the extensions dir in either mode: code-server loads only one development extension), fixture | workspace (used in place), git, settings (user settings.json), env (extension
 * host env), extensionTestsPath (runs tests), onLog(type, line), browser: false (code-server only).
 * Returns { runDir, cs, page?, browser?, workspace, url, close() }.
 */
export async function launch({
  extensionDir = repoRoot,
  extraExtensionDirs = [],
  installedExtensionDirs = [],
  mode = 'development',
  fixture = defaultFixture,
  workspace,
  git = false,
  settings = {},
  env = {},
  extensionTestsPath,
  onLog,
  browser = true,
  runDir,
  isolateHome = true,
  width,
  height,
  multiRoot = false,
} = {}) {
  assertBuilt(extensionDir);
  runDir = runDir || makeRunDir();
  writeUserSettings(runDir, settings);
  const ws = workspace ? fs.realpathSync(workspace) : prepareWorkspace({ fixture, dest: path.join(runDir.dir, 'workspace'), git });
  // Multi-root: two copies of the fixture side by side, opened through a .code-workspace file.
  let workspaceFile;
  if (multiRoot) {
    const second = prepareWorkspace({ fixture, dest: path.join(runDir.dir, 'workspace-b'), git });
    workspaceFile = path.join(runDir.dir, 'multi.code-workspace');
    fs.writeFileSync(
      workspaceFile,
      JSON.stringify(
        {
          folders: [
            { path: ws, name: 'alpha' },
            { path: second, name: 'beta' },
          ],
        },
        null,
        2,
      ),
    );
  }
  if (mode === 'installed') for (const d of [extensionDir, ...extraExtensionDirs]) installExtensionLink(runDir, d);
  for (const d of installedExtensionDirs) installExtensionLink(runDir, d);
  const smokeDriver = mode === 'development';
  const cs = await startCodeServer({ runDir, env, smokeDriver, isolateHome });
  const result = { runDir, cs, workspace: ws, workspaceFile, url: workbenchUrl(cs, { folder: ws, workspaceFile }) };
  const close = () => Promise.all([result.chromium?.stop(), cs.stop()]);
  result.close = close;
  if (!browser) return result;

  const chromium = await startChromium({ runDir, width, height });
  result.chromium = chromium;
  result.page = chromium.page;
  result.browser = chromium.browser;
  const page = chromium.page;
  let resolveExit;
  result.exited = new Promise((r) => {
    resolveExit = r;
  });
  result.logLines = [];
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const line = (Array.isArray(args) ? args : [args]).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
    result.logLines.push(`[${type}] ${line}`);
    if (onLog) onLog(type, line);
  });
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit({ code, via: 'codeAutomationExit' }));
  page.on('pageerror', (e) => result.logLines.push(`[pageerror] ${e.message}`));
  if (smokeDriver) {
    const payload = [
      ...[extensionDir, ...extraExtensionDirs].map((d) => ['extensionDevelopmentPath', remoteUri(cs, d)]),
      ...(extensionTestsPath ? [['extensionTestsPath', remoteUri(cs, extensionTestsPath)]] : []),
      // Env reaches the extension host twice: inherited from code-server (env above) and from the payload.
      ['extensionEnvironment', JSON.stringify(env)],
      ['skipWelcome', 'true'],
    ];
    result.url = workbenchUrl(cs, { folder: ws, workspaceFile, payload });
  }
  await page.goto(result.url);
  return result;
}

/**
 * Runs a mocha suite (compiled module, path without or with .js) in the extension host.
 * Returns { code, via, results, output, timings, mem } — code 0 pass, 1 failures, 2 harness error/timeout.
 */
export async function runExtensionTests({ extensionTestsPath, timeoutMs = 300000, verbose = false, env = {}, ...rest }) {
  startMemSampler();
  const tStart = Date.now();
  const resultsFile = path.join(os.tmpdir(), `agent-rewind-results-${process.pid}-${Date.now()}.json`);
  const runEnv = { AGENT_REWIND_TEST_RESULTS: resultsFile, ...env };
  let session;
  try {
    session = await launch({
      ...rest,
      env: runEnv,
      extensionTestsPath: extensionTestsPath.replace(/\.js$/, ''),
      onLog: verbose ? (t, l) => console.log(`[workbench ${t}] ${l}`) : undefined,
    });
    const tLoaded = Date.now();
    let tWorkbench = null;
    session.page.waitForSelector('.monaco-workbench', { timeout: timeoutMs }).then(
      () => {
        tWorkbench = Date.now();
      },
      () => {},
    );
    const timer = new Promise((r) => setTimeout(() => r({ code: 2, via: 'timeout' }), timeoutMs).unref());
    const exitedEarly = new Promise((r) => {
      const iv = setInterval(() => {
        if (session.cs.exited()) {
          clearInterval(iv);
          r({ code: 2, via: 'code-server exited' });
        }
      }, 500);
      iv.unref();
    });
    const res = await Promise.race([session.exited, timer, exitedEarly]);
    const tDone = Date.now();
    let results = null;
    try {
      results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
    } catch {
      /* not written */
    }
    fs.rmSync(resultsFile, { force: true });
    let code = res.code;
    if (!results)
      code = 2; // the suite never reported: treat as harness failure even if the host said 0
    else if (results.failures > 0) code = 1;
    else if (res.via === 'timeout') code = 2;
    const out = {
      code,
      via: res.via,
      results,
      output: results ? results.output : null,
      logTail: session.logLines.slice(-200).join('\n'),
      codeServerLog: tailFile(session.cs.logFile, 40),
      timings: {
        launchToPage: (tLoaded - tStart) / 1000,
        workbench: tWorkbench ? (tWorkbench - tStart) / 1000 : null,
        total: (tDone - tStart) / 1000,
      },
    };
    await session.close();
    out.mem = memPeaksMiB();
    return out;
  } finally {
    if (session) await session.close().catch(() => {});
    fs.rmSync(resultsFile, { force: true });
  }
}
