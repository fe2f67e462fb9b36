// Connect for Auggie: our hook in `.augment/settings.json` (the CLI's project settings; Claude Code's
// layout), `timeout` in MILLISECONDS (default 60000), the matcher a regex (`.*` = every tool); session
// events take no matcher. Auggie 1.x adds PromptSubmit (docs.augmentcode.com `cli/hooks`).
import type { HooksFileFormat } from '../common/hooksFile';
import { settingsConnector } from '../common/settingsConnector';

export const AUGGIE_SETTINGS_REL = '.augment/settings.json';
export const AUGGIE_HOOK_EVENTS = ['SessionStart', 'PromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'];
const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse']);

export const AUGGIE_SETTINGS_FORMAT: HooksFileFormat = {
  what: 'The Auggie settings file (.augment/settings.json)',
  events: AUGGIE_HOOK_EVENTS,
  matcher: (event) => (TOOL_EVENTS.has(event) ? '.*' : undefined),
  timeout: () => 30000,
  exact: true,
};

export const auggieConnector = settingsConnector({
  agent: 'auggie',
  rel: AUGGIE_SETTINGS_REL,
  format: AUGGIE_SETTINGS_FORMAT,
  notes: (_workspace, l10n) => [
    l10n.t(
      "Auggie reads a project's .augment/settings.json in the CLI only; Augment's VS Code and JetBrains extensions read hooks from ~/.augment/settings.json.",
    ),
  ],
  detect: { workspace: ['.augment'], home: ['.augment'], binaries: ['auggie'] },
});
