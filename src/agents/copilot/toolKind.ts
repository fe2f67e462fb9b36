// GitHub Copilot CLI's tools mapped to generic kinds (real client 1.0.102, FINDINGS.md §2). Its
// PascalCase payloads rename a few tools to Claude Code's names but keep Copilot's inputs; we record
// the native name either way, so both spellings of one call look the same.
import type { ToolKind } from '../../core/effects/toolKind';
import { filePaths, obj, str } from '../common/payload';

const NATIVE: Readonly<Record<string, string>> = { Write: 'create', Edit: 'edit', Bash: 'bash', PowerShell: 'powershell', Read: 'view' };

export function copilotToolName(tool: string): string {
  return NATIVE[tool] ?? tool;
}

const READ_TOOLS = new Set([
  'view',
  'grep',
  'glob',
  'read_bash',
  'list_bash',
  'stop_bash',
  'web_fetch',
  'report_intent',
  'update_todo',
  'fetch_copilot_cli_documentation',
  'task',
  'think',
]);

export function copilotToolKind(tool: string, input: unknown, cwd: string | undefined): { kind: ToolKind; bad: string[] } {
  const i = obj(input) ?? {};
  if (tool === 'create' || tool === 'edit') {
    const r = filePaths([i.path ?? i.file_path], cwd);
    return { kind: { kind: 'file-write', paths: r.paths, summary: str(i.path) || str(i.file_path) }, bad: r.bad };
  }
  if (tool === 'bash') return { kind: { kind: 'shell', command: str(i.command), dialect: 'sh' }, bad: [] };
  if (tool === 'powershell') return { kind: { kind: 'shell', command: str(i.command), dialect: 'powershell' }, bad: [] };
  if (READ_TOOLS.has(tool)) return { kind: { kind: 'read', summary: str(i.path) || str(i.pattern) || str(i.url) }, bad: [] };
  // MCP tools are `<server>-<tool>` (Copilot's built-ins use `_`, never `-`).
  const dash = tool.indexOf('-');
  if (dash > 0) return { kind: { kind: 'remote', server: tool.slice(0, dash), name: tool.slice(dash + 1) }, bad: [] };
  return { kind: { kind: 'other' }, bad: [] };
}
