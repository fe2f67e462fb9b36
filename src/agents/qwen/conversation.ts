// What the rest of Agent Rewind needs to offer conversation rewind for Qwen Code sessions: where a
// session's chat is, how to tell a chat file from another transcript, read it (and follow it as it
// grows), fork it, and the command that resumes a fork (proven by test/compat/qwen against the version
// below: `qwen --resume <fork id>` continues from the cut, the model gets only the kept turns).
import * as os from 'node:os';
import { isQwenChat, qwenChatFile } from './chatFile';
import { QwenChatFollower, readQwenTimeline } from './chatTimeline';
import { qwenForker, qwenResumeCommand } from './forkChat';

/** The Qwen Code version the chat format and the resume of a fork were checked against. */
export const CHECKED_QWEN_VERSION = '0.24.4';

export const qwenConversation = {
  agent: 'qwen',
  /** The chat file of `session` started in `cwd` (the hooks' `transcript_path` names the same file). */
  find: (session: string, cwd: string, home: string = os.homedir()) => qwenChatFile(home, cwd, session),
  /** Is this file a Qwen Code chat? (By content: Qwen's record identity with Gemini-style message parts.) */
  detect: isQwenChat,
  /** Prompts (id = the prompt record's uuid), replies and tool calls, in the common timeline shape. */
  read: readQwenTimeline,
  /** The same, followed as the file grows: each read parses only the appended lines. */
  follow: (file: string) => new QwenChatFollower(file),
  forker: qwenForker,
  /** A fork written by `forker` is resumed by the real client; this is the command to show. */
  resume: { supported: true, command: qwenResumeCommand },
} as const;
