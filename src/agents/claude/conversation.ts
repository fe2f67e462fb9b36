// What the rest of Agent Rewind needs to offer conversation rewind for Claude Code sessions: read its
// transcript, follow it as it grows, fork it, and the command that resumes the fork (proven by
// test/compat against the real client: `claude --resume <fork id>` continues with the kept turns).
import type { AgentConversation } from '../adapter';
import { claudeForker, claudeResume } from './forkTranscript';
import { readTimeline, TranscriptFollower } from './transcriptTimeline';

export const claudeConversation: AgentConversation = {
  /** Any JSONL: the reader of last resort, asked after every other agent's (registry.ts). */
  find: () => true,
  read: readTimeline,
  follow: (file) => new TranscriptFollower(file),
  fork: claudeForker,
  resume: claudeResume,
};
