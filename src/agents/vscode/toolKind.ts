// VS Code's agent tools (Copilot agent mode, Local harness) mapped to generic kinds. Names and
// inputs: test/fixtures/agents/FINDINGS.md §1 and §6. Paths are described as absolute; a relative one is
// resolved against the workspace folder as VS Code's own `resolveFilePath` does.
import type { ToolKind } from '../../core/effects/toolKind';
import { filePaths, obj, patchToolKind, str } from '../common/payload';

const FILE_TOOLS = new Set(['create_file', 'replace_string_in_file', 'insert_edit_into_file', 'edit_notebook_file']);
const TASK_TOOLS = new Set(['create_and_run_task', 'run_task', 'runTests', 'run_notebook_cell']);
const READ_TOOLS = new Set([
  'read_file',
  'list_dir',
  'file_search',
  'grep_search',
  'semantic_search',
  'get_errors',
  'get_changed_files',
  'test_failure',
  'get_terminal_output',
  'terminal_last_command',
  'terminal_selection',
  'manage_todo_list',
  'think',
  'vscode_searchExtensions_internal',
  'get_vscode_api',
  'list_code_usages',
  'fetch_webpage',
  'github_repo',
  'read_notebook_cell_output',
  'copilot_getNotebookSummary',
  'runSubagent',
]);

/** The kind of a tool call; `bad` lists file paths that could not be made absolute. */
export function vscodeToolKind(
  tool: string,
  input: unknown,
  cwd: string | undefined,
  win = process.platform === 'win32',
): { kind: ToolKind; bad: string[] } {
  const i = obj(input) ?? {};
  if (FILE_TOOLS.has(tool)) {
    const r = filePaths([i.filePath], cwd);
    return { kind: { kind: 'file-write', paths: r.paths, summary: str(i.filePath) }, bad: r.bad };
  }
  if (tool === 'multi_replace_string_in_file') {
    const list = Array.isArray(i.replacements) ? i.replacements.map((x) => obj(x)?.filePath) : [];
    const r = filePaths(list, cwd);
    return { kind: { kind: 'file-write', paths: r.paths, summary: r.paths.join(', ') }, bad: r.bad };
  }
  if (tool === 'apply_patch') return patchToolKind(i.input, cwd);
  if (tool === 'create_directory') return { kind: { kind: 'file-write', paths: [], summary: str(i.dirPath) }, bad: [] };
  if (tool === 'run_in_terminal') return { kind: { kind: 'shell', command: str(i.command), dialect: win ? 'powershell' : 'sh' }, bad: [] };
  // Tasks and test runs run commands we do not see: a shell call with no command line, so the
  // workspace is still scanned before and after.
  if (TASK_TOOLS.has(tool)) return { kind: { kind: 'shell', command: '', dialect: win ? 'powershell' : 'sh', summary: tool }, bad: [] };
  if (READ_TOOLS.has(tool)) return { kind: { kind: 'read', summary: str(i.filePath) || str(i.query) || str(i.url) }, bad: [] };
  if (tool.startsWith('mcp_')) {
    const [server, ...rest] = tool.slice(4).split('_');
    return { kind: { kind: 'remote', server: server ?? '', name: rest.join('_') || tool }, bad: [] };
  }
  return { kind: { kind: 'other' }, bad: [] };
}
