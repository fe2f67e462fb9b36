// A file watcher's help (the resident recorder; hook processes have none): a scan looks only at the
// paths the watcher vouches changed since the state it starts from was scanned. The watcher itself
// is the recording layer's ChangeSource (recording/changeSource.ts); capture needs only this much of it.
import type { ScanOptions, ScanState } from '../scan/types';

/** The part of a ChangeSource that narrows a scan. `T` is its opaque token. */
export interface ChangeSight<T = unknown> {
  /** The current moment for `root` (taken BEFORE a scan starts). Undefined: not watched, or cannot vouch. */
  token(root: string): T | undefined;
  /** Absolute paths under `root` that may have changed since `token`; undefined: cannot vouch, scan. */
  changedSince(root: string, token: T): ReadonlySet<string> | undefined;
  /** Is this folder (absolute) watched now? */
  covers(root: string, dir: string): boolean;
}

/**
 * Per state file: the watcher's token taken just before the scan that produced the state as saved
 * (identified by its `scanned` time). Only a state this process saved itself can be narrowed: one
 * a hook saved meanwhile (the resident did not answer in time) has another `scanned`, and is scanned.
 */
const tokens = new Map<string, { scanned: number; token: unknown }>();

/** Scans this process ran with a watcher at hand: narrowed to its paths, or whole (for status and tests). */
export const watchedScans = { narrowed: 0, whole: 0 };

/** The paths the watcher vouches changed since this state was scanned, or undefined (scan). */
export function watchedChanges(source: ChangeSight | undefined, file: string, state: ScanState): ScanOptions['changed'] {
  if (!source) return undefined;
  const held = tokens.get(file);
  const paths = held && held.scanned === state.scanned ? source.changedSince(state.root, held.token) : undefined;
  if (!paths) {
    watchedScans.whole++;
    return undefined;
  }
  return { paths, covers: (dir) => source.covers(state.root, dir) };
}

export function countScan(source: ChangeSight | undefined, changed: ScanOptions['changed'], narrowed: boolean | undefined): void {
  if (source && changed) watchedScans[narrowed ? 'narrowed' : 'whole']++;
}

/** After saving `state`: the token taken before the scan that made it (none: the next call scans). */
export function keepToken(file: string, state: ScanState, token: unknown): void {
  if (token && !state.off) tokens.set(file, { scanned: state.scanned, token });
  else tokens.delete(file);
}
