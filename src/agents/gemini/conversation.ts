// What the rest of Agent Rewind needs to offer conversation rewind for Gemini CLI sessions: how to
// tell a chat file from another transcript, read it, fork it, and whether the real client resumes
// the fork (proven by test/compat/gemini against the version below: `gemini --resume <fork id>`
// continues from the cut with the kept turns, each tool call answered once, and nothing after them).
import { isGeminiChat } from './chatFile';
import { ChatFollower, readChatTimeline } from './chatTimeline';
import { geminiForker } from './forkChat';

/** The Gemini CLI version the chat format, the payloads and the resume of a fork were checked against. */
export const CHECKED_GEMINI_VERSION = '0.61.0';

export const geminiConversation = {
  agent: 'gemini',
  displayName: 'Gemini CLI',
  /** Is this file a Gemini CLI chat? (By content: its first line is the metadata record.) */
  detect: isGeminiChat,
  /** Prompts (id = the user message's id), replies and tool calls, in the Claude timeline's shape. */
  read: readChatTimeline,
  /** The same, followed as the file grows: each read parses only the appended lines. */
  follow: (file: string) => new ChatFollower(file),
  forker: geminiForker,
  /** A fork written by `forker` is resumed by the real client; this is the command to show. */
  resume: { supported: true, command: (session: string) => `gemini --resume ${session}` },
} as const;
