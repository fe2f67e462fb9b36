// A connector for agents whose hook file has Claude Code's layout (`hooks.<Event>: [{ matcher?,
// hooks: [handler] }]`) at one path in the workspace: Qwen Code (`.qwen/settings.json`), Factory
// Droid (`.factory/settings.json`), Auggie (`.augment/settings.json`). The edits are common/hooksFile.ts's
// (merged, idempotent, Disconnect gives back the user's bytes); each agent brings its event names,
// matcher and timeout unit as a HooksFileFormat, and the notes the user must read.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hookCommand } from './hookCommand';
import { connectHooks, disconnectHooksFile, type HooksFileFormat, hooksState } from './hooksFile';
import type { AgentId, ConnectorParts, HookTarget } from './connector';
import { detectEvidence, type DetectHints } from './evidence';
import { editFile, readTextFile, removeEmptyDirs } from './jsonEdit';
import { ENGLISH, type Localizer } from '../../shared/l10n';

export interface SettingsConnectorSpec {
  /** The `<agent>` of the hook command. */
  agent: AgentId;
  /** The file, relative to the workspace (`.qwen/settings.json`). */
  rel: string;
  format: HooksFileFormat;
  /** What the user must know for the hooks to run, in `l10n`'s language; `workspace` to look at their other files. */
  notes(workspace: string, l10n: Localizer): string[];
  detect: DetectHints;
}

export function settingsConnector(s: SettingsConnectorSpec): ConnectorParts {
  const fileOf = (workspace: string) => path.join(workspace, ...s.rel.split('/'));
  const spec = (target: HookTarget) => ({ command: hookCommand({ ...target, agent: s.agent }) });
  return {
    files: (workspace) => [fileOf(workspace)],
    connect(workspace, target, l10n = ENGLISH) {
      const file = fileOf(workspace);
      const changed = editFile(file, (t) => ({ text: connectHooks(t, spec(target), s.format) }));
      return { files: [file], changed, notes: s.notes(workspace, l10n) };
    },
    disconnect(workspace) {
      const { file, changed } = disconnectHooksFile(fileOf(workspace), s.format);
      if (changed && !fs.existsSync(file)) removeEmptyDirs(path.dirname(file), workspace);
      return { files: [file], changed };
    },
    state: (workspace, target) => hooksState(readTextFile(fileOf(workspace)), spec(target), s.format),
    detect: (workspace, env, home) => detectEvidence(workspace, env, home, s.detect),
  };
}
