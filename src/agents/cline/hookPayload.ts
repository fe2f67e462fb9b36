// Cline hook payloads -> internal events (FINDINGS.md §4), three families:
// - extension 4.1 and ≤ 3.82: `hookName` is the hook (`PreToolUse`…), the event's object beside it
//   (`preToolUse{toolName, parameters}`), `parameters` a string map (structured values JSON-encoded),
//   `timestamp` ms as a string; no call id: Pre and Post pair by (task, tool, parameters) in order.
// - CLI 3.0: `hookName` is the SDK event (`tool_call`, `tool_result`…) with `tool_call{id, name, input}`.
// The session is the task (`taskId`); relative paths are against `workspaceRoots[0]`.
import { checkAbsolutePath } from '../../core/paths';
import type { AdapterResult, EventBase } from '../../recording/events';
import { bad, type HookContext, obj, type Payload, parsePayload, sessionOf, stableText, stampOf, str, toolEvent } from '../common/payload';
import { clineToolKind } from './toolKind';

const STOP = new Set(['TaskComplete', 'TaskCancel', 'TaskError', 'agent_end', 'agent_error', 'agent_abort']);

/** `parameters` values are strings; structured ones (`commands: '["npm test"]'`) are JSON text. */
function decodeParams(v: unknown): Payload {
  const out: Payload = {};
  for (const [k, x] of Object.entries(obj(v) ?? {})) {
    if (typeof x === 'string' && /^\s*[[{]/.test(x)) {
      try {
        out[k] = JSON.parse(x);
        continue;
      } catch {
        /* plain text that starts with a bracket */
      }
    }
    out[k] = x;
  }
  return out;
}

export function parseClinePayload(text: string, _ctx: HookContext = {}): AdapterResult {
  const p = parsePayload(text);
  if (typeof p === 'string') return bad(p);
  const hook = str(p.hookName);
  if (!hook) return bad('payload has no hookName');
  const session = sessionOf(p.taskId) ?? sessionOf(obj(p.sessionContext)?.rootSessionId);
  if (!session) return bad('payload has no valid taskId');
  const base: EventBase = { agent: 'cline', session };
  const roots = Array.isArray(p.workspaceRoots) ? p.workspaceRoots : [];
  const cwd = checkAbsolutePath(roots[0]) ?? checkAbsolutePath(obj(p.workspaceInfo)?.rootPath);
  if (cwd) base.cwd = cwd;
  const stamp = stampOf(p.timestamp);
  const st = stamp ? { stamp } : {};
  if (hook === 'TaskStart' || hook === 'TaskResume' || hook === 'agent_start' || hook === 'agent_resume')
    return { kind: 'event', event: { ...base, type: 'session_start', source: /Resume|resume/.test(hook) ? 'resume' : 'new' }, ...st };
  if (hook === 'UserPromptSubmit' || hook === 'prompt_submit') {
    const prompt = obj(p.userPromptSubmit)?.prompt ?? p.prompt;
    if (typeof prompt !== 'string') return bad(`${hook} without a prompt`);
    return { kind: 'event', event: { ...base, type: 'prompt', text: prompt }, ...st };
  }
  if (STOP.has(hook)) return { kind: 'event', event: { ...base, type: 'stop' }, ...st };
  if (hook === 'session_shutdown' || hook === 'SessionShutdown')
    return { kind: 'event', event: { ...base, type: 'session_end', ...(str(p.reason) ? { reason: str(p.reason) } : {}) }, ...st };

  // Tool events: the CLI's SDK objects (with a call id) first, else the extension's.
  let phase: 'before' | 'after';
  let tool: string;
  let input: Payload;
  let callId: string | undefined;
  let ok = true;
  const sdk = obj(p.tool_call) ?? obj(p.tool_result);
  if ((hook === 'tool_call' || hook === 'tool_result') && sdk) {
    phase = hook === 'tool_call' ? 'before' : 'after';
    tool = str(sdk.name);
    input = obj(sdk.input) ?? {};
    callId = str(sdk.id) || undefined;
    ok = sdk.error === undefined || sdk.error === null;
  } else if (hook === 'PreToolUse' || hook === 'PostToolUse' || hook === 'tool_call' || hook === 'tool_result') {
    const e = obj(p.preToolUse) ?? obj(p.postToolUse);
    if (!e) return bad(`${hook} without its preToolUse/postToolUse object`);
    phase = p.preToolUse !== undefined ? 'before' : 'after';
    tool = str(e.toolName);
    input = decodeParams(e.parameters);
    ok = e.success !== false;
  } else return { kind: 'ignore' }; // PreCompact, Notification
  if (!tool) return bad(`${hook} without a tool name`);
  const { kind, bad: badPaths } = clineToolKind(tool, input, cwd ?? undefined);
  if (badPaths.length) return bad(`${tool}: path not absolute and no workspace root to resolve it: ${badPaths.join(', ')}`);
  return toolEvent(base, phase, tool, kind, input, { ...(callId ? { callId } : { pairKey: stableText([tool, input]) }), ok, ...st });
}
