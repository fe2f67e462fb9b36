// Our hooks in Gemini CLI's project settings, `<workspace>/.gemini/settings.json`, merged with what the
// user has there (jsonc edits that touch nothing else, so Disconnect gives back the original bytes).
// The layout is Claude Code's (`hooks.<Event>: [{ matcher?, hooks: [handler] }]`), with 0.61's
// differences (test/fixtures/agents/gemini/real-0.61.0/README.md): its own event names, `timeout` in
// MILLISECONDS, a regex matcher on tool events (`.*`), a `name` per handler. Our handlers are
// recognised by the marker argument every connected command carries (see claude/settings.ts).
import * as path from 'node:path';
import { type Node, parseTree, type ParseError, printParseErrorCode, applyEdits } from 'jsonc-parser';
import type { AgentConnectionState } from '../connector';
import { CONNECT_MARKER, isConnectedHandler, readSettingsFile } from '../claude/settings';
import { appendTo, child, editFile, formatting, nodeAt, nodeToValue, removeElement, removeProperty } from '../common/jsonEdit';
import { GEMINI_RECORDED_EVENTS } from './hookPayload';

/** Milliseconds Gemini CLI waits for our hook (its unit; default 60000). Our hook gives up by itself after 20 s. */
export const GEMINI_HOOK_TIMEOUT_MS = 30000;
/** The handler's `name` (what `hooksConfig.disabled` and the trust warning show). */
export const GEMINI_HOOK_NAME = 'agent-rewind';
export const GEMINI_SETTINGS_FILE = path.join('.gemini', 'settings.json');

const TOOL_EVENTS = new Set(['BeforeTool', 'AfterTool']);

export class GeminiSettingsError extends Error {}

function parseSettings(text: string): Node {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length || !root) {
    const e = errors[0];
    const where = e ? ` (${printParseErrorCode(e.error)} at offset ${e.offset})` : '';
    throw new GeminiSettingsError(`The Gemini CLI settings file is not valid JSON${where}; fix it by hand, then connect again.`);
  }
  if (root.type !== 'object')
    throw new GeminiSettingsError('The Gemini CLI settings file does not hold a JSON object; fix it by hand, then connect again.');
  return root;
}

interface Located {
  event: string;
  group: number;
  handler: number;
  alone: boolean;
  handlerValue: Record<string, unknown>;
  matcher: unknown;
}

function ours(root: Node): Located[] {
  const hooks = child(root, 'hooks');
  if (!hooks || hooks.type !== 'object') return [];
  const out: Located[] = [];
  for (const prop of hooks.children ?? []) {
    const event = prop.children?.[0]?.value;
    const arr = prop.children?.[1];
    if (typeof event !== 'string' || !arr || arr.type !== 'array') continue;
    (arr.children ?? []).forEach((g, gi) => {
      const hs = child(g, 'hooks');
      if (!hs || hs.type !== 'array') return;
      (hs.children ?? []).forEach((h, hi) => {
        const v = nodeToValue(h);
        if (!isConnectedHandler(v)) return;
        const m = child(g, 'matcher');
        const alone = (hs.children ?? []).length === 1;
        out.push({
          event,
          group: gi,
          handler: hi,
          alone,
          handlerValue: v as Record<string, unknown>,
          matcher: m ? nodeToValue(m) : undefined,
        });
      });
    });
  }
  return out;
}

function handler(command: string): Record<string, unknown> {
  return { type: 'command', name: GEMINI_HOOK_NAME, command, timeout: GEMINI_HOOK_TIMEOUT_MS };
}

function ourGroup(event: string, command: string): Record<string, unknown> {
  return TOOL_EVENTS.has(event) ? { matcher: '.*', hooks: [handler(command)] } : { hooks: [handler(command)] };
}

function isCurrent(l: Located, command: string): boolean {
  const want = handler(command);
  const same =
    Object.keys(want).every((k) => l.handlerValue[k] === want[k]) && Object.keys(l.handlerValue).length === Object.keys(want).length;
  const matcherOk = TOOL_EVENTS.has(l.event) ? l.matcher === '.*' : l.matcher === undefined;
  return same && matcherOk;
}

function removeOne(text: string, root: Node, l: Located): string {
  const hooksObj = child(root, 'hooks')!;
  const eventArr = child(hooksObj, l.event)!;
  if (!l.alone) return applyEdits(text, [removeElement(nodeAt(root, ['hooks', l.event, l.group, 'hooks'])!, l.handler)]);
  if ((eventArr.children ?? []).length > 1) return applyEdits(text, [removeElement(eventArr, l.group)]);
  if ((hooksObj.children ?? []).length > 1) return applyEdits(text, [removeProperty(hooksObj, l.event)!]);
  return applyEdits(text, [removeProperty(root, 'hooks')!]);
}

/** Our handler on every recorded event, merged; idempotent; older entries of ours are replaced, never duplicated. */
export function connectGemini(text: string | undefined, command: string): string {
  if (!command.includes(CONNECT_MARKER)) throw new GeminiSettingsError(`The hook command must carry ${CONNECT_MARKER}.`);
  if (text === undefined || text.trim() === '') {
    const hooks: Record<string, unknown> = {};
    for (const e of GEMINI_RECORDED_EVENTS) hooks[e] = [ourGroup(e, command)];
    return JSON.stringify({ hooks }, null, 2) + '\n';
  }
  const fmt = formatting(text);
  let root = parseSettings(text);
  const hooksNode = child(root, 'hooks');
  if (hooksNode && hooksNode.type !== 'object')
    throw new GeminiSettingsError('"hooks" in the Gemini CLI settings file is not an object; fix it by hand, then connect again.');
  for (const e of GEMINI_RECORDED_EVENTS) {
    const arr = child(hooksNode, e);
    if (arr && arr.type !== 'array')
      throw new GeminiSettingsError(`"hooks.${e}" in the Gemini CLI settings file is not a list; fix it by hand, then connect again.`);
  }
  const wanted = new Set<string>(GEMINI_RECORDED_EVENTS);
  const keep = new Set<string>();
  const drop: Located[] = [];
  for (const l of ours(root)) {
    if (wanted.has(l.event) && !keep.has(l.event) && isCurrent(l, command)) keep.add(l.event);
    else drop.push(l);
  }
  for (const l of drop.reverse()) {
    text = removeOne(text, root, l);
    root = parseSettings(text);
  }
  for (const e of GEMINI_RECORDED_EVENTS) {
    if (keep.has(e)) continue;
    const group = ourGroup(e, command);
    const hooksNow = child(root, 'hooks');
    const arr = child(hooksNow, e);
    const edit = !hooksNow
      ? appendTo(text, root, fmt, { [e]: [group] }, 'hooks')
      : !arr
        ? appendTo(text, hooksNow, fmt, [group], e)
        : appendTo(text, arr, fmt, group);
    text = applyEdits(text, [edit]);
    root = parseSettings(text);
  }
  return text;
}

/** Removes every handler of ours (and the containers left holding only it); everything else stays byte for byte. */
export function disconnectGemini(text: string): string {
  if (text.trim() === '') return text;
  let root = parseSettings(text);
  for (;;) {
    const found = ours(root);
    if (!found.length) return text;
    text = removeOne(text, root, found[found.length - 1]!);
    root = parseSettings(text);
  }
}

export function geminiConnectionState(text: string | undefined, command: string): AgentConnectionState {
  if (text === undefined || text.trim() === '') return 'disconnected';
  try {
    if (!ours(parseSettings(text)).length) return 'disconnected';
    return connectGemini(text, command) === text ? 'connected' : 'outdated';
  } catch {
    return 'disconnected';
  }
}

/** Why our hooks would not run although connected: `hooksConfig.enabled: false`, or our name in `hooksConfig.disabled`. */
export function geminiHooksOff(text: string | undefined): string | null {
  if (text === undefined || text.trim() === '') return null;
  try {
    const cfg = child(parseSettings(text), 'hooksConfig');
    const v = cfg ? (nodeToValue(cfg) as Record<string, unknown>) : {};
    if (v.enabled === false) return '"hooksConfig.enabled" is false in this file: Gemini CLI runs no hook.';
    if (Array.isArray(v.disabled) && v.disabled.includes(GEMINI_HOOK_NAME))
      return `"hooksConfig.disabled" lists "${GEMINI_HOOK_NAME}": Gemini CLI skips our hook.`;
    return null;
  } catch {
    return null;
  }
}

export function geminiSettingsPath(workspace: string): string {
  return path.join(workspace, GEMINI_SETTINGS_FILE);
}

export function connectGeminiFile(workspace: string, command: string): { file: string; changed: boolean; text: string | undefined } {
  const file = geminiSettingsPath(workspace);
  const changed = editFile(file, (t) => ({ text: connectGemini(t, command) }));
  return { file, changed, text: readSettingsFile(file) };
}

/** A file left holding only `{}` is removed (Connect created it). */
export function disconnectGeminiFile(workspace: string): { file: string; changed: boolean } {
  const file = geminiSettingsPath(workspace);
  const changed = editFile(file, (t) => {
    if (t === undefined) return null;
    const after = disconnectGemini(t);
    if (after !== t && /^\s*\{\s*\}\s*$/.test(after)) return { remove: true };
    return { text: after };
  });
  return { file, changed };
}
