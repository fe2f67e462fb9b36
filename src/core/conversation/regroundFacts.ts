// What a resumed fork must be told, derived from the file timeline:
// the conversation lost its turns from the cut prompt on, but the world did not. Pure over the
// sequenced records and the lineage.
//
// Mapping the transcript cut to the file timeline: the cut prompt's `prompt` checkpoint is found
// (1) by id, for forks of our own session log; (2) by Claude Code's prompt id — the transcript's
// user line `promptId` equals the hook's `prompt_id` that the checkpoint carries; (3) failing
// that, among the parent's (and its ancestors') prompt checkpoints taken before the fork, by
// label = prompt text, the n-th of those with that text where n counts the same text earlier on
// the kept chain.
import { notUndoneAfter, type NotUndone } from '../timeline/changeSet';
import type { CheckpointRecord, Sequenced, SnapRecord } from '../storeFiles/records';
import { isCheckpoint, isSnap } from '../storeFiles/records';
import { latestState, sameContent, stateAt, stateOf } from '../timeline/timeline';
import { ancestorsOf, type ForkLineage, type LineageRecord } from './lineage';
import { indexRewinds, type RestorePoint, restorePointOf } from './restorePoints';

/** Prompt checkpoint labels are cut to this length by the recorder. */
const LABEL_MAX = 2000;

export interface FileNote {
  path: string;
  /** The file is absent now. */
  deleted: boolean;
  /** For a reverted file: its content is again what it was when the cut prompt was sent. */
  asAtCut?: boolean;
  /** For a still-edited file: changed again after the discarded turns (another session, the user, a scan). */
  changedSince?: boolean;
  /** For a file a rewind left at some other point in time: that point (the rewind's target). */
  restoredTo?: RestorePoint;
}

export interface RegroundFacts {
  /** The cut's checkpoint was found in the file timeline (else nothing about files is known). */
  cutFound: boolean;
  cutTime?: number;
  /** Files the discarded turns changed whose content now is what those turns left (or changed again since). */
  stillEdited: FileNote[];
  /** Files a rewind put back after the cut: to their state at the cut, or to another point in time. */
  reverted: FileNote[];
  /** Irreversible and compensatable calls the discarded turns made: not undone by any rewind. */
  actions: NotUndone[];
}

function sameText(a: string, b: string): boolean {
  return a.slice(0, LABEL_MAX).trim() === b.slice(0, LABEL_MAX).trim();
}

export function findCutCheckpoint(
  records: readonly Sequenced[],
  fork: ForkLineage,
  lineage: readonly LineageRecord[],
): Sequenced<CheckpointRecord> | undefined {
  const cps = records.filter(isCheckpoint) as Sequenced<CheckpointRecord>[];
  if (fork.cutCheckpoint) {
    const c = cps.find((x) => x.id === fork.cutCheckpoint);
    if (c) return c;
  }
  const prompts = cps.filter((c) => c.kind === 'prompt');
  if (fork.cutPromptId) {
    const c = prompts.find((x) => x.promptId === fork.cutPromptId);
    if (c) return c;
  }
  const sessions = new Set([fork.parentSession, ...ancestorsOf(lineage, fork.parentSession)]);
  const candidates = prompts.filter(
    (c) => c.session !== undefined && sessions.has(c.session) && c.time <= fork.time && sameText(c.label, fork.cutText),
  );
  if (candidates.length === 0) return undefined;
  return candidates[Math.min(fork.cutOccurrence, candidates.length - 1)];
}

/**
 * What the disk holds now (the latest recorded state) against what the fork remembers (the state at
 * the cut), for every path the discarded turns or a rewind changed after the cut:
 *   - latest = state at the cut: nothing from the discarded turns is left. Said only when a rewind
 *     undid a discarded change ("restored to how it was before that prompt"); a file that merely came
 *     back (a rewind and its undo, or edits that cancel out) is not mentioned.
 *   - latest = the last state the discarded turns left: still edited (also after a rewind was undone).
 *   - otherwise, written last by a rewind: reverted to another point in time (a partial rewind, or one
 *     further back than the cut), named by the rewind's target.
 *   - otherwise: still holds changes from after the cut, changed again since by someone else.
 * Paths only other sessions changed are not this conversation's and are left out.
 */
export function regroundFacts(records: readonly Sequenced[], fork: ForkLineage, lineage: readonly LineageRecord[]): RegroundFacts {
  const cut = findCutCheckpoint(records, fork, lineage);
  if (!cut) return { cutFound: false, stillEdited: [], reverted: [], actions: [] };
  const discarded = new Set<string>([fork.parentSession]);
  if (cut.session) discarded.add(cut.session);
  /** The last snapshot the discarded turns recorded of each path (its content is what they left). */
  const lastDiscarded = new Map<string, Sequenced<SnapRecord>>();
  /** The last rewind snapshot of each path after the cut. */
  const lastRewind = new Map<string, Sequenced<SnapRecord>>();
  for (const r of records) {
    if (r.seq <= cut.seq || !isSnap(r)) continue;
    const s = r as Sequenced<SnapRecord>;
    if (s.phase === 'rewind') lastRewind.set(s.path, s);
    else if ((s.phase === 'before' || s.phase === 'after') && discarded.has(s.session ?? '')) lastDiscarded.set(s.path, s);
  }
  const at = stateAt(records, cut.seq);
  const latest = latestState(records);
  const index = lastRewind.size ? indexRewinds(records) : null;
  const stillEdited: FileNote[] = [];
  const reverted: FileNote[] = [];
  for (const p of [...new Set([...lastDiscarded.keys(), ...lastRewind.keys()])].sort()) {
    const now = latest.get(p);
    if (!now) continue;
    const then = at.get(p);
    const mine = lastDiscarded.get(p);
    const rw = lastRewind.get(p);
    const deleted = now.hash === null && !now.skipped;
    if (then && sameContent(then, now)) {
      // Holds nothing from the discarded turns. Worth saying only if a rewind took their change back.
      if (mine && rw && rw.seq > mine.seq) reverted.push({ path: p, deleted, asAtCut: true });
      continue;
    }
    if (mine && sameContent(stateOf(mine), now)) stillEdited.push({ path: p, deleted });
    else if (now.phase === 'rewind') {
      const note: FileNote = { path: p, deleted, asAtCut: false };
      const point = index ? restorePointOf(index, now.seq) : undefined;
      if (point) note.restoredTo = point;
      reverted.push(note);
    } else if (mine) stillEdited.push({ path: p, deleted, changedSince: true });
  }
  return { cutFound: true, cutTime: cut.time, stillEdited, reverted, actions: notUndoneAfter(records, cut.seq, discarded) };
}
