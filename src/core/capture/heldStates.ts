// The resident's scan states, held between shell calls. A hook process loads its session's state,
// scans, saves and exits; the resident serves every call of a session, and loading a state of
// 70,000 files costs ~10 ms — twice per shell call. So the state it saved last is kept, and used
// again while the disk still holds what it saved (the state file and its journal, by inode, size and
// nanosecond times): a hook that recorded by itself meanwhile (the resident did not answer in time),
// a new baseline, gc — anything else that wrote them — and the state is read from disk again.
// Taken, not shared: a step takes the state and gives it back only after saving it, so a step that
// failed half-way or saved nothing leaves no state here that differs from the disk's.
import * as fs from 'node:fs';
import { journalFile, loadState, readPending } from '../scan/stateFile';
import type { ScanState } from '../scan/types';

let holding = false;
const held = new Map<string, { state: ScanState; mark: string }>();

/** Turns holding on for this process (the resident); elsewhere every step loads from disk. */
export function holdScanStates(): void {
  holding = true;
}

/** What is on disk for the state in `file` now: the state file and its journal, by identity and times. */
function diskMark(file: string): string {
  return [file, journalFile(file)]
    .map((f) => {
      const st = fs.statSync(f, { throwIfNoEntry: false, bigint: true });
      return st ? `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : '-';
    })
    .join('|');
}

/** The state in `file`: the one this process saved there last when the disk still holds it, else loaded. */
export function takeState(file: string): ScanState | null {
  const h = held.get(file);
  held.delete(file);
  if (!h || h.mark !== diskMark(file)) return loadState(file);
  // The in-flight call lives in its own small file (written by every step): read as a load would.
  const pending = readPending(file);
  if (pending) h.state.pending = pending;
  else delete h.state.pending;
  return h.state;
}

/** After `state` was saved to `file`: held for the next step, when it was saved as a journal (a state written whole is loaded again). */
export function keepState(file: string, state: ScanState, saved: 'journal' | 'whole'): void {
  if (holding && saved === 'journal') held.set(file, { state, mark: diskMark(file) });
}
