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
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  applyEdits,
  type Edit,
  type FormattingOptions,
  type Node,
  parse,
  parseTree,
  type ParseError,
  printParseErrorCode,
  visit,
} from 'jsonc-parser';
import { quoteArg } from '../../core/shell/quote';

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

export class ClaudeSettingsError extends Error {}

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
  /** Environment assignments put before the command (POSIX only), e.g. `{ ELECTRON_RUN_AS_NODE: '1' }`. */
  env?: Record<string, string>;
  /** `posix` (default: sh, bash, Git Bash on Windows) or `cmd`. */
  shell?: 'posix' | 'cmd';
}

/** The hook command line: `'<node>' '<cli>' hook <agent> --store '<store>' --connected-by=agent-rewind`. */
export function hookCommand(p: HookCommandParts): string {
  if (!/^[a-z][a-z0-9-]*$/.test(p.agent)) throw new ClaudeSettingsError(`Unknown agent name "${p.agent}".`);
  const q = p.shell === 'cmd' ? cmdQuote : shellQuote;
  const env = Object.entries(p.env ?? {});
  if (env.length && p.shell === 'cmd') throw new ClaudeSettingsError('Environment assignments cannot be put before a cmd.exe command.');
  const assigns = env.map(([k, v]) => {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new ClaudeSettingsError(`Bad environment variable name "${k}".`);
    return `${k}=${shellQuote(v)}`;
  });
  return [...assigns, q(p.node), q(p.cli), 'hook', p.agent, '--store', q(p.store), CONNECT_MARKER].join(' ');
}

/** True for a hook handler that Connect wrote (any version, any path). */
export function isConnectedHandler(h: unknown): boolean {
  if (typeof h !== 'object' || h === null) return false;
  const o = h as Record<string, unknown>;
  return o.type === 'command' && typeof o.command === 'string' && hasMarker(o.command);
}

function hasMarker(command: string): boolean {
  return /(^|\s)--connected-by=agent-rewind(\s|$)/.test(command);
}

// ---------------------------------------------------------------------------------------- parsing

function parseSettings(text: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length || !root) {
    const e = errors[0];
    const where = e ? ` (${printParseErrorCode(e.error)} at offset ${e.offset})` : '';
    throw new ClaudeSettingsError(`The Claude Code settings file is not valid JSON${where}; fix it by hand, then connect again.`);
  }
  if (root.type !== 'object')
    throw new ClaudeSettingsError('The Claude Code settings file does not hold a JSON object; fix it by hand, then connect again.');
  return root;
}

export function child(node: Node | undefined, key: string): Node | undefined {
  if (!node || node.type !== 'object') return undefined;
  for (const p of node.children ?? []) if (p.children?.[0]?.value === key) return p.children[1];
  return undefined;
}

export function nodeToValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const p of node.children ?? []) {
        const k = p.children?.[0]?.value;
        if (typeof k === 'string' && p.children?.[1]) o[k] = nodeToValue(p.children[1]);
      }
      return o;
    }
    case 'array':
      return (node.children ?? []).map(nodeToValue);
    default:
      return node.value;
  }
}

/** Indentation and line ends as the file already uses them (2 spaces and \n for a new file). */
export function formatting(text: string): FormattingOptions {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const m = /\n([ \t]+)\S/.exec(text);
  if (m && m[1]!.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol };
  return { insertSpaces: true, tabSize: m ? m[1]!.length : 2, eol };
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

function desiredMatcher(event: string): string | undefined {
  return TOOL_EVENTS.has(event) ? '*' : undefined;
}

function ourGroup(event: string, hook: HookSpec): Record<string, unknown> {
  const h = { type: 'command', command: hook.command, timeout: HOOK_TIMEOUT_S };
  const m = desiredMatcher(event);
  return m === undefined ? { hooks: [h] } : { matcher: m, hooks: [h] };
}

/**
 * Removes array element `index` of `arr` so that an element we appended (`,` + element right after
 * the previous one) disappears without a trace: from the end of the previous element to the end of
 * this one; the first element up to the next one; the only element leaves `[]`.
 */
export function removeElement(arr: Node, index: number): Edit {
  const items = arr.children ?? [];
  const item = items[index]!;
  if (items.length === 1) return { offset: arr.offset + 1, length: arr.length - 2, content: '' };
  if (index > 0) {
    const prev = items[index - 1]!;
    return { offset: prev.offset + prev.length, length: item.offset + item.length - (prev.offset + prev.length), content: '' };
  }
  return { offset: item.offset, length: items[1]!.offset - item.offset, content: '' };
}

/** The same for a property of an object. */
export function removeProperty(obj: Node, key: string): Edit | null {
  const props = obj.children ?? [];
  const i = props.findIndex((p) => p.children?.[0]?.value === key);
  if (i < 0) return null;
  const p = props[i]!;
  if (props.length === 1) {
    // Our property alone in the object: leave the braces exactly as an empty object would be written.
    return { offset: obj.offset + 1, length: obj.length - 2, content: '' };
  }
  if (i > 0) {
    const prev = props[i - 1]!;
    return { offset: prev.offset + prev.length, length: p.offset + p.length - (prev.offset + prev.length), content: '' };
  }
  return { offset: p.offset, length: props[1]!.offset - p.offset, content: '' };
}

export function nodeAt(root: Node, pathSegs: (string | number)[]): Node | undefined {
  let n: Node | undefined = root;
  for (const s of pathSegs) {
    if (!n) return undefined;
    if (typeof s === 'number') n = n.type === 'array' ? n.children?.[s] : undefined;
    else n = child(n, s);
  }
  return n;
}

/** The whitespace at the start of the line `offset` is on, and whether the node is first on it. */
function lineIndent(text: string, offset: number): { indent: string; first: boolean } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const lead = text.slice(start, offset);
  const indent = /^[ \t]*/.exec(lead)![0];
  return { indent, first: indent.length === lead.length };
}

/**
 * The edit that appends `value` (as property `key` for an object) to a container, written the way
 * the neighbours are: on its own line with their indentation, or inline after an inline neighbour.
 * Nothing already in the file is touched — jsonc-parser's `modify` would re-format the neighbour —
 * so removing the appended text (`removeElement`, `removeProperty`) gives back the original bytes.
 */
export function appendTo(text: string, container: Node, fmt: FormattingOptions, value: unknown, key?: string): Edit {
  const unit = fmt.insertSpaces ? ' '.repeat(fmt.tabSize ?? 2) : '\t';
  const eol = fmt.eol ?? '\n';
  const head = key === undefined ? '' : `${JSON.stringify(key)}: `;
  const pretty = (base: string) => head + JSON.stringify(value, null, unit).replace(/\n/g, eol + base);
  const items = container.children ?? [];
  if (items.length) {
    const prev = items[items.length - 1]!;
    const at = prev.offset + prev.length;
    const { indent, first } = lineIndent(text, prev.offset);
    return first
      ? { offset: at, length: 0, content: `,${eol}${indent}${pretty(indent)}` }
      : { offset: at, length: 0, content: `, ${head}${JSON.stringify(value)}` };
  }
  const { indent } = lineIndent(text, container.offset);
  const inner = text.slice(container.offset + 1, container.offset + container.length - 1);
  const body = `${eol}${indent}${unit}${pretty(indent + unit)}${eol}${indent}`;
  // Only whitespace between the brackets (an empty container): replace it; keep a comment that sits there.
  return /^\s*$/.test(inner)
    ? { offset: container.offset + 1, length: inner.length, content: body }
    : { offset: container.offset + 1, length: 0, content: body };
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
export function connectClaude(settingsFileText: string | undefined, hook: HookSpec): string {
  if (!hasMarker(hook.command))
    throw new ClaudeSettingsError(`The hook command must carry ${CONNECT_MARKER}; build it with hookCommand().`);
  if (settingsFileText === undefined || settingsFileText.trim() === '') {
    const hooks: Record<string, unknown> = {};
    for (const e of CLAUDE_HOOK_EVENTS) hooks[e] = [ourGroup(e, hook)];
    return JSON.stringify({ hooks }, null, 2) + '\n';
  }
  let text = settingsFileText;
  const fmt = formatting(text);
  let root = parseSettings(text);
  const hooksNode = child(root, 'hooks');
  if (hooksNode && hooksNode.type !== 'object')
    throw new ClaudeSettingsError('"hooks" in the Claude Code settings file is not an object; fix it by hand, then connect again.');
  for (const e of CLAUDE_HOOK_EVENTS) {
    const arr = child(hooksNode, e);
    if (arr && arr.type !== 'array')
      throw new ClaudeSettingsError(`"hooks.${e}" in the Claude Code settings file is not a list; fix it by hand, then connect again.`);
  }

  // 1. Drop entries of ours that are stale, misplaced or duplicated (last first: indexes stay valid).
  const wanted = new Set<string>(CLAUDE_HOOK_EVENTS);
  const keep = new Map<string, Located>();
  const drop: Located[] = [];
  for (const l of ours(root)) {
    if (wanted.has(l.event) && l.command === hook.command && matchesEverything(l.matcher) && !keep.has(l.event)) keep.set(l.event, l);
    else drop.push(l);
  }
  for (const l of drop.reverse()) {
    text = removeOne(text, root, l);
    root = parseSettings(text);
  }

  // 2. Add what is missing, at the end of each list (or a new list at the end of `hooks`).
  for (const e of CLAUDE_HOOK_EVENTS) {
    if (keep.has(e)) continue;
    const group = ourGroup(e, hook);
    const hooksNow = child(root, 'hooks');
    const arr = child(hooksNow, e);
    const edit = !hooksNow
      ? appendTo(text, root, fmt, { [e]: [group] }, 'hooks')
      : !arr
        ? appendTo(text, hooksNow, fmt, [group], e)
        : appendTo(text, arr, fmt, group);
    text = applyEdits(text, [edit]);
    root = parseSettings(text);
  }
  return text;
}

/**
 * Removes exactly what Connect added (every handler carrying the marker), keeping everything else
 * byte for byte. A group, event list or `hooks` object left empty by that is removed too (Connect
 * creates them; an empty list means nothing to Claude Code), so a list that was `[]` before Connect
 * does not come back — the one case where the text is not restored exactly.
 */
export function disconnectClaude(text: string): string {
  if (text.trim() === '') return text;
  let root = parseSettings(text);
  for (;;) {
    const found = ours(root);
    if (!found.length) return text;
    text = removeOne(text, root, found[found.length - 1]!);
    root = parseSettings(text);
  }
}

export type ConnectionState = 'connected' | 'outdated' | 'disconnected';

/** Whether the file holds our current entries for every event, older ones of ours, or none. */
export function connectionState(text: string | undefined, hook: HookSpec): ConnectionState {
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
    return connectClaude(text, hook) === text ? 'connected' : 'outdated';
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
export function readSettingsFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/**
 * Writes `text` atomically: a temp file beside it (same mode as the old file; 0600 for a new one —
 * the command names local paths), fsync, rename. With `expected` (the text the edit was computed
 * from; undefined = the file did not exist): if the file changed meanwhile (Claude Code writes this
 * file when the user says "always allow"), nothing is written and false is returned, so the caller
 * can recompute. The check and the rename are not one atomic step; the window is microseconds.
 */
export function writeSettingsFile(
  file: string,
  text: string,
  opts: { expected?: string | undefined; checkExpected?: boolean } = {},
): boolean {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let mode = 0o600;
  try {
    mode = fs.statSync(file).mode & 0o777;
  } catch {
    /* new file */
  }
  const tmp = `${file}.${process.pid}.${Date.now().toString(36)}.tmp`;
  const fd = fs.openSync(tmp, 'wx', mode);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    if (opts.checkExpected && readSettingsFile(file) !== opts.expected) return false;
    fs.renameSync(tmp, file);
    return true;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

export type FileEdit = { text: string } | { remove: true } | null;

/** Read, edit, write back unless the file changed meanwhile (then retry). True when it changed. */
export function editFile(file: string, edit: (text: string | undefined) => FileEdit): boolean {
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = readSettingsFile(file);
    const r = edit(before);
    if (r === null || ('text' in r && r.text === before)) return false;
    if ('remove' in r) {
      if (readSettingsFile(file) !== before) continue;
      fs.rmSync(file, { force: true });
      return true;
    }
    if (writeSettingsFile(file, r.text, { expected: before, checkExpected: true })) return true;
  }
  throw new ClaudeSettingsError(`${file} kept changing while Agent Rewind edited it; try again.`);
}

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
  const file = settingsPath(workspace);
  const changed = editFile(file, (t) => {
    if (t === undefined) return null;
    const after = disconnectClaude(t);
    if (after !== t && /^\s*\{\s*\}\s*$/.test(after)) return { remove: true };
    return { text: after };
  });
  return { file, changed };
}
