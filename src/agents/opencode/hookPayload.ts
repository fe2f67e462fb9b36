// OpenCode events -> internal events. OpenCode has no command hooks: its plugins are JavaScript
// modules run inside OpenCode (opencode.ai `docs/plugins`; `@opencode-ai/plugin` types, read
// 2026-12-05). Connect writes a small plugin (plugin.ts) that hands each event to
// `agent-rewind hook opencode <event>` with this JSON on stdin — our own format, kept flat:
//   every event   {event, sessionID, directory, worktree?}
//   tool.execute.before  + {tool, callID, args}          (OpenCode's input {tool, sessionID, callID}, output {args})
//   tool.execute.after   + {tool, callID, args, title?, output?, metadata?}
//   chat.message         + {messageID?, prompt}          (the text parts of the user's message)
//   session.created / session.idle / session.deleted    (from the plugin's `event` hook)
// `file.edited` is not forwarded: it names no session, and the edit tools' own events record the edit.
// OpenCode's tools: `write` / `edit` / `multiedit` (`filePath`), `patch` / `apply_patch` (`patchText`),
// `bash` (`command`, `workdir`?); paths are absolute or relative to the session's `directory`.
import { checkAbsolutePath } from '../../core/paths';
import type { ToolKind } from '../../core/effects/toolKind';
import type { AdapterResult, EventBase } from '../../recording/events';
import {
  absPath,
  bad,
  boundary,
  type HookContext,
  obj,
  type Payload,
  parsePayload,
  patchToolKind,
  sessionOf,
  stableText,
  str,
  toolEvent,
} from '../common/payload';

/** The events we record; any other (sent as OpenCode's own bus event, say) is accepted and ignored. */
const RECORDED = new Set([
  'session.created',
  'chat.message',
  'session.idle',
  'session.deleted',
  'tool.execute.before',
  'tool.execute.after',
]);

const FILE_TOOLS = new Set(['write', 'edit', 'multiedit']);
const PATCH_TOOLS = new Set(['patch', 'apply_patch']);
const READ_TOOLS = new Set([
  'read',
  'glob',
  'grep',
  'list',
  'webfetch',
  'websearch',
  'codesearch',
  'todowrite',
  'todoread',
  'task',
  'skill',
  'lsp',
  'question',
]);

export function opencodeToolKind(tool: string, args: Payload, cwd: string | undefined): { kind: ToolKind; bad: string[] } {
  if (FILE_TOOLS.has(tool)) {
    const p = absPath(args.filePath, cwd);
    return p
      ? { kind: { kind: 'file-write', paths: [p], summary: str(args.filePath) }, bad: [] }
      : { kind: { kind: 'file-write', paths: [] }, bad: [JSON.stringify(args.filePath)?.slice(0, 200) ?? 'no filePath'] };
  }
  if (PATCH_TOOLS.has(tool)) return patchToolKind(str(args.patchText) || str(args.patch), cwd);
  if (tool === 'bash') return { kind: { kind: 'shell', command: str(args.command), dialect: 'sh' }, bad: [] };
  if (READ_TOOLS.has(tool)) return { kind: { kind: 'read', summary: str(args.filePath) || str(args.pattern) || str(args.url) }, bad: [] };
  return { kind: { kind: 'other' }, bad: [] };
}

/** Text of a message's parts (OpenCode's own `synthetic` parts left out). */
function textOfParts(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) return undefined;
  return parts
    .map(obj)
    .filter((x): x is Payload => x !== null && x.type === 'text' && x.synthetic !== true && typeof x.text === 'string')
    .map((x) => x.text as string)
    .join('\n');
}

/**
 * Our flat payload, also from OpenCode's own shapes should they be sent as they are: a hook's
 * `{input, output}` pair (tool.execute.*: `input {tool, sessionID, callID}`, `output {args}`;
 * chat.message: `output {message, parts}`), or a bus event `{type, properties}` (session.*).
 */
export function flatOpencodePayload(p: Payload): Payload {
  const flat: Payload = { ...p, ...(obj(p.input) ?? {}), ...(obj(p.output) ?? {}) };
  const props = obj(p.properties);
  if (props) {
    const info = obj(props.info);
    if (!flat.event && typeof p.type === 'string') flat.event = p.type;
    flat.sessionID ??= props.sessionID ?? info?.id;
    flat.directory ??= info?.directory;
  }
  if (typeof flat.prompt !== 'string') {
    const t = textOfParts(flat.parts);
    if (t !== undefined) flat.prompt = t;
  }
  return flat;
}

export function parseOpencodePayload(text: string, ctx: HookContext = {}): AdapterResult {
  const raw = parsePayload(text);
  if (typeof raw === 'string') return bad(raw);
  const p = flatOpencodePayload(raw);
  const event = str(p.event) || str(ctx.event);
  if (!event) return bad('payload has no event');
  if (!RECORDED.has(event)) return { kind: 'ignore' }; // file.edited (no session), message.*, session.status…
  const session = sessionOf(p.sessionID);
  if (!session) return bad(`${event}: payload has no valid sessionID`);
  const base: EventBase = { agent: 'opencode', session };
  const cwd = checkAbsolutePath(p.directory) ?? checkAbsolutePath(p.worktree) ?? checkAbsolutePath(ctx.cwd);
  if (cwd) base.cwd = cwd;
  switch (event) {
    case 'session.created':
      return boundary.start(base, 'new');
    case 'chat.message':
      return boundary.prompt(base, event, p.prompt, { baseline: true });
    case 'session.idle':
      return boundary.end(base, 'stop');
    case 'session.deleted':
      return boundary.end(base, 'session_end', 'deleted');
    case 'tool.execute.before':
    case 'tool.execute.after': {
      const tool = str(p.tool);
      if (!tool) return bad(`${event} without tool`);
      const args = obj(p.args) ?? {};
      // `workdir` moves a bash call; paths of the file tools stay relative to the session's folder.
      const { kind, bad: badPaths } = opencodeToolKind(tool, args, cwd ?? undefined);
      if (badPaths.length || (kind.kind === 'file-write' && !kind.paths.length))
        return bad(`${tool}: path not absolute and no directory: ${badPaths.join(', ')}`);
      const callId = str(p.callID) || undefined;
      const ok = obj(p.metadata)?.error === undefined;
      return toolEvent(base, event === 'tool.execute.before' ? 'before' : 'after', tool, kind, args, {
        ...(callId ? { callId } : { pairKey: stableText([tool, args]) }),
        ok,
      });
    }
    default:
      return { kind: 'ignore' }; // file.edited (the tool's own events carry the edit), message.*, session.diff…
  }
}
