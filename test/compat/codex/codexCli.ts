// The real OpenAI Codex CLI for the compat tier and explore.ts: installed from the npm registry into
// a cache folder (never a project dependency), run offline against our scripted Responses API server
// with a throwaway CODEX_HOME.
//
//   <tools dir>/codex-<version>/node_modules/.bin/codex      (tools dir: AGENT_REWIND_TOOLS_DIR or .vscode-test)
//
// `@openai/codex` is a small node launcher (bin/codex.js) whose native binary comes in a per-platform
// optional dependency (`@openai/codex-linux-x64` = `@openai/codex@<v>-linux-x64`, ~420 MB with its
// vendored rg and helpers). No install script runs, so `npm install` alone gives a working binary.
// AGENT_REWIND_CODEX_BIN: an existing binary; CODEX_VERSION: another version than the pin.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runInPty } from '../pty';

export const CODEX_PIN = '0.171.0';
export const repoRoot = path.resolve(__dirname, '../../..');
export const toolsDir = path.resolve(process.env.AGENT_REWIND_TOOLS_DIR || path.join(repoRoot, '.vscode-test'));

const PACKAGE = '@openai/codex';

export function wantedVersion(): string {
  return process.env.CODEX_VERSION?.trim() || CODEX_PIN;
}

export interface CodexInstall {
  bin: string;
  /** What `codex --version` printed after `codex-cli `, e.g. `0.171.0`. */
  version: string;
  how: 'env' | 'cached' | 'installed';
}

let scratchHome: string | undefined;

/** `codex --version` → `0.171.0`, or null when the binary does not run. Never touches a real ~/.codex. */
export function binaryVersion(bin: string): string | null {
  scratchHome ??= fs.mkdtempSync(path.join(os.tmpdir(), 'ar-codex-version-'));
  const r = spawnSync(bin, ['--version'], {
    encoding: 'utf8',
    timeout: 30000,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: scratchHome, CODEX_HOME: scratchHome },
  });
  if (r.status !== 0) return null;
  const m = /codex-cli (\d+\.\d+\.\d+\S*)/.exec(r.stdout) ?? /(\d+\.\d+\.\d+\S*)/.exec(r.stdout);
  return m ? m[1]! : null;
}

process.on('exit', () => {
  if (scratchHome) fs.rmSync(scratchHome, { recursive: true, force: true });
});

export function installDir(version: string): string {
  return path.join(toolsDir, `codex-${version}`);
}

function launcher(dir: string): string {
  return path.join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'codex.cmd' : 'codex');
}

/** `latest` and the like → an exact version, from the registry (a single look-up). */
function resolveVersion(v: string, log: (s: string) => void): string {
  if (/^\d+\.\d+\.\d+$/.test(v)) return v;
  log(`resolving ${PACKAGE}@${v} …`);
  const r = spawnSync('npm', ['view', `${PACKAGE}@${v}`, 'version', '--json'], { encoding: 'utf8', timeout: 60000 });
  if (r.status !== 0) throw new Error(`Could not resolve ${PACKAGE}@${v} from the npm registry: ${r.stderr.trim().split('\n').pop()}`);
  const parsed = JSON.parse(r.stdout) as string | string[];
  // Platform builds are published as versions too (`0.171.0-linux-x64`): take the plain one.
  const plain = (Array.isArray(parsed) ? parsed : [parsed]).filter((x) => /^\d+\.\d+\.\d+$/.test(x));
  if (!plain.length) throw new Error(`${PACKAGE}@${v} resolves to no plain version (${r.stdout.trim()})`);
  return plain[plain.length - 1]!;
}

/**
 * A working `codex` of `version` (default: CODEX_VERSION or the pin). Reuses the cache (a re-run
 * costs one `--version`), installs otherwise unless `install: false`. Throws a sentence saying what
 * to do when it cannot.
 */
export function ensureCodex(
  opts: { version?: string; install?: boolean; log?: (s: string) => void; timeoutMs?: number } = {},
): CodexInstall {
  const log = opts.log ?? ((s: string) => process.stderr.write(`[codex] ${s}\n`));
  const envBin = process.env.AGENT_REWIND_CODEX_BIN;
  if (envBin) {
    const v = binaryVersion(envBin);
    if (!v) throw new Error(`AGENT_REWIND_CODEX_BIN=${envBin} does not run (\`--version\` failed).`);
    return { bin: envBin, version: v, how: 'env' };
  }
  const version = resolveVersion(opts.version ?? wantedVersion(), log);
  const dir = installDir(version);
  const bin = launcher(dir);
  if (fs.existsSync(bin) && binaryVersion(bin) === version) return { bin, version, how: 'cached' };
  if (opts.install === false)
    throw new Error(`Codex ${version} is not installed in ${dir}; run this once with access to the npm registry.`);
  log(`installing ${PACKAGE}@${version} into ${dir} (one-time, ~420 MB) …`);
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
  const v = fs.existsSync(bin) ? binaryVersion(bin) : null;
  if (v !== version) {
    throw new Error(
      `Installed ${PACKAGE}@${version} but \`${bin} --version\` gives ${v ?? 'nothing'}; is there a native package for ${process.platform}-${process.arch} (@openai/codex-${process.platform}-${process.arch})?`,
    );
  }
  return { bin, version, how: 'installed' };
}

/**
 * The environment of a scripted run: nothing from the machine but PATH and the locale, CODEX_HOME and
 * HOME in the world, the dummy API key the provider's `env_key` names, and TMPDIR inside the world
 * but outside CODEX_HOME (Codex refuses to put its helper aliases — apply_patch and friends, in
 * `$CODEX_HOME/tmp/arg0-*` — under the temp dir, and warns).
 */
export function codexEnv(o: {
  home: string;
  codexHome: string;
  tmp: string;
  apiKeyVar: string;
  extra?: Record<string, string>;
}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: o.home,
    CODEX_HOME: o.codexHome,
    TMPDIR: o.tmp,
    LANG: process.env.LANG ?? 'C.UTF-8',
    TERM: 'dumb',
    // The agent's hooks record by themselves: no resident recorder outlives the run (scripts/test.mjs).
    AGENT_REWIND_RESIDENT: process.env.AGENT_REWIND_RESIDENT ?? '0',
    [o.apiKeyVar]: 'sk-dummy-offline',
    // No git identity or config from the machine: the scripted commands carry `-c user.name=…`.
    GIT_CONFIG_NOSYSTEM: '1',
    ...o.extra,
  };
}

export interface CodexRun {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** The `session id:` line of `codex exec`'s banner (stderr). */
  sessionId?: string;
  /** `--json` events, when asked for. */
  events: Record<string, unknown>[];
}

/**
 * One `codex …` run, bounded by `timeoutMs`, stdin closed (exec otherwise waits for piped input).
 * Asynchronous on purpose: the scripted model server usually lives in this same process.
 */
export function runCodex(
  bin: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<CodexRun> {
  const t0 = Date.now();
  const limit = opts.timeoutMs ?? 120000;
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      stderr += `\n[compat] codex did not finish in ${limit} ms; killed.`;
      child.kill('SIGKILL');
    }, limit);
    child.on('error', (e) => (stderr += `\n${e.message}`));
    child.on('close', (status) => {
      clearTimeout(timer);
      const events: Record<string, unknown>[] = [];
      for (const l of stdout.split('\n')) {
        if (!l.startsWith('{')) continue;
        try {
          events.push(JSON.parse(l));
        } catch {
          /* not an event */
        }
      }
      const m = /session id: ([0-9a-f-]{36})/.exec(stderr);
      const fromEvents = events.find((e) => e.type === 'thread.started')?.thread_id;
      resolve({
        status,
        stdout,
        stderr,
        ms: Date.now() - t0,
        sessionId: m?.[1] ?? (typeof fromEvents === 'string' ? fromEvents : undefined),
        events,
      });
    });
  });
}

/**
 * The arguments of one non-interactive prompt: `codex exec [resume <id>] <prompt>`. No approval
 * prompts and no sandbox come from config.toml (approval_policy = "never", sandbox_mode =
 * "danger-full-access"); `--skip-git-repo-check` so a non-repo folder works too.
 */
export function execArgs(prompt: string, o: { resume?: string; bypassHookTrust?: boolean; json?: boolean } = {}): string[] {
  return [
    'exec',
    ...(o.resume ? ['resume', o.resume] : []),
    '--skip-git-repo-check',
    ...(o.bypassHookTrust ? ['--dangerously-bypass-hook-trust'] : []),
    ...(o.json ? ['--json'] : []),
    prompt,
  ];
}

/**
 * One INTERACTIVE `codex …` (the TUI) in a pseudo-terminal (../pty.ts), e.g. `codex resume <id> <prompt>`:
 * once `done()` holds, Ctrl-C until it quits (Codex asks for a second one).
 */
export async function runCodexTui(
  bin: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; done: () => boolean; timeoutMs?: number },
): Promise<CodexRun & { timedOut: boolean }> {
  const r = await runInPty(bin, args, opts);
  return { ...r, events: [] };
}
