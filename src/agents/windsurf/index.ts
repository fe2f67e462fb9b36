// Windsurf: the hooks of `.windsurf/hooks.json`.
import type { AgentAdapter } from '../adapter';

const parser = () => require('./hookPayload') as typeof import('./hookPayload');

export const windsurfAdapter: AgentAdapter = {
  id: 'windsurf',
  displayName: 'Windsurf',
  icon: 'symbol-event',
  hostEditor: /^windsurf\b/i,
  parser: () => (t, c) => parser().parseWindsurfPayload(t, c),
  connector: () => (require('./connect') as typeof import('./connect')).windsurfConnector,
  connectName: 'Windsurf (Cascade)',
  noConversation: (l10n) =>
    l10n.t(
      "Windsurf keeps Cascade conversations in its own storage, which no other program can fork or resume; use Cascade's own checkpoints for the conversation",
    ),
};
