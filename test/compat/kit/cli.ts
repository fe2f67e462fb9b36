// The compat kit's agent-CLI driver: every real client (Claude Code, Codex, Gemini CLI, OpenCode, Qwen
// Code, …) is installed the same way and run the same way.
//
// Install: pinned, from the npm registry, once, into `<tools dir>/<id>-<version>/` (tools dir:
// AGENT_REWIND_TOOLS_DIR or .vscode-test; never a project dependency), shared by every tier and
// engineer that points at the same tools dir. A re-run costs one presence check. An existing binary
// can be named by the client's own variable (AGENT_REWIND_<X>_BIN); `<X>_VERSION` asks for another
// version than the pin (`latest` and the like are resolved with one registry look-up).
//
// Run: one child process with its own environment, stdin closed, output collected, bounded in time
// (the whole process group is killed at the limit: several clients relaunch themselves). Asynchronous
// on purpose: the scripted model server usually lives in the same process and must keep answering.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../../..');
export const toolsDir = path.resolve(process.env.AGENT_REWIND_TOOLS_DIR || path.join(repoRoot, '.vscode-test'));

export interface ToolSpec {
  /** Folder name prefix in the tools dir, e.g. `codex` → `<tools dir>/codex-0.171.0`. */
  id: string;
  /** The npm package, e.g. `@openai/codex`. */
  pkg: string;
  /** The pinned version. */
  pin: string;
  /** The variable that asks for another version, e.g. `CODEX_VERSION`. */
  versionVar: string;
  /** The variable that names an existing binary, e.g. `AGENT_REWIND_CODEX_BIN`. */
  binVar: string;
  /** Roughly how much the install brings, for the log line. */
  size: string;
  /** Binaries to try in an install folder, best first. */
  candidates(dir: string): string[];
  /** The version a binary reports, or null when it does not run. */
  versionOf(bin: string): string | null;
  /** Platform builds published as versions of the same package (`0.171.0-linux-x64`) are not versions to run. */
  plainVersionsOnly?: boolean;
  /** Called when no candidate runs after `npm install` (e.g. a postinstall npm did not run); may make one run. */
  repair?(dir: string, log: (s: string) => void): void;
  /** Why a binary that runs cannot be used here (e.g. the Node it needs), or null. */
  unusable?(bin: string): string | null;
}

export interface ToolInstall {
  bin: string;
  version: string;
  how: 'env' | 'cached' | 'installed';
}

export function installDir(spec: ToolSpec, version: string): string {
  return path.join(toolsDir, `${spec.id}-${version}`);
}

/** `latest`, `2.1` and the like → an exact version, from the registry (a single look-up). */
function resolveVersion(spec: ToolSpec, v: string, log: (s: string) => void): string {
  if (/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(v)) return v;
  log(`resolving ${spec.pkg}@${v} …`);
  const r = spawnSync('npm', ['view', `${spec.pkg}@${v}`, 'version', '--json'], { encoding: 'utf8', timeout: 60000 });
  if (r.status !== 0) throw new Error(`Could not resolve ${spec.pkg}@${v} from the npm registry: ${r.stderr.trim().split('\n').pop()}`);
  const parsed = JSON.parse(r.stdout) as string | string[];
  const all = (Array.isArray(parsed) ? parsed : [parsed]).filter((x) => !spec.plainVersionsOnly || /^\d+\.\d+\.\d+$/.test(x));
  if (!all.length) throw new Error(`${spec.pkg}@${v} resolves to no plain version (${r.stdout.trim()})`);
  return all[all.length - 1]!;
}

function working(spec: ToolSpec, dir: string, version: string): string | null {
  for (const bin of spec.candidates(dir)) if (fs.existsSync(bin) && spec.versionOf(bin) === version) return bin;
  return null;
}

function checked(spec: ToolSpec, found: ToolInstall): ToolInstall {
  const why = spec.unusable?.(found.bin);
  if (why) throw new Error(why);
  return found;
}

/**
 * A working binary of the client (default: `<versionVar>` or the pin). Reuses the cache; installs
 * otherwise unless `install: false`. Throws a sentence saying what to do when it cannot.
 */
export function ensureTool(
  spec: ToolSpec,
  opts: { version?: string; install?: boolean; log?: (s: string) => void; timeoutMs?: number } = {},
): ToolInstall {
  const log = opts.log ?? ((s: string) => process.stderr.write(`[${spec.id}] ${s}\n`));
  const envBin = process.env[spec.binVar];
  if (envBin) {
    const v = fs.existsSync(envBin) ? spec.versionOf(envBin) : null;
    if (!v) throw new Error(`${spec.binVar}=${envBin} does not run (\`--version\` failed).`);
    return checked(spec, { bin: envBin, version: v, how: 'env' });
  }
  const version = resolveVersion(spec, opts.version ?? (process.env[spec.versionVar]?.trim() || spec.pin), log);
  const dir = installDir(spec, version);
  const cached = working(spec, dir, version);
  if (cached) return checked(spec, { bin: cached, version, how: 'cached' });
  if (opts.install === false)
    throw new Error(`${spec.pkg} ${version} is not installed in ${dir}; run the compat tier once with access to the npm registry.`);
  log(`installing ${spec.pkg}@${version} into ${dir} (one-time, ${spec.size}) …`);
  fs.mkdirSync(dir, { recursive: true });
  const r = spawnSync(
    'npm',
    ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `${spec.pkg}@${version}`],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: opts.timeoutMs ?? 15 * 60 * 1000,
    },
  );
  if (r.status !== 0)
    throw new Error(
      `npm could not install ${spec.pkg}@${version} (${r.error?.message ?? `exit ${r.status ?? r.signal}`}); check access to the npm registry.`,
    );
  let bin = working(spec, dir, version);
  if (!bin && spec.repair) {
    spec.repair(dir, log);
    bin = working(spec, dir, version);
  }
  if (!bin)
    throw new Error(
      `Installed ${spec.pkg}@${version} but no binary in ${dir} runs \`--version\`; is there a native package for ${process.platform}-${process.arch}?`,
    );
  return checked(spec, { bin, version, how: 'installed' });
}

/**
 * `<bin> --version` with a throwaway HOME (not even `--version` may touch the user's dot-folders) and
 * only PATH besides what `extra(home)` adds, → the first match of `pattern` it prints, or null.
 */
export function versionFromOutput(
  bin: string,
  args: string[],
  extra: (home: string) => Record<string, string> = () => ({}),
  pattern = /(\d+\.\d+\.\d+\S*)/,
): string | null {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ar-version-'));
  try {
    const [cmd, argv] = command(bin, args);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...extra(home) };
    const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 30000, env });
    const m = r.status === 0 ? pattern.exec(r.stdout) : null;
    return m ? m[1]! : null;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** What every scripted client run starts from: PATH and the locale from here, its own HOME, no git config of the machine. */
export function baseEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TMPDIR: os.tmpdir(), LANG: 'C.UTF-8', GIT_CONFIG_NOSYSTEM: '1' };
}

/** A `.js` entry runs with the node that runs us; anything else is executed as is. */
export function command(bin: string, args: string[]): [string, string[]] {
  return bin.endsWith('.js') ? [process.execPath, [bin, ...args]] : [bin, args];
}

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

/** One run of a client, bounded by `timeoutMs` (default 120 s); the whole process group is killed then. */
export function runCli(
  bin: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number; name?: string },
): Promise<CliRun> {
  const t0 = Date.now();
  const limit = opts.timeoutMs ?? 120000;
  const [cmd, argv] = command(bin, args);
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      stderr += `\n[compat] ${opts.name ?? path.basename(bin)} did not finish in ${limit} ms; killed.`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, limit);
    child.on('error', (e) => (stderr += `\n${e.message}`));
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - t0, timedOut });
    });
  });
}

/** The first JSON value printed (after any banner), or undefined. */
export function jsonOf<T>(stdout: string): T | undefined {
  const at = stdout.search(/[[{]/);
  if (at < 0) return undefined;
  try {
    return JSON.parse(stdout.slice(at)) as T;
  } catch {
    return undefined;
  }
}

/** Every line of stdout that is a JSON object (`--json` / stream-json event output). */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const l of stdout.split('\n')) {
    if (!l.startsWith('{')) continue;
    try {
      out.push(JSON.parse(l));
    } catch {
      /* not an event */
    }
  }
  return out;
}
