// Augment's Auggie CLI hook payloads (stdin JSON) -> internal events (docs.augmentcode.com `cli/hooks`,
// read 2026-12-05; test/fixtures/agents/auggie/README.md). Claude's event names (1.x adds PromptSubmit),
// but Cursor's envelope: the session is `conversation_id`, the folder `workspace_roots[0]`; tool events
// carry `tool_name`, `tool_input`, and after the call `tool_output` / `tool_error`, `file_changes`,
// `is_mcp_tool`, `mcp_metadata`. No call id: a call's two ends pair by (tool, input) in order.
// Auggie's tools: `save-file` / `str-replace-editor` (`path`, relative to the workspace root),
// `remove-files` (`file_paths`), `launch-process` (`command`, `cwd`).
import type { ToolKind } from '../../core/effects/toolKind';
import type { AdapterResult } from '../../recording/events';
import { standardEvent } from '../common/standardHooks';
import { bad, filePaths, type HookContext, obj, type Payload, parsePayload, rootsEnvelope, str } from '../common/payload';

const READ_TOOLS = new Set([
  'view',
  'codebase-retrieval',
  'web-fetch',
  'web-search',
  'read-process',
  'list-processes',
  'diagnostics',
  'render-mermaid',
  'view_tasklist',
  'add_tasks',
  'update_tasks',
  'reorganize_tasklist',
  'remember',
  'read-terminal',
]);

export function auggieToolKind(tool: string, input: Payload, cwd: string | undefined): { kind: ToolKind; bad: string[] } {
  if (tool === 'save-file' || tool === 'str-replace-editor') {
    const r = filePaths([input.path], cwd);
    return { kind: { kind: 'file-write', paths: r.paths, summary: str(input.path) }, bad: r.bad };
  }
  if (tool === 'remove-files') {
    const list = Array.isArray(input.file_paths) ? input.file_paths : [];
    const r = filePaths(list, cwd);
    return { kind: { kind: 'file-write', paths: r.paths, summary: r.paths.join(', ') }, bad: r.bad };
  }
  if (tool === 'launch-process') return { kind: { kind: 'shell', command: str(input.command), dialect: 'sh' }, bad: [] };
  if (READ_TOOLS.has(tool)) return { kind: { kind: 'read', summary: str(input.path) || str(input.url) || str(input.query) }, bad: [] };
  return { kind: { kind: 'other' }, bad: [] };
}

export function parseAuggiePayload(text: string, ctx: HookContext = {}): AdapterResult {
  const p = parsePayload(text);
  if (typeof p === 'string') return bad(p);
  const event = str(p.hook_event_name);
  if (!event) return bad('payload has no hook_event_name');
  const base = rootsEnvelope(p, 'auggie', ctx.cwd);
  if ('kind' in base) return base;
  const mcp = obj(p.mcp_metadata);
  return standardEvent(p, event, base, {
    toolKind: (tool, input, c) =>
      p.is_mcp_tool === true
        ? { kind: { kind: 'remote', server: str(mcp?.server_name) || str(mcp?.serverName), name: str(mcp?.tool_name) || tool }, bad: [] }
        : auggieToolKind(tool, input, c),
    promptOf: (x) => (typeof x.prompt === 'string' ? x.prompt : typeof x.user_prompt === 'string' ? x.user_prompt : undefined),
    failed: (x) => x.tool_error !== undefined && x.tool_error !== null && x.tool_error !== '',
  });
}
