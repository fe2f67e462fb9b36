// Connect for Cursor: our hook in `.cursor/hooks.json` (`{version: 1, hooks: {<camelEvent>: [{command}]}}`),
// every payload naming its event (`hook_event_name`), so one command fits all. Cursor can also run the
// hooks in `.claude/settings*.json` ("Include third-party Plugins, Skills, and other configs", off by
// default); with that on and Claude Code connected, Cursor would run both files: the result says so.
import * as path from 'node:path';
import { HOOK_TIMEOUT_S, hookCommand } from '../common/hookCommand';
import { detectEvidence } from '../common/evidence';
import { connectFlat, disconnectFlatFile, type FlatHooksFormat, flatFileState } from '../common/flatHooks';
import { editFile } from '../common/jsonEdit';
import type { ConnectorContext, ConnectorParts, HookTarget } from '../common/connector';
import { ENGLISH } from '../../shared/l10n';

export const CURSOR_HOOKS_REL = '.cursor/hooks.json';
/** Every event the cursor adapter records (FINDINGS §6 event mapping). */
export const CURSOR_HOOK_EVENTS = [
  'sessionStart',
  'beforeSubmitPrompt',
  'preToolUse',
  'postToolUse',
  'postToolUseFailure',
  'beforeShellExecution',
  'afterShellExecution',
  'beforeMCPExecution',
  'afterMCPExecution',
  'afterFileEdit',
  'stop',
  'sessionEnd',
];
const WHAT = `The Cursor hooks file ${CURSOR_HOOKS_REL}`;
const HEADER = { version: 1 };

export function cursorHooksFormat(target: HookTarget): FlatHooksFormat {
  const command = hookCommand({ ...target, agent: 'cursor' });
  // `timeout` is in seconds like VS Code's (Cursor docs; not confirmed in a real client).
  return { what: WHAT, events: CURSOR_HOOK_EVENTS, handler: () => ({ command, timeout: HOOK_TIMEOUT_S }), header: HEADER };
}

const fileOf = (workspace: string) => path.join(workspace, ...CURSOR_HOOKS_REL.split('/'));

/** `connectorOf` gives Claude Code's connector, whose settings file Cursor runs with its third-party setting on. */
export const cursorConnector = (connectorOf: ConnectorContext['connectorOf']): ConnectorParts => ({
  files: (workspace) => [fileOf(workspace)],
  connect(workspace, target, l10n = ENGLISH) {
    const file = fileOf(workspace);
    const changed = editFile(file, (t) => ({ text: connectFlat(t, cursorHooksFormat(target)) }));
    const notes = [l10n.t('Cursor runs project hooks only in a trusted workspace.')];
    if (connectorOf('claude').state(workspace, target) !== 'disconnected')
      notes.push(
        l10n.t(
          'Claude Code is connected here too: keep Cursor\'s "Include third-party Plugins, Skills, and other configs" off, or Cursor runs the hooks of .claude/settings.local.json as well and every event is recorded twice.',
        ),
      );
    return { files: [file], changed, notes };
  },
  disconnect(workspace) {
    const file = fileOf(workspace);
    return { files: [file], changed: disconnectFlatFile(file, workspace, { what: WHAT, header: HEADER }) };
  },
  state: (workspace, target) => flatFileState(fileOf(workspace), cursorHooksFormat(target)),
  detect: (workspace, env, home) =>
    detectEvidence(workspace, env, home, { workspace: ['.cursor'], home: ['.cursor'], binaries: ['cursor'] }),
});
