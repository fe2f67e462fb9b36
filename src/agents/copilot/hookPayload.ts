// GitHub Copilot CLI hook payloads -> internal events, both formats (FINDINGS.md §2, real 1.0.102):
// - camelCase (`version: 1` files, camel event names): no event name in the payload — it comes from
//   the `[event]` argument of `hook copilot <event>` (or, failing that, from which fields are there);
//   `sessionId`, `timestamp` in ms, `toolName`, `toolArgs` (an object; a JSON string in older docs).
// - PascalCase (VS Code-format files, `.claude/settings*.json`): `hook_event_name`, `session_id`,
//   ISO `timestamp`, Claude's tool names with Copilot's inputs (`path`).
// No tool call id in either: a call's Pre and Post pair by (session, tool, input) in order.
import { checkAbsolutePath } from '../../core/paths';
import type { AdapterResult, EventBase } from '../../recording/events';
import { bad, type HookContext, obj, type Payload, parsePayload, sessionOf, stableText, stampOf, str, toolEvent } from '../common/payload';
import { copilotToolKind, copilotToolName } from './toolKind';

/** Event names, both spellings, to one vocabulary. */
const EVENTS: Readonly<Record<string, string>> = {
  sessionStart: 'start',
  SessionStart: 'start',
  userPromptSubmitted: 'prompt',
  UserPromptSubmit: 'prompt',
  preToolUse: 'pre',
  PreToolUse: 'pre',
  postToolUse: 'post',
  PostToolUse: 'post',
  postToolUseFailure: 'fail',
  PostToolUseFailure: 'fail',
  agentStop: 'stop',
  Stop: 'stop',
  subagentStop: 'substop',
  SubagentStop: 'substop',
  sessionEnd: 'end',
  SessionEnd: 'end',
};

/** A camelCase payload that came without the event argument: its fields tell the event. */
function inferEvent(p: Payload): string | null {
  if (typeof p.hookName === 'string') return p.hookName; // permissionRequest names itself
  if (p.toolName !== undefined)
    return p.toolResult !== undefined ? 'postToolUse' : p.error !== undefined ? 'postToolUseFailure' : 'preToolUse';
  if (typeof p.prompt === 'string') return 'userPromptSubmitted';
  if (p.stopReason !== undefined || p.stop_hook_active !== undefined) return 'agentStop';
  if (p.source !== undefined) return 'sessionStart';
  if (p.reason !== undefined) return 'sessionEnd';
  return null;
}

function argsOf(v: unknown): Payload | null {
  if (typeof v === 'string') {
    try {
      return obj(JSON.parse(v));
    } catch {
      return null;
    }
  }
  return obj(v);
}

export function parseCopilotPayload(text: string, ctx: HookContext = {}): AdapterResult {
  const p = parsePayload(text);
  if (typeof p === 'string') return bad(p);
  const name = str(p.hook_event_name) || str(ctx.event) || inferEvent(p);
  if (!name) return bad('payload has no event name: pass it as `hook copilot <event>`');
  const event = EVENTS[name];
  if (!event) return { kind: 'ignore' }; // permissionRequest, notification, preCompact, subagentStart, errorOccurred
  const session = sessionOf(p.session_id ?? p.sessionId);
  if (!session) return bad('payload has no valid sessionId');
  const base: EventBase = { agent: 'copilot', session };
  const cwd = checkAbsolutePath(p.cwd) ?? checkAbsolutePath(ctx.env?.COPILOT_PROJECT_DIR);
  if (cwd) base.cwd = cwd;
  const transcript = checkAbsolutePath(p.transcript_path ?? p.transcriptPath);
  if (transcript) base.transcript = transcript;
  const stamp = stampOf(p.timestamp);
  const st = stamp ? { stamp } : {};
  switch (event) {
    case 'start':
      return { kind: 'event', event: { ...base, type: 'session_start', ...(str(p.source) ? { source: str(p.source) } : {}) }, ...st };
    case 'prompt':
      if (typeof p.prompt !== 'string') return bad(`${name} without a prompt`);
      return { kind: 'event', event: { ...base, type: 'prompt', text: p.prompt }, ...st };
    case 'pre':
    case 'post':
    case 'fail': {
      const raw = str(p.tool_name) || str(p.toolName);
      if (!raw) return bad(`${name} without a tool name`);
      const tool = copilotToolName(raw);
      const input = argsOf(p.tool_input ?? p.toolArgs) ?? {};
      const { kind, bad: badPaths } = copilotToolKind(tool, input, cwd ?? undefined);
      if (badPaths.length) return bad(`${tool}: path not absolute and no cwd to resolve it: ${badPaths.join(', ')}`);
      return toolEvent(base, event === 'pre' ? 'before' : 'after', tool, kind, input, {
        pairKey: stableText([tool, input]),
        ok: event === 'post',
        ...st,
      });
    }
    case 'stop':
      return { kind: 'event', event: { ...base, type: 'stop' }, ...st };
    case 'substop':
      return { kind: 'event', event: { ...base, type: 'stop', subagent: true }, ...st };
    default:
      return { kind: 'event', event: { ...base, type: 'session_end', ...(str(p.reason) ? { reason: str(p.reason) } : {}) }, ...st };
  }
}
