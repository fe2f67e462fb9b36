// Read-only questions to git, for the preview ("which affected files have uncommitted changes").
// We never run a git command that changes anything.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

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

/** Of `paths`, those with uncommitted changes (modified, staged or untracked) in their repository. */
export function uncommittedPaths(paths: readonly string[]): string[] {
  const byRoot = new Map<string, string[]>();
  for (const p of paths) {
    const root = gitRoot(p);
    if (!root) continue;
    let list = byRoot.get(root);
    if (!list) byRoot.set(root, (list = []));
    list.push(p);
  }
  const out: string[] = [];
  for (const [root, list] of byRoot) {
    let text: string;
    try {
      text = execFileSync(
        'git',
        ['-C', root, 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...list.map((p) => path.relative(root, p))],
        {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
          timeout: 10000,
        },
      );
    } catch {
      continue; // not a usable repository, or git missing: say nothing rather than guess
    }
    const entries = text.split('\0');
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i]!;
      if (e.length < 4) continue;
      const status = e.slice(0, 2);
      out.push(path.join(root, e.slice(3)));
      if (status[0] === 'R' || status[0] === 'C') i++; // the next entry is the rename source
    }
  }
  const wanted = new Set(paths);
  return out.filter((p) => wanted.has(p)).sort();
}
