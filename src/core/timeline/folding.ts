// Which timeline rows say nothing their neighbour does not: a checkpoint whose workspace state is
// identical to its neighbour's folds into that neighbour's row (a session's start right before its
// prompt, a checkpoint before a risky call taken before the turn changed anything). A folded
// checkpoint is still a checkpoint: a rewind to it writes what a rewind to its row writes, and the
// surfaces list it on its row (tooltip, "Rewind to…"). Prompts, manual checkpoints and rewinds never
// fold: each is a step of the story. Pure over the records, one pass; the Files view reads it, and
// the CLI's `checkpoints` can (its output does not change with it).
import type { CheckpointRecord, Sequenced, SnapRecord } from '../storeFiles/records';
import { isCheckpoint, isSnap } from '../storeFiles/records';
import { BEFORE_PHASES, type FileState, sameContent, stateOf } from './timeline';

/**
 * The checkpoints whose workspace state (every recorded path, as stateAt reads it) is identical to
 * the previous checkpoint's in log order: nothing recorded between the two changed any content.
 * A path whose content is unknown at either end (too large, unreadable) never counts as identical.
 */
export function sameStateAsPrevious(records: Iterable<Sequenced>): Set<string> {
  const fold = new SameStateFold();
  for (const r of records) fold.add(r);
  return fold.same;
}

/** sameStateAsPrevious a record at a time: a log that grows (the extension's, after each hook) goes on from where it was. */
export class SameStateFold {
  readonly same = new Set<string>();
  private readonly latest = new Map<string, FileState>();
  /** Of each path recorded since the previous checkpoint: its state at that checkpoint (undefined: unknown there). */
  private atPrevious = new Map<string, FileState | undefined>();
  private seen = false;

  add(r: Sequenced): void {
    if (isCheckpoint(r)) {
      if (this.seen && [...this.atPrevious].every(([p, s]) => s !== undefined && sameContent(s, this.latest.get(p)!))) this.same.add(r.id);
      this.seen = true;
      this.atPrevious = new Map();
    } else if (isSnap(r)) {
      const s = stateOf(r as Sequenced<SnapRecord>);
      // A path first recorded by a "before"-like snapshot had that content at the previous checkpoint too (stateAt says the same).
      if (!this.atPrevious.has(r.path))
        this.atPrevious.set(r.path, this.latest.get(r.path) ?? (BEFORE_PHASES.has(r.phase) ? s : undefined));
      this.latest.set(r.path, s);
    }
  }
}

export interface Folds {
  /** A folded checkpoint's id → the id of the checkpoint whose row holds it. */
  into: Map<string, string>;
  /** A row's id → the checkpoints folded into it, oldest first. */
  held: Map<string, Sequenced<CheckpointRecord>[]>;
}

/**
 * The folds of a timeline (checkpoints oldest first; `same` from sameStateAsPrevious): a session
 * start folds into the prompt right after it in the same session when their states are identical;
 * a checkpoint before a risky call folds into the row before it in the same session (its prompt, or
 * a before-call row the prompt did not hold) when identical to it.
 */
export function foldRows(cps: readonly Sequenced<CheckpointRecord>[], same: ReadonlySet<string>): Folds {
  const into = new Map<string, string>();
  const held = new Map<string, Sequenced<CheckpointRecord>[]>();
  const fold = (c: Sequenced<CheckpointRecord>, host: string) => {
    into.set(c.id, host);
    const list = held.get(host);
    if (list) list.push(c);
    else held.set(host, [c]);
  };
  // Session starts first (they fold forwards), then before-call rows in order (they fold backwards, onto a row already settled).
  cps.forEach((c, i) => {
    const next = cps[i + 1];
    if (c.kind === 'session-start' && next?.kind === 'prompt' && next.session === c.session && same.has(next.id)) fold(c, next.id);
  });
  cps.forEach((c, i) => {
    const prev = cps[i - 1];
    if (c.kind !== 'before-tool' || !prev || prev.session !== c.session || !same.has(c.id)) return;
    if (prev.kind !== 'prompt' && prev.kind !== 'before-tool') return;
    // Onto the row its predecessor shows in: a host is never itself folded.
    fold(c, into.get(prev.id) ?? prev.id);
  });
  for (const list of held.values()) list.sort((a, b) => a.seq - b.seq);
  return { into, held };
}

/** The folds of a log: sameStateAsPrevious then foldRows. */
export function foldsOf(records: readonly Sequenced[]): Folds {
  return foldRows(records.filter(isCheckpoint) as Sequenced<CheckpointRecord>[], sameStateAsPrevious(records));
}
