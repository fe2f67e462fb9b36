// The compat tier reads and forks Gemini chats with the product's own code (src/agents/gemini/):
// one copy of the reader and the forker, proven against the real CLI.
export * from '../../../src/agents/gemini/chatFile';
export { forkChat } from '../../../src/agents/gemini/forkChat';
