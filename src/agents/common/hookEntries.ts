// The one merge of our hook entries into an agent's hooks file (`{hooks: {<Event>: [entry, …]}}`), for
// both layouts agents use: an entry per handler (flatHooks.ts) or per matcher group (hooksFile.ts). Our
// entries are recognised by the Connect marker (hookCommand.ts); everything else in the file is kept byte
// for byte. Connect drops our stale, misplaced or doubled entries, then adds what is missing at the end of
// each list; it is idempotent. Disconnect removes every entry of ours and the containers left empty.
import { appendTo, applyEdits, child, type ConfigFileCode, configFileError, formatting, type Node, parseJsonObject } from './jsonEdit';

/** One entry of ours, where it stands. */
export interface OurEntry {
  event: string;
}

/** A hooks file's layout: where our entries are, what each event gets, and how one is removed. */
export interface HooksLayout<E extends OurEntry> {
  /** Names the file in parse errors: "The Codex hooks file". */
  what: string;
  /** Names it inside a sentence ("the Codex hooks file"). */
  where: string;
  /** The code of the error thrown for a file that cannot be edited safely. */
  errorCode: ConfigFileCode;
  events: readonly string[];
  /** Top-level properties of a file Connect creates, before `hooks` (`{version: 1}`). */
  header: Record<string, unknown>;
  /** Every entry of ours in the document, in document order. */
  ours(root: Node): E[];
  /** The entry is what Connect would write now. */
  isCurrent(entry: E): boolean;
  /** What Connect adds to `event`'s list. */
  entryFor(event: string): unknown;
  /** Removes one entry of ours, and the containers that held only it. */
  removeOne(text: string, root: Node, entry: E): string;
}

const parse = <E extends OurEntry>(text: string, l: HooksLayout<E>) => parseJsonObject(text, l.what, l.errorCode);

/** Our entry for every event, merged with what is there (see the file's head). */
export function mergeOurEntries<E extends OurEntry>(fileText: string | undefined, l: HooksLayout<E>): string {
  if (fileText === undefined || fileText.trim() === '') {
    const hooks: Record<string, unknown> = {};
    for (const e of l.events) hooks[e] = [l.entryFor(e)];
    return JSON.stringify({ ...l.header, hooks }, null, 2) + '\n';
  }
  let text = fileText;
  const fmt = formatting(text);
  let root = parse(text, l);
  const hooksNode = child(root, 'hooks');
  if (hooksNode && hooksNode.type !== 'object') throw configFileError(l.errorCode, { why: 'hooks-not-object', where: l.where });
  for (const e of l.events) {
    const arr = child(hooksNode, e);
    if (arr && arr.type !== 'array') throw configFileError(l.errorCode, { why: 'event-not-list', where: l.where, event: e });
  }

  // 1. Drop entries of ours that are stale, misplaced or duplicated (last first: indexes stay valid).
  const wanted = new Set<string>(l.events);
  const keep = new Set<string>();
  const drop: E[] = [];
  for (const entry of l.ours(root)) {
    if (wanted.has(entry.event) && !keep.has(entry.event) && l.isCurrent(entry)) keep.add(entry.event);
    else drop.push(entry);
  }
  for (const entry of drop.reverse()) {
    text = l.removeOne(text, root, entry);
    root = parse(text, l);
  }

  // 2. Add what is missing, at the end of each list (or a new list at the end of `hooks`).
  for (const e of l.events) {
    if (keep.has(e)) continue;
    const entry = l.entryFor(e);
    const hooksNow = child(root, 'hooks');
    const arr = child(hooksNow, e);
    const edit = !hooksNow
      ? appendTo(text, root, fmt, { [e]: [entry] }, 'hooks')
      : !arr
        ? appendTo(text, hooksNow, fmt, [entry], e)
        : appendTo(text, arr, fmt, entry);
    text = applyEdits(text, [edit]);
    root = parse(text, l);
  }
  return text;
}

/** The text without any entry of ours (and without the lists or `hooks` object left empty by that). */
export function removeOurEntries<E extends OurEntry>(
  text: string,
  l: Pick<HooksLayout<E>, 'what' | 'errorCode' | 'ours' | 'removeOne'>,
): string {
  if (text.trim() === '') return text;
  let root = parseJsonObject(text, l.what, l.errorCode);
  for (;;) {
    const found = l.ours(root);
    if (!found.length) return text;
    text = l.removeOne(text, root, found[found.length - 1]!);
    root = parseJsonObject(text, l.what, l.errorCode);
  }
}

/** Each event's list under `hooks`, in document order (an event whose value is not a list is skipped). */
export function eventLists(root: Node): { event: string; list: Node }[] {
  const hooks = child(root, 'hooks');
  if (!hooks || hooks.type !== 'object') return [];
  const out: { event: string; list: Node }[] = [];
  for (const prop of hooks.children ?? []) {
    const event = prop.children?.[0]?.value;
    const list = prop.children?.[1];
    if (typeof event === 'string' && list && list.type === 'array') out.push({ event, list });
  }
  return out;
}
