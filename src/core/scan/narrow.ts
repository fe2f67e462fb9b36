// A scan narrowed by a file watcher that vouches (recording/changeSource.ts): only the folders and
// files it names are looked at, plus what the scan must look at anyway to stay exact — racy and
// pending entries (their stat alone cannot be trusted), racy folders, and every known file below a
// known folder that was created, removed or renamed (a moved folder moves its files without an
// event of their own). The result is what the full scan would find: the watcher only narrows.
import * as path from 'node:path';
import { under } from './incremental';
import { F_PENDING, F_RACY, type ScanState, type WatchedChanges } from './types';

export interface Narrowed {
  /** Folders (relative) whose stat is compared, and listed again when it changed. */
  dirs: Set<string>;
  /** Known files (relative) whose stat is compared. */
  files: Set<string>;
}

/** What to look at, or null when the watcher cannot stand in for the scan (a folder the scan enters is not watched). */
export function narrowTo(state: ScanState, changed: WatchedChanges): Narrowed | null {
  const root = state.root;
  const base = root + path.sep;
  const dt = state.dirs;
  const dirs = new Set<string>();
  // A folder no longer watched was removed or moved (the watcher names it): it is looked at. One
  // never watched (tracked files inside an ignored folder) cannot be vouched for: scan.
  const watched = (rel: string): boolean => {
    const abs = rel ? base + (path.sep === '/' ? rel : rel.split('/').join(path.sep)) : root;
    if (changed.covers(abs)) return true;
    if (!changed.paths.has(abs)) return false;
    dirs.add(rel);
    return true;
  };
  for (let i = 0; i < dt.rows; i++) {
    if (!dt.isLive(i)) continue;
    const rel = dt.pathAt(i);
    if (!watched(rel)) return null;
    if (dt.racyAt(i)) dirs.add(rel);
  }
  for (const [rel, d] of dt.added()) {
    if (!watched(rel)) return null;
    if (d.racy) dirs.add(rel);
  }
  const files = new Set<string>();
  const movedDirs: string[] = [];
  for (const abs of changed.paths) {
    if (abs === root) {
      dirs.add('');
      continue;
    }
    if (!abs.startsWith(base)) continue;
    const rel = path.sep === '/' ? abs.slice(base.length) : abs.slice(base.length).split(path.sep).join('/');
    const slash = rel.lastIndexOf('/');
    dirs.add(slash < 0 ? '' : rel.slice(0, slash));
    if (dt.has(rel)) {
      dirs.add(rel);
      movedDirs.push(rel);
    }
    if (state.files.has(rel)) files.add(rel);
  }
  const t = state.files;
  for (let i = 0; i < t.rows; i++) {
    if (!t.isLive(i)) continue;
    if (t.flagsAt(i) & (F_RACY | F_PENDING)) files.add(t.pathAt(i));
    else if (movedDirs.length) {
      const rel = t.pathAt(i);
      if (movedDirs.some((d) => under(rel, d))) files.add(rel);
    }
  }
  for (const [rel, e] of t.added()) if (e.flags & (F_RACY | F_PENDING) || movedDirs.some((d) => under(rel, d))) files.add(rel);
  return { dirs, files };
}
