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
    if (todo.length) for (const [p, e] of await writer.write(todo)) errors.set(p, e);
    removeEmptiedDirs(txn.writes.filter((w) => !errors.has(w.path)));
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
