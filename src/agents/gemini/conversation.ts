// Conversation rewind for Gemini sessions: how to
// tell a chat file from another transcript, read it, fork it, and whether the real client resumes
// the fork (proven by test/compat/gemini against the version below: `gemini --resume <fork id>`
// continues from the cut with the kept turns, each tool call answered once, and nothing after them).
import { isGeminiChat } from './chatFile';
import { ChatFollower, readChatTimeline } from './chatTimeline';
import type { AgentConversation } from '../adapter';
import { geminiForker, geminiResume } from './forkChat';

/** The Gemini CLI version the chat format, the payloads and the resume of a fork were checked against. */
export const CHECKED_GEMINI_VERSION = '0.61.0';

export const geminiConversation: AgentConversation = {
  /** By content: its first line is the metadata record. */
  find: isGeminiChat,
  /** Prompts (id = the user message's id), replies and tool calls. */
  read: readChatTimeline,
  follow: (file) => new ChatFollower(file),
  fork: geminiForker,
  resume: geminiResume,
};
