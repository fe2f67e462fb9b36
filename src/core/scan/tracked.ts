// The git index as the scan sees it: the tracked files under the root (read from the index file,
// or asked of git when we cannot read it), whether a tracked file is clean by its index entry, and
// which of a state's git ids are no longer the index's.
import * as path from 'node:path';
import type { RepoInfo } from '../git/repo';
import { indexEntries, modifiedTracked } from '../git/status';
import { type GitIndexEntry, gitIndexKey, readGitIndex } from '../git/indexFile';
import { TWO32 } from './entries';
import { type Entry, type Peek, peekOf } from './table';
import { F_LINK, F_NOGIT, type ScanState } from './types';

export interface TrackedEntry {
  mode: number;
  id: string;
  /** The work tree may differ without the stat check noticing, or the entry is conflicted / intent-to-add. */
  untrusted: boolean;
  /** Index stat data (direct read), or null (listed by git). */
  stat: GitIndexEntry | null;
}

export interface Tracked {
  entries: Map<string, TrackedEntry>;
  /** From the index file: its mtime (racy entries), whether it stores nanoseconds, its stat key. */
  mtimeMs: number;
  nsec: boolean;
  key: string;
  /** Entries in the whole index (under the root or not). */
  total: number;
  /** From git (when the index file could not be read): tracked paths whose file may differ. */
  modified: Set<string> | null;
  source: 'index' | 'git';
}

export function indexOf(info: Pick<RepoInfo, 'top' | 'gitDir' | 'objectFormat'>, root: string): Tracked | null {
  const rel = path.relative(info.top, root).split(path.sep).join('/');
  const prefix = rel && !rel.startsWith('..') ? rel + '/' : '';
  const idx = readGitIndex(info.gitDir, info.objectFormat);
  if (idx) {
    const entries = new Map<string, TrackedEntry>();
    for (const ie of idx.entries) {
      if (prefix && !ie.path.startsWith(prefix)) continue;
      const p = prefix ? ie.path.slice(prefix.length) : ie.path;
      const dup = entries.get(p);
      const untrusted = ie.stage !== 0 || ie.assumeValid || ie.skipWorktree || ie.intentToAdd || !!dup;
      entries.set(p, { mode: ie.mode, id: ie.id, untrusted, stat: ie });
    }
    return { entries, mtimeMs: idx.mtimeMs, nsec: idx.nsec, key: idx.key, total: idx.entries.length, modified: null, source: 'index' };
  }
  // An index we do not read ourselves (split or sparse index, a future version): ask git.
  const key = gitIndexKey(info.gitDir);
  const listed = indexEntries(root);
  const modified = listed ? modifiedTracked(root) : null;
  if (!listed || !modified) return null;
  const entries = new Map<string, TrackedEntry>();
  for (const [p, e] of listed) entries.set(p, { mode: parseInt(e.mode, 8), id: e.id, untrusted: e.untrusted, stat: null });
  return {
    entries,
    mtimeMs: 0,
    nsec: false,
    key: gitIndexKey(info.gitDir) === key ? key : '?',
    total: entries.size,
    modified,
    source: 'git',
  };
}

function modeFits(te: TrackedEntry, link: boolean): boolean {
  return link ? te.mode === 0o120000 : te.mode === 0o100644 || te.mode === 0o100755;
}

/**
 * Our own stat check of one tracked file against its index entry, as git's would be: 'clean'
 * (the work-tree file is the index blob), 'racy' (its stat matches but it was modified too close
 * to the index's own write to be sure: compare the content), or 'changed'.
 */
export function indexState(t: Tracked, te: TrackedEntry, e: Entry, rel: string): 'clean' | 'racy' | 'changed' {
  if (te.untrusted || !modeFits(te, !!(e.flags & F_LINK))) return 'changed';
  if (t.modified) return t.modified.has(rel) ? 'changed' : 'clean';
  const ie = te.stat!;
  if (ie.size !== e.size % TWO32) return 'changed';
  if (ie.ino !== 0 && ie.ino !== e.ino % TWO32) return 'changed';
  const mtime = ie.mtimeSec * 1000 + ie.mtimeNsec / 1e6;
  if (t.nsec ? Math.abs(e.mtime - mtime) >= 0.001 : Math.floor(e.mtime / 1000) !== ie.mtimeSec) return 'changed';
  // git for Windows stores the creation time as ctime; elsewhere a chmod or rename shows here.
  if (process.platform !== 'win32') {
    const ctime = ie.ctimeSec * 1000 + ie.ctimeNsec / 1e6;
    if (t.nsec ? Math.abs(e.ctime - ctime) >= 0.001 : Math.floor(e.ctime / 1000) !== ie.ctimeSec) return 'changed';
  }
  // Racily clean (git's rule): modified at or after the index was written.
  if (t.nsec ? mtime >= t.mtimeMs - 0.001 : ie.mtimeSec >= Math.floor(t.mtimeMs / 1000)) return 'racy';
  return 'clean';
}

/** Tracked paths under the state's root (for a walk in a git repository), from the index file or git. */
export function trackedPaths(state: Pick<ScanState, 'root' | 'git'>): Map<string, TrackedEntry> | null {
  if (!state.git) return null;
  return indexOf({ top: state.git.top, gitDir: state.git.gitDir, objectFormat: state.git.objectFormat }, state.root)?.entries ?? null;
}

export function newPeek(): Peek {
  return { size: 0, mtime: 0, ctime: 0, ino: 0, flags: 0, hasHash: false, hasGit: false };
}

/** Marks the entries whose git id is no longer the index's (F_NOGIT): we stat-check those ourselves. */
export function markGitIds(state: ScanState, tracked: Map<string, TrackedEntry>): boolean {
  let changed = false;
  const t = state.files;
  const pk = newPeek();
  const fixed = (rel: string, git: () => string | null, p: Peek): number => {
    if (!p.hasGit || p.hasHash) return p.flags;
    const te = tracked.get(rel);
    const ok = !!te && !te.untrusted && te.id === git();
    return ok ? p.flags & ~F_NOGIT : p.flags | F_NOGIT;
  };
  for (let i = 0; i < t.rows; i++) {
    if (!t.isLive(i)) continue;
    const f = fixed(t.pathAt(i), () => t.gitAt(i), t.peek(i, pk));
    if (f !== pk.flags) {
      t.setFlagsAt(i, f);
      changed = true;
    }
  }
  for (const [rel, e] of t.added()) {
    const f = fixed(rel, () => e.git, peekOf(e, pk));
    if (f !== e.flags) {
      e.flags = f;
      changed = true;
    }
  }
  return changed;
}
