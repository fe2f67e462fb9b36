// A scan narrowed by a file watcher that vouches (recording/changeSource.ts): only the folders and
// files it names are looked at, plus what the scan must look at anyway to stay exact — racy and
// pending entries (their stat alone cannot be trusted), racy folders, and every known file below a
// known folder that was created, removed or renamed (a moved folder moves its files without an
// event of their own). A folder the scan enters that the watcher does not cover (an ignored folder
// holding tracked files it has not watched yet, a folder whose watch failed) is scanned alone, as
// the full scan would: its stat compared (listed again when it changed) and every file it holds
// stat-checked; the rest stays narrowed. The result is what the full scan would find: the watcher
// only narrows.
import * as path from 'node:path';
import { under } from './incremental';
import type { DirTable } from './table';
import { F_PENDING, F_RACY, type ScanState, type WatchedChanges } from './types';

/**
 * Per folder table: its loaded folders the watcher did not cover, as of the table's membership and the
 * watcher's coverage then. Asking the watcher about every folder on every shell hook (a few thousand on a
 * real repository) cost more than the rest of a narrowed scan; while neither changed the answer is the same.
 */
const uncoveredOf = new WeakMap<DirTable, { membership: number; coverage: number; rels: string[] }>();

export interface Narrowed {
  /** Folders (relative) whose stat is compared, and listed again when it changed. */
  dirs: Set<string>;
  /** Known files (relative) whose stat is compared. */
  files: Set<string>;
  /** Folders (relative) the watcher does not cover, scanned alone. */
  alone: string[];
  /** Folders the watcher does not cover (those scanned alone, and those it names as removed or moved). */
  uncovered: number;
}

/** What to look at: what the watcher names, and the folders it does not cover, each scanned alone. */
export function narrowTo(state: ScanState, changed: WatchedChanges): Narrowed {
  const root = state.root;
  const base = root + path.sep;
  const dt = state.dirs;
  const dirs = new Set<string>();
  // A folder no longer watched was removed or moved (the watcher names it): it is looked at. One
  // the watcher does not cover (tracked files inside an ignored folder, a failed watch) is scanned alone.
  const alone = new Set<string>();
  let uncovered = 0;
  const look = (rel: string, racy: boolean): void => {
    const abs = rel ? base + (path.sep === '/' ? rel : rel.split('/').join(path.sep)) : root;
    if (changed.covers(abs)) {
      if (racy) dirs.add(rel);
      return;
    }
    dirs.add(rel);
    uncovered++;
    if (!changed.paths.has(abs)) alone.add(rel);
  };
  const cached = changed.coverage === undefined ? undefined : uncoveredOf.get(dt);
  if (cached && cached.membership === dt.membership && cached.coverage === changed.coverage) {
    // The same folders, the same watches: the watcher is asked again only about the folders it did not cover.
    const known = new Set(cached.rels);
    for (let i = 0; i < dt.rows; i++) {
      if (!dt.isLive(i)) continue;
      const rel = dt.pathAt(i);
      if (known.size && known.has(rel)) look(rel, dt.racyAt(i));
      else if (dt.racyAt(i)) dirs.add(rel);
    }
  } else {
    const rels: string[] = [];
    for (let i = 0; i < dt.rows; i++) {
      if (!dt.isLive(i)) continue;
      const before = uncovered;
      look(dt.pathAt(i), dt.racyAt(i));
      if (uncovered !== before) rels.push(dt.pathAt(i));
    }
    if (changed.coverage !== undefined) uncoveredOf.set(dt, { membership: dt.membership, coverage: changed.coverage, rels });
  }
  for (const [rel, d] of dt.added()) look(rel, d.racy);
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
  const inAlone = (rel: string): boolean => {
    const slash = rel.lastIndexOf('/');
    return alone.has(slash < 0 ? '' : rel.slice(0, slash));
  };
  const more = movedDirs.length > 0 || alone.size > 0;
  const also = (rel: string): boolean => inAlone(rel) || movedDirs.some((d) => under(rel, d));
  for (let i = 0; i < t.rows; i++) {
    if (!t.isLive(i)) continue;
    if (t.flagsAt(i) & (F_RACY | F_PENDING)) files.add(t.pathAt(i));
    else if (more) {
      const rel = t.pathAt(i);
      if (also(rel)) files.add(rel);
    }
  }
  for (const [rel, e] of t.added()) if (e.flags & (F_RACY | F_PENDING) || also(rel)) files.add(rel);
  return { dirs, files, alone: [...alone], uncovered };
}
