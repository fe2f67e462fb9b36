// The one hook command every Connect writes, and how our entries are recognised in any agent's config.
//
// How our entries are recognised: every command we write carries the argument `--connected-by=agent-rewind`
// (the hook CLI ignores arguments it does not use). The node and CLI paths change between extension
// versions and machines, so they are never part of the identity: Connect replaces any older entry of
// ours (a stale path, a moved store) instead of adding a second one, and Disconnect removes every
// entry carrying the marker — and nothing else, not even a hand-written `agent-rewind hook claude`.
import { quoteArg } from '../../core/shell/quote';
import { AgentRewindError, type HookCommandProblem } from '../../core/errors';

/** The argument that marks a hook command as written by Connect. */
export const CONNECT_MARKER = '--connected-by=agent-rewind';

/** Seconds the agents whose unit is seconds wait for our hook. Our hook gives up by itself after 20 s (src/cli/hook.ts). */
export const HOOK_TIMEOUT_S = 30;

/** A hook command that cannot be written safely (a path no shell can quote, a bad agent or event name). */
const hookCommandError = (problem: HookCommandProblem) => new AgentRewindError('hook-command', problem);

// ---------------------------------------------------------------------------------------- quoting

/**
 * One argument for a POSIX shell: Claude Code hands the command string to a shell (verified with
 * the real 2.1.332 on Linux, hostile paths included: test/compat). On Windows Claude Code needs Git
 * Bash and, as far as we know, runs hook commands through it, so the same quoting applies (a
 * `C:\…` path is literal inside single quotes); if a setup runs hooks through cmd.exe instead, build
 * the command with `shell: 'cmd'`. Newer CLIs also accept an exec form (`args`) that needs no quoting
 * at all; we write the string form because every version reads it. Plain words stay bare; anything
 * else is single-quoted, where nothing is special but the quote itself (`'` → `'\''`): core/shell/quote.
 */
export function shellQuote(arg: string): string {
  if (arg === '') return "''";
  if (arg.includes('\0')) throw hookCommandError({ why: 'nul-in-path' });
  return quoteArg(arg);
}

/**
 * One argument for cmd.exe, in case a hook is ever run by cmd instead of Git Bash: double quotes
 * (a Windows path cannot contain `"`). cmd has no way to quote `%` inside quotes (`%VAR%` still
 * expands) and `!` expands under delayed expansion, so such paths are refused rather than guessed.
 */
export function cmdQuote(arg: string): string {
  if (/["%!\0\r\n]/.test(arg)) throw hookCommandError({ why: 'cmd-unquotable', path: arg });
  return `"${arg}"`;
}

export interface HookCommandParts {
  /** An absolute path to a real Node.js (not VS Code's Electron binary, unless `env` sets ELECTRON_RUN_AS_NODE=1). */
  node: string;
  /** An absolute path to a stable copy of dist/cli.js (one that survives extension updates). */
  cli: string;
  /** The absolute store folder. */
  store: string;
  /** The adapter: `claude`. */
  agent: string;
  /** The event, for agents whose payload does not name it (Cline's one script per event). */
  event?: string;
  /** Environment assignments put before the command (POSIX only), e.g. `{ ELECTRON_RUN_AS_NODE: '1' }`. */
  env?: Record<string, string>;
  /** `posix` (default: sh, bash, Git Bash on Windows) or `cmd`. */
  shell?: 'posix' | 'cmd';
}

/** The hook command line: `'<node>' '<cli>' hook <agent> --store '<store>' --connected-by=agent-rewind`. */
export function hookCommand(p: HookCommandParts): string {
  if (!/^[a-z][a-z0-9-]*$/.test(p.agent)) throw hookCommandError({ why: 'agent-name', name: p.agent });
  if (p.event !== undefined && !/^[A-Za-z][A-Za-z0-9_]*$/.test(p.event)) throw hookCommandError({ why: 'event-name', name: p.event });
  const q = p.shell === 'cmd' ? cmdQuote : shellQuote;
  const env = Object.entries(p.env ?? {});
  if (env.length && p.shell === 'cmd') throw hookCommandError({ why: 'cmd-env' });
  const assigns = env.map(([k, v]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw hookCommandError({ why: 'env-name', name: k });
    return `${k}=${shellQuote(v)}`;
  });
  const event = p.event === undefined ? [] : [p.event];
  return [...assigns, q(p.node), q(p.cli), 'hook', p.agent, ...event, '--store', q(p.store), CONNECT_MARKER].join(' ');
}

/** True for a hook handler that Connect wrote (any version, any path). */
export function isConnectedHandler(h: unknown): boolean {
  if (typeof h !== 'object' || h === null) return false;
  const o = h as Record<string, unknown>;
  return o.type === 'command' && typeof o.command === 'string' && hasMarker(o.command);
}

export function hasMarker(command: string): boolean {
  return /(^|\s)--connected-by=agent-rewind(\s|$)/.test(command);
}
