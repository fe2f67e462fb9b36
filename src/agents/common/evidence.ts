// Evidence that an agent is used here or on this machine, in words the quick pick shows: a config
// folder in the workspace or the home folder, or its binary on PATH. Cheap (a few stats), no spawn.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface DetectHints {
  /** Folders relative to the workspace (`.cursor`). */
  workspace?: string[];
  /** Folders relative to the home folder (`.cursor`). */
  home?: string[];
  /** Executable names looked up on PATH (`cursor`). */
  binaries?: string[];
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The first executable `name` on PATH (with Windows' extensions there), or null. */
export function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue;
    for (const ext of exts) {
      const p = path.join(dir, name + ext);
      try {
        fs.accessSync(p, fs.constants.X_OK);
        if (fs.statSync(p).isFile()) return p;
      } catch {
        /* not here */
      }
    }
  }
  return null;
}

/** "a .cursor folder in this workspace" / "~/.cursor" / "cursor on PATH", or null when nothing is found. */
export function detectEvidence(workspace: string, env: NodeJS.ProcessEnv, home: string, hints: DetectHints): string | null {
  for (const d of hints.workspace ?? []) if (isDir(path.join(workspace, d))) return `${d} in this workspace`;
  for (const d of hints.home ?? []) if (home && isDir(path.join(home, d))) return `~/${d.split(path.sep).join('/')}`;
  for (const b of hints.binaries ?? []) if (onPath(b, env)) return `${b} on PATH`;
  return null;
}
