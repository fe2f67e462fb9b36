// Connect for Windsurf: our hook in the workspace's `.windsurf/hooks.json` (Cascade hooks:
// `{hooks: {<event>: [{command, show_output}]}}`, one flat handler per entry, merged with the user's;
// Windsurf also loads ~/.codeium/windsurf/hooks.json and a system file, and runs them all). Every
// payload names its event (`agent_action_name`), so one command serves every event. Windsurf runs a
// hook in the workspace root unless `working_directory` says otherwise: that is how the hook knows
// the folder (the payload names none).
import * as path from 'node:path';
import { hookCommand } from '../common/hookCommand';
import { detectEvidence } from '../common/evidence';
import { connectFlat, disconnectFlatFile, type FlatHooksFormat, flatFileState } from '../common/flatHooks';
import { editFile } from '../common/jsonEdit';
import type { ConnectorParts, HookTarget } from '../common/connector';
import { ENGLISH } from '../../shared/l10n';
import { WINDSURF_HOOK_EVENTS } from './hookPayload';

export const WINDSURF_HOOKS_REL = '.windsurf/hooks.json';
const WHAT = `The Windsurf hooks file ${WINDSURF_HOOKS_REL}`;

export function windsurfHooksFormat(target: HookTarget): FlatHooksFormat {
  const command = hookCommand({ ...target, agent: 'windsurf' });
  return { what: WHAT, events: WINDSURF_HOOK_EVENTS, handler: () => ({ command, show_output: false }), header: {} };
}

const fileOf = (workspace: string) => path.join(workspace, ...WINDSURF_HOOKS_REL.split('/'));

export const windsurfConnector: ConnectorParts = {
  files: (workspace) => [fileOf(workspace)],
  connect(workspace, target, l10n = ENGLISH) {
    const file = fileOf(workspace);
    const changed = editFile(file, (t) => ({ text: connectFlat(t, windsurfHooksFormat(target)) }));
    return {
      files: [file],
      changed,
      notes: [l10n.t('Windsurf reads hook files when Cascade starts: reload the window if Cascade is open.')],
    };
  },
  disconnect(workspace) {
    const file = fileOf(workspace);
    return { files: [file], changed: disconnectFlatFile(file, workspace, { what: WHAT, header: {} }) };
  },
  state: (workspace, target) => flatFileState(fileOf(workspace), windsurfHooksFormat(target)),
  detect: (workspace, env, home) =>
    detectEvidence(workspace, env, home, { workspace: ['.windsurf'], home: ['.codeium/windsurf'], binaries: ['windsurf'] }),
};
