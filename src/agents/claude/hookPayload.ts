// Claude Code hook payload (stdin JSON) -> internal event. Paths must be
// absolute as Claude Code always sends them; anything else is bad input and records nothing.
import { checkAbsolutePath } from '../../core/paths';
import { obj, snakePayload } from '../common/payload';
import type { AdapterResult } from '../../recording/events';
import { claudeToolKind, FILE_PATH_FIELD } from './toolKind';

/**
 * Payload fields documented or seen from the real CLI (checked against 2.1.332 by test/compat, which
 * reports — without failing — any field outside this list).
 */
export const KNOWN_PAYLOAD_FIELDS = new Set([
  'session_id',
  'transcript_path',
  'cwd',
  'hook_event_name',
  'permission_mode',
  'prompt_id',
  'agent_id',
  'agent_type',
  'source',
  'model',
  'prompt',
  'tool_name',
  'tool_input',
  'tool_use_id',
  'tool_response',
  'duration_ms',
  'error',
  'is_interrupt',
  'stop_hook_active',
  'last_assistant_message',
  'reason',
  // Seen in 2.1.332: `effort` ({ level }) on tool events and Stop; on Stop `background_tasks`, `session_crons`;
  // on SessionStart of a resumed session `seconds_since_last_response`, `context_tokens`,
  // `prompt_cache_likely_expired`, `estimated_cache_write_usd`.
  'effort',
  'background_tasks',
  'session_crons',
  'seconds_since_last_response',
  'context_tokens',
  'prompt_cache_likely_expired',
  'estimated_cache_write_usd',
]);

export function parseClaudePayload(text: string, env: NodeJS.ProcessEnv = process.env): AdapterResult {
  const sp = snakePayload(text, 'claude', env.CLAUDE_PROJECT_DIR);
  if ('kind' in sp) return sp;
  const { p, event, base } = sp;

  switch (event) {
    case 'SessionStart':
      return { kind: 'event', event: { ...base, type: 'session_start', ...(typeof p.source === 'string' ? { source: p.source } : {}) } };
    case 'UserPromptSubmit': {
      if (typeof p.prompt !== 'string') return { kind: 'bad', reason: 'UserPromptSubmit without a prompt' };
      return {
        kind: 'event',
        event: { ...base, type: 'prompt', text: p.prompt, ...(typeof p.prompt_id === 'string' ? { promptId: p.prompt_id } : {}) },
      };
    }
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const tool = p.tool_name;
      if (typeof tool !== 'string' || tool.length === 0) return { kind: 'bad', reason: `${event} without tool_name` };
      const input = obj(p.tool_input) ?? {};
      const kind = claudeToolKind(tool, input);
      const paths: string[] = [];
      if (kind.kind === 'file-write') {
        const field = FILE_PATH_FIELD[tool]!;
        const fp = checkAbsolutePath(input[field]);
        if (!fp) return { kind: 'bad', reason: `${tool} ${field} is not an absolute path: ${JSON.stringify(input[field])?.slice(0, 200)}` };
        paths.push(fp);
        kind.paths = paths; // validated: absolute
      }
      const callId = typeof p.tool_use_id === 'string' ? p.tool_use_id : undefined;
      const common = { ...base, tool, kind, input, paths, shell: kind.kind === 'shell', ...(callId ? { callId } : {}) };
      if (event === 'PreToolUse') return { kind: 'event', event: { ...common, type: 'before_tool' } };
      return { kind: 'event', event: { ...common, type: 'after_tool', ok: event === 'PostToolUse' } };
    }
    case 'Stop':
      return { kind: 'event', event: { ...base, type: 'stop' } };
    case 'SubagentStop':
      return { kind: 'event', event: { ...base, type: 'stop', subagent: true } };
    case 'SessionEnd':
      return { kind: 'event', event: { ...base, type: 'session_end', ...(typeof p.reason === 'string' ? { reason: p.reason } : {}) } };
    default:
      return { kind: 'ignore' };
  }
}
