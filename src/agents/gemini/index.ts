// Gemini CLI: the hooks of `.gemini/settings.json`, its chat files read and forked.
import type { AgentAdapter } from '../adapter';

const parser = () => require('./hookPayload') as typeof import('./hookPayload');

export const geminiAdapter: AgentAdapter = {
  id: 'gemini',
  displayName: 'Gemini CLI',
  icon: 'star-full',
  parser: () => (t) => parser().parseGeminiPayload(t),
  connector: () => (require('./connect') as typeof import('./connect')).geminiConnector,
  install: 'npm install -g @google/gemini-cli',
  conversation: () => (require('./conversation') as typeof import('./conversation')).geminiConversation,
};
