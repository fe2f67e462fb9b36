// Cursor: the hooks of `.cursor/hooks.json` (and, with its third-party setting on, Claude Code's settings files).
import type { AgentAdapter } from '../adapter';

const parser = () => require('./hookPayload') as typeof import('./hookPayload');

export const cursorAdapter: AgentAdapter = {
  id: 'cursor',
  displayName: 'Cursor',
  icon: 'inspect',
  servedBy: ['claude'],
  hostEditor: /^cursor\b/i,
  parser: () => (t, c) => parser().parseCursorPayload(t, c),
  connector: (use) => (require('./connect') as typeof import('./connect')).cursorConnector(use.connectorOf),
  noConversation: (l10n) => l10n.t('Cursor keeps its chats in its own database, not in a file another program can fork or resume'),
};
