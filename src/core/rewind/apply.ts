// The one apply loop behind every file rewind, the CLI's and VS Code's: begin the transaction,
// skip paths that changed since the plan, hand the rest to a writer (plain file-system writes
// here; a WorkspaceEdit in the extension), remove the folders deletions emptied, verify and
// record the result. Whatever happens while writing, the transaction is finished, so the store
// never keeps a journal of a rewind that is over.
import { fault } from '../faults';
import type { CheckpointRecord } from '../storeFiles/records';
import type { Store } from '../store';
import type { Plan } from './plan';
import { beginRewind, type BeginOutcome, type FileResult, type RewindOptions } from './transaction';
import { applyWriteFs, removeEmptiedDirs, type Write } from './writes';

/** Writes a rewind's files; returns an error message per path it could not write. */
export interface FileWriter {
  write(writes: readonly Write[]): Promise<ReadonlyMap<string, string>> | ReadonlyMap<string, string>;
}

/**
 * Thrown by a writer that refuses, at the moment of writing and before writing anything, because
 * one of the paths cannot be written now (VS Code: an editor holds unsaved changes made after the
 * rewind's check). The rewind is finished as one that wrote nothing, and reported as vetoed.
 */
export class WriteRefused extends Error {
  constructor(readonly paths: string[]) {
    super(`unsaved changes in an editor (${paths.join(', ')}); nothing was written`);
  }
}

export type RewindOutcome =
  | Exclude<BeginOutcome, { status: 'ready' }>
  | { status: 'done' | 'partial'; plan: Plan; checkpoint: CheckpointRecord; files: FileResult[] };

/** Plain file-system writes, one at a time, each atomic. */
export function fsWriter(store: Store): FileWriter {
  return {
    write(writes) {
      const errors = new Map<string, string>();
      for (const w of writes) {
        try {
          applyWriteFs(store, w);
        } catch (e) {
          errors.set(w.path, (e as Error).message);
        }
        fault('rewind.write');
      }
      return errors;
    },
  };
}

export async function applyRewind(store: Store, targetId: string, opts: RewindOptions, writer: FileWriter): Promise<RewindOutcome> {
  const begun = beginRewind(store, targetId, opts);
  if (begun.status !== 'ready') return begun;
  const { txn } = begun;
  const errors = new Map<string, string>();
  let files: FileResult[] | null = null;
  try {
    const todo: Write[] = [];
    for (const w of txn.writes) {
      if (txn.unchanged(w)) todo.push(w);
      else errors.set(w.path, 'changed while the rewind ran; left as it is');
    }
    try {
      if (todo.length) for (const [p, e] of await writer.write(todo)) errors.set(p, e);
    } catch (e) {
      if (!(e instanceof WriteRefused)) throw e;
      // Nothing was written: finished as such (every path's result says so), reported as vetoed.
      for (const w of txn.writes) errors.set(w.path, e.message);
      txn.finish(errors);
      files = [];
      return { status: 'vetoed', plan: txn.plan, paths: e.paths };
    }
    for (const [p, e] of removeEmptiedDirs(txn.writes.filter((w) => !errors.has(w.path)))) errors.set(p, e);
    files = txn.finish(errors);
  } finally {
    if (!files) txn.finish(errors.size ? errors : new Map([['', 'interrupted']]));
  }
  return { status: files.every((f) => f.ok) ? 'done' : 'partial', plan: txn.plan, checkpoint: txn.checkpoint, files };
}

/** The whole rewind with plain file-system writes (the CLI). */
export function rewind(store: Store, targetId: string, opts: RewindOptions = {}): Promise<RewindOutcome> {
  return applyRewind(store, targetId, opts, fsWriter(store));
}
