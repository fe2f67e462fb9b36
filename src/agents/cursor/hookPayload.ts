// Cursor hook payloads -> internal events (FINDINGS.md §3; Cursor is closed source: docs only).
// The session is `conversation_id`, the folder `workspace_roots[0]`. Agent edits arrive as
// `afterFileEdit`, AFTER the write: an after-only event whose `before` the recorder takes from what
// the store knows (recording/afterOnly.ts). Shell commands: before/afterShellExecution, paired by
// command within one generation; MCP calls: before/afterMCPExecution. preToolUse/postToolUse carry
// `tool_use_id` [unconfirmed]: file tools there give a real `before` when Cursor sends them.
import type { ToolKind } from '../../core/effects/toolKind';
import type { AdapterResult } from '../../recording/events';
import {
  bad,
  boundary,
  filePaths,
  type HookContext,
  obj,
  type Payload,
  parsePayload,
  rootsEnvelope,
  stableText,
  str,
  toolEvent,
} from '../common/payload';

const FILE_TOOLS = new Set(['Write', 'StrReplace', 'Delete', 'Edit', 'MultiEdit', 'edit_file', 'search_replace', 'delete_file']);
/** Shell and MCP calls also come as before/after*Execution: recorded there, not twice. */
const COVERED = new Set(['Shell', 'run_terminal_cmd', 'Bash', 'MCP']);
const READ_TOOLS = new Set([
  'Read',
  'read_file',
  'Grep',
  'grep',
  'Glob',
  'LS',
  'list_dir',
  'codebase_search',
  'file_search',
  'WebFetch',
  'WebSearch',
  'web_search',
  'TodoWrite',
  'todo_write',
  'Task',
]);

function jsonObject(v: unknown): Payload {
  if (typeof v === 'string') {
    try {
      return obj(JSON.parse(v)) ?? {};
    } catch {
      return {};
    }
  }
  return obj(v) ?? {};
}

export function cursorToolKind(tool: string, input: unknown, cwd: string | undefined): { kind: ToolKind; bad: string[] } {
  const i = obj(input) ?? {};
  if (FILE_TOOLS.has(tool)) {
    const p = i.file_path ?? i.path ?? i.target_file;
    const r = filePaths([p], cwd);
    return { kind: { kind: 'file-write', paths: r.paths, summary: str(p) }, bad: r.bad };
  }
  if (READ_TOOLS.has(tool)) return { kind: { kind: 'read', summary: str(i.file_path) || str(i.pattern) || str(i.url) }, bad: [] };
  return { kind: { kind: 'other' }, bad: [] };
}

export function parseCursorPayload(text: string, _ctx: HookContext = {}): AdapterResult {
  const p = parsePayload(text);
  if (typeof p === 'string') return bad(p);
  const event = str(p.hook_event_name);
  if (!event) return bad('payload has no hook_event_name');
  const env = rootsEnvelope(p, 'cursor');
  if ('kind' in env) return env;
  const base = env;
  const cwd = base.cwd;
  const generation = str(p.generation_id);
  const win = process.platform === 'win32';
  switch (event) {
    case 'sessionStart':
      return boundary.start(base, 'new');
    case 'beforeSubmitPrompt':
      return boundary.prompt(base, event, p.prompt, { baseline: true });
    case 'stop':
      return boundary.end(base, 'stop', str(p.status));
    case 'sessionEnd':
      return boundary.end(base, 'session_end', str(p.reason));
    case 'beforeShellExecution':
    case 'afterShellExecution': {
      const command = str(p.command);
      const kind: ToolKind = { kind: 'shell', command, dialect: win ? 'powershell' : 'sh' };
      const input = { command, ...(str(p.cwd) ? { cwd: str(p.cwd) } : {}) };
      return toolEvent(base, event === 'beforeShellExecution' ? 'before' : 'after', 'shell', kind, input, {
        pairKey: stableText(['shell', generation, command]),
      });
    }
    case 'beforeMCPExecution':
    case 'afterMCPExecution': {
      const name = str(p.tool_name) || 'mcp';
      const input = jsonObject(p.tool_input);
      const server = str(p.url) || str(p.command);
      return toolEvent(base, event === 'beforeMCPExecution' ? 'before' : 'after', name, { kind: 'remote', server, name }, input, {
        pairKey: stableText(['mcp', generation, name, input]),
      });
    }
    case 'afterFileEdit': {
      const r = filePaths([p.file_path], cwd ?? undefined);
      if (r.bad.length || r.paths.length === 0) return bad(`afterFileEdit file_path is not an absolute path: ${r.bad.join(', ')}`);
      const input = { file_path: p.file_path, edits: Array.isArray(p.edits) ? p.edits : [] };
      return toolEvent(base, 'after', 'afterFileEdit', { kind: 'file-write', paths: r.paths, summary: r.paths[0]! }, input, {
        afterOnly: true,
      });
    }
    case 'preToolUse':
    case 'postToolUse':
    case 'postToolUseFailure': {
      const tool = str(p.tool_name);
      if (!tool) return bad(`${event} without tool_name`);
      if (COVERED.has(tool) || tool.startsWith('MCP:') || tool.startsWith('mcp_')) return { kind: 'ignore' };
      const input = jsonObject(p.tool_input);
      const { kind, bad: badPaths } = cursorToolKind(tool, input, cwd ?? undefined);
      if (badPaths.length) return bad(`${tool}: path not absolute and no workspace root: ${badPaths.join(', ')}`);
      const callId = str(p.tool_use_id) || undefined;
      return toolEvent(base, event === 'preToolUse' ? 'before' : 'after', tool, kind, input, {
        ...(callId ? { callId } : { pairKey: stableText([tool, generation, input]) }),
        ok: event === 'postToolUse',
      });
    }
    default:
      return { kind: 'ignore' }; // beforeReadFile, afterAgentResponse, afterAgentThought, preCompact, subagent*, Tab hooks
  }
}
