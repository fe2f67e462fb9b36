// What the rest of Agent Rewind needs to offer conversation rewind for Codex sessions: how to tell a
// rollout from another transcript, read it, fork it, and whether the real client resumes the fork
// (proven by test/compat/codex against the version below: `codex exec resume <fork id>` continues
// from the cut with the kept turns and nothing after them).
import { codexForker } from './forkRollout';
import { isCodexRollout } from './rolloutRead';
import { readRolloutTimeline, RolloutFollower } from './rolloutTimeline';

/** The Codex CLI version the rollout format, the payloads and the resume of a fork were checked against. */
export const CHECKED_CODEX_VERSION = '0.171.0';

export const codexConversation = {
  agent: 'codex',
  displayName: 'Codex CLI',
  /** Is this file a Codex rollout? (By content: its first line is a `session_meta`.) */
  detect: isCodexRollout,
  /** Prompts (id = turn id), replies and tool calls, in the Claude timeline's shape. */
  read: readRolloutTimeline,
  /** The same, followed as the file grows: each read parses only the appended lines. */
  follow: (file: string) => new RolloutFollower(file),
  forker: codexForker,
  /** A fork written by `forker` is resumed by the real client; this is the command to show. */
  resume: { supported: true, command: (session: string) => `codex resume ${session}` },
} as const;
