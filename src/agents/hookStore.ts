// Which store a connected workspace records into, read back from the hook configuration Connect
// wrote: the CLI run inside such a workspace with no `--store` and no AGENT_REWIND_STORE uses the
// store named by the nearest folder's config (DESIGN §5). The files are the connectors' own (and the
// ones their agents also read); common/hookTarget.ts takes the command apart.
import * as path from 'node:path';
import { writtenTarget } from './common/hookTarget';
import { CONNECTORS } from './connectors';

export interface HookStore {
  /** The store folder, absolute. */
  store: string;
  /** The config file that names it. */
  file: string;
  /** The folder whose config it is (the workspace). */
  folder: string;
}

/** The config files that may hold our hooks in `folder`: each connector's, and what its agent also reads. */
export function hookConfigFiles(folder: string): string[] {
  const out: string[] = [];
  for (const c of CONNECTORS) for (const f of [...c.files(folder), ...(c.alsoReads?.(folder) ?? [])]) if (!out.includes(f)) out.push(f);
  return out;
}

/**
 * The store named by a connected agent's hook configuration in `start` or the nearest folder above
 * it that has one; null when none does. A relative store is taken from the folder of the config.
 */
export function findHookStore(start: string): HookStore | null {
  let dir = path.resolve(start);
  for (;;) {
    const found = writtenTarget(hookConfigFiles(dir));
    if (found) return { store: path.resolve(dir, found.target.store), file: found.file, folder: dir };
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}
