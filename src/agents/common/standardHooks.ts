// The standard hook events (the names Claude Code gave them, which several agents copy), in two readings.
//
// `standardEvent`, for agents whose hooks copy the standard ones loosely (Qwen Code, Factory Droid, Auggie):
// SessionStart, UserPromptSubmit (Auggie 1.x: PromptSubmit), Pre/PostToolUse(+Failure), Stop,
// SubagentStop, SessionEnd, with `tool_name` / `tool_input` and, when the agent sends one,
// `tool_use_id`. Only the tool names differ: each agent passes its own `toolKind`. A call without an
// id pairs its two ends by (tool, input) in order (recording/pairCalls.ts).
import type { ToolKind } from '../../core/effects/toolKind';
import type { AdapterResult, EventBase } from '../../recording/events';
import { bad, obj, type Payload, stableText, str, toolEvent } from './payload';

export type ToolKindOf = (tool: string, input: Payload, cwd: string | undefined) => { kind: ToolKind; bad: string[] };

export interface StandardEventSpec {
  toolKind: ToolKindOf;
  /** The prompt's text (Qwen Code: `submitted_prompt` when it sends one); default `prompt`. */
  promptOf?(p: Payload): string | undefined;
  /** A tool input the agent may send as a JSON string (Auggie [U]). */
  inputOf?(p: Payload): Payload;
  /** The tool's failure, when the agent reports it on PostToolUse (Auggie: `tool_error`). */
  failed?(p: Payload): boolean;
}

const PROMPT_EVENTS = new Set(['UserPromptSubmit', 'PromptSubmit']);

/** One standard payload (already split into its object, event name and common fields) -> an event. */
export function standardEvent(p: Payload, event: string, base: EventBase, spec: StandardEventSpec): AdapterResult {
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

/**
 * `strictEvent`, for agents whose payloads were checked field by field against the real client (Claude Code,
 * Codex): every tool call carries `tool_use_id`, so a call without one is not paired by its input, and a
 * tool's paths are checked by the agent (`toolOf`).
 */
export interface StrictEventSpec {
  /** The field holding the prompt's id (`prompt_id`; Codex: `turn_id`, the id its rollout's turn carries). */
  promptIdField: string;
  /** The tool's kind and the paths it writes, or why its input is bad. */
  toolOf(tool: string, input: Payload, base: EventBase): { kind: ToolKind; paths: string[] } | string;
  /** The agent sends PostToolUseFailure and SubagentStop (Codex sends neither: ignored). */
  failureAndSubagentEvents: boolean;
}

/** One strictly read standard payload (already split into its object, event name and common fields) -> an event. */
export function strictEvent(p: Payload, event: string, base: EventBase, spec: StrictEventSpec): AdapterResult {
  const extended = spec.failureAndSubagentEvents;
  switch (event) {
    case 'SessionStart':
      return { kind: 'event', event: { ...base, type: 'session_start', ...(typeof p.source === 'string' ? { source: p.source } : {}) } };
    case 'UserPromptSubmit': {
      if (typeof p.prompt !== 'string') return { kind: 'bad', reason: 'UserPromptSubmit without a prompt' };
      const id = p[spec.promptIdField];
      return { kind: 'event', event: { ...base, type: 'prompt', text: p.prompt, ...(typeof id === 'string' ? { promptId: id } : {}) } };
    }
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      if (event === 'PostToolUseFailure' && !extended) return { kind: 'ignore' };
      const tool = p.tool_name;
      if (typeof tool !== 'string' || tool.length === 0) return { kind: 'bad', reason: `${event} without tool_name` };
      const input = obj(p.tool_input) ?? {};
      const t = spec.toolOf(tool, input, base);
      if (typeof t === 'string') return { kind: 'bad', reason: t };
      const { kind, paths } = t;
      const callId = typeof p.tool_use_id === 'string' ? p.tool_use_id : undefined;
      const common = { ...base, tool, kind, input, paths, shell: kind.kind === 'shell', ...(callId ? { callId } : {}) };
      if (event === 'PreToolUse') return { kind: 'event', event: { ...common, type: 'before_tool' } };
      return { kind: 'event', event: { ...common, type: 'after_tool', ok: event === 'PostToolUse' } };
    }
    case 'Stop':
      return { kind: 'event', event: { ...base, type: 'stop' } };
    case 'SubagentStop':
      return extended ? { kind: 'event', event: { ...base, type: 'stop', subagent: true } } : { kind: 'ignore' };
    case 'SessionEnd':
      return { kind: 'event', event: { ...base, type: 'session_end', ...(typeof p.reason === 'string' ? { reason: p.reason } : {}) } };
    default:
      return { kind: 'ignore' };
  }
}
