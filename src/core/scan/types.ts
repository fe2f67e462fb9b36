// The workspace scan behind shell capture: the scan state, its limits and options,
// a scan's result, and the flags of a file entry. How the scan works, for the whole folder:
//
// The scan state (`<store>/scan/<session>.scan`, written atomically; format in stateFile.ts) holds
// every file of the workspace that is not ignored with its stat (size, mtime, ctime, inode, mode)
// and where its content can be found: a blob in our store (sha256) or, for a file that was clean in
// git when we looked, its git blob id — git already stores that content, so we copy it out (`git
// cat-file --batch`) only when a command changes the file. It also holds every folder with its
// stat.
//
// A scan stats every known file and every known folder. Only folders whose stat changed are
// listed again (creating, deleting or renaming an entry changes its folder's mtime — POSIX, and
// what git's untracked cache relies on; checked once per session where we can, see
// `dirTimesWork`), and only files whose stat changed are read — or whose stat was taken so close
// to a write that the file system's timestamp granularity could hide a second one ("racy"
// entries, as git calls them; racy folders are listed again too). When a rule file (`.gitignore`,
// info/exclude, the global excludes file) changed, or a `.gitignore` appeared, the scan walks the
// whole tree again.
//
// In a git repository git does most of that natively (`startGitAssist`): `git status` against our
// own copy of the index (`<session>.index`, never the repository's), where git keeps its
// untracked cache, stat-checks the tracked files with threads and lists untracked files looking
// only into folders whose stat changed. We then stat only what git cannot vouch for (files we
// hold by our own hash: dirty, untracked, racy) and the new files it lists, filtered by our own
// rules; folders inside submodules and nested repositories still get our own folder check. The
// hook starts that git process as soon as it knows the session (`prefetchScan`), so git runs
// while the hook loads the state. Where the index cannot be copied and read by us, `git
// diff-files` vouches for the tracked files and we check every folder ourselves.
//
// The baseline (the first state of a session) walks the tree once; in a git repository it reads
// the index file (core/gitIndex.ts; `git ls-files` + `git diff-files` when it cannot) and takes
// the blob id of every tracked file whose stat matches its index entry, as git's own stat check
// would. Tracked files are never ignored (git's rule); our `excludes` setting applies to them too.
//
// Content copied into the store by a scan is written without fsync (most of it is never needed);
// before a timeline line refers to such a blob it is re-verified and fsynced (`durableBlob`).
//
// The folder, from the bottom up:
//   types.ts        this: state, limits, options, results, entry flags
//   table.ts        the in-memory tables of a state's files and folders
//   stateFile.ts    the state file and the files beside it
//   entries.ts      entries from a stat or an index entry, stat comparisons, stat helpers (`dirTimesWork`)
//   walker.ts       walking the tree; rule files
//   tracked.ts      the git index's tracked files, clean or not
//   gitAssist.ts    git's help: status on our index copy (`startGitAssist`, `prefetchScan`)
//   incremental.ts  what is new since the last scan: changed folders listed, or git's untracked list
//   rescan.ts       the scan of a command's changes (`rescan`)
//   baseline.ts     a session's first state (`baseline`), pending copies
//   references.ts   blobs without fsync (`quickPut`, `durableBlob`); blobs the states refer to (for gc)
import type { RepoInfo } from '../git/repo';
import type { DirTable, Entry, FileTable } from './table';

/** Entries whose mtime/ctime is this close to the scan are re-read next time (timestamp granularity). */
export const RACY_MS = 2000;

export const F_LINK = 1;
export const F_LARGE = 2;
/** Content not captured yet (baseline copy still to do). */
export const F_PENDING = 4;
export const F_RACY = 8;
/** Stat taken from git's index (git's stat check vouched for the file): mode is git's, size and inode 32 bits. */
export const F_GITSTAT = 16;
/** The git id is no longer the index's: the file is stat-checked by us, not by `git diff-files`. */
export const F_NOGIT = 32;

export interface ScanState {
  v: 2;
  root: string;
  session: string;
  created: number;
  /** When the last scan started (ms). */
  scanned: number;
  git: Pick<RepoInfo, 'top' | 'gitDir' | 'objectFormat' | 'filters' | 'excludesFile'> | null;
  /** Capture is off for this session: why, and what to do about it. */
  off?: { reason: 'too-many-files'; files: number; limit: number; message: string };
  /** A shell call between its PreToolUse scan and its PostToolUse scan. */
  pending?: {
    call: string;
    tool: string;
    time: number;
    session: string;
    /** The log's size when the call started: what was appended since (a rewind's writes) is read from here. */
    log?: number;
  };
  /** Folder mtimes change when entries are added or removed: scans list only folders that changed. */
  dirTimes: boolean;
  /** Stat key of the git index our entries' git ids were checked against (see `gitAssist`). */
  indexKey?: string;
  /**
   * Our copy of the git index (`<session>.index`), where `git status` keeps its untracked cache:
   * the index's stat key when copied, the submodules under the root (git does not look inside
   * them for us), and tracked paths that are not in `files` (gone, or left out when copied) —
   * git would not tell us when one comes back as it was committed, so we stat them ourselves.
   * `skipped`: untracked names git lists that are not valid UTF-8 (said once, not at every scan).
   */
  gitCache?: { key: string; gitlinks: string[]; watch: string[]; skipped?: string[] };
  /** Entries pending a copy when the state was loaded (lets a scan skip the search). */
  pendingAtLoad?: number;
  /**
   * The id of the state file the tables were loaded from, when a save may write only what changed since
   * (`<session>.journal`, see stateFile.ts); absent for a state built anew, or loaded from a file without one.
   */
  journalBase?: string;
  files: FileTable;
  /** Every folder scanned (relative path; `''` is the root). */
  dirs: DirTable;
  /** `.gitignore` files met in the tree (relative path → stat key), and the rule files above it. */
  ignoreFiles: Record<string, string>;
}

export interface ScanLimits {
  maxFiles: number;
  maxFileBytes: number;
  excludes: readonly string[];
  /** Never scanned (the store itself, when it lives inside the workspace). */
  skipAbs: readonly string[];
  /** Told about entries the scan has to leave out (names that are not valid UTF-8). */
  report?: (message: string) => void;
  /** Told about each entry the scan cannot record (`rel`: relative to the root, as the scan got its name). */
  unrecordable?: (rel: string, reason: 'name-encoding' | 'path-length' | 'special-file') => void;
}

export interface Change {
  path: string; // relative to the root, `/`-separated
  before: Entry | null;
  after: Entry | null;
  /** The new content (for `after`), already read. */
  data?: Buffer | null;
}

export interface ScanResult {
  changes: Change[];
  /** Paths whose content had to be read (stat changed, racy, or new). */
  read: number;
  /** Paths we stat'ed ourselves (the others git's stat check vouched for). */
  statted: number;
  files: number;
  /** Folders listed (all of them when the scan walked the tree). */
  listed: number;
  /** The scan walked the whole tree (a rule file changed, or folder times cannot be trusted). */
  walked: boolean;
  /** git's stat check stood in for ours on clean tracked files. */
  git: boolean;
  /** git listed the untracked files from its untracked cache: no folder checks of ours (but submodules'). */
  cached: boolean;
  /** A file watcher narrowed the scan to the paths it named. */
  narrowed?: boolean;
  /** Narrowed: the folders (relative) the watcher did not cover, each scanned alone. */
  alone?: string[];
  /** Narrowed: how many folders it enters the watcher does not cover (scanned alone, or named as moved). */
  uncovered?: number;
  /** The state changed and must be saved. */
  dirty: boolean;
  /** The folders known before this scan (to tell which folders a command created). */
  prevDirs: { has(rel: string): boolean };
  tooMany?: { count: number };
}

/** From a file watcher that vouches for the root: every path (absolute) that may have changed since the state's last scan began. */
export interface WatchedChanges {
  paths: ReadonlySet<string>;
  /** Is this folder (absolute) watched? */
  covers(dir: string): boolean;
  /** Changes whenever the set of watched folders does: which of a state's folders `covers` may be remembered until then. */
  coverage?: number;
}

export interface ScanOptions {
  storeDir: string;
  limits: ScanLimits;
  /** Content of new and changed files is stored (quickPut) so a later command's `before` can use it. */
  storeContent: boolean;
  /** New paths whose ctime is older than this existed before (e.g. a rule stopped ignoring them): not created now. */
  existedBefore?: number;
  /** The timestamp-granularity window (default RACY_MS; tests use less). */
  racyMs?: number;
  /** Let `git diff-files` check the clean tracked files (default true; false: every file by our own stat). */
  useGit?: boolean;
  /** A file watcher vouches: look only where it says (narrow.ts); absent, the whole tree as always. */
  changed?: WatchedChanges;
}
