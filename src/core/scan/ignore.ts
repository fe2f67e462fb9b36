// Which workspace paths shell capture leaves alone, with git's rules: nested `.gitignore` files
// (deeper files take precedence, negations work within a file), `.git/info/exclude`, the global
// excludes file, and our own `excludes` setting (which nothing can re-include). `.git` and
// `node_modules` folders are never entered. A `.gitignore` is read only when a path below it has to
// be tested (the scan skips the test for paths it already knows when no rule file changed).
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Folder names never scanned, whatever the rules say. */
export const ALWAYS_SKIP = new Set(['.git', 'node_modules', '.hg', '.svn', '.jj']);

export interface Matcher {
  /** Prepended to the path (relative to the scan root) before testing: for rule files above the root. */
  prefix: string;
  /** Characters cut from the start of the path: for rule files below the root (`dir/`). */
  strip: number;
  file?: string;
  patterns?: string[];
  ig?: Ignore | null;
}

function load(m: Matcher): Ignore | null {
  if (m.ig !== undefined) return m.ig;
  let text: string | null = null;
  if (m.patterns) text = m.patterns.join('\n');
  else if (m.file) {
    try {
      text = fs.readFileSync(m.file, 'utf8');
    } catch {
      text = null;
    }
  }
  m.ig = text && text.trim() ? ignore({ allowRelativePaths: true }).add(text) : null;
  return m.ig;
}

export interface RuleSources {
  /** The scan root (absolute). */
  root: string;
  /** The repository's work-tree root when the scan root is inside one. */
  repoTop?: string;
  gitDir?: string;
  excludesFile?: string | null;
  /** Our `excludes` setting (gitignore syntax, relative to the root). */
  excludes: readonly string[];
}

export interface Rules {
  /** Rules that apply to the whole root, lowest precedence first. */
  base: Matcher[];
  /** Our excludes: a match here is final. */
  forced: Matcher | null;
  /** Rule files outside the tree (for the "did a rule change?" check), with their stat keys. */
  baseFiles: string[];
}

export function rulesFor(src: RuleSources): Rules {
  const base: Matcher[] = [];
  const baseFiles: string[] = [];
  if (src.repoTop) {
    const rel = path.relative(src.repoTop, src.root).split(path.sep).join('/');
    const prefix = rel && !rel.startsWith('..') ? rel + '/' : '';
    if (src.excludesFile) {
      base.push({ prefix, strip: 0, file: src.excludesFile });
      baseFiles.push(src.excludesFile);
    }
    if (src.gitDir) {
      const f = path.join(src.gitDir, 'info', 'exclude');
      base.push({ prefix, strip: 0, file: f });
      baseFiles.push(f);
    }
    // .gitignore files between the repository root and the scan root.
    if (prefix) {
      const parts = rel.split('/');
      for (let i = 0; i < parts.length; i++) {
        const dir = path.join(src.repoTop, ...parts.slice(0, i));
        const f = path.join(dir, '.gitignore');
        base.push({ prefix: parts.slice(i).join('/') + '/', strip: 0, file: f });
        baseFiles.push(f);
      }
    }
  }
  const forced = src.excludes.length ? { prefix: '', strip: 0, patterns: [...src.excludes] } : null;
  return { base, forced, baseFiles };
}

/** A folder's own `.gitignore` as a matcher for the paths below it. */
export function dirMatcher(absDir: string, relDir: string): Matcher {
  return { prefix: '', strip: relDir ? relDir.length + 1 : 0, file: path.join(absDir, '.gitignore') };
}

/**
 * Is `rel` (relative to the scan root, `/`-separated) ignored? `stack` holds the matchers that
 * apply to its folder, lowest precedence first: the deepest file with a matching rule decides.
 */
export function isIgnored(rules: Rules, stack: readonly Matcher[], rel: string, isDir: boolean): boolean {
  const probe = isDir ? rel + '/' : rel;
  if (rules.forced) {
    const ig = load(rules.forced);
    if (ig && ig.test(probe).ignored) return true;
  }
  for (let i = stack.length - 1; i >= 0; i--) {
    const m = stack[i]!;
    const ig = load(m);
    if (!ig) continue;
    const p = m.prefix + probe.slice(m.strip);
    const r = ig.test(p);
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}

/** Is `rel` excluded by our own `excludes` setting (which applies even to files git tracks)? */
export function isForced(rules: Rules, rel: string, isDir: boolean): boolean {
  if (!rules.forced) return false;
  const ig = load(rules.forced);
  return !!ig && ig.test(isDir ? rel + '/' : rel).ignored;
}
