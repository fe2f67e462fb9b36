// Claude Code's tools mapped to the generic kinds core classifies (core/effects/toolKind.ts): its
// file tools, its shells, its read-only built-ins and MCP tools (`mcp__<server>__<tool>`). The
// summary hints keep the labels Claude Code calls have always had (a file tool's path, a Read's path,
// a WebFetch's URL, a Grep's pattern).
import type { ToolKind } from '../../core/effects/toolKind';

/** File tools and the input field naming the file they write. */
export const FILE_PATH_FIELD: Readonly<Record<string, string>> = {
  Write: 'file_path',
  Edit: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
};

/** Built-in tools that change nothing: never listed, and a glob override never makes them listed. */
const READ_TOOLS = new Set([
  'Read',
  'Glob',
  'Grep',
  'LS',
  'WebFetch',
  'WebSearch',
  'TodoWrite',
  'TodoRead',
  'NotebookRead',
  'Task',
  'Agent',
  'ExitPlanMode',
  'EnterPlanMode',
  'BashOutput',
  'KillShell',
  'KillBash',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
  'AskUserQuestion',
  'Skill',
  'SlashCommand',
  'ToolSearch',
]);

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function claudeToolKind(tool: string, input: unknown): ToolKind {
  const i = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const field = FILE_PATH_FIELD[tool];
  if (field) {
    const p = str(i[field]);
    return { kind: 'file-write', paths: p ? [p] : [], summary: str(i.file_path) || str(i.notebook_path) };
  }
  if (tool === 'Bash') return { kind: 'shell', command: str(i.command), dialect: 'sh' };
  if (tool === 'PowerShell') return { kind: 'shell', command: str(i.command), dialect: 'powershell' };
  if (READ_TOOLS.has(tool)) {
    if (tool === 'Read') return { kind: 'read', summary: str(i.file_path) };
    if (tool === 'WebFetch') return { kind: 'read', summary: str(i.url) };
    if (tool === 'Grep' || tool === 'Glob') return { kind: 'read', summary: str(i.pattern) };
    return { kind: 'read' };
  }
  if (tool.startsWith('mcp__')) {
    const parts = tool.split('__');
    return { kind: 'remote', server: parts[1]!, name: parts.slice(2).join('__') };
  }
  return { kind: 'other' };
}
