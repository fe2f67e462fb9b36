// What the extension's timeline keeps between reads of a log that only grows: after a hook, the folds over every
// record — each checkpoint's changed files (timeline.ts) and the checkpoints that change nothing (folding.ts) — go on
// over the records appended since, instead of over 100,000 records again.
import type { Sequenced } from '../storeFiles/records';
import { SameStateFold } from './folding';
import { FilesPerCheckpointFold } from './timeline';

/**
 * Tells records that are the ones seen last with more appended. By identity: the incremental reader
 * (storeFiles/logTail.ts) hands back the same objects for the lines it had read; a log read whole again (a clean-up
 * rewrote it) or a last line read again once complete gives other objects, and whoever asks starts over.
 */
export class AppendedRecords {
  private count = 0;
  private last: Sequenced | undefined;

  /** Where the records not seen before start; null when these are not the last ones seen with more after them. */
  since(records: readonly Sequenced[]): number | null {
    const from = this.count > 0 && records.length >= this.count && records[this.count - 1] === this.last ? this.count : null;
    this.count = records.length;
    this.last = records[records.length - 1];
    return from;
  }
}

/** filesPerCheckpoint and sameStateAsPrevious of a growing log, each record folded once. */
export class GrowingFolds {
  private readonly seen = new AppendedRecords();
  private files = new FilesPerCheckpointFold();
  private same = new SameStateFold();
  /** How many records the last `of` folded (for tests). */
  folded = 0;

  /** The answers for `records`; the maps are this object's own, changed by the next call. */
  of(records: readonly Sequenced[]): { files: ReadonlyMap<string, string[]>; same: ReadonlySet<string> } {
    let from = this.seen.since(records);
    if (from === null) {
      from = 0;
      this.files = new FilesPerCheckpointFold();
      this.same = new SameStateFold();
    }
    for (let i = from; i < records.length; i++) {
      this.files.add(records[i]!);
      this.same.add(records[i]!);
    }
    this.folded = records.length - from;
    return { files: this.files.result(), same: this.same.same };
  }
}
