// A session start on a root the resident watches (startup, resume, clear, compact): instead of walking
// the tree again (1-2 s on a 27,000-file repository), the baseline is a state of that root this process
// saved itself — the session's own (resume, compact; also one a hook saved while the resident was starting, where
// the watcher vouches for what changed since its scan) or the newest of another session (startup, clear) —
// brought up to date by a scan the watcher narrows, exactly as a shell call's scan before its command:
// what changed since is folded in, not recorded. The result is what a walk would find (the watcher only
// narrows); the next shell call stays narrowed. Without a state the watcher vouches for, the walk.
import { loadState, peekState, stateFile } from '../scan/stateFile';
import { pendingCount } from '../scan/baseline';
import { rescan } from '../scan/rescan';
import type { ScanOptions, ScanState } from '../scan/types';
import { takeState } from './heldStates';
import { type ChangeSight, heldTokenFiles, vouchedChanges } from './narrowing';

export interface WatchedBaseline {
  state: ScanState;
  /** The watcher's token taken before the scan that made it (kept with it: the next call narrows). */
  token: unknown;
  files: number;
  pending: number;
  ms: number;
}

/** The session's baseline from a state the watcher vouches for, or null (walk the tree). */
export function watchedBaseline(
  storeDir: string,
  root: string,
  session: string,
  source: ChangeSight,
  opts: ScanOptions,
): WatchedBaseline | null {
  const t0 = Date.now();
  const own = stateFile(storeDir, session);
  const held = heldTokenFiles();
  // The session's own first (its state is taken, as every step takes it) — also one a hook saved by itself, which
  // the watcher may vouch for since (narrowing.ts, adoptedChanges); another session's is read, not taken.
  const others = held.filter((f) => f !== own && peekState(f)?.root === root);
  for (const file of [own, ...others]) {
    const state = file === own ? takeState(file) : loadState(file);
    if (!state || state.root !== root || state.off) continue;
    const changed = vouchedChanges(source, file, state);
    if (!changed) continue;
    const token = source.token(root);
    if (token === undefined) return null;
    const r = rescan(state, { ...opts, changed });
    if (r.tooMany) return null;
    if (file !== own) {
      // Another session's: its call in flight, its journal's base and its copy of the git index stay its own.
      delete state.pending;
      delete state.journalBase;
      delete state.gitCache;
      state.session = session;
      state.created = t0;
    }
    return { state, token, files: state.files.size, pending: pendingCount(state), ms: Date.now() - t0 };
  }
  return null;
}
