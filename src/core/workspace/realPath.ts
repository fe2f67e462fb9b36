// Where a path really is. A workspace reached through a symlink (the agent's working folder, a `--root`,
// a folder VS Code opened through a link) and the same folder by its real path are one workspace: every
// folder and every recorded path is kept in one canonical form, the real path of its folder (the last
// name is kept as it is, so a symlink file is recorded as the link it is).
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The real path of `dir`, or of its nearest existing ancestor joined with the rest (a path still to be made); null when a look fails otherwise (EACCES). */
export function realExistingDir(dir: string): string | null {
  for (let d = dir, rest = ''; ;) {
    try {
      return path.join(fs.realpathSync(d), rest);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return null;
      const up = path.dirname(d);
      if (up === d) return null;
      rest = path.join(path.basename(d), rest);
      d = up;
    }
  }
}

/** A folder in its canonical form: its real path (see realExistingDir), or itself when that cannot be known. */
export function realDir(dir: string): string {
  const r = realExistingDir(dir);
  return r === null ? dir : r.length > 1 && r.endsWith(path.sep) ? r.slice(0, -1) : r;
}

/** A file's path in its canonical form: its folder's real path and its own name. */
export function realFilePath(p: string): string {
  const dir = path.dirname(p);
  return dir === p ? p : path.join(realDir(dir), path.basename(p));
}
