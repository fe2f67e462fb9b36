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
  noConversation: (l10n) =>
    l10n.t(
      "Qwen Code saves each chat as a file under ~/.qwen/projects/<project>/chats/ (resumed with qwen --resume <id>), which Agent Rewind does not fork yet; use Qwen Code's own --fork-session for the conversation",
    ),
};
