// Where a repository is and how it is set up, and its HEAD (for git compensations), by asking git
// (read-only, through run.ts); `gitRoot` looks at the disk only.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { git } from './run';

/** What a git HEAD lookup found: the commit and the branch (null when detached or unborn). */
export interface HeadInfo {
  sha: string | null;
  branch: string | null;
}

/** The work-tree root of the git repository containing `p`, or null. Looks at the disk only. */
export function gitRoot(p: string): string | null {
  let dir = path.dirname(p);
  for (;;) {
    if (fs.existsSync(path.join(dir, '.git'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}

/** HEAD of the repository at `dir` (with git's location options), for a compensation; null when not a repository. */
export function gitHead(dir: string, globals: string[] = []): HeadInfo | null {
  const sym = git(dir, [...globals, 'symbolic-ref', '-q', '--short', 'HEAD'], { timeout: 3000 });
  if (sym.status !== 0 && sym.status !== 1) return null; // not a repository (128) or git missing
  const rev = git(dir, [...globals, 'rev-parse', '--verify', '-q', 'HEAD'], { timeout: 3000 });
  const sha = rev.status === 0 ? rev.stdout.toString('utf8').trim() || null : null;
  return { sha, branch: sym.status === 0 ? sym.stdout.toString('utf8').trim() || null : null };
}

export interface RepoInfo {
  /** The work-tree root. */
  top: string;
  gitDir: string;
  objectFormat: 'sha1' | 'sha256';
  /** End-of-line conversion or content filters are configured: blobs are not the work-tree bytes. */
  filters: boolean;
  /** The global excludes file (core.excludesFile, or git's default location). */
  excludesFile: string | null;
}

/** The repository `dir` is in, or null (not a repository, or git is missing). */
export function repoInfo(dir: string): RepoInfo | null {
  const r = git(dir, ['rev-parse', '--show-toplevel', '--absolute-git-dir', '--show-object-format'], { timeout: 5000 });
  if (r.status !== 0) return null;
  const [top, gitDir, fmt] = r.stdout.toString('utf8').split('\n');
  if (!top || !gitDir) return null;
  const cfg = git(dir, ['config', '-z', '--get-regexp', '^(core\\.autocrlf|core\\.eol|core\\.excludesfile|filter\\..*)$'], {
    timeout: 5000,
  });
  let filters = false;
  let excludesFile: string | null = null;
  if (cfg.status === 0) {
    for (const entry of cfg.stdout.toString('utf8').split('\0')) {
      if (!entry) continue;
      const nl = entry.indexOf('\n');
      const key = (nl < 0 ? entry : entry.slice(0, nl)).toLowerCase();
      const val = nl < 0 ? '' : entry.slice(nl + 1);
      if (key === 'core.excludesfile') excludesFile = val.startsWith('~/') ? path.join(os.homedir(), val.slice(2)) : val;
      else if (key === 'core.autocrlf') filters ||= val === 'true' || val === 'input';
      else if (key.startsWith('filter.')) filters = true;
      else if (key === 'core.eol') filters ||= val === 'crlf';
    }
  }
  if (!excludesFile) {
    const xdg = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
    excludesFile = path.join(xdg, 'git', 'ignore');
  }
  // Attributes can ask for conversions too (text/eol/filter/ident/working-tree-encoding).
  if (!filters) filters = fs.existsSync(path.join(gitDir, 'info', 'attributes'));
  return { top, gitDir, objectFormat: fmt === 'sha256' ? 'sha256' : 'sha1', filters, excludesFile };
}
