// Claude Code hook payload (stdin JSON) -> internal event. Paths must be
// absolute as Claude Code always sends them; anything else is bad input and records nothing.
import { checkAbsolutePath } from '../../core/paths';
import { snakePayload } from '../common/payload';
import { strictEvent } from '../common/standardHooks';
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

  return strictEvent(p, event, base, {
    promptIdField: 'prompt_id',
    failureAndSubagentEvents: true,
    toolOf(tool, input) {
      const kind = claudeToolKind(tool, input);
      if (kind.kind !== 'file-write') return { kind, paths: [] };
      const field = FILE_PATH_FIELD[tool]!;
      const fp = checkAbsolutePath(input[field]);
      if (!fp) return `${tool} ${field} is not an absolute path: ${JSON.stringify(input[field])?.slice(0, 200)}`;
      kind.paths = [fp]; // validated: absolute
      return { kind, paths: [fp] };
    },
  });
}
