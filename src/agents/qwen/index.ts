// Qwen Code: the hooks of `.qwen/settings.json`.
import type { AgentAdapter } from '../adapter';

const parser = () => require('./hookPayload') as typeof import('./hookPayload');

export const qwenAdapter: AgentAdapter = {
  id: 'qwen',
  displayName: 'Qwen Code',
  icon: 'hubot',
  aliases: ['qwen-code'],
  parser: () => (t) => parser().parseQwenPayload(t),
  connector: () => (require('./connect') as typeof import('./connect')).qwenConnector,
  install: 'npm install -g @qwen-code/qwen-code',
  conversation: () => (require('./conversation') as typeof import('./conversation')).qwenConversation,
};
