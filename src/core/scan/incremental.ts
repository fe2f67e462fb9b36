// What is new since the last scan, without walking the tree: the folders whose stat changed
// listed again (`incremental`), or git's list of untracked files checked against our own rules
// (`fromGit`). Either says when the tree must be walked after all.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALWAYS_SKIP, isIgnored, type Matcher, type Rules } from './ignore';
import { dirStat, entryFromStat, listedEntry, lstat, reportSpecial, reportUnnameable, unlisted } from './entries';
import { folderFilter } from './gitAssist';
import type { DirStat, Entry } from './table';
import type { ScanLimits, ScanState } from './types';
import { matchersFor, Walker } from './walker';

export interface Incremental {
  /** New paths found in folders that changed, with their stat. */
  fresh: Map<string, Entry>;
  /** Folder stats to store (changed, new) and folders that are gone. */
  dirUpdates: Map<string, DirStat>;
  goneDirs: string[];
  newIgnoreFiles: Record<string, string>;
  listed: number;
  /** More files than the limit: the count reached. */
  tooMany?: number;
  /** The state's `gitCache` changed. */
  cacheChanged?: boolean;
}

/** Is `rel` `dir` or below it? */
export function under(rel: string, dir: string): boolean {
  return rel === dir || (rel.startsWith(dir) && rel.charCodeAt(dir.length) === 47); // '/'
}

/**
 * Lists only the folders whose stat changed (or was racy) — of every folder, or (`only`) of the
 * folders at or below the given ones. Null when the tree must be walked: a `.gitignore` appeared.
 * The caller has checked the rule files (`ruleFilesChanged`).
 */
export function incremental(
  state: ScanState,
  rules: Rules,
  limits: ScanLimits,
  scanStart: number,
  racyMs: number,
  only?: readonly string[],
  exact?: ReadonlySet<string>,
): Incremental | null {
  const base = state.root + path.sep;
  const changed: { rel: string; st: fs.Stats }[] = [];
  const goneDirs: string[] = [];
  const dirUpdates = new Map<string, DirStat>();
  const dt = state.dirs;
  const check = (rel: string, mtime: number, ctime: number, ino: number, wasRacy: boolean) => {
    if (only && !only.some((d) => under(rel, d))) return;
    const st = lstat(rel ? base + rel : state.root);
    if (!st || !st.isDirectory()) goneDirs.push(rel);
    else if (wasRacy || st.mtimeMs !== mtime || st.ctimeMs !== ctime || st.ino !== ino) changed.push({ rel, st });
  };
  if (exact) {
    // Narrowed by a file watcher (narrow.ts): only the folders it named (and the racy ones).
    for (const rel of exact) {
      const d = dt.get(rel);
      if (d) check(rel, d.mtime, d.ctime, d.ino, d.racy);
    }
  } else {
    for (let i = 0; i < dt.rows; i++) if (dt.isLive(i)) check(dt.pathAt(i), dt.mtimeAt(i), dt.ctimeAt(i), dt.inoAt(i), dt.racyAt(i));
    for (const [rel, d] of dt.added()) check(rel, d.mtime, d.ctime, d.ino, d.racy);
  }
  const fresh = new Map<string, Entry>();
  const newIgnoreFiles: Record<string, string> = {};
  const out: Incremental = { fresh, dirUpdates, goneDirs, newIgnoreFiles, listed: changed.length };
  if (changed.length === 0) return out;
  const skip = new Set(limits.skipAbs);
  let count = state.files.size;
  for (const { rel, st } of changed) {
    const abs = rel ? base + rel : state.root;
    let ents: fs.Dirent[];
    try {
      ents = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      continue; // gone meanwhile: its files are found missing
    }
    dirUpdates.set(rel, dirStat(st, scanStart, racyMs));
    let matchers: Matcher[] | null = null;
    for (const e of ents) {
      const name = e.name;
      const crel = rel ? `${rel}/${name}` : name;
      const cabs = path.join(abs, name);
      let isDir = e.isDirectory();
      let isFile = e.isFile() || e.isSymbolicLink();
      let cst: fs.Stats | undefined;
      if (!isDir && !isFile && !e.isFIFO() && !e.isSocket() && !e.isBlockDevice() && !e.isCharacterDevice()) {
        cst = lstat(cabs);
        if (!cst) {
          reportUnnameable(limits, crel, cabs);
          continue;
        }
        isDir = cst.isDirectory();
        isFile = cst.isFile() || cst.isSymbolicLink();
      }
      const special = !isDir && !isFile;
      if (isFile && name === '.gitignore' && state.ignoreFiles[crel] === undefined) return null; // a new rule file
      if (isDir ? state.dirs.has(crel) : state.files.has(crel)) continue; // known: checked by its own stat
      if (isDir && (ALWAYS_SKIP.has(name) || skip.has(cabs))) continue;
      matchers ??= matchersFor(state, rules, rel);
      if (isIgnored(rules, matchers, crel, isDir)) continue;
      if (special) {
        reportSpecial(limits, crel);
        continue;
      }
      if (isDir) {
        // A new folder: walk it whole (its own `.gitignore` files included).
        const w = new Walker(rules, limits, null, { scanStart, racyMs }, count);
        w.walk({ abs: cabs, rel: crel, matchers, dirty: true });
        if (w.tooMany) return { ...out, tooMany: w.count };
        count = w.count;
        for (const [p, s] of w.files) fresh.set(p, s);
        for (const [p, s] of w.dirs) dirUpdates.set(p, s);
        Object.assign(newIgnoreFiles, w.ignoreFiles);
        continue;
      }
      cst ??= lstat(cabs);
      if (!cst) reportUnnameable(limits, crel, cabs);
      if (!cst || !(cst.isFile() || cst.isSymbolicLink())) continue;
      fresh.set(crel, entryFromStat(cst, scanStart, racyMs));
      if (++count > limits.maxFiles) return { ...out, tooMany: count };
    }
  }
  return out;
}

/**
 * The scan's new files from git's untracked list (and the watched tracked paths), checked against
 * our own rules; folders git does not look into for us (submodules, nested repositories) get our
 * own folder check. Null when the tree must be walked: a `.gitignore` or a nested repository appeared.
 */
export function fromGit(
  state: ScanState,
  rules: Rules,
  limits: ScanLimits,
  untracked: readonly string[],
  scanStart: number,
  racyMs: number,
): Incremental | null {
  const cache = state.gitCache!;
  const base = state.root + path.sep;
  const fresh = new Map<string, Entry>();
  const dirUpdates = new Map<string, DirStat>();
  const out: Incremental = { fresh, dirUpdates, goneDirs: [], newIgnoreFiles: {}, listed: 0 };
  const foreign = [...cache.gitlinks];
  const folderIn = folderFilter(state, rules, limits, { known: state.dirs });
  let count = state.files.size;
  const skipped: string[] = [];
  // A watched path is tracked: never ignored (git's rule), our own exclusions were applied when it was added.
  const consider = (rel: string, watched: boolean) => {
    if (state.files.has(rel) || fresh.has(rel)) return true;
    const slash = rel.lastIndexOf('/');
    const dir = slash < 0 ? '' : rel.slice(0, slash);
    if (!watched && !folderIn(dir)) return true;
    if (rel.slice(slash + 1) === '.gitignore' && state.ignoreFiles[rel] === undefined && lstat(base + rel)) return false; // a new rule file
    if (!watched && isIgnored(rules, matchersFor(state, rules, dir), rel, false)) return true;
    const e = listedEntry(base, rel, scanStart, racyMs, watched ? undefined : skipped);
    if (!e) return true;
    fresh.set(rel, e);
    for (let d = dir; d !== '' && !state.dirs.has(d) && !dirUpdates.has(d); d = d.slice(0, Math.max(0, d.lastIndexOf('/'))))
      dirUpdates.set(d, unlisted());
    return ++count <= limits.maxFiles;
  };
  for (const rel of untracked) {
    if (rel.endsWith('/')) {
      const dir = rel.slice(0, -1);
      if (!folderIn(dir)) continue;
      if (!state.dirs.has(dir)) return null; // a nested repository appeared: walk
      foreign.push(dir);
      continue;
    }
    if (!consider(rel, false)) return count > limits.maxFiles ? { ...out, tooMany: count } : null;
  }
  for (const rel of cache.watch) if (!consider(rel, true)) return count > limits.maxFiles ? { ...out, tooMany: count } : null;
  // git lists them at every scan: each is said once.
  const said = new Set(cache.skipped ?? []);
  for (const rel of skipped) if (!said.has(rel)) reportUnnameable(limits, rel);
  if (skipped.length !== said.size || skipped.some((r) => !said.has(r))) {
    state.gitCache = { ...cache, skipped };
    out.cacheChanged = true;
  }
  if (foreign.length) {
    const own = incremental(state, rules, limits, scanStart, racyMs, foreign);
    if (!own || own.tooMany !== undefined) return own;
    for (const [p, e] of own.fresh) {
      if (!fresh.has(p) && ++count > limits.maxFiles) return { ...out, tooMany: count };
      fresh.set(p, e);
    }
    for (const [p, d] of own.dirUpdates) dirUpdates.set(p, d);
    out.goneDirs.push(...own.goneDirs);
    Object.assign(out.newIgnoreFiles, own.newIgnoreFiles);
    out.listed = own.listed;
  }
  return out;
}
