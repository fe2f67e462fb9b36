// What a conversation that was NOT rewound must be told after a files-only rewind
// (re-grounding): the user put files back to an earlier point (from VS Code or the CLI) while the
// conversation kept every turn, so what earlier tool results showed about those files is stale.
// Pure over the sequenced records.
//
// Which rewinds: `rewind` checkpoints after `after` (the session's previous turn: its last prompt or
// session start), minus those the session was already told about. Which files: the paths those
// rewinds wrote that the conversation had changed before the rewind (its own before/after
// snapshots, and for a fork its parents' up to the cut) and has not touched since — a file it
// edited again after the rewind it has seen as it is. A file that is back to what the conversation
// last knew (a rewind and its undo) is left out: nothing it remembers is wrong.
import type { NotUndone } from '../timeline/changeSet';
import { notUndoneAfter } from '../timeline/changeSet';
import type { CheckpointRecord, Sequenced, SnapRecord } from '../storeFiles/records';
import { isSnap } from '../storeFiles/records';
import { type FileState, latestState, sameContent, stateAt } from '../timeline/timeline';
import { forkOf, type LineageRecord } from './lineage';
import { findCutCheckpoint } from './regroundFacts';
import { indexRewinds, type RestorePoint, restorePointOf, targetOfRewind } from './restorePoints';

/** The records of `session` with seq below `before` are part of the conversation's memory. */
export interface KnownRange {
  session: string;
  before: number;
}

export interface RewoundFile {
  path: string;
  /** Absent now. */
  deleted: boolean;
  /** Absent when the conversation last knew it, present now. */
  recreated: boolean;
  /** The point its content now comes from (the rewind's target). */
  restoredTo?: RestorePoint;
  /** Rewound, then changed again by another writer: its content is neither what was known nor a restore point. */
  changedSince?: boolean;
  /** Rewound in part (keep mine, or chosen hunks): the point's lines mixed with the user's or another attempt's. */
  mixed?: boolean;
}

export interface FilesRewoundFacts {
  /** Every rewind considered (after the window start, not yet told): recorded as delivered. */
  considered: string[];
  /** The rewinds that reverted at least one of the conversation's files. */
  rewinds: string[];
  files: RewoundFile[];
  /**
   * The conversation's irreversible / compensatable calls between the target of a rewind whose writes
   * a file holds now (or, changed again since, the last rewind that wrote it) and that rewind.
   */
  actions: NotUndone[];
}

/**
 * The sessions whose records make up `session`'s conversation: itself, and for a fork its parent
 * up to the cut (and so on up the chain, each limited by the nearest cut).
 */
export function conversationRanges(records: readonly Sequenced[], session: string, lineage: readonly LineageRecord[]): KnownRange[] {
  const out: KnownRange[] = [{ session, before: Infinity }];
  let limit = Infinity;
  let cur = forkOf(lineage, session);
  const seen = new Set([session]);
  while (cur && !seen.has(cur.parentSession)) {
    const cut = findCutCheckpoint(records, cur, lineage);
    if (!cut) break;
    limit = Math.min(limit, cut.seq);
    out.push({ session: cur.parentSession, before: limit });
    seen.add(cur.parentSession);
    cur = forkOf(lineage, cur.parentSession);
  }
  return out;
}

function inRanges(ranges: readonly KnownRange[], session: string | undefined, seq: number): boolean {
  return ranges.some((r) => r.session === session && seq < r.before);
}

export function filesRewoundFacts(
  records: readonly Sequenced[],
  ranges: readonly KnownRange[],
  opts: { after: number; skip?: ReadonlySet<string> },
): FilesRewoundFacts {
  const none: FilesRewoundFacts = { considered: [], rewinds: [], files: [], actions: [] };
  const index = indexRewinds(records);
  const window = new Set<string>();
  for (const c of index.byId.values()) if (c.kind === 'rewind' && c.seq > opts.after && !opts.skip?.has(c.id)) window.add(c.id);
  if (window.size === 0) return none;

  const lastTouch = new Map<string, number>();
  const rewindSnaps = new Map<string, Sequenced<SnapRecord>[]>();
  const mixed = new Set<number>();
  for (const r of records) {
    if (!isSnap(r)) continue;
    if (r.mixed) mixed.add(r.seq);
    if ((r.phase === 'before' || r.phase === 'after') && inRanges(ranges, r.session, r.seq)) lastTouch.set(r.path, r.seq);
    else if (r.phase === 'rewind') {
      const rw = index.rewindOfSnap.get(r.seq);
      if (!rw || !window.has(rw.id)) continue;
      let list = rewindSnaps.get(r.path);
      if (!list) rewindSnaps.set(r.path, (list = []));
      list.push(r as Sequenced<SnapRecord>);
    }
  }

  const latest = latestState(records);
  const stateCache = new Map<number, Map<string, FileState>>();
  const stateBefore = (cp: Sequenced<CheckpointRecord>) => {
    let m = stateCache.get(cp.seq);
    if (!m) stateCache.set(cp.seq, (m = stateAt(records, cp.seq)));
    return m;
  };
  const used = new Map<string, Sequenced<CheckpointRecord>>();
  // The rewinds whose writes the files hold now: their targets are the points the disk went back to.
  // A rewind undone or overtaken since says nothing about the disk (its point may be further back).
  const current = new Map<string, Sequenced<CheckpointRecord>>();
  const files: RewoundFile[] = [];
  for (const p of [...rewindSnaps.keys()].sort()) {
    const touched = lastTouch.get(p);
    const snaps = rewindSnaps.get(p)!;
    if (touched === undefined || touched > snaps[snaps.length - 1]!.seq) continue; // never ours, or seen since
    const first = snaps.find((s) => s.seq > touched)!;
    const rw = index.rewindOfSnap.get(first.seq)!;
    // What the conversation last knew: the disk right before the first rewind that wrote the file
    // after its last touch (that rewind's pre-rewind snapshot).
    const known = stateBefore(rw).get(p);
    const now = latest.get(p);
    if (!now || (known && sameContent(known, now))) continue;
    const deleted = now.hash === null && !now.skipped;
    const f: RewoundFile = { path: p, deleted, recreated: !deleted && !!known && known.hash === null && !known.skipped };
    used.set(rw.id, rw);
    let holds = index.rewindOfSnap.get(snaps[snaps.length - 1]!.seq)!;
    if (now.phase === 'rewind') {
      const point = restorePointOf(index, now.seq);
      if (point) f.restoredTo = point;
      if (mixed.has(now.seq)) f.mixed = true;
      const last = index.rewindOfSnap.get(now.seq);
      if (last && window.has(last.id)) used.set(last.id, (holds = last));
    } else f.changedSince = true;
    current.set(holds.id, holds);
    files.push(f);
  }
  if (files.length === 0) return { ...none, considered: [...window] };

  const actions: NotUndone[] = [];
  const seen = new Set<string>();
  for (const rw of [...current.values()].sort((a, b) => a.seq - b.seq)) {
    const target = targetOfRewind(index, rw);
    if (!target) continue;
    for (const range of ranges) {
      const upTo = Math.min(rw.seq, range.before);
      for (const a of notUndoneAfter(records.slice(0, upTo), target.seq, new Set([range.session]))) {
        const key = a.call ?? `${a.session}\u0000${a.time}\u0000${a.summary}`;
        if (seen.has(key)) continue;
        seen.add(key);
        actions.push(a);
      }
    }
  }
  actions.sort((a, b) => a.time - b.time);
  return { considered: [...window], rewinds: [...used.keys()], files, actions };
}
