// Qwen Code hook payloads (stdin JSON) -> internal events. Qwen Code is a Gemini CLI fork whose hooks
// copy Claude Code's (docs: qwenlm.github.io/qwen-code-docs `users/features/hooks`, read 2026-12-05;
// test/fixtures/agents/qwen/README.md): `hook_event_name`, `session_id`, `transcript_path`, `cwd`,
// `timestamp`; tool events carry the runtime tool id in `tool_name` (`write_file`, `edit`,
// `run_shell_command`…), `tool_input`, `tool_use_id` and `tool_call_id`. UserPromptSubmit also fires
// before tool-result continuations ("`prompt` must not be assumed to be raw user input"): the user's
// own text is `submitted_prompt` when Qwen sends it (interactive TUI), else `prompt`.
import { absPath, type Payload, snakePayload, str } from '../common/payload';
import { standardEvent } from '../common/standardHooks';
import type { ToolKind } from '../../core/effects/toolKind';
import type { AdapterResult } from '../../recording/events';

/** File tools (runtime ids; `replace` is Gemini CLI's name for `edit`): both name the file in `file_path`. */
const FILE_TOOLS = new Set(['write_file', 'edit', 'replace']);
const READ_TOOLS = new Set([
  'read_file',
  'read_many_files',
  'list_directory',
  'glob',
  'grep_search',
  'search_file_content',
  'web_fetch',
  'web_search',
  'todo_write',
  'save_memory',
  'task',
  'agent',
  'skill',
  'exit_plan_mode',
  'lsp',
]);

export function qwenToolKind(tool: string, input: Payload, cwd: string | undefined): { kind: ToolKind; bad: string[] } {
  if (FILE_TOOLS.has(tool)) {
    const p = absPath(input.file_path, cwd);
    return p
      ? { kind: { kind: 'file-write', paths: [p], summary: str(input.file_path) }, bad: [] }
      : { kind: { kind: 'file-write', paths: [] }, bad: [JSON.stringify(input.file_path)?.slice(0, 200) ?? 'no file_path'] };
  }
  if (tool === 'run_shell_command') return { kind: { kind: 'shell', command: str(input.command), dialect: 'sh' }, bad: [] };
  if (READ_TOOLS.has(tool))
    return { kind: { kind: 'read', summary: str(input.file_path) || str(input.pattern) || str(input.url) }, bad: [] };
  const sep = tool.startsWith('mcp__') ? tool.indexOf('__', 5) : -1;
  if (sep > 0) return { kind: { kind: 'remote', server: tool.slice(5, sep), name: tool.slice(sep + 2) }, bad: [] };
  return { kind: { kind: 'other' }, bad: [] };
}

export function parseQwenPayload(text: string, env: NodeJS.ProcessEnv = process.env): AdapterResult {
  const sp = snakePayload(text, 'qwen', env.QWEN_PROJECT_DIR);
  if ('kind' in sp) return sp;
  // A tool-result continuation carries no user text (its parts are function responses) [U: confirm with the real client].
  if (sp.event === 'UserPromptSubmit' && typeof sp.p.submitted_prompt !== 'string' && str(sp.p.prompt).trim() === '')
    return { kind: 'ignore' };
  return standardEvent(sp.p, sp.event, sp.base, {
    toolKind: qwenToolKind,
    promptOf: (p) => (typeof p.submitted_prompt === 'string' ? p.submitted_prompt : typeof p.prompt === 'string' ? p.prompt : undefined),
  });
}
