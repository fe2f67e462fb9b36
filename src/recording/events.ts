// The small internal event protocol every agent adapter produces. The
// recorder turns these into store records; adapters know nothing about the store.
import type { ToolKind } from '../core/effects/toolKind';

export interface EventBase {
  agent: string;
  session: string;
  /** The agent's working folder (Claude Code: `CLAUDE_PROJECT_DIR` or the payload's `cwd`). */
  cwd?: string;
  transcript?: string;
  /**
   * Re-grounding context must not be printed at SessionStart, only at the next prompt (Gemini CLI
   * 0.61 prefixes the prompt with SessionStart context and drops such a prompt on every later resume).
   */
  contextAtPromptOnly?: boolean;
}

export interface SessionStartEvent extends EventBase {
  type: 'session_start';
  source?: string;
}

export interface PromptEvent extends EventBase {
  type: 'prompt';
  text: string;
  /**
   * The agent reports some edits only after the write (Cursor): take the session's shell-capture
   * baseline now when it has none (no SessionStart came), so their `before` is known.
   */
  baseline?: boolean;
  promptId?: string;
  /** The agent's name for this event, which its hook output must carry (Gemini: `BeforeAgent`); default `UserPromptSubmit`. */
  hookEvent?: string;
}

/** What both ends of a tool call carry. */
interface ToolEventBase extends EventBase {
  tool: string;
  /** What the tool is (the adapter maps its agent's tool names): what classification goes by. */
  kind: ToolKind;
  callId?: string;
  /** No call id: a before and an after with the same key are one call, paired in order (recording/pairCalls.ts). */
  pairKey?: string;
  input: unknown;
  /** Files the tool names and will write (absolute, validated). */
  paths: string[];
  shell: boolean;
}

export interface BeforeToolEvent extends ToolEventBase {
  type: 'before_tool';
}

export interface AfterToolEvent extends ToolEventBase {
  type: 'after_tool';
  ok: boolean;
  /**
   * The write already happened and no before came (Cursor's afterFileEdit): the recorder takes the
   * `before` from what the store knows of the path (recording/afterOnly.ts).
   */
  afterOnly?: boolean;
}

export interface StopEvent extends EventBase {
  type: 'stop' | 'session_end';
  reason?: string;
  /** A subagent finished (Claude Code SubagentStop): the main agent's turn goes on. */
  subagent?: boolean;
}

export type AgentEvent = SessionStartEvent | PromptEvent | BeforeToolEvent | AfterToolEvent | StopEvent;

/** An adapter's verdict on one payload: an event, nothing to record, or bad input to log. */
export type AdapterResult =
  /** `stamp`: the payload's own timestamp (ms), when it has one: a second delivery of the same event is dropped (recording/dedupe.ts). */
  { kind: 'event'; event: AgentEvent; stamp?: string } | { kind: 'ignore' } | { kind: 'bad'; reason: string };
