// The hook file layout VS Code / Copilot CLI (`.github/hooks/*.json`) and Cursor (`.cursor/hooks.json`)
// share: `{hooks: {<Event>: [handler, …]}}` with one flat handler object per entry (no matcher groups
// as in hooksFile.ts); the merge is common/hookEntries.ts's.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hasMarker } from './hookCommand';
import type { AgentConnectionState } from './connector';
import { eventLists, type HooksLayout, mergeOurEntries, type OurEntry, removeOurEntries } from './hookEntries';
import {
  applyEdits,
  child,
  isEmptyObjectText,
  type Node,
  nodeToValue,
  parseJsonObject,
  readTextFile,
  removeElement,
  removeEmptyDirs,
  removeProperty,
  editFile,
} from './jsonEdit';

export interface FlatHooksFormat {
  /** Names the file in errors: "The Cursor hooks file". */
  what: string;
  events: readonly string[];
  /** Our handler for `event` (its command carries the Connect marker). */
  handler(event: string): Record<string, unknown>;
  /** Top-level properties of a file Connect creates, before `hooks` (`{version: 1}`). */
  header: Record<string, unknown>;
}

interface Located extends OurEntry {
  index: number;
  value: unknown;
}

/** A handler Connect wrote: any of its string fields (command, bash, powershell) carries the marker. */
function isOurs(v: unknown): boolean {
  return typeof v === 'object' && v !== null && Object.values(v).some((x) => typeof x === 'string' && hasMarker(x));
}

function ours(root: Node): Located[] {
  const out: Located[] = [];
  for (const { event, list } of eventLists(root))
    (list.children ?? []).forEach((h, index) => {
      const value = nodeToValue(h);
      if (isOurs(value)) out.push({ event, index, value });
    });
  return out;
}

function removeOne(text: string, root: Node, l: Located): string {
  const hooks = child(root, 'hooks')!;
  const arr = child(hooks, l.event)!;
  if ((arr.children ?? []).length > 1) return applyEdits(text, [removeElement(arr, l.index)]);
  if ((hooks.children ?? []).length > 1) return applyEdits(text, [removeProperty(hooks, l.event)!]);
  return applyEdits(text, [removeProperty(root, 'hooks')!]);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The flat layout of `f`. */
function flatLayout(f: FlatHooksFormat): HooksLayout<Located> {
  return {
    what: f.what,
    where: f.what,
    errorCode: 'config-file',
    events: f.events,
    header: f.header,
    ours,
    isCurrent: (l) => same(l.value, f.handler(l.event)),
    entryFor: (event) => f.handler(event),
    removeOne,
  };
}

/** Adds our handler to every event, merged with what is there (common/hookEntries.ts); idempotent; replaces older handlers of ours. */
export function connectFlat(text: string | undefined, f: FlatHooksFormat): string {
  return mergeOurEntries(text, flatLayout(f));
}

/** Removes every handler of ours (and the lists / `hooks` object left empty by that), nothing else. */
export function disconnectFlat(text: string, what: string): string {
  return removeOurEntries(text, { what, errorCode: 'config-file', ours, removeOne });
}

/** Whether the file holds our current handlers for every event, older ones of ours, or none. */
export function flatState(text: string | undefined, f: FlatHooksFormat): AgentConnectionState {
  if (text === undefined || text.trim() === '') return 'disconnected';
  try {
    if (!ours(parseJsonObject(text, f.what)).length) return 'disconnected';
    return connectFlat(text, f) === text ? 'connected' : 'outdated';
  } catch {
    return 'disconnected';
  }
}

/** After Disconnect: the file holds nothing but the header Connect wrote (then Connect created it: remove it). */
export function onlyHeaderLeft(text: string, f: Pick<FlatHooksFormat, 'what' | 'header'>): boolean {
  if (isEmptyObjectText(text)) return true;
  try {
    return same(nodeToValue(parseJsonObject(text, f.what)), f.header);
  } catch {
    return false;
  }
}

/** Disconnect for a flat hooks file of the workspace: our handlers go; a file left with only the header Connect wrote goes, with the folders it leaves empty. */
export function disconnectFlatFile(file: string, workspace: string, f: Pick<FlatHooksFormat, 'what' | 'header'>): boolean {
  const changed = editFile(file, (t) => {
    if (t === undefined) return null;
    const after = disconnectFlat(t, f.what);
    if (after !== t && onlyHeaderLeft(after, f)) return { remove: true };
    return { text: after };
  });
  if (changed && !fs.existsSync(file)) removeEmptyDirs(path.dirname(file), workspace);
  return changed;
}

/** flatState of a file (an unreadable one is disconnected). */
export function flatFileState(file: string, f: FlatHooksFormat): AgentConnectionState {
  try {
    return flatState(readTextFile(file), f);
  } catch {
    return 'disconnected';
  }
}
