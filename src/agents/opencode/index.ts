// OpenCode: our plugin in `.opencode/plugins/` posts each event to the hook.
import type { AgentAdapter } from '../adapter';

const parser = () => require('./hookPayload') as typeof import('./hookPayload');

export const opencodeAdapter: AgentAdapter = {
  id: 'opencode',
  displayName: 'OpenCode',
  icon: 'code',
  parser: () => (t, c) => parser().parseOpencodePayload(t, c),
  connector: (use) => (require('./connect') as typeof import('./connect')).opencodeConnector(use.displayName),
  install: 'npm install -g opencode-ai',
  conversation: () => (require('./conversation') as typeof import('./conversation')).opencodeConversation,
};
