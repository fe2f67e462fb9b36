// Our hooks in Gemini CLI's project settings, `<workspace>/.gemini/settings.json`, merged with what the
// user has there (jsonc edits that touch nothing else, so Disconnect gives back the original bytes).
// The layout is Claude Code's (`hooks.<Event>: [{ matcher?, hooks: [handler] }]`), so the edits are
// claude/settings.ts's, with 0.61's differences as a HooksFileFormat (test/fixtures/agents/gemini/real-0.61.0/
// README.md): its own event names, `timeout` in MILLISECONDS, a regex matcher on tool events (`.*`), a
// `name` per handler, and an entry of ours kept only when it is exactly what we write. Our handlers are
// recognised by the marker argument every connected command carries (see claude/settings.ts).
import * as path from 'node:path';
import type { AgentConnectionState } from '../common/connector';
import { connectHooks, disconnectHooks, disconnectHooksFile, type HooksFileFormat, hooksState } from '../common/hooksFile';
import { child, editFile, nodeToValue, parseJsonObject, readTextFile } from '../common/jsonEdit';
import { GEMINI_RECORDED_EVENTS } from './hookPayload';
import { ENGLISH, type Localizer } from '../../shared/l10n';

/** Milliseconds Gemini CLI waits for our hook (its unit; default 60000). Our hook gives up by itself after 20 s. */
export const GEMINI_HOOK_TIMEOUT_MS = 30000;
/** The handler's `name` (what `hooksConfig.disabled` and the trust warning show). */
export const GEMINI_HOOK_NAME = 'agent-rewind';
export const GEMINI_SETTINGS_FILE = path.join('.gemini', 'settings.json');

const TOOL_EVENTS = new Set(['BeforeTool', 'AfterTool']);

export const GEMINI_SETTINGS_FORMAT: HooksFileFormat = {
  what: 'The Gemini CLI settings file',
  events: GEMINI_RECORDED_EVENTS,
  matcher: (event) => (TOOL_EVENTS.has(event) ? '.*' : undefined),
  timeout: () => GEMINI_HOOK_TIMEOUT_MS,
  name: GEMINI_HOOK_NAME,
  exact: true,
};

/** Our handler on every recorded event, merged; idempotent; older entries of ours are replaced, never duplicated. */
export function connectGemini(text: string | undefined, command: string): string {
  return connectHooks(text, { command }, GEMINI_SETTINGS_FORMAT);
}

/** Removes every handler of ours (and the containers left holding only it); everything else stays byte for byte. */
export function disconnectGemini(text: string): string {
  return disconnectHooks(text, GEMINI_SETTINGS_FORMAT);
}

export function geminiConnectionState(text: string | undefined, command: string): AgentConnectionState {
  return hooksState(text, { command }, GEMINI_SETTINGS_FORMAT);
}

/** Why our hooks would not run although connected: `hooksConfig.enabled: false`, or our name in `hooksConfig.disabled`. */
export function geminiHooksOff(text: string | undefined, l10n: Localizer = ENGLISH): string | null {
  if (text === undefined || text.trim() === '') return null;
  try {
    const cfg = child(parseJsonObject(text, GEMINI_SETTINGS_FORMAT.what), 'hooksConfig');
    const v = cfg ? (nodeToValue(cfg) as Record<string, unknown>) : {};
    if (v.enabled === false) return l10n.t('"hooksConfig.enabled" is false in this file: Gemini CLI runs no hook.');
    if (Array.isArray(v.disabled) && v.disabled.includes(GEMINI_HOOK_NAME))
      return l10n.t('"hooksConfig.disabled" lists "{0}": Gemini CLI skips our hook.', GEMINI_HOOK_NAME);
    return null;
  } catch {
    return null;
  }
}

export function geminiSettingsPath(workspace: string): string {
  return path.join(workspace, GEMINI_SETTINGS_FILE);
}

export function connectGeminiFile(workspace: string, command: string): { file: string; changed: boolean; text: string | undefined } {
  const file = geminiSettingsPath(workspace);
  const changed = editFile(file, (t) => ({ text: connectGemini(t, command) }));
  return { file, changed, text: readTextFile(file) };
}

/** A file left holding only `{}` is removed (Connect created it). */
export function disconnectGeminiFile(workspace: string): { file: string; changed: boolean } {
  return disconnectHooksFile(geminiSettingsPath(workspace), GEMINI_SETTINGS_FORMAT);
}
