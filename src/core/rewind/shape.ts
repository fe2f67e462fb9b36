// What a rewind writes to a file when it writes less than the target's whole file: "keep mine" (a
// three-way merge for a file the user changed since the agent left it) and a chosen subset of
// hunks. The plan carries each file's hunks and each blocked file's merge verdict (lineMerge.ts);
// the transaction asks here, before anything is recorded, for the content of each such file and
// stores it as a blob once the rewind is allowed, so the writer writes it, the journal finishes it
// and the result is verified against it like any restored content.
import type { Change } from '../timeline/changeSet';
import { type FileState, sameExec, stateOf } from '../timeline/timeline';
import { isSnap, type Sequenced, type SnapRecord } from '../storeFiles/records';
import type { DiskFact } from '../workspace/disk';
import type { Store } from '../store';
import {
  type Conflict,
  type Hunk,
  hunkIdsTouchingMine,
  hunkLinesOf,
  type HunkLines,
  hunksOf,
  hunksTouchingMine,
  isTextContent,
  type LineRange,
  takeHunks,
  threeWay,
} from './lineMerge';
import { AgentRewindError } from '../errors';

/** Why a file the user changed cannot be merged: it stays refused, with this reason. */
export type NoMerge = 'binary' | 'too-large' | 'mode' | 'not-a-file' | 'delete' | 'no-copy';

/** `base`: the hash of what the agent left, the merge's base. */
export type MergeVerdict =
  | { merge: 'clean'; content: Buffer; base: string }
  | { merge: 'conflict'; conflicts: Conflict[]; base: string }
  | { merge: 'never'; reason: NoMerge };

export const NO_MERGE_WORDS: Record<NoMerge | 'conflict', string> = {
  binary: 'a binary file never merges',
  'too-large': 'too large to merge (over the size limit, or too many changed lines)',
  mode: 'its permissions changed: a change of mode never merges',
  'not-a-file': 'not a regular text file on both sides',
  delete: 'the rewind would delete it: there are no lines to merge into',
  'no-copy': 'the store’s copy of what the agent left cannot be read (`agent-rewind verify` says more)',
  conflict: 'your changes and the agent’s touch the same lines',
};

function content(store: Store, hash: string | null): Buffer | null {
  return hash === null ? null : store.content(hash);
}

/** The three-way merge of a blocked file: base what the agent left (`from`), mine `disk`, target `to`. */
export function mergeOf(store: Store, c: Change, disk: DiskFact | undefined, mine: Buffer | undefined): MergeVerdict {
  try {
    return mergeOrThrow(store, c, disk, mine);
  } catch {
    return { merge: 'never', reason: 'no-copy' }; // a store copy that cannot be read: the plan still stands
  }
}

function mergeOrThrow(store: Store, c: Change, disk: DiskFact | undefined, mine: Buffer | undefined): MergeVerdict {
  const never = (reason: NoMerge): MergeVerdict => ({ merge: 'never', reason });
  if (!disk || disk.kind !== 'file' || c.from.link || c.to.link || (c.from.hash === null && !c.from.skipped)) return never('not-a-file');
  if (c.from.skipped || c.to.skipped || disk.hash === undefined || !mine) return never('too-large');
  if (c.to.hash === null) return never('delete');
  if (!sameExec(c.from.mode, disk.mode) || !sameExec(c.from.mode, c.to.mode)) return never('mode');
  const base = store.content(c.from.hash!);
  const target = store.content(c.to.hash);
  if (!isTextContent(base, mine, target)) return never('binary');
  const r = threeWay(base, mine, target);
  return r.merge === 'too-large' ? never('too-large') : { ...r, base: c.from.hash! };
}

/** A file's hunks between the disk now (`current`, null = missing) and the target, or null (binary, a link, too many changes). */
export function hunksFor(store: Store, c: Change, current: Buffer | null | undefined): Hunk[] | null {
  if (current === undefined || c.to.link || c.from.link || c.to.skipped) return null;
  try {
    return hunksOf(current, content(store, c.to.hash));
  } catch {
    return null; // the target's copy cannot be read: no hunks (the plan lists the file all the same)
  }
}

/**
 * What a reader needs to choose a file's hunks (the preview): each hunk's lines by id, and for a file
 * the user changed since the agent left it (`merge`, its verdict) the hunks that touch the user's
 * lines — the ones the transaction refuses to take with keep mine (shapeWrites' `touching`).
 */
export function hunkChoiceOf(
  store: Store,
  c: Change,
  current: Uint8Array | null | undefined,
  merge: MergeVerdict | undefined,
): { lines: Map<string, HunkLines>; touchingMine: string[] } | null {
  if (current === undefined || c.to.link || c.from.link || c.to.skipped) return null;
  try {
    const target = content(store, c.to.hash);
    const lines = hunkLinesOf(current, target);
    if (!lines) return null;
    const touchingMine =
      merge && merge.merge !== 'never' && current && target ? hunkIdsTouchingMine(store.content(merge.base), current, target) : [];
    return { lines, touchingMine };
  } catch {
    return null; // a copy that cannot be read: the file is chosen whole (the plan lists it all the same)
  }
}

/**
 * What the agent left before the user's content entered the timeline at `sinceSeq`: the path's
 * last agent write before it (phase `after`), or failing that its last state before it.
 */
export function stateBefore(records: readonly Sequenced[], p: string, sinceSeq: number): FileState | undefined {
  let last: Sequenced<SnapRecord> | undefined;
  let agent: Sequenced<SnapRecord> | undefined;
  for (const r of records) {
    if (r.seq >= sinceSeq || !isSnap(r) || r.path !== p) continue;
    last = r;
    if (r.phase === 'after') agent = r;
  }
  const s = agent ?? last;
  return s ? stateOf(s) : undefined;
}

export interface Shaped {
  /** The content to write instead of the target's, by path; `mineHash`: the disk's bytes it was computed from. */
  contents: Map<string, { data: Buffer; mineHash: string | null; how: 'keep-mine' | 'hunks' }>;
  /** Blocked paths the shaped content makes safe to write (a clean merge, or hunks clear of the user's lines). */
  unblocked: Set<string>;
  /** Chosen hunks that would overwrite the user's lines: the file stays refused. */
  touching: { path: string; from: LineRange[] }[];
}

export interface ShapeInput {
  changes: readonly Change[];
  blocked: readonly { path: string; reason: string }[];
  merges: ReadonlyMap<string, MergeVerdict>;
  disk: ReadonlyMap<string, Buffer | null>;
}

/**
 * The content of each file a keep-mine or hunk rewind writes differently. `hunks`: chosen hunk ids
 * by path (every path must be among the changes, every id among its hunks, or a 'hunk-selection' error).
 */
export function shapeWrites(
  store: Store,
  plan: ShapeInput,
  opts: { keepMine?: boolean; hunks?: ReadonlyMap<string, readonly string[]> },
): Shaped {
  const out: Shaped = { contents: new Map(), unblocked: new Set(), touching: [] };
  const blocked = new Map(plan.blocked.map((b) => [b.path, b]));
  const byPath = new Map(plan.changes.map((c) => [c.path, c]));
  for (const [p, ids] of opts.hunks ?? []) {
    const c = byPath.get(p);
    if (!c) throw new AgentRewindError('hunk-selection', { path: p, why: 'nothing-to-rewind' });
    const current = plan.disk.get(p);
    const hunks = hunksFor(store, c, current);
    if (!hunks) throw new AgentRewindError('hunk-selection', { path: p, why: 'no-hunks' });
    const known = new Set(hunks.map((h) => h.id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length)
      throw new AgentRewindError('hunk-selection', { path: p, why: 'unknown-hunk', unknown, known: hunks.map((h) => h.id) });
    const chosen = new Set(ids);
    const b = blocked.get(p);
    const m = plan.merges.get(p);
    if (b && opts.keepMine && m && m.merge !== 'never' && current && c.to.hash) {
      // Keep mine with hunks: the chosen hunks may not touch the lines the user changed.
      const touching = hunksTouchingMine(store.content(m.base), current, store.content(c.to.hash), chosen);
      if (touching.length) out.touching.push({ path: p, from: touching });
      else out.unblocked.add(p);
    }
    if (chosen.size === hunks.length && !b) continue; // every hunk: the whole file, written as any restore
    const data = takeHunks(current ?? null, content(store, c.to.hash), chosen);
    out.contents.set(p, { data, mineHash: current ? store.hashOf(current) : null, how: 'hunks' });
  }
  if (!opts.keepMine) return out;
  for (const b of plan.blocked) {
    const m = plan.merges.get(b.path);
    if (opts.hunks?.has(b.path) || m?.merge !== 'clean') continue;
    const current = plan.disk.get(b.path);
    out.contents.set(b.path, { data: m.content, mineHash: current ? store.hashOf(current) : null, how: 'keep-mine' });
    out.unblocked.add(b.path);
  }
  return out;
}
