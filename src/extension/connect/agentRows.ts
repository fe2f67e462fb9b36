// The words of one agent's row in "Connect Agents…" / "Disconnect Agents…", from facts alone (no
// `vscode` here: unit-tested). A row says what choosing it will do: the file that will hold the hook —
// for VS Code agent mode while Claude Code's file serves it, that file, not a `.github` file Connect
// would not write. Disconnect selects nothing by itself: the user ticks what should stop recording.
import type { AgentConnectionState } from '../../agents/common/connector';
import type { Localizer } from '../../shared/l10n';

export interface AgentRowFacts {
  state: AgentConnectionState;
  /** What shows the agent is used here ("this editor (…)", a config folder, a binary), or null. */
  evidence: string | null;
  /** The agent's own files, relative to the folder (`/`-separated). */
  files: readonly string[];
  /** Another agent's file records this one (VS Code agent mode reads Claude Code's settings): that file and its agent. */
  servedBy?: { file: string; name: string };
}

export interface AgentRow {
  description: string;
  detail: string;
  picked: boolean;
}

/** An agent's connection in the quick pick ('' when disconnected). */
export function stateWords(state: AgentConnectionState, l10n: Localizer): string {
  if (state === 'connected') return l10n.t('connected');
  if (state === 'outdated') return l10n.t('connected (an older hook: connecting refreshes it)');
  return '';
}

export function agentRow(f: AgentRowFacts, forDisconnect: boolean, l10n: Localizer): AgentRow {
  const where =
    f.files.length > 2
      ? l10n.t('{0}/ ({1} scripts)', f.files[0]!.slice(0, f.files[0]!.lastIndexOf('/')), f.files.length)
      : f.files.join(', ');
  const description = stateWords(f.state, l10n) || (f.evidence ? l10n.t('found: {0}', f.evidence) : l10n.t('not detected'));
  let detail: string;
  if (f.servedBy)
    detail = forDisconnect
      ? l10n.t('recorded through {0} ({1}’s file): disconnecting {1} stops it', f.servedBy.file, f.servedBy.name)
      : l10n.t('served by {0} ({1}’s file, which it reads too): writes nothing else', f.servedBy.file, f.servedBy.name);
  else detail = forDisconnect ? l10n.t("removes Agent Rewind's hooks from {0}", where) : l10n.t('writes {0}', where);
  return { description, detail, picked: !forDisconnect && (f.state !== 'disconnected' || f.evidence !== null) };
}
