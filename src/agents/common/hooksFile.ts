// A hooks file in the grouped shape (`{ "hooks": { "<Event>": [{ "matcher"?, "hooks": [handler] }] } }`),
// which several agents read (each with its own file, events, matcher and timeout unit): our handler
// merged into it, removed exactly, and its state. Pure text-to-text functions edited with jsonc-parser,
// so the user's own hooks, key order and formatting survive.
import {
  applyEdits,
  child,
  configFileError,
  editFile,
  isEmptyObjectText,
  type Node,
  nodeAt,
  nodeToValue,
  parseJsonObject,
  removeElement,
  removeProperty,
} from './jsonEdit';
import { eventLists, type HooksLayout, mergeOurEntries, type OurEntry, removeOurEntries } from './hookEntries';
import { CONNECT_MARKER, hasMarker, isConnectedHandler } from './hookCommand';
import type { AgentConnectionState } from './connector';

/** The events we record where an agent spells them the standard way: every tool call, every prompt, session boundaries. */
export const STANDARD_HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'SessionEnd',
] as const;

/** Tool events take a matcher on `tool_name`; `*` = every tool (we record reads too, for the timeline). */
const TOOL_EVENTS = new Set<string>(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);

/** The matcher of the standard events: `*` on tool events, none on the others. */
export const matchEveryTool = (event: string): string | undefined => (TOOL_EVENTS.has(event) ? '*' : undefined);

export interface HookSpec {
  /** The full shell command line (build it with `hookCommand`). */
  command: string;
}

function parseHooksFile(text: string, what: string): Node {
  return parseJsonObject(text, what, 'hooks-file');
}

interface Located extends OurEntry {
  group: number;
  handler: number;
  /** The group holds no other handler. */
  alone: boolean;
  command: string;
  matcher: unknown;
  /** The handler object as written. */
  value: Record<string, unknown>;
}

/** Every handler of ours in the document, in document order. */
function ours(root: Node): Located[] {
  const out: Located[] = [];
  for (const { event, list } of eventLists(root)) {
    (list.children ?? []).forEach((g, gi) => {
      const hs = child(g, 'hooks');
      if (!hs || hs.type !== 'array') return;
      (hs.children ?? []).forEach((h, hi) => {
        const v = nodeToValue(h);
        if (isConnectedHandler(v)) {
          const m = child(g, 'matcher');
          out.push({
            event,
            group: gi,
            handler: hi,
            alone: (hs.children ?? []).length === 1,
            command: (v as { command: string }).command,
            matcher: m ? nodeToValue(m) : undefined,
            value: v as Record<string, unknown>,
          });
        }
      });
    });
  }
  return out;
}

/** `*`, `""` or no matcher: the group runs for every tool (or source / reason). */
function matchesEverything(m: unknown): boolean {
  return m === undefined || m === '' || m === '*';
}

/**
 * A hooks file in Claude Code's shape (`{ "hooks": { "<Event>": [{ "matcher"?, "hooks": [{ "type":
 * "command", "command", "timeout" }] }] } }`), which Codex's `hooks.json` and Gemini CLI's
 * settings.json share: which events we write, with which matcher and timeout (in the agent's unit).
 */
export interface HooksFileFormat {
  /** Names the file in messages: "The Codex hooks file". */
  what: string;
  events: readonly string[];
  matcher(event: string): string | undefined;
  timeout(event: string): number;
  /** A `name` on each handler, after `type` (Gemini CLI shows it, and `hooksConfig.disabled` lists it). */
  name?: string;
  /**
   * Keep an entry of ours only when its handler and matcher are exactly what we would write (Gemini CLI:
   * a changed timeout or name is rewritten). Otherwise the same command on a match-everything group will do.
   */
  exact?: boolean;
}

function ourHandler(event: string, hook: HookSpec, f: HooksFileFormat): Record<string, unknown> {
  return { type: 'command', ...(f.name === undefined ? {} : { name: f.name }), command: hook.command, timeout: f.timeout(event) };
}

/** The entry of ours is what Connect would write now (see HooksFileFormat.exact). */
function isCurrent(l: Located, hook: HookSpec, f: HooksFileFormat): boolean {
  if (!f.exact) return l.command === hook.command && matchesEverything(l.matcher);
  const want = ourHandler(l.event, hook, f);
  const keys = Object.keys(want);
  return keys.length === Object.keys(l.value).length && keys.every((k) => l.value[k] === want[k]) && l.matcher === f.matcher(l.event);
}

function ourGroup(event: string, hook: HookSpec, f: HooksFileFormat): Record<string, unknown> {
  const h = ourHandler(event, hook, f);
  const m = f.matcher(event);
  return m === undefined ? { hooks: [h] } : { matcher: m, hooks: [h] };
}

/** Removes one handler of ours, and the containers that held only it (group, event, `hooks`). */
function removeOne(text: string, root: Node, l: Located): string {
  const hooksObj = child(root, 'hooks')!;
  const eventArr = child(hooksObj, l.event)!;
  if (!l.alone) {
    const handlers = nodeAt(root, ['hooks', l.event, l.group, 'hooks'])!;
    return applyEdits(text, [removeElement(handlers, l.handler)]);
  }
  if ((eventArr.children ?? []).length > 1) return applyEdits(text, [removeElement(eventArr, l.group)]);
  if ((hooksObj.children ?? []).length > 1) return applyEdits(text, [removeProperty(hooksObj, l.event)!]);
  return applyEdits(text, [removeProperty(root, 'hooks')!]);
}

/** The grouped layout of `f`, with `hook` as our handler. */
function groupedLayout(f: HooksFileFormat, hook: HookSpec): HooksLayout<Located> {
  return {
    what: f.what,
    where: f.what.replace(/^The /, 'the '),
    errorCode: 'hooks-file',
    events: f.events,
    header: {},
    ours,
    isCurrent: (l) => isCurrent(l, hook, f),
    entryFor: (event) => ourGroup(event, hook, f),
    removeOne,
  };
}

/**
 * Adds our handler to every recorded event, merged with what is there (common/hookEntries.ts). Idempotent:
 * when the current entries are already in place the text is returned unchanged. Older entries of ours
 * (another CLI path or store) are replaced, never duplicated.
 */
export function connectHooks(settingsFileText: string | undefined, hook: HookSpec, f: HooksFileFormat): string {
  if (!hasMarker(hook.command)) throw configFileError('hooks-file', { why: 'no-marker', marker: CONNECT_MARKER });
  return mergeOurEntries(settingsFileText, groupedLayout(f, hook));
}

/**
 * Removes exactly what Connect added (every handler carrying the marker), keeping everything else
 * byte for byte. A group, event list or `hooks` object left empty by that is removed too (Connect
 * creates them; an empty list means nothing to the agent), so a list that was `[]` before Connect
 * does not come back — the one case where the text is not restored exactly.
 */
export function disconnectHooks(text: string, f: HooksFileFormat): string {
  return removeOurEntries(text, { what: f.what, errorCode: 'hooks-file', ours, removeOne });
}

/** Whether the file holds our current entries for every event, older ones of ours, or none. */
export function hooksState(text: string | undefined, hook: HookSpec, f: HooksFileFormat): AgentConnectionState {
  if (text === undefined || text.trim() === '') return 'disconnected';
  let root: Node;
  try {
    root = parseHooksFile(text, f.what);
  } catch {
    return 'disconnected';
  }
  const found = ours(root);
  if (!found.length) return 'disconnected';
  try {
    return connectHooks(text, hook, f) === text ? 'connected' : 'outdated';
  } catch {
    return 'outdated';
  }
}

/** Removes our entries from a hooks file in this shape; a file left holding only `{}` is removed. */
export function disconnectHooksFile(file: string, f: HooksFileFormat): { file: string; changed: boolean } {
  const changed = editFile(file, (t) => {
    if (t === undefined) return null;
    const after = disconnectHooks(t, f);
    if (after !== t && isEmptyObjectText(after)) return { remove: true };
    return { text: after };
  });
  return { file, changed };
}
