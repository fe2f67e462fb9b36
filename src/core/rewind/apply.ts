// The one apply loop behind every file rewind, the CLI's and VS Code's: begin the transaction,
// then hand each file to a writer (plain file-system writes here; a WorkspaceEdit in the extension)
// right after re-reading that path (txn.claim: one the user changed meanwhile is left as they saved
// it), deletions first (then the folders they emptied, so a file can take a folder's place), then
// the files written with content, parents before children (so a folder can take a file's place);
// verify and record the result. Whatever happens while writing, the transaction is finished, so the
// store never keeps a journal of a rewind that is over.
import { fault } from '../faults';
import type { CheckpointRecord } from '../storeFiles/records';
import type { Store } from '../store';
import type { Plan } from './plan';
import { beginRewind, type BeginOutcome, type FileResult, type RewindOptions, type RewindTxn, type SkipReason } from './transaction';
import { applyWriteFs, removeEmptiedDirs, type Write } from './writes';
import { isError } from '../errors';

/** Writes a rewind's files, one at a time, in the order the apply loop gives them. */
export interface FileWriter {
  /**
   * Called right before the first write (nothing awaited between them when it returns no promise):
   * may throw WriteRefused, and then nothing is written.
   */
  begin?(writes: readonly Write[]): void | Promise<void>;
  /** Why `w` is to be left as it is now, beyond its content on disk (VS Code: its editor changed since the check), or null. */
  holdBack?(w: Write): SkipReason | null;
  /**
   * Writes (or deletes) one file, called right after its path was re-read; throws with what went wrong.
   * `recheck` re-reads the path once more (as the claim did): a writer that prepares the content first (a
   * temp file, fsynced) calls it at the last moment before the content takes the path's place, and writes
   * nothing when it is false (the user saved meanwhile: the path is then left as saved, its content stored).
   */
  writeOne(w: Write, recheck: () => boolean): void | Promise<void>;
}

export type RewindOutcome =
  | Exclude<BeginOutcome, { status: 'ready' }>
  | { status: 'done' | 'partial'; plan: Plan; checkpoint: CheckpointRecord; files: FileResult[] };

/** Plain file-system writes, each atomic. */
export function fsWriter(store: Store): FileWriter {
  return { writeOne: (w, recheck) => applyWriteFs(store, w, recheck) };
}

/** Every write in its order, each claimed right before it is written; the errors by path. */
async function writeAll(txn: RewindTxn, writer: FileWriter, errors: Map<string, string>): Promise<void> {
  const one = async (w: Write): Promise<boolean> => {
    if (!txn.claim(w, writer.holdBack?.(w) ?? undefined)) return false;
    try {
      const p = writer.writeOne(w, () => txn.claim(w));
      if (p) await p;
    } catch (e) {
      errors.set(w.path, (e as Error).message);
    }
    fault('rewind.write');
    return true;
  };
  const deleted: Write[] = [];
  for (const w of txn.writes) if (w.to === null && (await one(w)) && !errors.has(w.path)) deleted.push(w);
  for (const [p, e] of removeEmptiedDirs(deleted)) errors.set(p, e);
  for (const w of txn.writes) if (w.to !== null) await one(w);
}

export async function applyRewind(store: Store, targetId: string, opts: RewindOptions, writer: FileWriter): Promise<RewindOutcome> {
  const begun = beginRewind(store, targetId, opts);
  if (begun.status !== 'ready') return begun;
  const { txn } = begun;
  const errors = new Map<string, string>();
  let files: FileResult[] | null = null;
  // Once `finish` has begun, its own failure (a full disk while recording the results) is the error to
  // report: finishing again would only throw "already finished" in its place. Its journal stays, and the
  // next command records what was written.
  let finishing = false;
  try {
    try {
      const b = writer.begin?.(txn.writes);
      if (b) await b;
    } catch (e) {
      if (!isError(e, 'write-refused')) throw e;
      // Nothing was written: finished as such (every path's result says so), reported as vetoed.
      for (const w of txn.writes) errors.set(w.path, e.message);
      finishing = true;
      txn.finish(errors);
      files = [];
      return { status: 'vetoed', plan: txn.plan, paths: e.details.paths };
    }
    await writeAll(txn, writer, errors);
    finishing = true;
    files = txn.finish(errors);
  } finally {
    if (!files && !finishing) txn.finish(errors.size ? errors : new Map([['', 'interrupted']]));
  }
  return { status: files.every((f) => f.ok) ? 'done' : 'partial', plan: txn.plan, checkpoint: txn.checkpoint, files };
}

/** The whole rewind with plain file-system writes (the CLI). */
export function rewind(store: Store, targetId: string, opts: RewindOptions = {}): Promise<RewindOutcome> {
  return applyRewind(store, targetId, opts, fsWriter(store));
}
