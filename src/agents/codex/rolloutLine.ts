// One line of a Codex rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<local time>-<id>.jsonl`),
// projected to what the reader and the forker need. A line is `{ timestamp, ordinal, type, payload }`
// (0.171; see test/fixtures/agents/codex/real-0.171.0/README.md). The conversation is made of:
//   - `event_msg` `task_started` / `task_complete` (or `turn_aborted`): a turn's ends, with `turn_id`;
//   - `event_msg` `item_completed` `{ item: { type: "UserMessage", content } }`: the prompt
//     (older rollouts: `event_msg` `user_message { message }`);
//   - `response_item`s, what the model is sent again on resume: `message` (assistant text),
//     `function_call` / `custom_tool_call` and their `*_output`s, paired by `call_id`.
// Everything else (session_meta, turn_context, world_state, token counts…) is copied, never read.

export interface RolloutCall {
  callId: string;
  /** `exec_command`, `apply_patch`, `shell`, an MCP tool… as the model called it. */
  name: string;
  /** The parsed `arguments` of a function call, or the freeform `input` of a custom tool call. */
  input: unknown;
}

export interface RolloutEntry {
  /** Index among the file's non-empty lines. */
  index: number;
  /** Byte offset and length (without the newline) in the file: a fork copies lines unchanged. */
  offset: number;
  bytes: number;
  type: string;
  /** `payload.type` of event_msg / response_item lines. */
  sub?: string;
  timestamp?: string;
  /** Any `session_id` / `thread_id` / `id` field of the line names the session (a fork must rewrite it). */
  mentions: boolean;
  turnId?: string;
  /** session_meta: the session id and cwd. */
  sessionId?: string;
  cwd?: string;
  /** A prompt line: its text. */
  prompt?: string;
  /** An assistant message's text. */
  assistantText?: string;
  call?: RolloutCall;
  output?: { callId: string; text: string };
}

const OUTPUT_PREVIEW = 2000;

type Json = Record<string, unknown>;

function obj(v: unknown): Json | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => (typeof obj(c)?.text === 'string' ? (c as { text: string }).text : '')).join('\n');
}

function parseArgs(s: unknown): unknown {
  if (typeof s !== 'string') return s ?? {};
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return s;
  }
}

/** Parses one line; null when it is not a JSON object with a string `type`. */
export function parseRolloutLine(text: string, index: number, offset: number, bytes: number, sessionHint?: string): RolloutEntry | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const j = obj(raw);
  if (!j || typeof j.type !== 'string') return null;
  const p = obj(j.payload) ?? {};
  const e: RolloutEntry = { index, offset, bytes, type: j.type, mentions: false };
  if (typeof p.type === 'string' && (j.type === 'event_msg' || j.type === 'response_item')) e.sub = p.type;
  if (typeof j.timestamp === 'string') e.timestamp = j.timestamp;
  if (typeof p.turn_id === 'string') e.turnId = p.turn_id;
  else {
    const attributed = obj(p.turn_attribution)?.turn_id;
    if (typeof attributed === 'string') e.turnId = attributed;
  }
  if (j.type === 'session_meta') {
    if (typeof p.id === 'string') e.sessionId = p.id;
    if (typeof p.cwd === 'string') e.cwd = p.cwd;
  }
  if (j.type === 'turn_context' && typeof p.cwd === 'string') e.cwd = p.cwd;
  if (sessionHint && text.includes(sessionHint)) e.mentions = true;
  if (j.type === 'event_msg') {
    const item = obj(p.item);
    if (p.type === 'item_completed' && item?.type === 'UserMessage') e.prompt = textOf(item.content);
    else if (p.type === 'user_message' && typeof p.message === 'string') e.prompt = p.message;
  } else if (j.type === 'response_item') {
    if (p.type === 'message' && p.role === 'assistant') e.assistantText = textOf(p.content);
    else if (
      (p.type === 'function_call' || p.type === 'custom_tool_call' || p.type === 'local_shell_call') &&
      typeof p.call_id === 'string'
    ) {
      const input = p.type === 'function_call' ? parseArgs(p.arguments) : p.type === 'custom_tool_call' ? p.input : p.action;
      e.call = {
        callId: p.call_id,
        name: typeof p.name === 'string' ? p.name : p.type === 'local_shell_call' ? 'local_shell' : '?',
        input,
      };
    } else if ((p.type === 'function_call_output' || p.type === 'custom_tool_call_output') && typeof p.call_id === 'string') {
      const out = typeof p.output === 'string' ? p.output : JSON.stringify(p.output ?? '');
      e.output = { callId: p.call_id, text: out.slice(0, OUTPUT_PREVIEW) };
    }
  }
  return e;
}
