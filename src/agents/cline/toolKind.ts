// Cline's tools mapped to generic kinds (FINDINGS.md §4): the SDK's (extension ≥ 4.x, CLI 3.x)
// and the older extension's (≤ 3.82). Paths may be relative to the task's folder (`workspaceRoots[0]`).
import type { ToolKind } from '../../core/effects/toolKind';
import { filePaths, obj, patchToolKind, str } from '../common/payload';

const FILE_TOOLS = new Set(['editor', 'write_to_file', 'replace_in_file', 'delete_file', 'new_rule']);
const READ_TOOLS = new Set([
  'read_files',
  'read_file',
  'search_codebase',
  'search_files',
  'list_files',
  'list_code_definition_names',
  'fetch_web_content',
  'web_fetch',
  'web_search',
  'skills',
  'ask_question',
  'ask_followup_question',
  'submit_and_exit',
  'attempt_completion',
  'plan_mode_respond',
  'focus_chain',
  'access_mcp_resource',
  'load_mcp_documentation',
]);

function commandsOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((c): c is string => typeof c === 'string');
  return typeof v === 'string' && v ? [v] : [];
}

export function clineToolKind(
  tool: string,
  input: unknown,
  cwd: string | undefined,
  win = process.platform === 'win32',
): { kind: ToolKind; bad: string[] } {
  const i = obj(input) ?? {};
  if (FILE_TOOLS.has(tool)) {
    const p = i.absolutePath ?? i.path;
    const r = filePaths([p], cwd);
    return { kind: { kind: 'file-write', paths: r.paths, summary: str(p) }, bad: r.bad };
  }
  if (tool === 'apply_patch') return patchToolKind(i.input, cwd);
  const dialect = win ? 'powershell' : 'sh';
  if (tool === 'run_commands') return { kind: { kind: 'shell', command: commandsOf(i.commands).join('\n'), dialect }, bad: [] };
  if (tool === 'execute_command') return { kind: { kind: 'shell', command: str(i.command), dialect }, bad: [] };
  if (READ_TOOLS.has(tool)) return { kind: { kind: 'read', summary: str(i.path) || str(i.url) || str(i.query) }, bad: [] };
  if (tool === 'use_mcp_tool') return { kind: { kind: 'remote', server: str(i.server_name), name: str(i.tool_name) || tool }, bad: [] };
  const sep = tool.indexOf('__');
  if (sep > 0) return { kind: { kind: 'remote', server: tool.slice(0, sep), name: tool.slice(sep + 2) }, bad: [] };
  return { kind: { kind: 'other' }, bad: [] };
}
