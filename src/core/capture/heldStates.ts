// The resident's scan states, held between shell calls. A hook process loads its session's state,
// scans, saves and exits; the resident serves every call of a session, and loading a state of
// 70,000 files costs ~10 ms — twice per shell call. So the state it saved last is kept, and used
// again while the disk still holds what it saved (the state file and its journal, by inode, size and
// nanosecond times): a hook that recorded by itself meanwhile (the resident did not answer in time),
// a new baseline, gc — anything else that wrote them — and the state is read from disk again.
// Taken, not shared: a step takes the state and gives it back only after saving it — or, when its scan
// changed nothing, unsaved (the disk still holds it) — so a step that failed half-way, or whose save
// waits for an append that never came, leaves no state here that differs from the disk's.
import { fileMark } from '../storeFiles/fsx';
import { journalFile, loadState, readPending } from '../scan/stateFile';
import type { ScanState } from '../scan/types';

let holding = false;
const held = new Map<string, { state: ScanState; mark: string }>();
/** The disk mark each state was taken at (read before the state was loaded: a save after it makes the mark stale, never the state). */
const takenAt = new WeakMap<ScanState, string>();

/** Turns holding on for this process (the resident); elsewhere every step loads from disk. */
export function holdScanStates(): void {
  holding = true;
}

/** What is on disk for the state in `file` now: the state file and its journal, by identity and times. */
function diskMark(file: string): string {
  return `${fileMark(file)}|${fileMark(journalFile(file))}`;
}

/** The state in `file`: the one this process saved there last when the disk still holds it, else loaded. */
export function takeState(file: string): ScanState | null {
  const h = held.get(file);
  held.delete(file);
  if (!holding) return loadState(file);
  const mark = diskMark(file);
  if (!h || h.mark !== mark) {
    const loaded = loadState(file);
    if (loaded) takenAt.set(loaded, mark);
    return loaded;
  }
  // The in-flight call lives in its own small file (written by every step): read as a load would.
  const pending = readPending(file);
  if (pending) h.state.pending = pending;
  else delete h.state.pending;
  takenAt.set(h.state, mark);
  return h.state;
}

/** After `state` was saved to `file` (its journal, or whole: either way it is what a load gives now): held for the next step. */
export function keepState(file: string, state: ScanState): void {
  if (holding) held.set(file, { state, mark: diskMark(file) });
}

/**
 * After a scan of the state taken from `file` changed nothing (so it was not saved): held again, as the
 * disk still has it. Its `scanned` goes back to the saved one's (the scan moved it on): the state is then
 * what a load gives, and the watcher's token kept for that scan still matches it. The mark is the one it
 * was taken at: anything written to the state since makes the next step load it.
 */
export function keepUnchanged(file: string, state: ScanState, savedScanned: number): void {
  const mark = takenAt.get(state);
  if (!holding || mark === undefined) return;
  state.scanned = savedScanned;
  held.set(file, { state, mark });
}
