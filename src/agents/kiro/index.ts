// Kiro: its IDE's `.kiro/hooks/*.kiro.hook` files and its CLI's hooks file.
import type { AgentAdapter } from '../adapter';

const parser = () => require('./hookPayload') as typeof import('./hookPayload');

export const kiroAdapter: AgentAdapter = {
  id: 'kiro',
  displayName: 'Kiro',
  icon: 'symbol-misc',
  hostEditor: /^kiro\b/i,
  parser: () => (t, c) => parser().parseKiroPayload(t, c),
  connector: (use) => (require('./connect') as typeof import('./connect')).kiroConnector(use.displayName),
  connectName: 'Kiro (IDE & CLI)',
  noConversation: (l10n) =>
    l10n.t(
      "Kiro keeps its chats in its own storage and its hooks name no session, which no other program can fork or resume; use Kiro's own checkpoints for the conversation",
    ),
};
