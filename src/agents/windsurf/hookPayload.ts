// Windsurf Cascade hook payloads (stdin JSON) -> internal events (docs.windsurf.com
// `windsurf/cascade/hooks`, read 2026-12-05; test/fixtures/agents/windsurf/README.md). Every payload
// is one envelope: `agent_action_name` (the event), `trajectory_id` (the Cascade conversation: our
// session), `execution_id` (one agent run), `timestamp`, and the event's details in `tool_info`:
// pre/post_write_code `{file_path, edits[{old_string, new_string}]}`, pre/post_run_command
// `{command_line, cwd}`, pre/post_mcp_tool_use `{mcp_server_name, mcp_tool_name, mcp_tool_arguments}`,
// pre_user_prompt `{user_prompt}`, post_cascade_response `{response}`. No call id: a call's two ends
// pair by what they name, within the conversation. No session start and no folder in the envelope:
// the hook runs in the workspace root (Windsurf's default `working_directory`), so that is the folder.
import { checkAbsolutePath } from '../../core/paths';
import type { ToolKind } from '../../core/effects/toolKind';
import type { AdapterResult, EventBase } from '../../recording/events';
import { bad, filePaths, type HookContext, obj, parsePayload, sessionOf, stableText, str, toolEvent } from '../common/payload';

/** The events Connect writes (`.windsurf/hooks.json`); the read hooks and the transcript variant are not needed. */
export const WINDSURF_HOOK_EVENTS = [
  'pre_user_prompt',
  'pre_write_code',
  'post_write_code',
  'pre_run_command',
  'post_run_command',
  'pre_mcp_tool_use',
  'post_mcp_tool_use',
  'post_cascade_response',
];

function mcpArgs(v: unknown): unknown {
  if (typeof v !== 'string') return v ?? {};
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

export function parseWindsurfPayload(text: string, ctx: HookContext = {}): AdapterResult {
  const p = parsePayload(text);
  if (typeof p === 'string') return bad(p);
  const event = str(p.agent_action_name);
  if (!event) return bad('payload has no agent_action_name');
  const session = sessionOf(p.trajectory_id);
  if (!session) return bad('payload has no valid trajectory_id');
  const info = obj(p.tool_info) ?? {};
  const base: EventBase = { agent: 'windsurf', session };
  const cwd = checkAbsolutePath(info.cwd) ?? checkAbsolutePath(ctx.cwd);
  if (cwd) base.cwd = cwd;
  const phase = event.startsWith('pre_') ? 'before' : 'after';
  switch (event) {
    case 'pre_user_prompt': {
      if (typeof info.user_prompt !== 'string') return bad('pre_user_prompt without tool_info.user_prompt');
      // No session start comes first: the shell-capture baseline is taken at the first prompt.
      return { kind: 'event', event: { ...base, type: 'prompt', text: info.user_prompt, baseline: true } };
    }
    case 'post_cascade_response':
    case 'post_cascade_response_with_transcript':
      return { kind: 'event', event: { ...base, type: 'stop' } };
    case 'pre_write_code':
    case 'post_write_code': {
      const r = filePaths([info.file_path], cwd ?? undefined);
      if (r.bad.length || !r.paths.length) return bad(`${event}: file_path is not an absolute path: ${r.bad.join(', ')}`);
      const kind: ToolKind = { kind: 'file-write', paths: r.paths, summary: r.paths[0]! };
      const input = { file_path: info.file_path, edits: Array.isArray(info.edits) ? info.edits : [] };
      return toolEvent(base, phase, 'write_code', kind, input, { pairKey: stableText(['write_code', r.paths]) });
    }
    case 'pre_run_command':
    case 'post_run_command': {
      const command = str(info.command_line);
      const kind: ToolKind = { kind: 'shell', command, dialect: process.platform === 'win32' ? 'powershell' : 'sh' };
      const input = { command_line: command, ...(str(info.cwd) ? { cwd: str(info.cwd) } : {}) };
      return toolEvent(base, phase, 'run_command', kind, input, { pairKey: stableText(['run_command', command, str(info.cwd)]) });
    }
    case 'pre_mcp_tool_use':
    case 'post_mcp_tool_use': {
      const server = str(info.mcp_server_name);
      const name = str(info.mcp_tool_name) || 'mcp';
      const input = mcpArgs(info.mcp_tool_arguments);
      return toolEvent(base, phase, name, { kind: 'remote', server, name }, input, { pairKey: stableText(['mcp', server, name, input]) });
    }
    default:
      return { kind: 'ignore' }; // pre/post_read_code, post_setup_worktree
  }
}
