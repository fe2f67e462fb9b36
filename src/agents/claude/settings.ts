// Connecting Claude Code to Agent Rewind: our hook handler written into `.claude/settings.local.json`,
// merged with what is there (common/hooksFile.ts does the editing; common/hookCommand.ts says how our
// entries are recognised).
//
// Observed in the real CLI 2.1.332 (test/compat): a settings file with comments or trailing commas is
// NOT loaded at all ("These settings did not load … Invalid or malformed JSON" on stderr), hooks
// included. We keep what the user wrote (never strip their comments), but `settingsProblems()` says
// so, and the caller must tell the user that Claude Code will ignore the file until it is plain JSON.
import * as path from 'node:path';
import { parse, type ParseError, printParseErrorCode, visit } from 'jsonc-parser';
import { child, editFile, nodeToValue, parseJsonObject, readTextFile, writeTextFileAtomic } from '../common/jsonEdit';
import { HOOK_TIMEOUT_S } from '../common/hookCommand';
import {
  connectHooks,
  disconnectHooks,
  disconnectHooksFile,
  type HookSpec,
  type HooksFileFormat,
  hooksState,
  matchEveryTool,
  STANDARD_HOOK_EVENTS,
} from '../common/hooksFile';
import type { AgentConnectionState } from '../common/connector';

/** The settings file Connect edits, relative to the workspace folder. */
export const CLAUDE_SETTINGS_FILE = path.join('.claude', 'settings.local.json');
export const CLAUDE_SETTINGS_FORMAT: HooksFileFormat = {
  what: 'The Claude Code settings file',
  events: STANDARD_HOOK_EVENTS,
  matcher: matchEveryTool,
  timeout: () => HOOK_TIMEOUT_S,
};

/** Our handler merged into Claude Code's settings text (common/hooksFile.ts `connectHooks`). */
export const connectClaude = (text: string | undefined, hook: HookSpec): string => connectHooks(text, hook, CLAUDE_SETTINGS_FORMAT);

/** Claude Code's settings text without our handlers. */
export const disconnectClaude = (text: string): string => disconnectHooks(text, CLAUDE_SETTINGS_FORMAT);

/** Whether Claude Code's settings text holds our current handlers, older ones, or none. */
export const connectionState = (text: string | undefined, hook: HookSpec): AgentConnectionState =>
  hooksState(text, hook, CLAUDE_SETTINGS_FORMAT);

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

/** `"disableAllHooks": true` in the file: Claude Code runs no hook at all. */
export function hooksDisabled(text: string | undefined): boolean {
  if (text === undefined || text.trim() === '') return false;
  try {
    const n = child(parseJsonObject(text, CLAUDE_SETTINGS_FORMAT.what, 'hooks-file'), 'disableAllHooks');
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
  return disconnectHooksFile(settingsPath(workspace), CLAUDE_SETTINGS_FORMAT);
}
