// Kiro hook payloads -> internal events. Kiro has two hook systems (test/fixtures/agents/kiro/README.md):
// - Kiro CLI (kiro.dev `docs/cli/hooks`, read 2026-12-05): JSON on stdin, `hook_event_name`
//   (`agentSpawn`, `userPromptSubmit`, `preToolUse`, `postToolUse`, `stop`; the v3 hook files spell
//   them in PascalCase [U]), `cwd`, `prompt`, `tool_name`, `tool_input`, `tool_response`. No session id
//   is documented: a payload without one belongs to the folder's Kiro session (an id made from `cwd`).
// - Kiro IDE (kiro.dev `docs/hooks/types`): a "Run Command" action gets NO payload (kirodotdev/Kiro#7408):
//   the event comes from `hook kiro <event>` (promptSubmit, preToolUse, postToolUse, agentStop), the
//   prompt from `$USER_PROMPT`, the folder from the hook's working folder. A tool call is then opaque: it
//   is recorded like a shell command (the workspace scanned before and after), which catches its edits.
import { createHash } from 'node:crypto';
import { checkAbsolutePath } from '../../core/paths';
import type { ToolKind } from '../../core/effects/toolKind';
import type { AdapterResult, EventBase } from '../../recording/events';
import {
  bad,
  boundary,
  filePaths,
  type HookContext,
  obj,
  type Payload,
  parsePayload,
  sessionOf,
  stableText,
  str,
  toolEvent,
} from '../common/payload';

/** The Kiro IDE triggers Connect writes a `.kiro.hook` file for. */
export const KIRO_IDE_EVENTS = ['promptSubmit', 'preToolUse', 'postToolUse', 'agentStop'];

const WRITE_TOOLS = new Set(['fs_write', 'write']);
const SHELL_TOOLS = new Set(['execute_bash', 'execute_cmd', 'shell']);
const READ_TOOLS = new Set([
  'fs_read',
  'read',
  'glob',
  'grep',
  'knowledge',
  'thinking',
  'todo_list',
  'introspect',
  'web_search',
  'web_fetch',
  'report_issue',
]);

/** The folder's session, for payloads that name none: one id per folder. */
export function kiroFolderSession(cwd: string): string {
  return `kiro-${createHash('sha256').update(cwd).digest('hex').slice(0, 16)}`;
}

export function kiroToolKind(tool: string, input: Payload, cwd: string | undefined): { kind: ToolKind; bad: string[] } {
  if (WRITE_TOOLS.has(tool)) {
    const r = filePaths([input.path], cwd);
    return { kind: { kind: 'file-write', paths: r.paths, summary: str(input.path) }, bad: r.bad };
  }
  if (SHELL_TOOLS.has(tool))
    return { kind: { kind: 'shell', command: str(input.command), dialect: tool === 'execute_cmd' ? 'powershell' : 'sh' }, bad: [] };
  if (READ_TOOLS.has(tool)) return { kind: { kind: 'read', summary: str(input.path) || str(input.pattern) }, bad: [] };
  if (tool === 'use_aws') return { kind: { kind: 'remote', server: 'aws', name: str(input.service_name) || tool }, bad: [] };
  return { kind: { kind: 'other' }, bad: [] };
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** An IDE hook: no payload, the event from the command line. */
function ideEvent(event: string, ctx: HookContext): AdapterResult {
  const cwd = checkAbsolutePath(ctx.cwd);
  if (!cwd) return bad(`Kiro IDE ${event}: no working folder`);
  const base: EventBase = { agent: 'kiro', session: kiroFolderSession(cwd), cwd };
  switch (event) {
    case 'promptSubmit':
      return boundary.prompt(base, event, ctx.env?.USER_PROMPT ?? '', { baseline: true });
    case 'agentStop':
      return boundary.end(base, 'stop');
    case 'preToolUse':
    case 'postToolUse': {
      const kind: ToolKind = { kind: 'shell', command: '', dialect: process.platform === 'win32' ? 'powershell' : 'sh' };
      return toolEvent(base, event === 'preToolUse' ? 'before' : 'after', 'kiro_tool', kind, {}, { pairKey: 'kiro-ide-tool' });
    }
    default:
      return { kind: 'ignore' };
  }
}

export function parseKiroPayload(text: string, ctx: HookContext = {}): AdapterResult {
  if (text.trim() === '' && ctx.event) return ideEvent(ctx.event, ctx);
  const p = parsePayload(text);
  if (typeof p === 'string') return bad(p);
  const event = lowerFirst(str(p.hook_event_name) || str(ctx.event));
  if (!event) return bad('payload has no hook_event_name');
  const cwd = checkAbsolutePath(p.cwd) ?? checkAbsolutePath(ctx.cwd);
  const session = sessionOf(p.session_id) ?? (cwd ? kiroFolderSession(cwd) : null);
  if (!session) return bad('payload has neither session_id nor cwd');
  const base: EventBase = { agent: 'kiro', session };
  if (cwd) base.cwd = cwd;
  switch (event) {
    case 'agentSpawn':
      return boundary.start(base, 'startup');
    case 'userPromptSubmit':
      return boundary.prompt(base, event, p.prompt, { baseline: true });
    case 'stop':
      return boundary.end(base, 'stop');
    case 'preToolUse':
    case 'postToolUse': {
      const tool = str(p.tool_name);
      if (!tool) return bad(`${event} without tool_name`);
      const input = obj(p.tool_input) ?? {};
      const { kind, bad: badPaths } = kiroToolKind(tool, input, cwd ?? undefined);
      if (badPaths.length || (kind.kind === 'file-write' && !kind.paths.length))
        return bad(`${tool}: path not absolute and no cwd: ${badPaths.join(', ')}`);
      const response = obj(p.tool_response);
      return toolEvent(base, event === 'preToolUse' ? 'before' : 'after', tool, kind, input, {
        pairKey: stableText([tool, input]),
        ok: response?.success !== false,
      });
    }
    default:
      return { kind: 'ignore' };
  }
}
