// The Claude Code transcript line types we know. The transcript is an
// internal format that changes between releases: the reader walks the chain through every type in
// CHAIN_LINE_TYPES, and skips metadata types — known or not — without failing.
//
// The compat tier FAILS when the real CLI writes a chain line (one carrying `uuid`) of a type not
// in CHAIN_LINE_TYPES: the reader and forker must be taught about it first (does it belong in a
// fork? is it a turn?). A metadata type not in METADATA_LINE_TYPES is only reported.

/** Lines on the conversation chain (`uuid` / `parentUuid`). */
export const CHAIN_LINE_TYPES: ReadonlySet<string> = new Set([
  'user',
  'assistant',
  'system',
  /** Context the CLI adds (files, hook output, reminders); on the chain between a prompt and the reply (2.1.332). */
  'attachment',
  /** Subagent / tool progress; never part of a resumed conversation. */
  'progress',
]);

/** Lines about the session as a whole (no `uuid`), seen in documentation or in the real CLI. */
export const METADATA_LINE_TYPES: ReadonlySet<string> = new Set([
  'summary',
  'custom-title',
  'ai-title',
  'last-prompt',
  'permission-mode',
  'queue-operation',
  'file-history-snapshot',
  'content-replacement',
  // Observed in 2.1.332:
  'api-request',
  'api-request-blob',
  'api-request-shape',
  'tools-used',
  'atis-latch',
  'cost-state',
  /** `{ type: "mode", mode: "normal" }`, written after a resumed turn. */
  'mode',
]);

/** The Claude Code version the lists (and KNOWN_PAYLOAD_FIELDS) were last checked against. */
export const CHECKED_CLAUDE_CODE_VERSION = '2.1.332';
