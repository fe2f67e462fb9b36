// Which folder a session's working folder makes writable. Roots come from VS Code's folders, an
// explicit `--root`, or the session's folder — its git top-level when it is in a repository — but
// never a folder too broad to be a workspace (home, a parent of home, the temp folder, `/`): an
// agent started there must not make the whole home folder rewindable, nor have it copied. When the
// store knows which folders VS Code has open (`workspace-folders.json`, written by the extension), a
// session whose folder lies outside all of them (and outside every `--root`) records its file tools only.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { replaceFileIfChanged } from '../storeFiles/fsx';
import { gitRoot } from '../git/repo';
import { isInside, pathKey } from '../paths';
import { realDir } from './realPath';
import { STORE_FILE } from '../storeFiles/names';
import { readJsonFile } from '../storeFiles/jsonFile';

/** Why a folder is too broad to be a workspace root, or null when it is fine. Home and the temp folder count by name and by their real paths. */
export function tooBroadRoot(dir: string): string | null {
  const abs = path.resolve(dir);
  if (path.parse(abs).root === abs) return 'the root of the file system';
  const home = os.homedir();
  for (const h of home ? new Set([home, realDir(home)]) : [])
    if (isInside(h, abs)) return pathKey(h) === pathKey(abs) ? 'your home folder' : 'a folder that holds your home folder';
  const tmp = os.tmpdir();
  for (const t of new Set([tmp, realDir(tmp)])) if (isInside(t, abs)) return 'the temporary folder itself';
  return null;
}

/**
 * The folders VS Code has open, as its extension last wrote them; null when none are known (no file —
 * the CLI used without VS Code — or an unreadable one): then any folder may become a root, as always.
 */
export function readWorkspaceFolders(storeDir: string): string[] | null {
  const v = readJsonFile(path.join(storeDir, STORE_FILE.workspaceFolders)) as { folders?: unknown } | null | undefined;
  const folders = Array.isArray(v?.folders) ? v.folders.filter((f): f is string => typeof f === 'string' && path.isAbsolute(f)) : [];
  return folders.length ? folders : null;
}

/** Writes the open folders (a hook reads the old list or the new one). Returns false when unchanged. */
export function writeWorkspaceFolders(storeDir: string, folders: readonly string[]): boolean {
  return replaceFileIfChanged(path.join(storeDir, STORE_FILE.workspaceFolders), JSON.stringify({ folders }, null, 2) + '\n');
}

/** The folders a session's folder must lie in: VS Code's open folders plus the hook's `--root`s; null when VS Code's are unknown. */
export function allowedRoots(storeDir: string, explicit: readonly string[] = []): string[] | null {
  const folders = readWorkspaceFolders(storeDir);
  return folders ? [...folders, ...explicit] : null;
}

/** Why `cwd` may not take a root of its own (outside every allowed folder), or null when it may. */
export function outsideAllowed(cwd: string, allowed: readonly string[] | null): string | null {
  if (!allowed) return null;
  const abs = path.resolve(cwd);
  // By name, and by where the folders really are (VS Code may have opened a path through a symlink).
  if (allowed.some((r) => isInside(abs, r))) return null;
  const real = realDir(abs);
  if (allowed.some((r) => isInside(real, realDir(r)))) return null;
  return `${abs} is outside the folders open in VS Code (${allowed.join(', ')})`;
}

export type SessionRoot = { root: string } | { root: null; reason: string };

/** Folders of the system's own (kernel and device files): never a workspace, never scanned. */
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev'];

/** Why `real` (a real path) cannot be a working folder — missing, not a folder, a system folder — or null. */
function notAFolder(real: string | null, abs: string): string | null {
  if (real === null) return `${abs} does not exist`;
  if (process.platform !== 'win32' && SYSTEM_FOLDERS.some((s) => isInside(real, s))) return `${abs} is a system folder`;
  try {
    return fs.statSync(real).isDirectory() ? null : `${abs} is not a folder`;
  } catch {
    return `${abs} does not exist`;
  }
}

/**
 * The workspace root of an agent's working folder: its git top-level, else the folder itself, by their real
 * paths (a folder reached through a symlink is the folder it leads to) — unless missing, not a folder, a
 * system folder (/proc, /sys, /dev), too broad, or outside the `allowed` folders when those are known.
 */
export function sessionRoot(cwd: string, allowed: readonly string[] | null = null): SessionRoot {
  const given = path.resolve(cwd);
  let real: string | null;
  try {
    real = fs.realpathSync(given);
  } catch {
    real = null;
  }
  const bad = notAFolder(real, given);
  if (bad) return { root: null, reason: `${bad}, so it cannot be a workspace` };
  const abs = real!;
  const outside = outsideAllowed(abs, allowed);
  if (outside) return { root: null, reason: outside };
  const top = gitRoot(path.join(abs, 'x')); // gitRoot looks from the folder of its argument
  // A repository of the whole home folder (dotfiles) is no workspace: the folder itself is.
  if (top && !tooBroadRoot(top)) return { root: top };
  const broad = tooBroadRoot(abs);
  return broad ? { root: null, reason: `${abs} is ${broad}, too broad to be a workspace` } : { root: abs };
}
