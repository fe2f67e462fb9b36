// Edits reported only after the write (Cursor's afterFileEdit): the `before` must come from what
// the store already knows, so a rewind to the prompt restores the pre-edit bytes. In order:
//   1. the path's last record (an earlier edit, a shell command's `after`, an observed state) —
//      and when the disk still matches it, the edit is already recorded (its tool's own Post);
//   2. the session's shell-capture scan state (`<store>/scan/<session>.*`): a blob of ours, or the
//      git blob id of a file that was clean when scanned; a path the scan did not hold, for an
//      edit that creates the file, did not exist;
//   3. git's index blob of a tracked file.
// Nothing known: the `after` is recorded alone and errors.log says the before is unknown — never a guess.
import * as path from 'node:path';
import { readBlobs } from '../core/git/objects';
import { indexEntries } from '../core/git/status';
import type { SnapRecord } from '../core/storeFiles/records';
import { durableBlob } from '../core/scan/references';
import { loadState, stateFile } from '../core/scan/stateFile';
import { F_LARGE, F_PENDING } from '../core/scan/types';
import type { Store } from '../core/store';
import { isInside } from '../core/paths';
import type { AfterToolEvent } from './events';
import { differsFromRecord } from './observe';

type Meta = { session: string; tool: string; call?: string; time: number };

/** An edit that creates its file: one edit from nothing (how Cursor reports a new file). */
function createsFile(input: unknown): boolean {
  const edits = (input as { edits?: unknown } | null)?.edits;
  return Array.isArray(edits) && edits.length === 1 && (edits[0] as { old_string?: unknown })?.old_string === '';
}

function fromScan(store: Store, e: AfterToolEvent, p: string, meta: Meta): SnapRecord | null {
  const state = loadState(stateFile(store.dir, e.session));
  if (!state || state.off || !isInside(p, state.root)) return null;
  const rel = path.relative(state.root, p).split(path.sep).join('/');
  const entry = state.files.get(rel);
  if (!entry) return createsFile(e.input) ? { t: 'snap', path: p, hash: null, phase: 'before', ...meta } : null;
  if (entry.flags & (F_LARGE | F_PENDING)) return null;
  const stat = { size: entry.size, mtime: entry.mtime, mode: entry.mode };
  if (entry.hash && durableBlob(store.dir, entry.hash)) return { t: 'snap', path: p, hash: entry.hash, ...stat, phase: 'before', ...meta };
  if (entry.git && state.git) {
    const data = readBlobs(state.root, [{ id: entry.git, path: rel }], state.git.filters).get(`${entry.git}\0${rel}`);
    if (data) return { t: 'snap', path: p, hash: store.blobs.put(data), ...stat, phase: 'before', ...meta };
  }
  return null;
}

function fromGit(store: Store, e: AfterToolEvent, p: string, meta: Meta): SnapRecord | null {
  const dir = path.dirname(p);
  const entries = indexEntries(dir);
  if (!entries) return null; // not in a repository
  const entry = entries.get(path.basename(p));
  if (!entry) return createsFile(e.input) ? { t: 'snap', path: p, hash: null, phase: 'before', ...meta } : null;
  if (entry.untrusted || !/^100(644|755)$/.test(entry.mode)) return null;
  const data = readBlobs(dir, [{ id: entry.id, path: path.basename(p) }], true).get(`${entry.id}\0${path.basename(p)}`);
  if (!data) return null;
  return {
    t: 'snap',
    path: p,
    hash: store.blobs.put(data),
    size: data.length,
    mode: parseInt(entry.mode.slice(3), 8),
    phase: 'before',
    ...meta,
  };
}

/**
 * The `before` of an after-only edit of `p`: a record, `'recorded'` when the store already holds the
 * disk's state (nothing to add), or null when nothing is known.
 */
export function beforeOfAfterOnly(store: Store, e: AfterToolEvent, p: string, meta: Meta): SnapRecord | 'recorded' | null {
  const last = store.latestSnaps().get(p);
  if (last) {
    if (!differsFromRecord(p, last, store.config().maxFileBytes)) return 'recorded';
    const { path: _p, ...state } = last;
    return { t: 'snap', path: p, ...state, phase: 'before', ...meta };
  }
  return fromScan(store, e, p, meta) ?? fromGit(store, e, p, meta);
}
