// Factory Droid hook payloads (stdin JSON) -> internal events. Droid's hooks are Claude Code's
// (docs.factory.ai `reference/hooks-reference` and `harness/hooks`, read 2026-12-05;
// test/fixtures/agents/droid/README.md): `hook_event_name`, `session_id`, `transcript_path`, `cwd`,
// `permission_mode`, `tool_name`, `tool_input`, `tool_response`; `$FACTORY_PROJECT_DIR` names the
// project. Its own tool names: `Create` and `Edit` (`file_path`), `ApplyPatch` (the patch text),
// `Execute` (`command`).
import { absPath, type Payload, patchToolKind, snakePayload, str } from '../common/payload';
import { standardEvent } from '../common/standardHooks';
import type { ToolKind } from '../../core/effects/toolKind';
import type { AdapterResult } from '../../recording/events';

const FILE_TOOLS = new Set(['Create', 'Edit', 'MultiEdit', 'Write', 'NotebookEdit']);
const SHELL_TOOLS = new Set(['Execute', 'Bash']);
const READ_TOOLS = new Set([
  'Read',
  'LS',
  'Grep',
  'Glob',
  'WebSearch',
  'FetchUrl',
  'TodoWrite',
  'Task',
  'ExitSpecMode',
  'GenerateDroid',
  'Skill',
]);

export function droidToolKind(tool: string, input: Payload, cwd: string | undefined): { kind: ToolKind; bad: string[] } {
  if (FILE_TOOLS.has(tool)) {
    const raw = input.file_path ?? input.path ?? input.notebook_path;
    const p = absPath(raw, cwd);
    return p
      ? { kind: { kind: 'file-write', paths: [p], summary: str(raw) }, bad: [] }
      : { kind: { kind: 'file-write', paths: [] }, bad: [JSON.stringify(raw)?.slice(0, 200) ?? 'no file_path'] };
  }
  if (tool === 'ApplyPatch') return patchToolKind(str(input.input) || str(input.patch) || str(input.patchText), cwd);
  if (SHELL_TOOLS.has(tool)) return { kind: { kind: 'shell', command: str(input.command), dialect: 'sh' }, bad: [] };
  if (READ_TOOLS.has(tool))
    return { kind: { kind: 'read', summary: str(input.file_path) || str(input.pattern) || str(input.url) }, bad: [] };
  const sep = tool.startsWith('mcp__') ? tool.indexOf('__', 5) : -1;
  if (sep > 0) return { kind: { kind: 'remote', server: tool.slice(5, sep), name: tool.slice(sep + 2) }, bad: [] };
  return { kind: { kind: 'other' }, bad: [] };
}

export function parseDroidPayload(text: string, env: NodeJS.ProcessEnv = process.env): AdapterResult {
  const sp = snakePayload(text, 'droid', env.FACTORY_PROJECT_DIR);
  if ('kind' in sp) return sp;
  return standardEvent(sp.p, sp.event, sp.base, { toolKind: droidToolKind });
}
