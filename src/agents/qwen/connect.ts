// Connect for Qwen Code: our hook in `.qwen/settings.json` (its project settings; Claude Code's
// layout). Qwen's own choices (docs, users/features/hooks): `timeout` in MILLISECONDS (default 60000),
// matchers are regexes where `*` or "" match every tool, a `name` per handler shows in /hooks. Hooks
// are on by default (`disableAllHooks` turns them off); project settings load in a trusted folder.
import { type HooksFileFormat, STANDARD_HOOK_EVENTS } from '../common/hooksFile';
import { settingsConnector } from '../common/settingsConnector';

export const QWEN_SETTINGS_REL = '.qwen/settings.json';
/** Claude Code's events, under the same names. */
export const QWEN_HOOK_EVENTS = STANDARD_HOOK_EVENTS;
const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);

export const QWEN_SETTINGS_FORMAT: HooksFileFormat = {
  what: 'The Qwen Code settings file (.qwen/settings.json)',
  events: QWEN_HOOK_EVENTS,
  matcher: (event) => (TOOL_EVENTS.has(event) ? '*' : undefined),
  timeout: () => 30000,
  name: 'agent-rewind',
  exact: true,
};

export const qwenConnector = settingsConnector({
  agent: 'qwen',
  rel: QWEN_SETTINGS_REL,
  format: QWEN_SETTINGS_FORMAT,
  notes: (_workspace, l10n) => [
    l10n.t(
      'Qwen Code reads project hooks only in a trusted folder: trust this folder when Qwen Code asks. "disableAllHooks": true in any of its settings turns them off.',
    ),
  ],
  detect: { workspace: ['.qwen'], home: ['.qwen'], binaries: ['qwen'] },
});
