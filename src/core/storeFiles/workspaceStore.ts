// Where a workspace's store lives under a shared parent folder (the `storeDirectory` setting), and the
// folder-level care a store needs: never adopt a folder that holds other things, never delete what is
// not ours, and move a damaged store aside instead of deleting it.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathKey } from '../paths';
import { STORE_ENTRY_NAMES, STORE_FILE } from './names';
import { AgentRewindError } from '../errors';

/**
 * The folder name of a workspace's store under a parent: a readable name plus a short hash of the
 * workspace's identity (its .code-workspace file, or its first folder), so two workspaces never share one.
 */
export function workspaceStoreName(workspacePath: string, platform: NodeJS.Platform = process.platform): string {
  const impl = platform === 'win32' ? path.win32 : path.posix;
  const base = impl.basename(workspacePath).replace(/\.code-workspace$/i, '');
  const readable =
    base
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[-.]+|-+$/g, '')
      .slice(0, 40) || 'workspace';
  const id = createHash('sha256').update(pathKey(workspacePath, platform)).digest('hex').slice(0, 12);
  return `${readable}-${id}`;
}

/** True when `dir` itself holds a store (its store.json, or the log of an older store without one). */
export function isStoreFolder(dir: string): boolean {
  return fs.existsSync(path.join(dir, STORE_FILE.meta)) || fs.existsSync(path.join(dir, STORE_FILE.log));
}

/**
 * Where a workspace's store is under the `storeDirectory` parent. Before the setting named a parent it
 * named the store itself: when the folder is a store, `oldStore` says so (the caller tells the user once),
 * and `keepOldStore` — the user's choice for this workspace — keeps using it as it is.
 */
export function storeUnderParent(parent: string, workspacePath: string, keepOldStore = false): { dir: string; oldStore?: string } {
  const dir = path.join(parent, workspaceStoreName(workspacePath));
  if (!isStoreFolder(parent)) return { dir };
  return keepOldStore ? { dir: parent } : { dir, oldStore: parent };
}

const STORE_ENTRIES = new Set(STORE_ENTRY_NAMES);

export function isStoreEntry(name: string): boolean {
  if (STORE_ENTRIES.has(name)) return true;
  // Atomic-write temp files of our own files (`store.json.<pid>.tmp`, `files.jsonl.gc.tmp`).
  const dot = name.indexOf('.', name.indexOf('.') + 1);
  return name.endsWith('.tmp') && dot > 0 && STORE_ENTRIES.has(name.slice(0, dot));
}

/** Refuses a folder that exists, is not empty and is not a store: a store never moves into someone else's folder. */
export function checkStoreFolder(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (names.length === 0 || names.includes(STORE_FILE.meta) || names.includes(STORE_FILE.log)) return;
  const foreign = names.filter((n) => !isStoreEntry(n));
  if (foreign.length > 0) throw new AgentRewindError('not-a-store', { dir, found: foreign });
}

/**
 * Deletes what a store recorded (its own entries only; files someone else put in the folder stay), keeping
 * its identity, settings and the lock files that other processes may be holding.
 */
export function deleteRecordings(dir: string): void {
  const keep = new Set<string>([
    STORE_FILE.meta,
    STORE_FILE.config,
    STORE_FILE.workspaceFolders,
    STORE_FILE.lock,
    STORE_FILE.gcLock,
    STORE_FILE.writers,
  ]);
  for (const name of fs.readdirSync(dir)) {
    if (keep.has(name) || !isStoreEntry(name)) continue;
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

/** Renames a damaged store to `<name>.damaged-<time>` beside it (never deletes it); returns the new path. */
export function moveStoreAside(dir: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  for (let n = 0; ; n++) {
    const to = `${dir}.damaged-${stamp}${n ? `-${n}` : ''}`;
    if (fs.existsSync(to)) continue;
    fs.renameSync(dir, to);
    return to;
  }
}
