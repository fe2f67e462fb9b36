// Codex's tools mapped to the generic kinds core classifies (core/effects/toolKind.ts), by the
// names its hooks report (0.171): `apply_patch` (the patch in `tool_input.command`), `Bash` (every
// `exec_command`; `tool_input` is `{ command }` only), its read-only built-ins, and MCP tools
// (`mcp__<server>__<tool>`).
import * as path from 'node:path';
import type { ToolKind } from '../../core/effects/toolKind';
import { isInside } from '../../core/paths';
import { patchPaths } from '../common/applyPatch';

/** Built-ins that change nothing on disk (what the model is offered besides exec_command and apply_patch). */
const READ_TOOLS = new Set(['view_image', 'web_search', 'tool_search', 'request_user_input', 'update_plan', 'write_stdin']);

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The patch text of an apply_patch call: hooks send `{ command }`, the rollout the bare text. */
export function patchText(input: unknown): string {
  if (typeof input === 'string') return input;
  const i = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  return str(i.command) || str(i.input) || str(i.patch);
}

/** A summary for an apply_patch call: the paths it names, as written. */
function patchSummary(text: string, cwd: string | undefined): { paths: string[]; summary: string } {
  const r = patchPaths(text, cwd);
  if (!r) return { paths: [], summary: '' };
  const shown = r.paths.map((p) => (cwd && isInside(p, cwd) ? path.relative(cwd, p) : p));
  return { paths: r.paths, summary: [...shown, ...r.bad].join(', ') };
}

export function codexToolKind(tool: string, input: unknown, cwd?: string): ToolKind {
  const i = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (tool === 'apply_patch') {
    const { paths, summary } = patchSummary(patchText(input), cwd);
    return { kind: 'file-write', paths, summary };
  }
  // Hooks say `Bash`; the rollout keeps the model's `exec_command {cmd}` (and older `shell {command: [...]}`).
  if (tool === 'Bash') return { kind: 'shell', command: str(i.command), dialect: 'sh' };
  if (tool === 'exec_command') return { kind: 'shell', command: str(i.cmd) || str(i.command), dialect: 'sh' };
  if (tool === 'shell' || tool === 'local_shell') {
    const c = Array.isArray(i.command) ? i.command.map(String) : [];
    // `["bash", "-lc", "<script>"]`: the script is what runs.
    const script = c.length === 3 && /(^|\/)(ba|z)?sh$/.test(c[0]!) && c[1]!.startsWith('-') ? c[2]! : c.join(' ');
    return { kind: 'shell', command: script || str(i.command), dialect: 'sh' };
  }
  if (READ_TOOLS.has(tool)) return tool === 'view_image' ? { kind: 'read', summary: str(i.path) } : { kind: 'read' };
  if (tool.startsWith('mcp__')) {
    const parts = tool.split('__');
    return { kind: 'remote', server: parts[1]!, name: parts.slice(2).join('__') };
  }
  return { kind: 'other' };
}
