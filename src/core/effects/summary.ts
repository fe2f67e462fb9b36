// The one line that says what a tool call did, e.g. `git push origin main` or a file's path: shown in
// checkpoint labels (`Bash: git push origin main`), call lines and the preview.

export const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
export const SHELL_TOOLS = new Set(['Bash', 'PowerShell']);
/** Built-in tools that change nothing: never listed, and a glob override never makes them listed. */
export const NONE_TOOLS = new Set([
  'Read', 'Glob', 'Grep', 'LS', 'WebFetch', 'WebSearch', 'TodoWrite', 'TodoRead', 'NotebookRead',
  'Task', 'Agent', 'ExitPlanMode', 'EnterPlanMode', 'BashOutput', 'KillShell', 'KillBash', 'ListMcpResourcesTool', 'ReadMcpResourceTool',
  'AskUserQuestion', 'Skill', 'SlashCommand', 'ToolSearch',
]);

/** Whitespace collapsed, cut at `max` characters. */
export function oneLine(s: string, max = 200): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function summarize(tool: string, input: unknown): string {
  const i = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (SHELL_TOOLS.has(tool)) return oneLine(str(i.command));
  if (FILE_TOOLS.has(tool)) return str(i.file_path) || str(i.notebook_path);
  if (tool === 'Read') return str(i.file_path);
  if (tool === 'WebFetch') return str(i.url);
  if (tool === 'Grep' || tool === 'Glob') return str(i.pattern);
  let json = '';
  try {
    json = JSON.stringify(input) ?? '';
  } catch {
    json = '';
  }
  return oneLine(json === '{}' ? '' : json, 160);
}
