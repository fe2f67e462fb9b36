// The real Gemini CLI for compat experiments: installed from the npm registry into a cache folder
// (never a project dependency), run offline against our scripted Gemini API with an isolated HOME.
//
//   <tools dir>/gemini-cli-<version>/node_modules/@google/gemini-cli/bundle/gemini.js
//   (tools dir: AGENT_REWIND_TOOLS_DIR or .vscode-test; GEMINI_CLI_VERSION=<x> to try another version;
//    AGENT_REWIND_GEMINI_BIN=<path to gemini.js or a gemini launcher> to use an existing install)
//
// The package is plain JavaScript (a bundle, no native parts needed, no install scripts) and wants
// Node >= 20, so it runs on the node that runs us. Presence is checked by reading the installed
// package.json (fast); `gemini --version` takes seconds.
import { spawn, spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const GEMINI_CLI_PIN = '0.61.0';
export const repoRoot = path.resolve(__dirname, '../../..');
export const toolsDir = path.resolve(process.env.AGENT_REWIND_TOOLS_DIR || path.join(repoRoot, '.vscode-test'));

const PACKAGE = '@google/gemini-cli';

export interface GeminiInstall {
  /** The script to run with node (`bundle/gemini.js`), or a launcher when given by env. */
  bin: string;
  version: string;
  how: 'env' | 'cached' | 'installed';
}

export function wantedVersion(): string {
  return process.env.GEMINI_CLI_VERSION?.trim() || GEMINI_CLI_PIN;
}

function installDir(version: string): string {
  return path.join(toolsDir, `gemini-cli-${version}`);
}

function installed(dir: string): { bin: string; version: string; engines?: string } | null {
  const pkgDir = path.join(dir, 'node_modules', ...PACKAGE.split('/'));
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string; engines?: { node?: string } };
    const bin = path.join(pkgDir, 'bundle', 'gemini.js');
    return fs.existsSync(bin) ? { bin, version: pkg.version, engines: pkg.engines?.node } : null;
  } catch {
    return null;
  }
}

/** `>=20` and the like against this node; anything fancier is not checked. */
function nodeSatisfies(range: string | undefined): boolean {
  const m = /^>=\s*(\d+)/.exec(range ?? '');
  return !m || Number(process.versions.node.split('.')[0]) >= Number(m[1]);
}

/** `latest` and the like → an exact version, from the registry (a single look-up). */
function resolveVersion(v: string, log: (s: string) => void): string {
  if (/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(v)) return v;
  log(`resolving ${PACKAGE}@${v} …`);
  const r = spawnSync('npm', ['view', `${PACKAGE}@${v}`, 'version', '--json'], { encoding: 'utf8', timeout: 60000 });
  if (r.status !== 0) throw new Error(`Could not resolve ${PACKAGE}@${v} from the npm registry: ${r.stderr.trim().split('\n').pop()}`);
  const parsed = JSON.parse(r.stdout) as string | string[];
  return Array.isArray(parsed) ? parsed[parsed.length - 1]! : parsed;
}

/**
 * A runnable Gemini CLI of `version` (default: GEMINI_CLI_VERSION or the pin): the cache when it
 * holds that version, else `npm install --prefix <tools dir>/gemini-cli-<version>` (~100 MB, ~10 s).
 * Throws with a sentence saying what to do when it cannot.
 */
export function ensureGemini(opts: { version?: string; install?: boolean; log?: (s: string) => void } = {}): GeminiInstall {
  const log = opts.log ?? ((s: string) => process.stderr.write(`[gemini] ${s}\n`));
  const envBin = process.env.AGENT_REWIND_GEMINI_BIN;
  if (envBin) {
    if (!fs.existsSync(envBin)) throw new Error(`AGENT_REWIND_GEMINI_BIN=${envBin} does not exist.`);
    return { bin: envBin, version: 'unknown (AGENT_REWIND_GEMINI_BIN)', how: 'env' };
  }
  const version = resolveVersion(opts.version ?? wantedVersion(), log);
  const dir = installDir(version);
  let found = installed(dir);
  let how: GeminiInstall['how'] = 'cached';
  if (!found || found.version !== version) {
    if (opts.install === false)
      throw new Error(
        `Gemini CLI ${version} is not installed in ${dir}; run test/compat/gemini/explore.ts once with access to the npm registry.`,
      );
    log(`installing ${PACKAGE}@${version} into ${dir} (one-time, ~100 MB) …`);
    fs.mkdirSync(dir, { recursive: true });
    const r = spawnSync(
      'npm',
      ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `${PACKAGE}@${version}`],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
        timeout: 10 * 60 * 1000,
      },
    );
    if (r.status !== 0)
      throw new Error(
        `npm could not install ${PACKAGE}@${version} (${r.error?.message ?? `exit ${r.status ?? r.signal}`}); check access to the npm registry.`,
      );
    found = installed(dir);
    how = 'installed';
    if (!found || found.version !== version)
      throw new Error(`Installed ${PACKAGE}@${version} but ${dir} holds no bundle/gemini.js of that version.`);
  }
  if (!nodeSatisfies(found.engines)) {
    throw new Error(
      `Gemini CLI ${version} needs node ${found.engines}, this is ${process.version}; install node from npm into .vscode-test/ and run with it.`,
    );
  }
  return { bin: found.bin, version, how };
}

/**
 * The environment of a scripted run: isolated HOME (so ~/.gemini is ours), our local API with a
 * dummy key (the auth type comes from the user settings, see settings.ts), TMPDIR inside the
 * world (error reports land there), nothing phoning home.
 */
export function geminiEnv(home: string, apiUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: path.join(home, '..', 'tmp'),
    LANG: process.env.LANG ?? 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    // The agent's hooks record by themselves: no resident recorder outlives the run (scripts/test.mjs).
    AGENT_REWIND_RESIDENT: process.env.AGENT_REWIND_RESIDENT ?? '0',
    GEMINI_API_KEY: 'dummy-key-for-the-local-mock',
    GOOGLE_GEMINI_BASE_URL: apiUrl,
    // No git identity or config from the machine: the scripted commands carry `-c user.name=…`.
    GIT_CONFIG_NOSYSTEM: '1',
    ...extra,
  };
}

export interface GeminiRun {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** `-o json` result, when it parsed: `{ session_id, response, stats }` or `{ session_id, error }`. */
  result?: {
    session_id?: string;
    response?: string;
    error?: { type?: string; message?: string; code?: number };
    stats?: unknown;
    [k: string]: unknown;
  };
}

/** Runs `gemini.js` with this node (or a launcher from AGENT_REWIND_GEMINI_BIN as is). */
export function command(bin: string, args: string[]): [string, string[]] {
  return bin.endsWith('.js') ? [process.execPath, [bin, ...args]] : [bin, args];
}

/**
 * One `gemini` run, bounded by `timeoutMs`. Asynchronous on purpose: the scripted API server
 * usually lives in this same process and must keep answering while the CLI runs. The CLI
 * relaunches itself as a child (same node, GEMINI_CLI_NO_RELAUNCH=true): we kill the group.
 */
export function runGemini(
  bin: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<GeminiRun> {
  const t0 = Date.now();
  const [cmd, argv] = command(bin, args);
  fs.mkdirSync(String(opts.env.TMPDIR ?? path.join(opts.cwd, '..', 'tmp')), { recursive: true });
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const limit = opts.timeoutMs ?? 120000;
    const timer = setTimeout(() => {
      stderr += `\n[gemini] did not finish in ${limit} ms; killed.`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, limit);
    child.on('error', (e) => (stderr += `\n${e.message}`));
    child.on('close', (status) => {
      clearTimeout(timer);
      const run: GeminiRun = { status, stdout, stderr, ms: Date.now() - t0 };
      try {
        run.result = JSON.parse(stdout.slice(stdout.indexOf('{')));
      } catch {
        /* not JSON */
      }
      resolve(run);
    });
  });
}

/** The arguments of a scripted headless prompt: tools run without asking (`yolo`), JSON result. */
export function promptArgs(prompt: string, opts: { resume?: string; approval?: 'yolo' | 'auto_edit' | 'default' } = {}): string[] {
  return ['-p', prompt, '--approval-mode', opts.approval ?? 'yolo', '-o', 'json', ...(opts.resume ? ['--resume', opts.resume] : [])];
}

/** `projectHash` in chat files: sha256 of the project root path (hex). */
export function projectHash(projectRoot: string): string {
  return crypto.createHash('sha256').update(projectRoot).digest('hex');
}

/**
 * `~/.gemini/tmp/<slug>/chats` of a project: the slug comes from `~/.gemini/projects.json`
 * (`{ "projects": { "<abs root>": "<slug>" } }`; a new root gets its base name, lower-cased, with
 * `-1`, `-2`… on collisions, claimed by a `.project_root` marker file in the slug folder).
 */
export function chatsDir(home: string, projectRoot: string): string | null {
  try {
    const reg = JSON.parse(fs.readFileSync(path.join(home, '.gemini', 'projects.json'), 'utf8')) as { projects?: Record<string, string> };
    const slug = reg.projects?.[path.resolve(projectRoot)];
    return slug ? path.join(home, '.gemini', 'tmp', slug, 'chats') : null;
  } catch {
    return null;
  }
}

/** Session files of a project (`session-<YYYY-MM-DDTHH-mm>-<first 8 of id>.jsonl`), by name. */
export function sessionFiles(home: string, projectRoot: string): string[] {
  const dir = chatsDir(home, projectRoot);
  if (!dir || !fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith('session-') && /\.jsonl?$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}
