// Connect for Claude Code: our hooks in `.claude/settings.local.json` (claude/settings.ts does the
// editing). VS Code's agent mode, Copilot CLI and (with its third-party setting) Cursor read this file
// too, so it also records them: `alsoServes`, and the registry avoids a second file of ours for them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConnectorParts } from '../common/connector';
import { ENGLISH, type Localizer } from '../../shared/l10n';
import { detectEvidence } from '../common/evidence';
import { hookCommand } from '../common/hookCommand';
import { removeEmptyDirs } from '../common/jsonEdit';
import { CLAUDE_SETTINGS_FILE, connectClaudeFile, connectionState, disconnectClaudeFile, readSettingsFile, settingsPath } from './settings';

export const claudeConnector: ConnectorParts = {
  alsoServes: ['vscode', 'copilot'],
  files: (workspace) => [settingsPath(workspace)],
  alsoReads: (workspace) => [path.join(workspace, '.claude', 'settings.json')],
  connect(workspace, target, l10n = ENGLISH) {
    const r = connectClaudeFile(workspace, { command: hookCommand({ ...target, agent: 'claude' }) });
    const notes: string[] = [];
    if (r.hooksDisabled) notes.push(hooksDisabledWords(CLAUDE_SETTINGS_FILE, l10n));
    if (r.problems.length) notes.push(notPlainJsonWords(CLAUDE_SETTINGS_FILE, r.problems, l10n));
    return { files: [r.file], changed: r.changed, notes };
  },
  disconnect(workspace) {
    const r = disconnectClaudeFile(workspace);
    if (r.changed && !fs.existsSync(r.file)) removeEmptyDirs(path.dirname(r.file), workspace);
    return { files: [r.file], changed: r.changed };
  },
  state(workspace, target) {
    try {
      return connectionState(readSettingsFile(settingsPath(workspace)), { command: hookCommand({ ...target, agent: 'claude' }) });
    } catch {
      return 'disconnected';
    }
  },
  detect: (workspace, env, home) =>
    detectEvidence(workspace, env, home, { workspace: ['.claude'], home: ['.claude'], binaries: ['claude'] }),
};

/**
 * The warning when the settings file `file` (as the user should read its name) sets `disableAllHooks`:
 * one sentence for the CLI's connect notes and the extension's warning alike.
 */
export function hooksDisabledWords(file: string, l10n: Localizer = ENGLISH): string {
  return l10n.t('{0} sets "disableAllHooks": Claude Code will not run Agent Rewind\'s hooks until you remove it.', file);
}

/** The warning when the settings file `file` holds what is not plain JSON (`problems`, settings.ts's names): Claude Code ignores it. */
export function notPlainJsonWords(file: string, problems: readonly string[], l10n: Localizer = ENGLISH): string {
  return l10n.t(
    '{0} contains {1}: Claude Code ignores a settings file that is not plain JSON. Remove them so the hooks load.',
    file,
    problems.join(' and ').replace(/-/g, ' '),
  );
}
