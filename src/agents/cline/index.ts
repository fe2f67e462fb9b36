// Cline: one hook script per event in `.clinerules/hooks/`; its VS Code extension's payloads can reach VS Code's hook command.
import type { AgentAdapter } from '../adapter';

const parser = () => require('./hookPayload') as typeof import('./hookPayload');

export const clineAdapter: AgentAdapter = {
  id: 'cline',
  displayName: 'Cline',
  icon: 'robot',
  servedBy: ['vscode'],
  parser: () => (t, c) => parser().parseClinePayload(t, c),
  connector: () => (require('./connect') as typeof import('./connect')).clineConnector,
  noConversation: (l10n) =>
    l10n.t(
      "Cline keeps its task history in its own storage, which no other program can fork or resume; use Cline's own checkpoints for the conversation",
    ),
};
