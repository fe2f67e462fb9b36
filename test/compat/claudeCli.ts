// The real Claude Code CLI for the compat tier and the demo recorder: installed from the npm
// registry into a cache folder (never a project dependency), run offline against our scripted
// Messages API server with an isolated HOME.
//
//   <tools dir>/claude-code-<version>/node_modules/.bin/claude      (tools dir: AGENT_REWIND_TOOLS_DIR or .vscode-test)
//
// npm 11 does not run install scripts by default, and the package's postinstall is what puts the
// native binary in place of the `bin/claude.exe` stub. So after installing we run `--version` on
// `.bin/claude`, then on the platform package's own binary (which works without the postinstall),
// and only if neither runs do we run the package's install.cjs ourselves. Verified both ways here
// (scripts on, and npm_config_ignore_scripts=true). AGENT_REWIND_CLAUDE_BIN: an existing binary.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const CLAUDE_CODE_PIN = '2.1.332';
export const repoRoot = path.resolve(__dirname, '../..');
export const toolsDir = path.resolve(process.env.AGENT_REWIND_TOOLS_DIR || path.join(repoRoot, '.vscode-test'));

const PACKAGE = '@anthropic-ai/claude-code';

export function wantedVersion(): string {
  return process.env.CLAUDE_CODE_VERSION?.trim() || CLAUDE_CODE_PIN;
}

export interface ClaudeInstall {
  bin: string;
  /** What `claude --version` printed, e.g. `2.1.332`. */
  version: string;
  how: 'env' | 'cached' | 'adopted' | 'installed';
}

/** `claude --version` → `2.1.332`, or null when the binary does not run. */
let scratchHome: string | undefined;

export function binaryVersion(bin: string): string | null {
  // A throwaway HOME: not even `--version` may touch the user's ~/.claude.
  scratchHome ??= fs.mkdtempSync(path.join(os.tmpdir(), 'ar-claude-version-'));
  const r = spawnSync(bin, ['--version'], {
    encoding: 'utf8',
    timeout: 30000,
    env: { PATH: process.env.PATH ?? '', HOME: scratchHome, DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1' },
  });
  if (r.status !== 0) return null;
  const m = /(\d+\.\d+\.\d+\S*)/.exec(r.stdout);
  return m ? m[1]! : null;
}

function installDir(version: string): string {
  return path.join(toolsDir, `claude-code-${version}`);
}

function candidates(dir: string): string[] {
  const mods = path.join(dir, 'node_modules');
  const out = [path.join(mods, '.bin', process.platform === 'win32' ? 'claude.cmd' : 'claude')];
  const scoped = path.join(mods, '@anthropic-ai');
  try {
    for (const name of fs.readdirSync(scoped)) {
      if (name.startsWith('claude-code-')) out.push(path.join(scoped, name, process.platform === 'win32' ? 'claude.exe' : 'claude'));
    }
  } catch {
    /* not installed */
  }
  return out;
}

function working(dir: string, version: string): string | null {
  for (const bin of candidates(dir)) if (fs.existsSync(bin) && binaryVersion(bin) === version) return bin;
  return null;
}

/** `latest`, `2.1` and the like → an exact version, from the registry (a single look-up). */
function resolveVersion(v: string, log: (s: string) => void): string {
  if (/^\d+\.\d+\.\d+$/.test(v)) return v;
  log(`resolving ${PACKAGE}@${v} …`);
  const r = spawnSync('npm', ['view', `${PACKAGE}@${v}`, 'version', '--json'], { encoding: 'utf8', timeout: 60000 });
  if (r.status !== 0) throw new Error(`Could not resolve ${PACKAGE}@${v} from the npm registry: ${r.stderr.trim().split('\n').pop()}`);
  const parsed = JSON.parse(r.stdout) as string | string[];
  return Array.isArray(parsed) ? parsed[parsed.length - 1]! : parsed;
}

/**
 * A working `claude` of `version` (default: CLAUDE_CODE_VERSION or the pin). Reuses the cache; adopts
 * an unversioned `<tools dir>/claude-code/` of the same version (hard links, no copy); installs
 * otherwise unless `install: false`. Throws with a sentence saying what to do when it cannot.
 */
export function ensureClaude(
  opts: { version?: string; install?: boolean; log?: (s: string) => void; timeoutMs?: number } = {},
): ClaudeInstall {
  const log = opts.log ?? ((s: string) => process.stderr.write(`[claude] ${s}\n`));
  const envBin = process.env.AGENT_REWIND_CLAUDE_BIN;
  if (envBin) {
    const v = binaryVersion(envBin);
    if (!v) throw new Error(`AGENT_REWIND_CLAUDE_BIN=${envBin} does not run (\`--version\` failed).`);
    return { bin: envBin, version: v, how: 'env' };
  }
  const version = resolveVersion(opts.version ?? wantedVersion(), log);
  const dir = installDir(version);
  const cached = working(dir, version);
  if (cached) return { bin: cached, version, how: 'cached' };

  const legacy = path.join(toolsDir, 'claude-code');
  if (!fs.existsSync(dir) && working(legacy, version)) {
    log(`adopting ${legacy} (${version}) as ${dir}`);
    const cp = spawnSync('cp', ['-al', legacy, dir], { encoding: 'utf8' });
    if (cp.status !== 0) fs.cpSync(legacy, dir, { recursive: true, verbatimSymlinks: true });
    const bin = working(dir, version);
    if (bin) return { bin, version, how: 'adopted' };
  }

  if (opts.install === false)
    throw new Error(
      `Claude Code ${version} is not installed in ${dir}; run \`npm run test:compat\` once with network access to the npm registry.`,
    );
  log(`installing ${PACKAGE}@${version} into ${dir} (one-time, ~400 MB) …`);
  fs.mkdirSync(dir, { recursive: true });
  const r = spawnSync(
    'npm',
    ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--loglevel=error', `${PACKAGE}@${version}`],
    {
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: opts.timeoutMs ?? 15 * 60 * 1000,
    },
  );
  if (r.status !== 0)
    throw new Error(
      `npm could not install ${PACKAGE}@${version} (${r.error?.message ?? `exit ${r.status ?? r.signal}`}); check access to the npm registry.`,
    );
  let bin = working(dir, version);
  if (!bin) {
    // npm 11 skips install scripts by default: run the package's postinstall ourselves.
    const pkgDir = path.join(dir, 'node_modules', PACKAGE);
    log('`claude --version` failed after install (postinstall not run); running install.cjs');
    spawnSync(process.execPath, [path.join(pkgDir, 'install.cjs')], {
      cwd: pkgDir,
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: 120000,
    });
    bin = working(dir, version);
  }
  if (!bin)
    throw new Error(
      `Installed ${PACKAGE}@${version} but no binary in ${dir} runs \`--version\`; is there a native package for ${process.platform}-${process.arch}?`,
    );
  return { bin, version, how: 'installed' };
}

process.on('exit', () => {
  if (scratchHome) fs.rmSync(scratchHome, { recursive: true, force: true });
});

/** The environment of a scripted run: isolated HOME, our local API, nothing phoning home. */
export function claudeEnv(home: string, apiUrl: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TMPDIR: process.env.TMPDIR ?? '/tmp',
    LANG: process.env.LANG ?? 'C.UTF-8',
    TERM: 'dumb',
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: 'x',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    // The agent's hooks record by themselves: no resident recorder outlives the run (scripts/test.mjs).
    AGENT_REWIND_RESIDENT: process.env.AGENT_REWIND_RESIDENT ?? '0',
    // No git identity or config from the machine: the scripted commands carry `-c user.name=…`.
    GIT_CONFIG_NOSYSTEM: '1',
    ...extra,
  };
  return env;
}

export interface ClaudeRun {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** `--output-format json` result, when it parsed. */
  result?: { session_id?: string; is_error?: boolean; result?: string; num_turns?: number; [k: string]: unknown };
}

/**
 * One `claude -p` run (print mode), bounded by `timeoutMs`. Asynchronous on purpose: the scripted
 * API server usually lives in this same process and must keep answering while the CLI runs.
 */
export function runClaude(
  bin: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ClaudeRun> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n[compat] claude did not finish in ${opts.timeoutMs ?? 90000} ms; killed.`;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 90000);
    child.on('error', (e) => (stderr += `\n${e.message}`));
    child.on('close', (status) => {
      clearTimeout(timer);
      const run: ClaudeRun = { status, stdout, stderr, ms: Date.now() - t0 };
      try {
        run.result = JSON.parse(stdout);
      } catch {
        /* not JSON */
      }
      resolve(run);
    });
  });
}

/** The arguments of a scripted prompt, as the brief fixes them. */
export function promptArgs(prompt: string, resume?: string): string[] {
  return [
    '-p',
    ...(resume ? ['--resume', resume] : []),
    prompt,
    '--permission-mode',
    'acceptEdits',
    '--allowedTools',
    'Bash,Write,Edit',
    '--output-format',
    'json',
  ];
}

/** `~/.claude/projects/<cwd with every non-alphanumeric character as ->/`. */
export function projectDir(home: string, cwd: string): string {
  return path.join(home, '.claude', 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'));
}
