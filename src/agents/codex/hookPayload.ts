// Codex CLI hook payload (stdin JSON) -> internal event. Claude-like snake_case fields (checked
// against the real 0.171 in test/fixtures/agents/codex/real-0.171.0/): `session_id` (= the thread
// id), `cwd`, `transcript_path` (the rollout), `turn_id` on every turn-scoped event. We record:
//   SessionStart (`source`: startup | resume) · UserPromptSubmit (`prompt`; `turn_id` is the prompt's
//   id, the same the rollout's turn carries) · PreToolUse / PostToolUse · Stop · SessionEnd.
// Everything else (PreModelRequest / PostModelRequest around every model call, PermissionRequest,
// compaction, subagents, Interrupt) is ignored. A failed apply_patch and a command killed when
// `codex exec` ends get a PreToolUse and no PostToolUse: the recorder takes their `after` from disk
// at the next turn boundary.
import { obj, snakePayload } from '../common/payload';
import type { AdapterResult } from '../../recording/events';
import { patchPaths } from '../common/applyPatch';
import { codexToolKind, patchText } from './toolKind';

/** Payload fields seen from the real 0.171 (test/compat/codex reports, without failing, any other). */
export const KNOWN_PAYLOAD_FIELDS = new Set([
  'session_id',
  'transcript_path',
  'cwd',
  'hook_event_name',
  'model',
  'permission_mode',
  'turn_id',
  'source',
  'prompt',
  'tool_name',
  'tool_input',
  'tool_use_id',
  'tool_response',
  'stop_hook_active',
  'last_assistant_message',
  'reason',
  // PreModelRequest / PostModelRequest (ignored):
  'kind',
  'request_id',
  'attempt_number',
  'thread_id',
  'status',
  'error',
  'token_usage',
  'response_id',
]);

/** The hook events a Codex session needs recorded (what Connect writes). */
export const CODEX_RECORDED_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'] as const;

export function parseCodexPayload(text: string): AdapterResult {
  const sp = snakePayload(text, 'codex');
  if ('kind' in sp) return sp;
  const { p, event, base } = sp;

  switch (event) {
    case 'SessionStart':
      return { kind: 'event', event: { ...base, type: 'session_start', ...(typeof p.source === 'string' ? { source: p.source } : {}) } };
    case 'UserPromptSubmit': {
      if (typeof p.prompt !== 'string') return { kind: 'bad', reason: 'UserPromptSubmit without a prompt' };
      return {
        kind: 'event',
        event: { ...base, type: 'prompt', text: p.prompt, ...(typeof p.turn_id === 'string' ? { promptId: p.turn_id } : {}) },
      };
    }
    case 'PreToolUse':
    case 'PostToolUse': {
      const tool = p.tool_name;
      if (typeof tool !== 'string' || tool.length === 0) return { kind: 'bad', reason: `${event} without tool_name` };
      const input = obj(p.tool_input) ?? {};
      const kind = codexToolKind(tool, input, base.cwd);
      const paths: string[] = [];
      if (tool === 'apply_patch') {
        const r = patchPaths(patchText(input), base.cwd);
        if (!r) return { kind: 'bad', reason: 'apply_patch tool_input.command is not a patch (no "*** Begin Patch")' };
        if (r.bad.length)
          return { kind: 'bad', reason: `apply_patch names paths that cannot be resolved: ${JSON.stringify(r.bad).slice(0, 200)}` };
        paths.push(...r.paths);
      }
      const callId = typeof p.tool_use_id === 'string' ? p.tool_use_id : undefined;
      const common = { ...base, tool, kind, input, paths, shell: kind.kind === 'shell', ...(callId ? { callId } : {}) };
      // Codex has no failure event and no exit code in the payload: a PostToolUse is a call that ran.
      if (event === 'PreToolUse') return { kind: 'event', event: { ...common, type: 'before_tool' } };
      return { kind: 'event', event: { ...common, type: 'after_tool', ok: true } };
    }
    case 'Stop':
      return { kind: 'event', event: { ...base, type: 'stop' } };
    case 'SessionEnd':
      return { kind: 'event', event: { ...base, type: 'session_end', ...(typeof p.reason === 'string' ? { reason: p.reason } : {}) } };
    default:
      return { kind: 'ignore' };
  }
}
