// GitHub Copilot CLI: recorded through VS Code's hook file (the vscode connector `alsoServes` it) or Claude Code's, which it also runs.
import type { AgentAdapter } from '../adapter';

const parser = () => require('./hookPayload') as typeof import('./hookPayload');

export const copilotAdapter: AgentAdapter = {
  id: 'copilot',
  displayName: 'Copilot CLI',
  icon: 'copilot',
  servedBy: ['claude', 'vscode'],
  parser: () => (t, c) => parser().parseCopilotPayload(t, c),
  noConversation: (l10n) =>
    l10n.t("Copilot CLI's session state is its own private format; use /rewind or /fork in Copilot CLI for the conversation"),
};
