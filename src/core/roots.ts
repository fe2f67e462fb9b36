// Which folder a session's working folder makes writable. Roots come from VS Code's folders, an
// explicit `--root`, or the session's folder — its git top-level when it is in a repository — but
// never a folder too broad to be a workspace (home, a parent of home, the temp folder, `/`): an
// agent started there must not make the whole home folder rewindable, nor have it copied.
import * as os from 'node:os';
import * as path from 'node:path';
import { gitRoot } from './git/repo';
import { isInside, pathKey } from './paths';

/** Why a folder is too broad to be a workspace root, or null when it is fine. */
export function tooBroadRoot(dir: string): string | null {
  const abs = path.resolve(dir);
  if (path.parse(abs).root === abs) return 'the root of the file system';
  const home = os.homedir();
  if (home && isInside(home, abs)) return pathKey(home) === pathKey(abs) ? 'your home folder' : 'a folder that holds your home folder';
  const tmp = os.tmpdir();
  if (isInside(tmp, abs)) return 'the temporary folder itself';
  return null;
}

export type SessionRoot = { root: string } | { root: null; reason: string };

/** The workspace root of an agent's working folder: its git top-level, else the folder itself — unless too broad. */
export function sessionRoot(cwd: string): SessionRoot {
  const abs = path.resolve(cwd);
  const top = gitRoot(path.join(abs, 'x')); // gitRoot looks from the folder of its argument
  // A repository of the whole home folder (dotfiles) is no workspace: the folder itself is.
  if (top && !tooBroadRoot(top)) return { root: top };
  const broad = tooBroadRoot(abs);
  return broad ? { root: null, reason: `${abs} is ${broad}, too broad to be a workspace` } : { root: abs };
}
