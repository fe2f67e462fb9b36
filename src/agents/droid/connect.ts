// Connect for Factory Droid: our hook in `.factory/settings.json` (Claude Code's layout, `timeout` in
// seconds, `*` matches every tool). Droid reads a project's hooks from `.factory/hooks.json` when that
// file exists and from the `hooks` key of `.factory/settings.json` otherwise (docs.factory.ai
// `harness/hooks`): with a hooks.json there, the result says ours would be skipped.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HOOK_TIMEOUT_S } from '../common/hookCommand';
import { type HooksFileFormat, STANDARD_HOOK_EVENTS } from '../common/hooksFile';
import { settingsConnector } from '../common/settingsConnector';

export const DROID_SETTINGS_REL = '.factory/settings.json';
const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse']);

export const DROID_SETTINGS_FORMAT: HooksFileFormat = {
  what: 'The Droid settings file (.factory/settings.json)',
  events: STANDARD_HOOK_EVENTS.filter((e) => e !== 'PostToolUseFailure'),
  matcher: (event) => (TOOL_EVENTS.has(event) ? '*' : undefined),
  timeout: () => HOOK_TIMEOUT_S,
};

export const droidConnector = settingsConnector({
  agent: 'droid',
  rel: DROID_SETTINGS_REL,
  format: DROID_SETTINGS_FORMAT,
  notes: (workspace, l10n) =>
    fs.existsSync(path.join(workspace, '.factory', 'hooks.json'))
      ? [
          l10n.t(
            'This project has .factory/hooks.json, and Droid then ignores the "hooks" of .factory/settings.json: move your hooks into settings.json (or ours into hooks.json) for Droid to run them.',
          ),
        ]
      : [],
  detect: { workspace: ['.factory'], home: ['.factory'], binaries: ['droid'] },
});
