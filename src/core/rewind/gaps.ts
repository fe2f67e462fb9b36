// What was not recorded after a rewind's target, and why: the log's gap lines recorded since
// (names that are not UTF-8, paths over the limit, FIFOs and devices, dropped payloads, shell capture
// turned off) and the times the store could not be written. Each is listed by the plan and the rewind
// as not restorable, with its reason — a rewind never says "ok" over what it could not see.
import { readCaptureStatus } from '../capture/status';
import type { Store } from '../store';
import type { GapRecord } from '../storeFiles/records';
import type { NotRestorable } from '../timeline/changeSet';

/** A not-restorable entry from a gap: when, and by which call, when known. */
export interface NotRecorded extends NotRestorable {
  time: number;
  session?: string;
  tool?: string;
  call?: string;
}

const KNOWN = new Set<string>(['name-encoding', 'path-length', 'too-large', 'special-file', 'payload-dropped', 'capture-off']);

function fromGap(g: GapRecord): NotRecorded {
  return {
    path: g.path,
    reason: KNOWN.has(g.reason) ? g.reason : 'unknown-at-target', // a reason from a newer version
    time: g.time,
    ...(g.session ? { session: g.session } : {}),
    ...(g.tool ? { tool: g.tool } : {}),
    ...(g.call ? { call: g.call } : {}),
  };
}

/**
 * `known` (what the plan cannot restore by its snapshots) with the gaps recorded at or after `time` (a gap
 * holds no place in the sequence: it is placed by time): one per path and reason (the first); a path
 * `known` lists as unreadable takes the gap's more exact reason (its path is too long), other paths it
 * lists keep theirs. Only `sessions`' gaps when given, only `paths`' when given. The store's write
 * failures since then come last, under the store's folder.
 */
export function notRecordedSince(
  store: Store,
  time: number,
  opts: {
    sessions?: readonly string[];
    paths?: readonly string[];
    known?: readonly NotRestorable[];
    /** Sessions that acted after `time`: one whose shell capture is off says so, even when it turned off before. */
    active?: Iterable<string>;
  } = {},
): (NotRestorable | NotRecorded)[] {
  const known: (NotRestorable | NotRecorded)[] = [...(opts.known ?? [])];
  const seen = new Map(known.map((n, i) => [n.path, i]));
  const sessions = opts.sessions?.length ? new Set(opts.sessions) : null;
  const paths = opts.paths?.length ? new Set(opts.paths) : null;
  const out: NotRecorded[] = [];
  const said = new Set<string>();
  for (const g of store.gapsSince(time)) {
    if ((sessions && !(g.session && sessions.has(g.session))) || (paths && !paths.has(g.path))) continue;
    const at = seen.get(g.path);
    if (at !== undefined) {
      if (known[at]!.reason === 'unreadable') known[at] = fromGap(g);
      continue;
    }
    const key = `${g.reason}\0${g.path}`;
    if (said.has(key)) continue;
    said.add(key);
    out.push(fromGap(g));
  }
  if (!paths) {
    const off = readCaptureStatus(store.dir);
    for (const session of new Set(opts.active ?? [])) {
      const c = off[session];
      if (c?.state !== 'off' || (sessions && !sessions.has(session)) || said.has(`capture-off\0${c.root}`)) continue;
      said.add(`capture-off\0${c.root}`);
      out.push({ path: c.root, reason: 'capture-off', time: Math.max(c.time, time), session });
    }
  }
  if (!paths)
    for (const f of store.writeFailures())
      if (f.last >= time) out.push({ path: store.dir, reason: 'store-write-failed', time: Math.max(f.first, time) });
  return [...known, ...out];
}

/** `notRestorable` of `plan --json` and `rewind --json`: `{ path, reason }`, and for what was not recorded `since` (and the call, when known). */
export function notRestorableJson(list: readonly (NotRestorable | NotRecorded)[]) {
  return list.map((n) => {
    if (!('time' in n)) return { path: n.path, reason: n.reason };
    const { path, reason, time, ...rest } = n;
    return { path, reason, since: new Date(time).toISOString(), ...rest };
  });
}
