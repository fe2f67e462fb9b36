// Connect for Claude Code: our hooks in `.claude/settings.local.json` (claude/settings.ts does the
// editing). VS Code's agent mode, Copilot CLI and (with its third-party setting) Cursor read this file
// too, so it also records them: `alsoServes`, and the registry avoids a second file of ours for them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { AgentConnector } from '../connector';
import { ENGLISH } from '../../shared/l10n';
import { detectEvidence } from '../common/detect';
import { removeEmptyDirs } from '../common/jsonEdit';
import {
  CLAUDE_SETTINGS_FILE,
  connectClaudeFile,
  connectionState,
  disconnectClaudeFile,
  hookCommand,
  readSettingsFile,
  settingsPath,
} from './settings';

export const claudeConnector: AgentConnector = {
  agent: 'claude',
  displayName: 'Claude Code',
  alsoServes: ['vscode', 'copilot'],
  files: (workspace) => [settingsPath(workspace)],
  connect(workspace, target, l10n = ENGLISH) {
    const r = connectClaudeFile(workspace, { command: hookCommand({ ...target, agent: 'claude' }) });
    const notes: string[] = [];
    if (r.hooksDisabled)
      notes.push(
        l10n.t('{0} sets "disableAllHooks": Claude Code will not run Agent Rewind\'s hooks until you remove it.', CLAUDE_SETTINGS_FILE),
      );
    if (r.problems.length)
      notes.push(
        l10n.t(
          '{0} contains {1}: Claude Code ignores a settings file that is not plain JSON. Remove them so the hooks load.',
          CLAUDE_SETTINGS_FILE,
          r.problems.join(' and ').replace(/-/g, ' '),
        ),
      );
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

/** Where the Claude connector writes, relative to the workspace (for messages). */
export const CLAUDE_FILE_REL = CLAUDE_SETTINGS_FILE.split(path.sep).join('/');
