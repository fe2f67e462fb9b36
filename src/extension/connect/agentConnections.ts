// "Connect Agents…" / "Disconnect Agents…": a multi-select quick pick of every agent we have a
// connector for, detected and connected ones pre-selected and described with their evidence; each
// connector writes its agent's own hook file (agents/connectors.ts, which also keeps VS Code and
// Copilot CLI from being recorded twice). What was done, and every note, goes to a notification
// and to the output channel. The status bar and the welcome view read `connectedNames()`.
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentConnectionState, AgentId, HookTarget } from '../../agents/common/connector';
import {
  agentStates,
  connectAgents,
  connectorState,
  CONNECTORS,
  disconnectAgents,
  type DisconnectOutcome,
  hookFiles,
} from '../../agents/connectors';
import { agentRow } from './agentRows';
import { hostEditorAgent, hostFirst } from '../../agents/hostEditor';
import { agentInfo } from '../views/agentInfo';
import { nodeRuntime } from './claudeConnection';
import type { Recording } from '../views/statusBar';
import { pickFolders } from '../pickFolders';
import { dirtyAmong } from '../model/unsavedEditors';
import { registry } from '../../agents/registry';

const claudeConnector = registry.connector('claude')!;

/**
 * Connect and Disconnect write the agents' config files with their own edits (keeping the user's
 * formatting): one of them with unsaved changes in an editor would be overwritten on disk behind
 * that editor, so they refuse, saying which file to save or close. True when refused.
 */
export function refuseUnsavedConfig(files: readonly string[], folder: string, verb: 'Connect' | 'Disconnect'): boolean {
  const unsaved = dirtyAmong(files);
  if (!unsaved.length) return false;
  const names = unsaved.map((f) => path.relative(folder, f).split(path.sep).join('/')).join(', ');
  const command = verb === 'Connect' ? vscode.l10n.t('Connect') : vscode.l10n.t('Disconnect');
  void vscode.window.showWarningMessage(
    unsaved.length === 1
      ? vscode.l10n.t(
          "{0} has unsaved changes in an editor. Save or close it, then {1} again: {1} writes Agent Rewind's hooks into that file. Nothing was changed.",
          names,
          command,
        )
      : vscode.l10n.t(
          "{0} have unsaved changes in an editor. Save or close them, then {1} again: {1} writes Agent Rewind's hooks into those files. Nothing was changed.",
          names,
          command,
        ),
  );
  return true;
}

interface AgentPick extends vscode.QuickPickItem {
  agent: AgentId;
  connected: boolean;
}

export class AgentConnections {
  constructor(
    private readonly cli: () => string,
    private readonly store: string,
    private readonly output: vscode.LogOutputChannel,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly home: string = os.homedir(),
    /** The agent of the editor we run in (Windsurf, Kiro, Cursor: VS Code forks), offered first. */
    private readonly host: AgentId | null = hostEditorAgent(vscode.env.appName, vscode.env.uriScheme),
  ) {}

  target(): HookTarget {
    const rt = nodeRuntime(this.env);
    return { node: rt.node, cli: this.cli(), store: this.store, ...(rt.env ? { env: rt.env } : {}) };
  }

  /** The agents recording in any of `folders`, by display name, in the registry's order. */
  connectedNames(folders: readonly vscode.WorkspaceFolder[]): string[] {
    return this.connected(folders).map((a) => CONNECTORS.find((c) => c.agent === a)!.displayName);
  }

  /**
   * The agents whose hooks are installed, each with the file that holds them (relative to its
   * folder; with several folders, prefixed by the folder's name): what "Recording: …" names.
   */
  recording(folders: readonly vscode.WorkspaceFolder[]): Recording[] {
    const t = this.target();
    const out: Recording[] = [];
    for (const f of folders)
      for (const [agent, file] of hookFiles(f.uri.fsPath, t)) {
        const rel = path.relative(f.uri.fsPath, file).split(path.sep).join('/');
        out.push({ name: CONNECTORS.find((c) => c.agent === agent)!.displayName, file: folders.length > 1 ? `${f.name}/${rel}` : rel });
      }
    return out;
  }

  connected(folders: readonly vscode.WorkspaceFolder[]): AgentId[] {
    if (!folders.length) return [];
    const t = this.target();
    const on = new Set<AgentId>();
    for (const f of folders) for (const [a, s] of agentStates(f.uri.fsPath, t)) if (s !== 'disconnected') on.add(a);
    return CONNECTORS.map((c) => c.agent).filter((a) => on.has(a));
  }

  private items(folders: readonly vscode.WorkspaceFolder[], forDisconnect: boolean): AgentPick[] {
    const t = this.target();
    const first = folders[0]?.uri.fsPath;
    const rel = (p: string) => path.relative(first!, p).split(path.sep).join('/');
    // VS Code agent mode reads Claude Code's settings: while our hook is there, that file serves it.
    const claudeServes = first !== undefined && connectorState(claudeConnector, first, t) !== 'disconnected';
    return hostFirst(CONNECTORS, this.host).map((c): AgentPick => {
      const states = folders.map((f) => connectorState(c, f.uri.fsPath, t));
      const state: AgentConnectionState = states.includes('outdated')
        ? 'outdated'
        : states.includes('connected')
          ? 'connected'
          : 'disconnected';
      const evidence =
        c.agent === this.host
          ? vscode.l10n.t('this editor ({0})', vscode.env.appName)
          : (folders.map((f) => c.detect(f.uri.fsPath, this.env, this.home)).find((e) => e !== null) ?? null);
      const servedBy =
        c.agent === 'vscode' && claudeServes
          ? { file: rel(claudeConnector.files(first)[0]!), name: claudeConnector.displayName }
          : undefined;
      const row = agentRow(
        { state, evidence, files: first === undefined ? [] : c.files(first).map(rel), servedBy },
        forDisconnect,
        vscode.l10n,
      );
      return { agent: c.agent, label: `$(${agentInfo(c.agent).codicon}) ${c.displayName}`, ...row, connected: state !== 'disconnected' };
    });
  }

  private async pickAgents(folders: readonly vscode.WorkspaceFolder[], forDisconnect: boolean): Promise<AgentId[] | undefined> {
    const items = this.items(folders, forDisconnect).filter((i) => !forDisconnect || i.connected);
    if (forDisconnect && !items.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No agent is connected in this workspace.'));
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: forDisconnect ? vscode.l10n.t('Disconnect Agents') : vscode.l10n.t('Connect Agents'),
      // Short enough for the quick pick's box (a longer one is cut and shown in a hover instead).
      placeHolder: forDisconnect
        ? vscode.l10n.t('Agents to stop recording (only our hook entries go)')
        : vscode.l10n.t('Agents to record (detected ones are selected)'),
      matchOnDescription: true,
      ignoreFocusOut: true,
    });
    return picked?.map((p) => p.agent);
  }

  /** "Connect Agents…": pick, write each agent's config, report. `agents` skips the pick (tests, the Claude shortcut). */
  async connectCommand(agents?: AgentId[]): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t("Trust this workspace before connecting agents: Connect writes hook commands into the agents' config files in it."),
      );
      return;
    }
    const folders = await pickFolders(vscode.l10n.t('Connect agents in which folder?'));
    if (!folders.length) return;
    const chosen = agents ?? (await this.pickAgents(folders, false));
    if (!chosen?.length) return;
    const target = this.target();
    for (const folder of folders) {
      if (refuseUnsavedConfig(this.configFiles(chosen, folder.uri.fsPath), folder.uri.fsPath, 'Connect')) continue;
      const out = connectAgents(chosen, folder.uri.fsPath, target, vscode.l10n);
      this.report(folder, 'Connected', out);
    }
  }

  async disconnectCommand(agents?: AgentId[]): Promise<void> {
    const folders = await pickFolders(vscode.l10n.t('Disconnect agents in which folder?'));
    if (!folders.length) return;
    const chosen = agents ?? (await this.pickAgents(folders, true));
    if (!chosen?.length) return;
    const target = this.target();
    for (const folder of folders) {
      if (refuseUnsavedConfig(this.configFiles(chosen, folder.uri.fsPath), folder.uri.fsPath, 'Disconnect')) continue;
      this.report(folder, 'Disconnected', disconnectAgents(chosen, folder.uri.fsPath, target, vscode.l10n));
    }
  }

  /**
   * Every file connecting or disconnecting `agents` in `folder` may write: theirs, and VS Code's
   * hook file (connecting Claude Code or Copilot retires or rewrites it, so no event is recorded twice).
   */
  private configFiles(agents: readonly AgentId[], folder: string): string[] {
    const also: AgentId[] = agents.some((a) => a === 'claude' || a === 'copilot' || a === 'vscode') ? ['vscode'] : [];
    return CONNECTORS.filter((c) => agents.includes(c.agent) || also.includes(c.agent)).flatMap((c) => c.files(folder));
  }

  private report(folder: vscode.WorkspaceFolder, verb: 'Connected' | 'Disconnected', out: readonly DisconnectOutcome[]): void {
    const rel = (f: string) => path.relative(folder.uri.fsPath, f).split(path.sep).join('/');
    const log = (s: string) => this.output.info(s);
    const failed = out.filter((o) => o.error);
    const changed = out.filter((o) => !o.error && o.changed);
    const same = out.filter((o) => !o.error && !o.changed);
    for (const o of out) {
      log(
        `${verb === 'Connected' ? 'Connect' : 'Disconnect'} ${o.displayName} in ${folder.name}: ${o.error ? `failed: ${o.error}` : o.changed ? `wrote ${o.files.map(rel).join(', ')}` : 'nothing to change'}`,
      );
      for (const n of o.notes) log(`  ${n}`);
    }
    const names = (xs: readonly DisconnectOutcome[]) => xs.map((o) => o.displayName).join(', ');
    const parts: string[] = [];
    if (changed.length)
      parts.push(
        verb === 'Connected'
          ? vscode.l10n.t('Connected {0} in {1}: sessions started there from now on are recorded.', names(changed), folder.name)
          : vscode.l10n.t(
              "Disconnected {0} in {1}: removed Agent Rewind's hooks, kept everything else. What was recorded stays until you delete it.",
              names(changed),
              folder.name,
            ),
      );
    if (same.length)
      parts.push(
        verb === 'Connected'
          ? vscode.l10n.t('{0}: already connected, nothing changed.', names(same))
          : vscode.l10n.t('{0}: not connected, nothing changed.', names(same)),
      );
    const notes = out.flatMap((o) => o.notes);
    const message = [...parts, ...notes].join(' ');
    const showLog = vscode.l10n.t('Show Log');
    if (failed.length)
      void vscode.window
        .showWarningMessage(`${failed.map((o) => `${o.displayName}: ${o.error}`).join(' ')} ${message}`.trim(), showLog)
        .then((p) => p && this.output.show(true));
    else void vscode.window.showInformationMessage(message, showLog).then((p) => p && this.output.show(true));
  }
}
