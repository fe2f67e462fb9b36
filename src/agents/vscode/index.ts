// VS Code's agent mode (Copilot Chat): the hooks of `.github/hooks/*.json`, and of Claude Code's settings files, which it also runs.
import type { AgentAdapter } from '../adapter';

const parser = () => require('./hookPayload') as typeof import('./hookPayload');

export const vscodeAdapter: AgentAdapter = {
  id: 'vscode',
  displayName: 'VS Code agent mode',
  icon: 'vscode',
  servedBy: ['claude'],
  parser: () => (t, c) => parser().parseVscodePayload(t, c),
  connector: (use) => (require('./connect') as typeof import('./connect')).vscodeConnector(use.connectorOf),
  connectName: 'VS Code agent mode & Copilot CLI',
  noConversation: (l10n) =>
    l10n.t(
      'VS Code keeps Copilot Chat sessions in its own storage, which no other program can fork or resume; use the chat\'s own "Restore Checkpoint" for the conversation',
    ),
};
