// Gemini CLI's tools (0.61, the names in `tool_name` and in a chat's `toolCalls[].name`) mapped to the
// generic kinds core classifies: its two file tools, its shell, its read-only built-ins, MCP tools.
import * as path from 'node:path';
import type { ToolKind } from '../../core/effects/toolKind';

/** File tools; both name the file in `file_path`, which 0.61 passes as the model wrote it (relative paths too). */
export const FILE_TOOLS = new Set(['write_file', 'replace']);

/** Built-in tools that change nothing in the workspace (seen offered by 0.61, or in its docs). */
const READ_TOOLS = new Set([
  'read_file',
  'read_many_files',
  'list_directory',
  'grep_search',
  'search_file_content',
  'glob',
  'web_fetch',
  'google_web_search',
  'list_background_processes',
  'read_background_output',
  'update_topic',
  'enter_plan_mode',
  'exit_plan_mode',
  'write_todos',
  'activate_skill',
  'invoke_agent',
]);

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** `file_path` made absolute against the session's folder (0.61 resolves a relative path against the project root). */
export function resolveToolPath(filePath: string, cwd: string | undefined): string | null {
  if (!filePath || filePath.includes('\0')) return null;
  if (path.isAbsolute(filePath)) return path.normalize(filePath);
  return cwd ? path.resolve(cwd, filePath) : null;
}

/** `mcp`: the payload's `mcp_context` (`{ server_name, tool_name }`), present for MCP tools only. */
export function geminiToolKind(tool: string, input: unknown, cwd?: string, mcp?: unknown): ToolKind {
  const i = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (FILE_TOOLS.has(tool)) {
    const p = resolveToolPath(str(i.file_path), cwd);
    return { kind: 'file-write', paths: p ? [p] : [], summary: str(i.file_path) };
  }
  if (tool === 'run_shell_command') return { kind: 'shell', command: str(i.command), dialect: 'sh' };
  if (READ_TOOLS.has(tool)) {
    if (tool === 'web_fetch') return { kind: 'read', summary: str(i.prompt) || str(i.url) };
    if (tool === 'grep_search' || tool === 'search_file_content' || tool === 'glob') return { kind: 'read', summary: str(i.pattern) };
    return { kind: 'read', summary: str(i.file_path) || str(i.dir_path) || str(i.path) || undefined };
  }
  const m = (typeof mcp === 'object' && mcp !== null ? mcp : null) as Record<string, unknown> | null;
  if (m && typeof m.server_name === 'string') return { kind: 'remote', server: m.server_name, name: str(m.tool_name) || tool };
  return { kind: 'other' };
}
