// The real OpenAI Codex CLI for the compat tier and explore.ts, through the compat kit's driver
// (../kit/cli.ts): installed pinned into the tools folder, run offline against the kit's scripted
// model server (wire `openai-responses`) with a throwaway CODEX_HOME.
//
//   <tools dir>/codex-<version>/node_modules/.bin/codex      (CODEX_VERSION, AGENT_REWIND_CODEX_BIN)
//
// `@openai/codex` is a small node launcher (bin/codex.js) whose native binary comes in a per-platform
// optional dependency (`@openai/codex-linux-x64` = `@openai/codex@<v>-linux-x64`, ~420 MB with its
// vendored rg and helpers). No install script runs, so `npm install` alone gives a working binary.
import * as path from 'node:path';
import { ensureTool, jsonLines, runCli, type ToolInstall, type ToolSpec, versionFromOutput } from '../kit/cli';
import { runInPty } from '../pty';

export { repoRoot, toolsDir } from '../kit/cli';

export const CODEX_PIN = '0.171.0';

/** `codex --version` → `0.171.0`, or null when the binary does not run. Never touches a real ~/.codex. */
export function binaryVersion(bin: string): string | null {
  const codexHome = (home: string) => ({ CODEX_HOME: home });
  return (
    versionFromOutput(bin, ['--version'], codexHome, /codex-cli (\d+\.\d+\.\d+\S*)/) ?? versionFromOutput(bin, ['--version'], codexHome)
  );
}

export const CODEX_TOOL: ToolSpec = {
  id: 'codex',
  pkg: '@openai/codex',
  pin: CODEX_PIN,
  versionVar: 'CODEX_VERSION',
  binVar: 'AGENT_REWIND_CODEX_BIN',
  plainVersionsOnly: true,
  candidates: (dir) => [path.join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'codex.cmd' : 'codex')],
  versionOf: binaryVersion,
};

export type CodexInstall = ToolInstall;

/** A working `codex` (CODEX_VERSION or the pin), from the cache or installed. */
export function ensureCodex(opts: Parameters<typeof ensureTool>[1] = {}): CodexInstall {
  return ensureTool(CODEX_TOOL, opts);
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

/** One `codex …` run, bounded by `timeoutMs` (default 120 s), stdin closed (exec otherwise waits for piped input). */
export async function runCodex(
  bin: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<CodexRun> {
  const r = await runCli(bin, args, { ...opts, name: 'codex' });
  const events = jsonLines(r.stdout);
  const m = /session id: ([0-9a-f-]{36})/.exec(r.stderr);
  const fromEvents = events.find((e) => e.type === 'thread.started')?.thread_id;
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    ms: r.ms,
    sessionId: m?.[1] ?? (typeof fromEvents === 'string' ? fromEvents : undefined),
    events,
  };
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
