// One file write of a rewind and how it is done on the file system: atomically (temp file in the
// same folder, fsync, rename) or as a delete, with the folders a deletion empties removed again.
// What stands at a path is compared as a key (missing, a folder, a file's or a link's content and
// whether it is executable): the rewind reads it when it records what it overwrites, and again
// right before it writes that path.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { diskFact, type DiskFact } from '../workspace/disk';
import { fault } from '../faults';
import { replaceFile, writeFileAtomic } from '../storeFiles/fsx';
import type { Change } from '../timeline/changeSet';
import type { Origin, SnapRecord } from '../storeFiles/records';
import type { Store } from '../store';

export interface Write {
  path: string;
  action: Change['action'];
  /** What must be on disk right before we write (the pre-rewind hash); null = missing. */
  expect: string | null;
  /**
   * What stood at the path when the rewind recorded it (`diskKey`): re-read right before the path is
   * written; anything else there then (the user saved meanwhile) is left as it is. Absent in the
   * journals of older versions.
   */
  found?: string;
  /** What we write; null = delete. */
  to: string | null;
  link?: boolean;
  mode?: number;
  /** Folders to remove again after a delete, if empty (they did not exist at the target). */
  dirs?: string[];
  /** Folders a (re)creation will make (missing when the rewind began): removed again by a recovery that finds the file unwritten. */
  made?: string[];
  tmp: string;
  /** The provenance of the content written (carried by its `rewind` snapshot). */
  origin?: Origin;
  /** The content is not the target's but mixes it with the file's current lines: a three-way merge (keep mine) or chosen hunks. */
  mixed?: 'keep-mine' | 'hunks';
}

export function tmpNameFor(p: string, id: string): string {
  const base = path.basename(p);
  const name = `.${base}.agent-rewind-${id}.tmp`;
  return path.join(path.dirname(p), Buffer.byteLength(name) > 200 ? `.agent-rewind-${id}.tmp` : name);
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch {
    return null;
  }
}

/**
 * Can we write (create/replace/delete) `p`? The answer decides before anything is written. An
 * ancestor that is a file this rewind deletes (`deleting`, by identity key) is a folder to be made.
 */
export function preflight(w: Write, deleting: ReadonlySet<string> = new Set(), key: (p: string) => string = (p) => p): string | null {
  let dir = path.dirname(w.path);
  for (;;) {
    const st = lstatOrNull(dir);
    if (st?.isDirectory()) break;
    if (st && !deleting.has(key(dir))) return `a file stands where its folder should be: ${dir}`;
    const up = path.dirname(dir);
    if (up === dir) return 'no existing parent folder';
    dir = up;
  }
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    return `permission denied: cannot write in ${dir}`;
  }
  return null;
}

export function isFolder(p: string): boolean {
  return !!lstatOrNull(p)?.isDirectory();
}

/** The folders a (re)creation of `p` makes: its missing ancestors and those that are files now (which this rewind deletes first). */
export function foldersToMake(p: string): string[] {
  const out: string[] = [];
  for (let dir = path.dirname(p); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const st = lstatOrNull(dir);
    if (st?.isDirectory()) break;
    out.push(dir);
  }
  return out;
}

/** `folder`, `other` (a FIFO, a socket…), `missing`, `unknown` (unreadable, too large), or the content: `f:`/`x:` (executable)/`l:` and its hash. */
function keyOf(kind: DiskFact['kind'] | 'folder', hash: string | null | undefined, mode: number | undefined): string {
  if (kind === 'missing') return 'missing';
  if (kind === 'folder' || kind === 'other') return kind;
  if (kind === 'unreadable' || !hash) return 'unknown';
  if (kind === 'symlink') return `l:${hash}`;
  return `${mode !== undefined && mode & 0o111 ? 'x' : 'f'}:${hash}`;
}

/** A disk fact as a key (see keyOf): what the plan found at a path, compared under the lock with what a caller saw. */
export function factKey(f: DiskFact): string {
  return keyOf(f.kind, f.hash, f.mode);
}

/** What stands at `p` now, as a key (see keyOf). */
export function diskKey(store: Store, p: string): string {
  const f = diskFact(p, store.config().maxFileBytes);
  if (f.kind === 'other') return lstatOrNull(p)?.isDirectory() ? 'folder' : 'other';
  return keyOf(f.kind, f.hash, f.mode);
}

/** The key of what a snapshot recorded at `p` (null: it recorded nothing, a folder or a special file stood there). */
export function snapKey(s: SnapRecord | null, p: string): string {
  if (!s) return lstatOrNull(p)?.isDirectory() ? 'folder' : 'other';
  if (s.skipped) return 'unknown';
  if (s.hash === null) return 'missing';
  return keyOf(s.link ? 'symlink' : 'file', s.hash, s.mode);
}

/**
 * Removes the folder standing where a file is to be written, if it holds nothing but empty folders
 * (its recorded files were deleted by this rewind just before). Returns null when the path is clear,
 * or the first entry that is not a folder (something the rewind must not remove).
 */
export function clearFolder(p: string): string | null {
  const st = lstatOrNull(p);
  if (!st?.isDirectory()) return null;
  for (const e of fs.readdirSync(p, { withFileTypes: true })) {
    const child = path.join(p, e.name);
    if (!e.isDirectory()) return child;
    const left = clearFolder(child);
    if (left) return left;
  }
  fs.rmdirSync(p);
  return null;
}

/** The first entry under folder `p` (not a folder) that `removable` refuses, or null: every file in it is one the rewind deletes. */
export function folderKeeps(p: string, removable: (file: string) => boolean): string | null {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(p, { withFileTypes: true });
  } catch {
    return p;
  }
  for (const e of entries) {
    const child = path.join(p, e.name);
    const left = e.isDirectory() ? folderKeeps(child, removable) : removable(child) ? null : child;
    if (left) return left;
  }
  return null;
}

/** The hash of what is at `p` now (null = missing, `unknown` = too large or unreadable). */
export function hashOnDisk(store: Store, p: string): string | null {
  const f = diskFact(p, store.config().maxFileBytes);
  return f.kind === 'missing' ? null : (f.hash ?? 'unknown');
}

/**
 * Removes the folders that did not exist at the target and that the deletions emptied, deepest
 * first — after all of them, since one deletion may empty a folder another's list names.
 * A folder that is not empty (the user's files, or a file kept for a reason) stays. Verified like
 * content: a folder left behind empty (rmdir failed: permissions, a busy handle) is an error of
 * each deletion that named it, by path.
 */
export function removeEmptiedDirs(writes: readonly Write[]): Map<string, string> {
  const failed = removeEmptyDirs(writes.flatMap((w) => (w.to === null ? (w.dirs ?? []) : [])));
  const errors = new Map<string, string>();
  for (const w of writes) {
    const left = (w.dirs ?? []).filter((d) => failed.has(d));
    if (w.to === null && left.length)
      errors.set(w.path, `deleted, but its emptied folder ${left.map((d) => `${d} (${failed.get(d)})`).join(', ')} could not be removed`);
  }
  return errors;
}

/** Whether a folder removal that failed this way just found a folder that is to stay (not empty) or is gone. */
const KEPT_OR_GONE = new Set(['ENOTEMPTY', 'EEXIST', 'ENOENT', 'ENOTDIR']);

/**
 * rmdir each of `dirs` that is empty, deepest first (so a parent emptied by its child goes too).
 * Returns the empty folders that could not be removed, with why.
 */
export function removeEmptyDirs(dirs: Iterable<string>): Map<string, string> {
  const depth = (d: string) => d.split(/[\\/]/).length;
  const failed = new Map<string, string>();
  for (const d of [...new Set(dirs)].sort((a, b) => depth(b) - depth(a))) {
    try {
      fs.rmdirSync(d);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (!KEPT_OR_GONE.has(code)) failed.set(d, code || (e as Error).message);
    }
  }
  return failed;
}

/**
 * Writes one file atomically (temp in the same folder, fsync, rename), or deletes it. `recheck` (the
 * transaction's claim, asked again) runs right before the rename: a save that landed while the temp file
 * was written and fsynced keeps the path (the temp file goes, the claim recorded what the user saved).
 */
export function applyWriteFs(store: Store, w: Write, recheck: () => boolean = () => true): void {
  if (w.to === null) {
    try {
      fs.unlinkSync(w.path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    return; // its folders go in removeEmptiedDirs, once every deletion is done
  }
  const data = store.content(w.to);
  fs.mkdirSync(path.dirname(w.path), { recursive: true });
  // The temp file is the one the journal names (recovery removes it); the kill tests stop us just before the rename.
  const beforeRename = () => {
    fault('rewind.tmp');
    return recheck();
  };
  if (w.link) replaceFile(w.path, (tmp) => fs.symlinkSync(data.toString(), tmp), { tmp: w.tmp, beforeRename });
  else writeFileAtomic(w.path, data, { tmp: w.tmp, beforeRename, mode: w.mode ?? 0o644, exactMode: w.mode !== undefined, sync: true });
}
