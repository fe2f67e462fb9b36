// Connect for Kiro, its IDE and its CLI, in `.kiro/hooks/` (test/fixtures/agents/kiro/README.md):
// - Kiro IDE: one `.kiro.hook` file per trigger (`{enabled, name, description, version, when: {type,
//   toolTypes?}, then: {type: "runCommand", command, timeout}}`). A Run Command action gets no payload,
//   so the command names the event (`hook kiro preToolUse`) and reads stdin from /dev/null (NUL on
//   Windows): it must not wait for a payload that never comes.
// - Kiro CLI v3: `.kiro/hooks/agent-rewind.json` (`{version: "v1", hooks: [{name, trigger, action:
//   {type: "command", command}, timeout, enabled}]}`), which applies to every agent of the workspace;
//   its payload is JSON on stdin. The trigger names are the CLI's events in PascalCase [U: only
//   PreToolUse and PostFileSave appear in the docs' example].
import { hookCommand } from '../common/hookCommand';
import { detectEvidence } from '../common/evidence';
import { connectOwned, disconnectOwned, type OwnedFile, ownedState } from '../common/ownedFiles';
import type { ConnectorParts, HookTarget } from '../common/connector';
import { ENGLISH } from '../../shared/l10n';
import { KIRO_IDE_EVENTS } from './hookPayload';
import * as path from 'node:path';

export const KIRO_CLI_HOOKS_REL = '.kiro/hooks/agent-rewind.json';
export const KIRO_CLI_TRIGGERS = ['AgentSpawn', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'];
const ideRel = (event: string) => `.kiro/hooks/agent-rewind-${event}.kiro.hook`;
const TIMEOUT_S = 30;

function ideHook(event: string, target: HookTarget): string {
  const command = `${hookCommand({ ...target, agent: 'kiro', event })} < ${process.platform === 'win32' ? 'NUL' : '/dev/null'}`;
  const when: Record<string, unknown> = { type: event };
  if (event === 'preToolUse' || event === 'postToolUse') when.toolTypes = ['*'];
  const hook = {
    enabled: true,
    name: `Agent Rewind: record ${event}`,
    description: 'Records what the agent does so Agent Rewind can rewind it (written by Connect Agents…; Disconnect removes it).',
    version: '1.0.0',
    when,
    then: { type: 'runCommand', command, timeout: TIMEOUT_S },
  };
  return JSON.stringify(hook, null, 2) + '\n';
}

function cliHooks(target: HookTarget): string {
  const command = hookCommand({ ...target, agent: 'kiro' });
  const hooks = KIRO_CLI_TRIGGERS.map((trigger) => ({
    name: `agent-rewind-${trigger}`,
    trigger,
    action: { type: 'command', command },
    timeout: TIMEOUT_S,
    enabled: true,
  }));
  return JSON.stringify({ version: 'v1', hooks }, null, 2) + '\n';
}

export function kiroFiles(target: HookTarget): OwnedFile[] {
  return [
    ...KIRO_IDE_EVENTS.map((e) => ({ rel: ideRel(e), text: ideHook(e, target) })),
    { rel: KIRO_CLI_HOOKS_REL, text: cliHooks(target) },
  ];
}

const RELS = [...KIRO_IDE_EVENTS.map(ideRel), KIRO_CLI_HOOKS_REL];

/** `name`: the agent's name, for the note about a file of the user's own. */
export const kiroConnector = (name: string): ConnectorParts => ({
  files: (workspace) => RELS.map((r) => path.join(workspace, ...r.split('/'))),
  connect(workspace, target, l10n = ENGLISH) {
    const r = connectOwned(workspace, kiroFiles(target), name, l10n);
    r.notes.push(
      l10n.t(
        "Kiro's IDE hooks get no details of a tool call: its edits are found by scanning the workspace around it. Kiro CLI before v3 reads hooks only from an agent's configuration (.kiro/agents/*.json): run kiro-cli agent migrate, or copy ours there.",
      ),
    );
    return r;
  },
  disconnect: (workspace) => disconnectOwned(workspace, RELS),
  state: (workspace, target) => ownedState(workspace, kiroFiles(target)),
  detect: (workspace, env, home) =>
    detectEvidence(workspace, env, home, { workspace: ['.kiro'], home: ['.kiro'], binaries: ['kiro', 'kiro-cli'] }),
});
