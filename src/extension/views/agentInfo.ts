// An agent as the views show it: its name, its icon, and what can be rewound of its conversation
// (from the one capability table, agents/capabilities.ts). The Files and Conversation views and their
// tooltips use this, so every session says which agent made it.
import * as vscode from 'vscode';
import { agentCapabilities, conversationUnavailableText } from '../../agents/capabilities';

export interface AgentInfo {
  id: string;
  /** "Claude Code", "Cursor"… */
  name: string;
  /** The codicon id, for `$(id)` in labels and quick picks. */
  codicon: string;
  icon: vscode.ThemeIcon;
  /** "Conversation rewind is not available for Cursor: …", or null when it is. */
  conversationUnavailable: string | null;
}

export function agentInfo(agentId: string): AgentInfo {
  const c = agentCapabilities(agentId, vscode.l10n);
  return {
    id: agentId,
    name: c.displayName,
    codicon: c.icon,
    icon: new vscode.ThemeIcon(c.icon),
    conversationUnavailable: conversationUnavailableText(agentId, vscode.l10n),
  };
}
