// Factory Droid: the hooks of `.factory/settings.json`.
import type { AgentAdapter } from '../adapter';

const parser = () => require('./hookPayload') as typeof import('./hookPayload');

export const droidAdapter: AgentAdapter = {
  id: 'droid',
  displayName: 'Factory Droid',
  icon: 'rocket',
  aliases: ['factory', 'factory-droid'],
  parser: () => (t) => parser().parseDroidPayload(t),
  connector: () => (require('./connect') as typeof import('./connect')).droidConnector,
  noConversation: (l10n) =>
    l10n.t(
      'Droid keeps each session as a file under ~/.factory/sessions/, which Agent Rewind does not fork yet; use droid exec --fork <id> for the conversation',
    ),
};
