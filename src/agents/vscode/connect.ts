// Connect for VS Code's agent mode (Copilot Chat, Local harness) and GitHub Copilot CLI: both load
// `.github/hooks/*.json`, so one file serves both — `.github/hooks/agent-rewind.json` in VS Code's
// format (PascalCase events, `command`, `timeout` in seconds plus Copilot's `timeoutSec`). Copilot CLI
// 1.0.102 was seen loading exactly this layout (test/fixtures/agents/copilot/README.md), and PascalCase
// is the spelling whose payloads name their event (camelCase ones do not), so one command fits every
// event; the hook tells Copilot CLI from VS Code by its environment (`COPILOT_CLI=1`), not by argument.
//
// Both also load `.claude/settings.local.json`. When Claude Code is connected, our hook there already
// records them; a second file of ours would deliver every event twice. So connecting here when the
// Claude file holds our hook writes nothing (and removes an older `.github` file of ours), and the
// state says "connected" through that file.
import * as path from 'node:path';
import { CONNECT_MARKER, HOOK_TIMEOUT_S, hookCommand } from '../common/hookCommand';
import { STANDARD_HOOK_EVENTS } from '../common/hooksFile';
import { connectFlat, disconnectFlatFile, type FlatHooksFormat, flatState } from '../common/flatHooks';
import { detectEvidence } from '../common/evidence';
import { editFile, readTextFile } from '../common/jsonEdit';
import type { AgentConnectResult, ConnectorContext, ConnectorParts, HookTarget } from '../common/connector';
import { ENGLISH } from '../../shared/l10n';

export const VSCODE_HOOKS_REL = '.github/hooks/agent-rewind.json';
/** VS Code spells its events as Claude Code does (FINDINGS §1) and maps the ones it lacks to nothing. */
export const VSCODE_HOOK_EVENTS: readonly string[] = STANDARD_HOOK_EVENTS;

const WHAT = `The hooks file ${VSCODE_HOOKS_REL}`;

export function vscodeHooksFormat(target: HookTarget): FlatHooksFormat {
  const command = hookCommand({ ...target, agent: 'vscode' });
  return {
    what: WHAT,
    events: VSCODE_HOOK_EVENTS,
    handler: () => ({ type: 'command', command, timeout: HOOK_TIMEOUT_S, timeoutSec: HOOK_TIMEOUT_S }),
    header: {},
  };
}

const fileOf = (workspace: string) => path.join(workspace, ...VSCODE_HOOKS_REL.split('/'));

/** Removes our handlers from the `.github` file (and the file and folders Connect created). */
function disconnectOwnFile(workspace: string): boolean {
  return disconnectFlatFile(fileOf(workspace), workspace, { what: WHAT, header: {} });
}

/** The connector of VS Code agent mode and Copilot CLI; `connectorOf` gives Claude Code's, whose settings file both read. */
export const vscodeConnector = (connectorOf: ConnectorContext['connectorOf']): ConnectorParts => {
  const claude = connectorOf('claude');
  /** Claude's settings file, relative to the workspace, as messages name it. */
  const claudeFileRel = (workspace: string) => path.relative(workspace, claude.files(workspace)[0]!).split(path.sep).join('/');
  /** Our hook is in Claude's settings file (any version of it): VS Code and Copilot CLI are recorded through it. */
  const servedByClaude = (workspace: string, target: HookTarget) => claude.state(workspace, target) !== 'disconnected';
  return {
    alsoServes: ['copilot'],
    files: (workspace) => [fileOf(workspace)],
    connect(workspace, target, l10n = ENGLISH): AgentConnectResult {
      const file = fileOf(workspace);
      if (servedByClaude(workspace, target)) {
        const changed = disconnectOwnFile(workspace);
        return {
          files: [claude.files(workspace)[0]!],
          changed,
          notes: [
            l10n.t(
              'VS Code agent mode and Copilot CLI are already served by {0} (Claude Code is connected; both read that file), so nothing was added: a second hook file would record every event twice.',
              claudeFileRel(workspace),
            ),
          ],
        };
      }
      const f = vscodeHooksFormat(target);
      const changed = editFile(file, (t) => ({ text: connectFlat(t, f) }));
      return {
        files: [file],
        changed,
        notes: [
          l10n.t('Copilot CLI runs repository hooks only in a folder you trust (its trust prompt, or --trust-folder).'),
          l10n.t(
            'If your organisation disables agent hooks in VS Code (chat hook policy), VS Code agent mode will not run {0}.',
            VSCODE_HOOKS_REL,
          ),
        ],
      };
    },
    disconnect(workspace) {
      return { files: [fileOf(workspace)], changed: disconnectOwnFile(workspace) };
    },
    state(workspace, target) {
      if (servedByClaude(workspace, target)) return claude.state(workspace, target);
      try {
        return flatState(readTextFile(fileOf(workspace)), vscodeHooksFormat(target));
      } catch {
        return 'disconnected';
      }
    },
    detect(workspace, env, home) {
      return detectEvidence(workspace, env, home, {
        workspace: ['.github/hooks', '.github'],
        home: ['.copilot'],
        binaries: ['copilot', 'code'],
      });
    },
    ownFileHasHooks(workspace) {
      return readTextFile(fileOf(workspace))?.includes(CONNECT_MARKER) ?? false;
    },
  };
};
