// Conversation rewind for Codex sessions: how to tell a
// rollout from another transcript, read it, fork it, and whether the real client resumes the fork
// (proven by test/compat/codex against the version below: `codex exec resume <fork id>` continues
// from the cut with the kept turns and nothing after them).
import type { AgentConversation } from '../adapter';
import { codexForker, codexResume } from './forkRollout';
import { isCodexRollout } from './rolloutRead';
import { readRolloutTimeline, RolloutFollower } from './rolloutTimeline';

/** The Codex version the rollout format, the payloads and the resume of a fork were checked against. */
export const CHECKED_CODEX_VERSION = '0.171.0';

export const codexConversation: AgentConversation = {
  /** By content: its first line is a `session_meta`. */
  find: isCodexRollout,
  /** Prompts (id = turn id), replies and tool calls. */
  read: readRolloutTimeline,
  follow: (file) => new RolloutFollower(file),
  fork: codexForker,
  resume: codexResume,
};
