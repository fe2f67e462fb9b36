// Connecting Claude Code to Agent Rewind: our hook handler written into `.claude/settings.local.json`
//, merged with what is there. Pure text-to-text functions (no `vscode` import)
// edited with jsonc-parser, so the user's own hooks, key order and formatting survive, plus a small
// file helper that reads and writes the settings file atomically.
//
// How our entries are recognised: every command we write carries the argument `--connected-by=agent-rewind`
// (the hook CLI ignores arguments it does not use). The node and CLI paths change between extension
// versions and machines, so they are never part of the identity: Connect replaces any older entry of
// ours (a stale path, a moved store) instead of adding a second one, and Disconnect removes every
// entry carrying the marker — and nothing else, not even a hand-written `agent-rewind hook claude`.
//
// Observed in the real CLI 2.1.332 (test/compat): a settings file with comments or trailing commas is
// NOT loaded at all ("These settings did not load … Invalid or malformed JSON" on stderr), hooks
// included. We keep what the user wrote (never strip their comments), but `settingsProblems()` says
// so, and the caller must tell the user that Claude Code will ignore the file until it is plain JSON.
import * as path from 'node:path';
import { parse, type ParseError, printParseErrorCode, visit } from 'jsonc-parser';
import { quoteArg } from '../../core/shell/quote';
import {
  appendTo,
  applyEdits,
  child,
  ConfigFileError,
  editFile,
  formatting,
  isEmptyObjectText,
  type Node,
  nodeAt,
  nodeToValue,
  parseJsonObject,
  readTextFile,
  removeElement,
  removeProperty,
  writeTextFileAtomic,
} from '../common/jsonEdit';

/** The events we record: every tool call, every prompt, session boundaries. */
export const CLAUDE_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'SessionEnd',
] as const;
export type ClaudeHookEvent = (typeof CLAUDE_HOOK_EVENTS)[number];

/** Tool events take a matcher on `tool_name`; `*` = every tool (we record reads too, for the timeline). */
const TOOL_EVENTS = new Set<string>(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);

/** The argument that marks a hook command as written by Connect. */
export const CONNECT_MARKER = '--connected-by=agent-rewind';

/** Seconds Claude Code waits for our hook. Our hook gives up by itself after 20 s (src/cli/hook.ts). */
export const HOOK_TIMEOUT_S = 30;

/** The settings file Connect edits, relative to the workspace folder. */
export const CLAUDE_SETTINGS_FILE = path.join('.claude', 'settings.local.json');

export interface HookSpec {
  /** The full shell command line (build it with `hookCommand`). */
  command: string;
}

export class ClaudeSettingsError extends ConfigFileError {}

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
  if (arg.includes('\0')) throw new ClaudeSettingsError('A path in the hook command contains a NUL byte; choose another folder.');
  return quoteArg(arg);
}

/**
 * One argument for cmd.exe, in case a hook is ever run by cmd instead of Git Bash: double quotes
 * (a Windows path cannot contain `"`). cmd has no way to quote `%` inside quotes (`%VAR%` still
 * expands) and `!` expands under delayed expansion, so such paths are refused rather than guessed.
 */
export function cmdQuote(arg: string): string {
  if (/["%!\0\r\n]/.test(arg))
    throw new ClaudeSettingsError(`The path ${arg} contains a character cmd.exe cannot quote safely (" % !); choose a folder without it.`);
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
  if (!/^[a-z][a-z0-9-]*$/.test(p.agent)) throw new ClaudeSettingsError(`Unknown agent name "${p.agent}".`);
  if (p.event !== undefined && !/^[A-Za-z][A-Za-z0-9_]*$/.test(p.event)) throw new ClaudeSettingsError(`Bad event name "${p.event}".`);
  const q = p.shell === 'cmd' ? cmdQuote : shellQuote;
  const env = Object.entries(p.env ?? {});
  if (env.length && p.shell === 'cmd') throw new ClaudeSettingsError('Environment assignments cannot be put before a cmd.exe command.');
  const assigns = env.map(([k, v]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new ClaudeSettingsError(`Bad environment variable name "${k}".`);
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

// ---------------------------------------------------------------------------------------- parsing

function parseSettings(text: string, what = CLAUDE_SETTINGS_FORMAT.what): Node {
  return parseJsonObject(text, what, ClaudeSettingsError);
}

/** Problems that make Claude Code ignore the whole file (observed in 2.1.332): comments, trailing commas. */
export function settingsProblems(text: string | undefined): ('comments' | 'trailing-commas' | 'invalid-json')[] {
  if (text === undefined || text.trim() === '') return [];
  const out = new Set<'comments' | 'trailing-commas' | 'invalid-json'>();
  visit(text, { onComment: () => void out.add('comments') }, { allowTrailingComma: true, disallowComments: false });
  const errs: ParseError[] = [];
  parse(text, errs, { allowTrailingComma: false, disallowComments: true });
  for (const e of errs) {
    const code = printParseErrorCode(e.error);
    if (code === 'InvalidCommentToken') out.add('comments');
    else if (code === 'PropertyNameExpected' || code === 'ValueExpected') {
      const strict: ParseError[] = [];
      parse(text, strict, { allowTrailingComma: true, disallowComments: false });
      out.add(strict.length ? 'invalid-json' : 'trailing-commas');
    } else out.add('invalid-json');
  }
  return [...out];
}

// ---------------------------------------------------------------------------------------- edits

interface Located {
  event: string;
  group: number;
  handler: number;
  /** The group holds no other handler. */
  alone: boolean;
  command: string;
  matcher: unknown;
  /** The handler object as written. */
  value: Record<string, unknown>;
}

/** Every handler of ours in the document, in document order. */
function ours(root: Node): Located[] {
  const hooks = child(root, 'hooks');
  if (!hooks || hooks.type !== 'object') return [];
  const out: Located[] = [];
  for (const prop of hooks.children ?? []) {
    const event = prop.children?.[0]?.value;
    const arr = prop.children?.[1];
    if (typeof event !== 'string' || !arr || arr.type !== 'array') continue;
    (arr.children ?? []).forEach((g, gi) => {
      const hs = child(g, 'hooks');
      if (!hs || hs.type !== 'array') return;
      (hs.children ?? []).forEach((h, hi) => {
        const v = nodeToValue(h);
        if (isConnectedHandler(v)) {
          const m = child(g, 'matcher');
          out.push({
            event,
            group: gi,
            handler: hi,
            alone: (hs.children ?? []).length === 1,
            command: (v as { command: string }).command,
            matcher: m ? nodeToValue(m) : undefined,
            value: v as Record<string, unknown>,
          });
        }
      });
    });
  }
  return out;
}

/** `*`, `""` or no matcher: the group runs for every tool (or source / reason). */
function matchesEverything(m: unknown): boolean {
  return m === undefined || m === '' || m === '*';
}

/**
 * A hooks file in Claude Code's shape (`{ "hooks": { "<Event>": [{ "matcher"?, "hooks": [{ "type":
 * "command", "command", "timeout" }] }] } }`), which Codex's `hooks.json` and Gemini CLI's
 * settings.json share: which events we write, with which matcher and timeout (in the agent's unit).
 */
export interface HooksFileFormat {
  /** Names the file in messages: "The Claude Code settings file". */
  what: string;
  events: readonly string[];
  matcher(event: string): string | undefined;
  timeout(event: string): number;
  /** A `name` on each handler, after `type` (Gemini CLI shows it, and `hooksConfig.disabled` lists it). */
  name?: string;
  /**
   * Keep an entry of ours only when its handler and matcher are exactly what we would write (Gemini CLI:
   * a changed timeout or name is rewritten). Otherwise the same command on a match-everything group will do.
   */
  exact?: boolean;
}

export const CLAUDE_SETTINGS_FORMAT: HooksFileFormat = {
  what: 'The Claude Code settings file',
  events: CLAUDE_HOOK_EVENTS,
  matcher: (event) => (TOOL_EVENTS.has(event) ? '*' : undefined),
  timeout: () => HOOK_TIMEOUT_S,
};

function ourHandler(event: string, hook: HookSpec, f: HooksFileFormat): Record<string, unknown> {
  return { type: 'command', ...(f.name === undefined ? {} : { name: f.name }), command: hook.command, timeout: f.timeout(event) };
}

/** The entry of ours is what Connect would write now (see HooksFileFormat.exact). */
function isCurrent(l: Located, hook: HookSpec, f: HooksFileFormat): boolean {
  if (!f.exact) return l.command === hook.command && matchesEverything(l.matcher);
  const want = ourHandler(l.event, hook, f);
  const keys = Object.keys(want);
  return keys.length === Object.keys(l.value).length && keys.every((k) => l.value[k] === want[k]) && l.matcher === f.matcher(l.event);
}

function ourGroup(event: string, hook: HookSpec, f: HooksFileFormat): Record<string, unknown> {
  const h = ourHandler(event, hook, f);
  const m = f.matcher(event);
  return m === undefined ? { hooks: [h] } : { matcher: m, hooks: [h] };
}

/** Removes one handler of ours, and the containers that held only it (group, event, `hooks`). */
function removeOne(text: string, root: Node, l: Located): string {
  const hooksObj = child(root, 'hooks')!;
  const eventArr = child(hooksObj, l.event)!;
  if (!l.alone) {
    const handlers = nodeAt(root, ['hooks', l.event, l.group, 'hooks'])!;
    return applyEdits(text, [removeElement(handlers, l.handler)]);
  }
  if ((eventArr.children ?? []).length > 1) return applyEdits(text, [removeElement(eventArr, l.group)]);
  if ((hooksObj.children ?? []).length > 1) return applyEdits(text, [removeProperty(hooksObj, l.event)!]);
  return applyEdits(text, [removeProperty(root, 'hooks')!]);
}

/**
 * Adds our handler to every recorded event, merged with what is there. Idempotent: when the
 * current entries are already in place the text is returned unchanged. Older entries of ours
 * (another CLI path or store) are replaced, never duplicated.
 */
export function connectClaude(settingsFileText: string | undefined, hook: HookSpec, f: HooksFileFormat = CLAUDE_SETTINGS_FORMAT): string {
  if (!hasMarker(hook.command))
    throw new ClaudeSettingsError(`The hook command must carry ${CONNECT_MARKER}; build it with hookCommand().`);
  if (settingsFileText === undefined || settingsFileText.trim() === '') {
    const hooks: Record<string, unknown> = {};
    for (const e of f.events) hooks[e] = [ourGroup(e, hook, f)];
    return JSON.stringify({ hooks }, null, 2) + '\n';
  }
  let text = settingsFileText;
  const fmt = formatting(text);
  let root = parseSettings(text, f.what);
  const hooksNode = child(root, 'hooks');
  const where = f.what.replace(/^The /, 'the ');
  if (hooksNode && hooksNode.type !== 'object')
    throw new ClaudeSettingsError(`"hooks" in ${where} is not an object; fix it by hand, then connect again.`);
  for (const e of f.events) {
    const arr = child(hooksNode, e);
    if (arr && arr.type !== 'array')
      throw new ClaudeSettingsError(`"hooks.${e}" in ${where} is not a list; fix it by hand, then connect again.`);
  }

  // 1. Drop entries of ours that are stale, misplaced or duplicated (last first: indexes stay valid).
  const wanted = new Set<string>(f.events);
  const keep = new Map<string, Located>();
  const drop: Located[] = [];
  for (const l of ours(root)) {
    if (wanted.has(l.event) && isCurrent(l, hook, f) && !keep.has(l.event)) keep.set(l.event, l);
    else drop.push(l);
  }
  for (const l of drop.reverse()) {
    text = removeOne(text, root, l);
    root = parseSettings(text, f.what);
  }

  // 2. Add what is missing, at the end of each list (or a new list at the end of `hooks`).
  for (const e of f.events) {
    if (keep.has(e)) continue;
    const group = ourGroup(e, hook, f);
    const hooksNow = child(root, 'hooks');
    const arr = child(hooksNow, e);
    const edit = !hooksNow
      ? appendTo(text, root, fmt, { [e]: [group] }, 'hooks')
      : !arr
        ? appendTo(text, hooksNow, fmt, [group], e)
        : appendTo(text, arr, fmt, group);
    text = applyEdits(text, [edit]);
    root = parseSettings(text, f.what);
  }
  return text;
}

/**
 * Removes exactly what Connect added (every handler carrying the marker), keeping everything else
 * byte for byte. A group, event list or `hooks` object left empty by that is removed too (Connect
 * creates them; an empty list means nothing to Claude Code), so a list that was `[]` before Connect
 * does not come back — the one case where the text is not restored exactly.
 */
export function disconnectClaude(text: string, f: HooksFileFormat = CLAUDE_SETTINGS_FORMAT): string {
  if (text.trim() === '') return text;
  let root = parseSettings(text, f.what);
  for (;;) {
    const found = ours(root);
    if (!found.length) return text;
    text = removeOne(text, root, found[found.length - 1]!);
    root = parseSettings(text, f.what);
  }
}

export type ConnectionState = 'connected' | 'outdated' | 'disconnected';

/** Whether the file holds our current entries for every event, older ones of ours, or none. */
export function connectionState(text: string | undefined, hook: HookSpec, f: HooksFileFormat = CLAUDE_SETTINGS_FORMAT): ConnectionState {
  if (text === undefined || text.trim() === '') return 'disconnected';
  let root: Node;
  try {
    root = parseSettings(text);
  } catch {
    return 'disconnected';
  }
  const found = ours(root);
  if (!found.length) return 'disconnected';
  try {
    return connectClaude(text, hook, f) === text ? 'connected' : 'outdated';
  } catch {
    return 'outdated';
  }
}

/** `"disableAllHooks": true` in the file: Claude Code runs no hook at all. */
export function hooksDisabled(text: string | undefined): boolean {
  if (text === undefined || text.trim() === '') return false;
  try {
    const n = child(parseSettings(text), 'disableAllHooks');
    return n !== undefined && nodeToValue(n) === true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------- files

export function settingsPath(workspace: string): string {
  return path.join(workspace, CLAUDE_SETTINGS_FILE);
}

/** The file's text, or undefined when it does not exist. */
export const readSettingsFile = readTextFile;

/** Atomic write (common/jsonEdit): Claude Code itself writes this file when the user says "always allow". */
export const writeSettingsFile = writeTextFileAtomic;

/** Read, edit, write back unless the file changed meanwhile (common/jsonEdit). */
export { editFile };

export interface ConnectFileResult {
  file: string;
  changed: boolean;
  /** Why Claude Code would ignore the file (comments, trailing commas): tell the user. */
  problems: ReturnType<typeof settingsProblems>;
  /** `disableAllHooks` is set: our hooks will not run. */
  hooksDisabled: boolean;
}

/** Connects the workspace (creates `.claude/settings.local.json` when missing). */
export function connectClaudeFile(workspace: string, hook: HookSpec): ConnectFileResult {
  const file = settingsPath(workspace);
  const changed = editFile(file, (t) => ({ text: connectClaude(t, hook) }));
  const text = readSettingsFile(file);
  return { file, changed, problems: settingsProblems(text), hooksDisabled: hooksDisabled(text) };
}

/** Disconnects the workspace; a file left holding only `{}` is removed (Connect created it). */
export function disconnectClaudeFile(workspace: string): { file: string; changed: boolean } {
  return disconnectHooksFile(settingsPath(workspace));
}

/** Removes our entries from a hooks file in this shape (Codex's, Gemini's too); a file left holding only `{}` is removed. */
export function disconnectHooksFile(file: string, f: HooksFileFormat = CLAUDE_SETTINGS_FORMAT): { file: string; changed: boolean } {
  const changed = editFile(file, (t) => {
    if (t === undefined) return null;
    const after = disconnectClaude(t, f);
    if (after !== t && isEmptyObjectText(after)) return { remove: true };
    return { text: after };
  });
  return { file, changed };
}
