// The events of agents whose hooks copy Claude Code's (Qwen Code, Factory Droid, Auggie):
// SessionStart, UserPromptSubmit (Auggie 1.x: PromptSubmit), Pre/PostToolUse(+Failure), Stop,
// SubagentStop, SessionEnd, with `tool_name` / `tool_input` and, when the agent sends one,
// `tool_use_id`. Only the tool names differ: each agent passes its own `toolKind`. A call without an
// id pairs its two ends by (tool, input) in order (recording/pairCalls.ts).
import type { ToolKind } from '../../core/effects/toolKind';
import type { AdapterResult, EventBase } from '../../recording/events';
import { bad, obj, type Payload, stableText, str, toolEvent } from './payload';

export type ToolKindOf = (tool: string, input: Payload, cwd: string | undefined) => { kind: ToolKind; bad: string[] };

export interface ClaudeLikeSpec {
  toolKind: ToolKindOf;
  /** The prompt's text (Qwen Code: `submitted_prompt` when it sends one); default `prompt`. */
  promptOf?(p: Payload): string | undefined;
  /** A tool input the agent may send as a JSON string (Auggie [U]). */
  inputOf?(p: Payload): Payload;
  /** The tool's failure, when the agent reports it on PostToolUse (Auggie: `tool_error`). */
  failed?(p: Payload): boolean;
}

const PROMPT_EVENTS = new Set(['UserPromptSubmit', 'PromptSubmit']);

/** One Claude-shaped payload (already split into its object, event name and common fields) -> an event. */
export function claudeLikeEvent(p: Payload, event: string, base: EventBase, spec: ClaudeLikeSpec): AdapterResult {
  switch (event) {
    case 'SessionStart':
      return { kind: 'event', event: { ...base, type: 'session_start', ...(str(p.source) ? { source: str(p.source) } : {}) } };
    case 'Stop':
      return { kind: 'event', event: { ...base, type: 'stop' } };
    case 'SubagentStop':
      return { kind: 'event', event: { ...base, type: 'stop', subagent: true } };
    case 'SessionEnd':
      return { kind: 'event', event: { ...base, type: 'session_end', ...(str(p.reason) ? { reason: str(p.reason) } : {}) } };
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const tool = str(p.tool_name);
      if (!tool) return bad(`${event} without tool_name`);
      const input = spec.inputOf ? spec.inputOf(p) : (obj(p.tool_input) ?? {});
      const { kind, bad: badPaths } = spec.toolKind(tool, input, base.cwd);
      if (badPaths.length) return bad(`${tool}: path not absolute and no working folder: ${badPaths.join(', ')}`);
      if (kind.kind === 'file-write' && kind.paths.length === 0) return bad(`${tool}: names no file it writes`);
      const callId = str(p.tool_use_id) || str(p.tool_call_id) || undefined;
      const ok = event === 'PostToolUse' && !spec.failed?.(p);
      return toolEvent(base, event === 'PreToolUse' ? 'before' : 'after', tool, kind, input, {
        ...(callId ? { callId } : { pairKey: stableText([tool, input]) }),
        ok,
      });
    }
    default: {
      if (!PROMPT_EVENTS.has(event)) return { kind: 'ignore' };
      const text = spec.promptOf ? spec.promptOf(p) : typeof p.prompt === 'string' ? p.prompt : undefined;
      if (text === undefined) return bad(`${event} without a prompt`);
      return {
        kind: 'event',
        event: {
          ...base,
          type: 'prompt',
          text,
          ...(typeof p.prompt_id === 'string' ? { promptId: p.prompt_id } : {}),
          ...(event === 'UserPromptSubmit' ? {} : { hookEvent: event }),
        },
      };
    }
  }
}
