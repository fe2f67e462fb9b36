// VS Code agent hooks (Copilot agent mode, Local harness) -> internal events. Common fields are
// snake_case since 2026-02-25 (camelCase `hookEventName`/`sessionId` in older builds and the docs);
// tool calls pair by `tool_use_id`; PostToolUse comes only after a success, so a failed call's
// `after` is taken at the next boundary (recording/inflight.ts). SessionStart comes with the first
// prompt; there is no SessionEnd. Facts: test/fixtures/agents/FINDINGS.md §1.
import type { AdapterResult, EventBase } from '../../recording/events';
import { checkAbsolutePath } from '../../core/paths';
import { bad, type HookContext, obj, parsePayload, sessionOf, stampOf, str, toolEvent } from '../common/payload';
import { vscodeToolKind } from './toolKind';

export function parseVscodePayload(text: string, _ctx: HookContext = {}): AdapterResult {
  const p = parsePayload(text);
  if (typeof p === 'string') return bad(p);
  const event = str(p.hook_event_name) || str(p.hookEventName);
  if (!event) return bad('payload has no hook_event_name');
  const session = sessionOf(p.session_id ?? p.sessionId);
  if (!session) return bad('payload has no valid session_id');
  const base: EventBase = { agent: 'vscode', session };
  const cwd = checkAbsolutePath(p.cwd);
  if (cwd) base.cwd = cwd;
  const transcript = checkAbsolutePath(p.transcript_path);
  if (transcript) base.transcript = transcript;
  const stamp = stampOf(p.timestamp);
  const st = stamp ? { stamp } : {};
  switch (event) {
    case 'SessionStart':
      return { kind: 'event', event: { ...base, type: 'session_start', ...(str(p.source) ? { source: str(p.source) } : {}) }, ...st };
    case 'UserPromptSubmit':
      if (typeof p.prompt !== 'string') return bad('UserPromptSubmit without a prompt');
      return { kind: 'event', event: { ...base, type: 'prompt', text: p.prompt }, ...st };
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const tool = str(p.tool_name);
      if (!tool) return bad(`${event} without tool_name`);
      const input = obj(p.tool_input) ?? {};
      const { kind, bad: badPaths } = vscodeToolKind(tool, input, cwd ?? undefined);
      if (badPaths.length) return bad(`${tool}: path(s) not absolute and no cwd to resolve them: ${badPaths.join(', ')}`);
      const callId = str(p.tool_use_id) || undefined;
      return toolEvent(base, event === 'PreToolUse' ? 'before' : 'after', tool, kind, input, {
        ...(callId ? { callId } : {}),
        ok: event === 'PostToolUse',
        ...st,
      });
    }
    case 'Stop':
      return { kind: 'event', event: { ...base, type: 'stop' }, ...st };
    case 'SubagentStop':
      return { kind: 'event', event: { ...base, type: 'stop', subagent: true }, ...st };
    case 'SessionEnd':
      return { kind: 'event', event: { ...base, type: 'session_end' }, ...st };
    default:
      return { kind: 'ignore' }; // PreCompact, SubagentStart
  }
}
