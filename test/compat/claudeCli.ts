// The real Claude Code CLI for the compat tier and the demo recorder, through the compat kit's driver
// (kit/cli.ts): installed pinned into the tools folder, run offline against the kit's scripted model
// server (wire `anthropic`) with an isolated HOME.
//
//   <tools dir>/claude-code-<version>/node_modules/.bin/claude      (CLAUDE_CODE_VERSION, AGENT_REWIND_CLAUDE_BIN)
//
// npm 11 does not run install scripts by default, and the package's postinstall is what puts the
// native binary in place of the `bin/claude.exe` stub. So after installing we run `--version` on
// `.bin/claude`, then on the platform package's own binary (which works without the postinstall),
// and only if neither runs do we run the package's install.cjs ourselves.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureTool, runCli, type ToolInstall, type ToolSpec, versionFromOutput } from './kit/cli';

export { repoRoot, toolsDir } from './kit/cli';

export const CLAUDE_CODE_PIN = '2.1.332';
const PACKAGE = '@anthropic-ai/claude-code';

/** `claude --version` → `2.1.332`, or null when the binary does not run. */
export function binaryVersion(bin: string): string | null {
  return versionFromOutput(bin, ['--version'], () => ({ DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1' }));
}

export const CLAUDE_TOOL: ToolSpec = {
  id: 'claude-code',
  pkg: PACKAGE,
  pin: CLAUDE_CODE_PIN,
  versionVar: 'CLAUDE_CODE_VERSION',
  binVar: 'AGENT_REWIND_CLAUDE_BIN',
  candidates(dir) {
    const mods = path.join(dir, 'node_modules');
    const exe = process.platform === 'win32' ? 'claude.exe' : 'claude';
    const out = [path.join(mods, '.bin', process.platform === 'win32' ? 'claude.cmd' : 'claude')];
    try {
      for (const name of fs.readdirSync(path.join(mods, '@anthropic-ai'))) {
        if (name.startsWith('claude-code-')) out.push(path.join(mods, '@anthropic-ai', name, exe));
      }
    } catch {
      /* not installed */
    }
    return out;
  },
  versionOf: binaryVersion,
  repair(dir, log) {
    // npm 11 skips install scripts by default: run the package's postinstall ourselves.
    const pkgDir = path.join(dir, 'node_modules', PACKAGE);
    log('`claude --version` failed after install (postinstall not run); running install.cjs');
    spawnSync(process.execPath, [path.join(pkgDir, 'install.cjs')], {
      cwd: pkgDir,
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: 120000,
    });
  },
};

export type ClaudeInstall = ToolInstall;

/** A working `claude` (CLAUDE_CODE_VERSION or the pin), from the cache or installed. */
export function ensureClaude(opts: Parameters<typeof ensureTool>[1] = {}): ClaudeInstall {
  return ensureTool(CLAUDE_TOOL, opts);
}

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

/** One `claude -p` run (print mode), bounded by `timeoutMs` (default 90 s). */
export async function runClaude(
  bin: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ClaudeRun> {
  const r = await runCli(bin, args, { ...opts, timeoutMs: opts.timeoutMs ?? 90000, name: 'claude' });
  const run: ClaudeRun = { status: r.status, stdout: r.stdout, stderr: r.stderr, ms: r.ms };
  try {
    run.result = JSON.parse(r.stdout);
  } catch {
    /* not JSON */
  }
  return run;
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
