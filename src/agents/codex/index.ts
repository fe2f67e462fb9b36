// Codex: the hooks of `.codex/hooks.json`, its rollouts read and forked.
import type { AgentAdapter } from '../adapter';

const parser = () => require('./hookPayload') as typeof import('./hookPayload');

export const codexAdapter: AgentAdapter = {
  id: 'codex',
  displayName: 'Codex CLI',
  icon: 'terminal',
  parser: () => (t) => parser().parseCodexPayload(t),
  connector: () => (require('./connect') as typeof import('./connect')).codexConnector,
  install: 'npm install -g @openai/codex',
  conversation: () => (require('./conversation') as typeof import('./conversation')).codexConversation,
};
