// Walking the workspace tree: every file that is not ignored with its stat, every folder with its
// stat (the `Walker`, used whole by `walk` and for new folders by the other scans), and the rule
// files that decide what is ignored (the state's rules, the matchers of a folder, changed rule files).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALWAYS_SKIP, dirMatcher, isForced, isIgnored, type Matcher, type Rules, rulesFor } from './ignore';
import { dirStat, entryFromStat, lstat, reportSpecial, reportUnnameable, ruleKey } from './entries';
import type { DirStat, Entry } from './table';
import { F_LINK, RACY_MS, type ScanLimits, type ScanState } from './types';

export interface Walked {
  /** Every file found, by its stat (`hash`/`git` null unless adopted from git's index). */
  files: Map<string, Entry>;
  dirs: Map<string, DirStat>;
  ignoreFiles: Record<string, string>;
  tooMany: boolean;
  count: number;
}

export interface WalkOptions {
  /** Tracked paths (relative to the root): never ignored, and the folders above them are entered. */
  tracked?: { has(rel: string): boolean; keys(): Iterable<string> } | null;
  /** The entry of a file git vouches for (clean in its index): no lstat of ours. */
  adopt?: ((rel: string) => Entry | null) | null;
  scanStart?: number;
  racyMs?: number;
}

export type Prev = Pick<ScanState, 'files' | 'dirs' | 'ignoreFiles'> | null;

interface WalkStart {
  abs: string;
  rel: string;
  matchers: Matcher[];
  dirty: boolean;
}

export function ancestorsOf(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) {
      const d = p.slice(0, i);
      if (out.has(d)) break;
      out.add(d);
    }
  }
  return out;
}

export class Walker {
  readonly files = new Map<string, Entry>();
  readonly dirs = new Map<string, DirStat>();
  readonly ignoreFiles: Record<string, string> = {};
  count = 0;
  tooMany = false;
  private readonly skip: Set<string>;
  private readonly tracked: WalkOptions['tracked'];
  private readonly trackedDirs: Set<string> | null;
  private readonly adopt: WalkOptions['adopt'];
  private readonly scanStart: number;
  private readonly racyMs: number;

  constructor(
    private readonly rules: Rules,
    private readonly limits: ScanLimits,
    private readonly prev: Prev,
    opts: WalkOptions,
    countFrom = 0,
  ) {
    this.skip = new Set(limits.skipAbs);
    this.tracked = opts.tracked ?? null;
    this.trackedDirs = this.tracked ? ancestorsOf(this.tracked.keys()) : null;
    this.adopt = opts.adopt ?? null;
    this.scanStart = opts.scanStart ?? Date.now();
    this.racyMs = opts.racyMs ?? RACY_MS;
    this.count = countFrom;
  }

  /** Is this path out of the scan (ignored, or excluded by our settings)? */
  private ignored(matchers: Matcher[], rel: string, isDir: boolean, dirty: boolean): boolean {
    if (isDir ? this.trackedDirs?.has(rel) : this.tracked?.has(rel)) return isForced(this.rules, rel, isDir);
    if (!dirty && (isDir ? this.prev?.dirs.has(rel) : this.prev?.files.has(rel))) return false;
    return isIgnored(this.rules, matchers, rel, isDir);
  }

  walk(start: WalkStart): void {
    const stack: WalkStart[] = [start];
    while (stack.length && !this.tooMany) {
      const d = stack.pop()!;
      // The folder's stat before its listing: an entry added after it changes the mtime again.
      const dst = lstat(d.abs);
      if (!dst || !dst.isDirectory()) {
        if (!dst) reportUnnameable(this.limits, d.rel, d.abs);
        continue;
      }
      let ents: fs.Dirent[];
      try {
        ents = fs.readdirSync(d.abs, { withFileTypes: true });
      } catch {
        continue;
      }
      this.dirs.set(d.rel, dirStat(dst, this.scanStart, this.racyMs));
      let matchers = d.matchers;
      let dirty = d.dirty;
      const giRel = d.rel ? `${d.rel}/.gitignore` : '.gitignore';
      const gi = ents.find((e) => e.name === '.gitignore' && (e.isFile() || e.isSymbolicLink()));
      if (gi) {
        const key = ruleKey(path.join(d.abs, '.gitignore'));
        this.ignoreFiles[giRel] = key;
        if (this.prev && this.prev.ignoreFiles[giRel] !== key) dirty = true;
        matchers = [...matchers, dirMatcher(d.abs, d.rel)];
      } else if (this.prev && this.prev.ignoreFiles[giRel] !== undefined) dirty = true;
      const dirAbs = d.abs.endsWith(path.sep) ? d.abs : d.abs + path.sep;
      for (const e of ents) {
        const name = e.name;
        const rel = d.rel ? `${d.rel}/${name}` : name;
        const abs = dirAbs + name;
        let isDir = e.isDirectory();
        let isFile = e.isFile() || e.isSymbolicLink();
        let st: fs.Stats | undefined;
        if (!isDir && !isFile && !e.isFIFO() && !e.isSocket() && !e.isBlockDevice() && !e.isCharacterDevice()) {
          st = lstat(abs); // file systems that do not report types
          if (!st) {
            reportUnnameable(this.limits, rel, abs);
            continue;
          }
          isDir = st.isDirectory();
          isFile = st.isFile() || st.isSymbolicLink();
        }
        if (isDir) {
          if (ALWAYS_SKIP.has(name) || this.skip.has(abs)) continue;
          if (this.ignored(matchers, rel, true, dirty)) continue;
          stack.push({ abs, rel, matchers, dirty });
          continue;
        }
        if (this.ignored(matchers, rel, false, dirty)) continue;
        if (!isFile) {
          reportSpecial(this.limits, rel);
          continue;
        }
        let entry = !st && this.adopt ? this.adopt(rel) : null;
        if (entry && !!(entry.flags & F_LINK) !== e.isSymbolicLink()) entry = null;
        if (!entry) {
          st ??= lstat(abs);
          if (!st) reportUnnameable(this.limits, rel, abs);
          if (!st || !(st.isFile() || st.isSymbolicLink())) continue;
          entry = entryFromStat(st, this.scanStart, this.racyMs);
        }
        if (++this.count > this.limits.maxFiles) {
          this.tooMany = true;
          return;
        }
        this.files.set(rel, entry);
      }
    }
  }

  result(): Walked {
    return { files: this.files, dirs: this.dirs, ignoreFiles: this.ignoreFiles, tooMany: this.tooMany, count: this.count };
  }
}

/** The rule files above the tree, with their stat keys; `changed` when one differs from `prev`. */
export function baseRuleFiles(rules: Rules, prev: Prev): { keys: Record<string, string>; changed: boolean } {
  const keys: Record<string, string> = {};
  let changed = false;
  for (const f of rules.baseFiles) {
    const key = ruleKey(f);
    keys[`<${f}>`] = key;
    if (prev && prev.ignoreFiles[`<${f}>`] !== key) changed = true;
  }
  return { keys, changed };
}

/**
 * Every file under `root` that is not ignored, with its stat, and every folder with its stat.
 * Ignore rules are tested only for paths `prev` does not know, unless a rule file changed above
 * them; `tracked` paths are never ignored (only our excludes apply to them).
 */
export function walk(root: string, rules: Rules, limits: ScanLimits, prev: Prev, opts: WalkOptions = {}): Walked {
  const base = baseRuleFiles(rules, prev);
  const w = new Walker(rules, limits, prev, opts);
  Object.assign(w.ignoreFiles, base.keys);
  w.walk({ abs: root, rel: '', matchers: rules.base, dirty: !prev || base.changed });
  return w.result();
}

/** Builds the ignore rules of a state's root. */
export function rulesOfState(s: Pick<ScanState, 'root' | 'git'>, limits: ScanLimits): Rules {
  return rulesFor({
    root: s.root,
    ...(s.git ? { repoTop: s.git.top, gitDir: s.git.gitDir, excludesFile: s.git.excludesFile } : {}),
    excludes: limits.excludes,
  });
}

/** The matchers that apply to paths in folder `rel`: the rules above the tree, then every `.gitignore` on the way down. */
export function matchersFor(state: ScanState, rules: Rules, rel: string): Matcher[] {
  const out = [...rules.base];
  const parts = rel ? rel.split('/') : [];
  for (let i = 0; i <= parts.length; i++) {
    const d = parts.slice(0, i).join('/');
    if (state.ignoreFiles[d ? `${d}/.gitignore` : '.gitignore'] !== undefined)
      out.push(dirMatcher(path.join(state.root, ...parts.slice(0, i)), d));
  }
  return out;
}

/** A rule file changed, appeared or went away: the tree must be walked again. */
export function ruleFilesChanged(state: ScanState): boolean {
  for (const [k, key] of Object.entries(state.ignoreFiles)) {
    const f = k.startsWith('<') ? k.slice(1, -1) : path.join(state.root, ...k.split('/'));
    if (ruleKey(f) !== key) return true;
  }
  return false;
}
