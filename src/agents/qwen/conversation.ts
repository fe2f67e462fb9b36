// Conversation rewind for Qwen Code sessions: where a session's chat is, how to tell a chat file from
// another transcript, read it (and follow it as it grows), fork it, and the command that resumes a fork
// (proven by test/compat/qwen against the version below: `qwen --resume <fork id>` continues from the
// cut, the model gets only the kept turns).
import * as os from 'node:os';
import type { AgentConversation } from '../adapter';
import { isQwenChat, qwenChatFile } from './chatFile';
import { QwenChatFollower, readQwenTimeline } from './chatTimeline';
import { qwenForker, qwenResumeCommand } from './forkChat';

/** The Qwen Code version the chat format and the resume of a fork were checked against. */
export const CHECKED_QWEN_VERSION = '0.24.4';

/** The chat file of `session` started in `cwd` (the hooks' `transcript_path` names the same file). */
export const findQwenChat = (session: string, cwd: string, home: string = os.homedir()): string => qwenChatFile(home, cwd, session);

export const qwenConversation: AgentConversation = {
  /** By content: Qwen's record identity with Gemini-style message parts. */
  find: isQwenChat,
  /** Prompts (id = the prompt record's uuid), replies and tool calls. */
  read: readQwenTimeline,
  follow: (file) => new QwenChatFollower(file),
  fork: qwenForker,
  resume: qwenResumeCommand,
};
