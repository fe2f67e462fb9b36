// Every agent's Connect, in one list, and the rule that keeps one event from being recorded twice:
// VS Code's agent mode and Copilot CLI read Claude Code's `.claude/settings.local.json` as well as
// `.github/hooks/*.json`, so when Claude is connected its file serves them and our `.github` file is
// not written (or is removed when Claude gets connected after it). README "In VS Code" documents it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writtenTarget } from './common/hookTarget';
import type { AgentConnectionState, AgentConnector, AgentConnectResult, AgentId, HookTarget } from './common/connector';
import { type Registry, registry } from './registry';
import { ENGLISH, type Localizer } from '../shared/l10n';
import { localizedMessage } from '../core/errors';

/** In the order the quick pick shows them (the registry's). */
export const CONNECTORS: readonly AgentConnector[] = registry.allConnectors();

/** The connector that records `agent` (Copilot CLI is recorded by the VS Code one). */
export function connectorFor(agent: AgentId, agents: Registry = registry): AgentConnector | undefined {
  const all = agents.allConnectors();
  return all.find((c) => c.agent === agent) ?? all.find((c) => c.alsoServes?.includes(agent) && c.agent !== 'claude');
}

/**
 * The connector whose file records `c`'s agent now: the serving agent's (its adapter's `servedBy`) when
 * `c`'s own file holds none of our hooks (VS Code agent mode through Claude Code's settings file), else `c`.
 */
function recordingConnector(c: AgentConnector, workspace: string, agents: Registry): AgentConnector {
  if (!c.ownFileHasHooks || c.ownFileHasHooks(workspace)) return c;
  const server = agents.get(c.agent)?.servedBy?.[0];
  return (server && agents.connector(server)) || c;
}

export interface ConnectOutcome extends AgentConnectResult {
  agent: AgentId;
  displayName: string;
  error?: string;
}

/**
 * Claude Code is connected while our `.github` file also records VS Code and Copilot CLI: they would
 * get every event twice, so that file goes (Claude's serves them). Null when there was nothing to do.
 * The note is in `l10n`'s language, as are the notes of connectAgents and disconnectAgents.
 */
export function retireVscodeFile(
  workspace: string,
  target: HookTarget,
  l10n: Localizer = ENGLISH,
  agents: Registry = registry,
): ConnectOutcome | null {
  const vscode = agents.connector('vscode');
  const claude = agents.connector('claude');
  if (!vscode?.ownFileHasHooks?.(workspace) || !claude || claude.state(workspace, target) === 'disconnected') return null;
  const r = vscode.connect(workspace, target);
  if (!r.changed) return null;
  return {
    agent: 'vscode',
    displayName: vscode.displayName,
    ...r,
    notes: [
      l10n.t(
        "Removed .github/hooks/agent-rewind.json: VS Code agent mode and Copilot CLI are now recorded through Claude Code's file (one hook file, so no event is recorded twice).",
      ),
    ],
  };
}

/** The row of an agent whose Connect or Disconnect threw: its files untouched, the reason in `l10n`'s language. */
function failed(c: AgentConnector, workspace: string, e: unknown, l10n: Localizer) {
  return {
    agent: c.agent,
    displayName: c.displayName,
    files: c.files(workspace),
    changed: false,
    notes: [],
    error: localizedMessage(e, l10n),
  };
}

/** Connects `agents` in one workspace: Claude first, so the VS Code connector sees whether Claude's file serves it. */
export function connectAgents(
  agents: readonly AgentId[],
  workspace: string,
  target: HookTarget,
  l10n: Localizer = ENGLISH,
  known: Registry = registry,
): ConnectOutcome[] {
  const chosen = known.allConnectors().filter((c) => agents.includes(c.agent));
  const out: ConnectOutcome[] = [];
  for (const c of chosen) {
    try {
      out.push({ agent: c.agent, displayName: c.displayName, ...c.connect(workspace, target, l10n) });
    } catch (e) {
      out.push(failed(c, workspace, e, l10n));
    }
  }
  if (agents.includes('claude') && !agents.includes('vscode')) {
    const r = retireVscodeFile(workspace, target, l10n, known);
    if (r) out.push(r);
  }
  return out;
}

export interface DisconnectOutcome {
  agent: AgentId;
  displayName: string;
  files: string[];
  changed: boolean;
  notes: string[];
  error?: string;
}

/** Disconnects `agents`; says when VS Code / Copilot CLI lose the Claude file that recorded them. */
export function disconnectAgents(
  agents: readonly AgentId[],
  workspace: string,
  target: HookTarget,
  l10n: Localizer = ENGLISH,
  known: Registry = registry,
): DisconnectOutcome[] {
  const vscode = known.connector('vscode');
  const servedBefore = !!vscode && vscode.state(workspace, target) !== 'disconnected' && !vscode.ownFileHasHooks?.(workspace);
  const out: DisconnectOutcome[] = [];
  for (const c of known.allConnectors().filter((x) => agents.includes(x.agent))) {
    try {
      out.push({ agent: c.agent, displayName: c.displayName, ...c.disconnect(workspace), notes: [] });
    } catch (e) {
      out.push(failed(c, workspace, e, l10n));
    }
  }
  const claude = out.find((o) => o.agent === 'claude');
  if (claude?.changed && servedBefore && !agents.includes('vscode'))
    claude.notes.push(
      l10n.t(
        'VS Code agent mode and Copilot CLI were recorded through that file and are not recorded any more; connect "VS Code agent mode & Copilot CLI" to record them again.',
      ),
    );
  return out;
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/**
 * A connector's state in one workspace, judged as the user meets it. Its hook is current when it is
 * what Connect writes now — or what Connect writes with the Node and CLI that hook already runs, when
 * both exist and it records into this same store: a hook written by another program (the CLI, a demo,
 * another window whose `node` is elsewhere on PATH) records exactly the same, so it is not "older".
 */
export function connectorState(
  c: AgentConnector,
  workspace: string,
  target: HookTarget,
  agents: Registry = registry,
): AgentConnectionState {
  const state = c.state(workspace, target);
  if (state !== 'outdated') return state;
  const found = writtenTarget(recordingConnector(c, workspace, agents).files(workspace));
  if (!found) return state;
  const theirs = found.target;
  if (path.resolve(workspace, theirs.store) !== path.resolve(target.store) || !isFile(theirs.node) || !isFile(theirs.cli)) return state;
  return c.state(workspace, theirs) === 'connected' ? 'connected' : state;
}

/** Each connector's state in one workspace. */
export function agentStates(workspace: string, target: HookTarget, agents: Registry = registry): Map<AgentId, AgentConnectionState> {
  const m = new Map<AgentId, AgentConnectionState>();
  for (const c of agents.allConnectors()) {
    try {
      m.set(c.agent, connectorState(c, workspace, target, agents));
    } catch {
      m.set(c.agent, 'disconnected');
    }
  }
  return m;
}

/**
 * The file holding each connected agent's hooks in one workspace: what proves the agent is
 * recorded (VS Code agent mode served by Claude Code's file names that file).
 */
export function hookFiles(workspace: string, target: HookTarget, agents: Registry = registry): Map<AgentId, string> {
  const out = new Map<AgentId, string>();
  for (const [agent, state] of agentStates(workspace, target, agents)) {
    if (state === 'disconnected') continue;
    const files = recordingConnector(agents.connector(agent)!, workspace, agents).files(workspace);
    out.set(agent, files.find((f) => fs.existsSync(f)) ?? files[0]!);
  }
  return out;
}
