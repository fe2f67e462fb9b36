// What git says about the work tree: which tracked files may differ from the index, the index
// entries, a status against our own index copy (shell capture), and which paths have uncommitted
// changes (the preview's note). All read-only (run.ts), the status on our copy writes only that copy.
import * as path from 'node:path';
import { git, gitAsync, type PendingGit, startGit } from './run';
import { gitRoot } from './repo';

export interface IndexEntry {
  mode: string;
  id: string;
  /** The work tree may differ from the index without git's stat check noticing (assume-unchanged, skip-worktree) or the entry is conflicted. */
  untrusted: boolean;
}

/** The index entries under `dir` (paths relative to `dir`, `/`-separated). */
export function indexEntries(dir: string): Map<string, IndexEntry> | null {
  const r = git(dir, ['ls-files', '-z', '-s', '-v'], { timeout: 20000 });
  if (r.status !== 0) return null;
  const out = new Map<string, IndexEntry>();
  const text = r.stdout.toString('utf8');
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\0', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    // "<tag> <mode> <id> <stage>\t<path>"
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const [tag, mode, id, stage] = line.slice(0, tab).split(' ');
    const p = line.slice(tab + 1);
    if (!tag || !mode || !id) continue;
    const untrusted = stage !== '0' || tag !== 'H' || out.has(p);
    out.set(p, { mode, id, untrusted });
  }
  return out;
}

const DIFF_FILES = ['diff-files', '-z', '--name-only', '--relative', '--ignore-submodules=all'];

function nameSet(out: Buffer): Set<string> {
  return new Set(out.toString('utf8').split('\0').filter(Boolean));
}

/** Tracked paths under `dir` whose work-tree file may differ from the index (git's stat check; false positives are fine). */
export function modifiedTracked(dir: string): Set<string> | null {
  const r = git(dir, DIFF_FILES, { timeout: 20000 });
  return r.status === 0 ? nameSet(r.stdout) : null;
}

/** `modifiedTracked`, started now and collected later (see `startGit`). */
export function startModifiedTracked(dir: string, tmpDir: string): PendingGit<Set<string>> {
  return startGit(dir, DIFF_FILES, tmpDir, nameSet);
}

export interface CachedStatus {
  /** Tracked paths whose work-tree file may differ from the index (or is gone). */
  modified: Set<string>;
  /** Untracked files, and (ending in `/`) folders git does not enter: nested repositories. */
  untracked: string[];
}

/**
 * `git status` of the whole work tree `dir` is in, against `indexFile`, a copy of the repository's index
 * that only we use: git refreshes its stat data and keeps its untracked cache there (folder stats,
 * so unchanged folders are not listed again), so a scan costs a fraction of a plain `git status`.
 * Paths are relative to the repository root. The real index is not read or written; this is the
 * one git call that writes (our copy), so it runs without GIT_OPTIONAL_LOCKS=0.
 */
export function startCachedStatus(dir: string, indexFile: string, tmpDir: string): PendingGit<CachedStatus> {
  const args = [
    // The cache is used only with the untracked-files mode it was made for; never a split or
    // sparse index (a split one would put its shared part in the repository), nor an fsmonitor.
    ...[
      '-c',
      'core.untrackedCache=true',
      '-c',
      'status.showUntrackedFiles=all',
      '-c',
      'core.splitIndex=false',
      '-c',
      'index.sparse=false',
      '-c',
      'core.fsmonitor=false',
    ],
    // No pathspec: git does not use the untracked cache with one.
    ...['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=all', '--no-renames'],
  ];
  return startGit(
    dir,
    args,
    tmpDir,
    (out) => {
      const modified = new Set<string>();
      const untracked: string[] = [];
      for (const e of out.toString('utf8').split('\0')) {
        if (e.length < 4) continue;
        const p = e.slice(3);
        if (e.startsWith('??')) untracked.push(p);
        else if (e[1] !== ' ' || e[0] === 'U') modified.add(p);
      }
      return { modified, untracked };
    },
    indexFile,
  );
}

const STATUS_ARGS = ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--'];

function uncommittedIn(root: string, text: string, wanted: ReadonlySet<string>, out: string[]): void {
  const entries = text.split('\0');
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (e.length < 4) continue;
    const status = e.slice(0, 2);
    const p = path.join(root, e.slice(3));
    if (wanted.has(p)) out.push(p);
    if (status[0] === 'R' || status[0] === 'C') i++; // the next entry is the rename source
  }
}

function byRoot(paths: readonly string[]): Map<string, string[]> {
  const m = new Map<string, string[]>();
  // One look up the folders per folder, not per path (a plan lists thousands of files in a few folders).
  const rootOf = new Map<string, string | null>();
  for (const p of paths) {
    const dir = path.dirname(p);
    let root = rootOf.get(dir);
    if (root === undefined) rootOf.set(dir, (root = gitRoot(p)));
    if (!root) continue;
    let list = m.get(root);
    if (!list) m.set(root, (list = []));
    list.push(p);
  }
  return m;
}

/** Of `paths`, those with uncommitted changes (modified, staged or untracked) in their repository. */
export function uncommittedPaths(paths: readonly string[]): string[] {
  const wanted = new Set(paths);
  const out: string[] = [];
  for (const [root, list] of byRoot(paths)) {
    const r = git(root, [...STATUS_ARGS, ...list.map((p) => path.relative(root, p))], { timeout: 10000 });
    // Not a usable repository, or git missing: say nothing rather than guess.
    if (r.status === 0) uncommittedIn(root, r.stdout.toString('utf8'), wanted, out);
  }
  return out.sort();
}

/** `uncommittedPaths` without blocking: for the extension host. */
export async function uncommittedPathsAsync(paths: readonly string[]): Promise<string[]> {
  const wanted = new Set(paths);
  const out: string[] = [];
  for (const [root, list] of byRoot(paths)) {
    const r = await gitAsync(root, [...STATUS_ARGS, ...list.map((p) => path.relative(root, p))], { timeout: 10000 });
    if (r.status === 0) uncommittedIn(root, r.stdout.toString('utf8'), wanted, out);
  }
  return out.sort();
}
