// Claude Code: the hooks of `.claude/settings.local.json`, its JSONL transcripts read and forked.
import type { AgentAdapter } from '../adapter';

const parser = () => require('./hookPayload') as typeof import('./hookPayload');

export const claudeAdapter: AgentAdapter = {
  id: 'claude',
  displayName: 'Claude Code',
  icon: 'sparkle',
  parser: () => (t) => parser().parseClaudePayload(t),
  connector: () => (require('./connect') as typeof import('./connect')).claudeConnector,
  install: 'npm install -g @anthropic-ai/claude-code',
  conversation: () => (require('./conversation') as typeof import('./conversation')).claudeConversation,
};
