// Codex hook payload (stdin JSON) -> internal event. Claude-like snake_case fields (checked
// against the real 0.171 in test/fixtures/agents/codex/real-0.171.0/): `session_id` (= the thread
// id), `cwd`, `transcript_path` (the rollout), `turn_id` on every turn-scoped event. We record:
//   SessionStart (`source`: startup | resume) · UserPromptSubmit (`prompt`; `turn_id` is the prompt's
//   id, the same the rollout's turn carries) · PreToolUse / PostToolUse · Stop · SessionEnd.
// Everything else (PreModelRequest / PostModelRequest around every model call, PermissionRequest,
// compaction, subagents, Interrupt) is ignored. A failed apply_patch and a command killed when
// `codex exec` ends get a PreToolUse and no PostToolUse: the recorder takes their `after` from disk
// at the next turn boundary.
import { snakePayload } from '../common/payload';
import { strictEvent } from '../common/standardHooks';
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

  // Codex has no failure event and no exit code in the payload: a PostToolUse is a call that ran.
  return strictEvent(p, event, base, {
    promptIdField: 'turn_id',
    failureAndSubagentEvents: false,
    toolOf(tool, input, { cwd }) {
      const kind = codexToolKind(tool, input, cwd);
      if (tool !== 'apply_patch') return { kind, paths: [] };
      const r = patchPaths(patchText(input), cwd);
      if (!r) return 'apply_patch tool_input.command is not a patch (no "*** Begin Patch")';
      if (r.bad.length) return `apply_patch names paths that cannot be resolved: ${JSON.stringify(r.bad).slice(0, 200)}`;
      return { kind, paths: r.paths };
    },
  });
}
