// The Codex rollout line types we know (0.171). The reader and the forker depend on the
// conversation's items — the `response_item` payload types a resume sends back to the model — and
// on the turn markers; everything else is copied into a fork unread.
//
// The compat tier (test/compat/codex) FAILS when the real CLI writes a `response_item` of a type not
// in RESPONSE_ITEM_TYPES (does it pair with an output? must a cut keep it with its turn?), and only
// reports other unknown types.

/** `response_item` payload types: the conversation as the model sees it again on resume. */
export const RESPONSE_ITEM_TYPES: ReadonlySet<string> = new Set([
  'message',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  /** Documented in Codex's source; paired with a function_call_output like function_call. */
  'local_shell_call',
  /** The model's reasoning summary (Responses API), replayed as is. */
  'reasoning',
]);

/** Top-level line types. */
export const ROLLOUT_LINE_TYPES: ReadonlySet<string> = new Set([
  'session_meta',
  'event_msg',
  'response_item',
  'turn_context',
  'world_state',
  'token_usage_record',
  /** A compaction's summary (Codex's source). */
  'compacted',
]);

/** `event_msg` payload types (turn markers, items, counters). */
export const EVENT_MSG_TYPES: ReadonlySet<string> = new Set([
  'task_started',
  'task_complete',
  'turn_aborted',
  'item_started',
  'item_completed',
  'token_count',
  'thread_settings_applied',
  /** Older rollouts' prompt and reply (before item_completed). */
  'user_message',
  'agent_message',
]);

/** `item_completed` item types. */
export const ITEM_TYPES: ReadonlySet<string> = new Set(['UserMessage', 'AgentMessage', 'FileChange', 'CommandExecution']);
