// Auggie (Augment's CLI): the hooks of `.augment/settings.json`.
import type { AgentAdapter } from '../adapter';

const parser = () => require('./hookPayload') as typeof import('./hookPayload');

export const auggieAdapter: AgentAdapter = {
  id: 'auggie',
  displayName: 'Auggie',
  icon: 'sparkle-filled',
  aliases: ['augment'],
  parser: () => (t, c) => parser().parseAuggiePayload(t, c),
  connector: () => (require('./connect') as typeof import('./connect')).auggieConnector,
  connectName: 'Auggie (Augment)',
  noConversation: (l10n) =>
    l10n.t('Auggie runs only signed in to Augment, whose service keeps the conversation; no other program can fork or resume it'),
};
