// Observed snapshots (DESIGN: a checkpoint is what was on disk). At every turn boundary — session
// start, prompt, stop, session end — and before the boundary's checkpoint, every recorded path is
// compared with its last record: existence, content, executable bit, symlink target. A path whose
// disk state differs gets an `observed` snapshot of what is on disk: nobody's tool made that change
// (the user in an editor, another tool, an agent we do not hook), so the checkpoint that follows is
// exactly the disk for every path we know. A rewind treats observed content as the user's
// (provenance: core/timeline/provenance.ts): it warns before reverting it and refuses to overwrite it.
//
// Cost: one lstat per recorded path; the content is read and hashed only where size, mtime or mode
// moved. Paths nobody recorded are not looked at (a rewind never touches them), and paths of calls
// still in flight (their tool is writing them right now) are left to that call's own `after`.
// With a file watcher that vouches (the resident recorder, ./changeSource.ts), only the recorded
// paths it names as changed since this process's previous look are stat'ed — plus every path that
// look left unsettled (in flight, a rewind writing it, a snapshot that failed) and every path in a
// folder it does not watch. At the previous look every other path matched its record, and every
// record written since was taken from the disk, so a path nobody touched since still matches.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256 } from '../core/storeFiles/blobs';
import type { LatestState } from '../core/timeline/latestSnaps';
import type { LogRecord, SnapRecord } from '../core/storeFiles/records';
import { readJournal } from '../core/rewind/journal';
import type { Store } from '../core/store';
import { sameExec } from '../core/timeline/timeline';
import type { ChangeSource, ChangeToken } from './changeSource';
import type { EventBase } from './events';
import { STORE_FILE } from '../core/storeFiles/names';
import { readJsonFile } from '../core/storeFiles/jsonFile';

/** True when the disk at `p` may differ from the record `r` (cheap: a stat; content only when the stat moved). */
export function differsFromRecord(p: string, r: LatestState, maxBytes: number): boolean {
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(p, { throwIfNoEntry: false }); // most paths exist: no exception to build per path
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOTDIR') return false; // cannot tell: say nothing rather than record a guess
  }
  if (!st) return r.hash !== null || !!r.skipped; // gone since
  const recordedMissing = r.hash === null && !r.skipped;
  if (recordedMissing) return st.isFile() || st.isSymbolicLink(); // created since
  if (st.isSymbolicLink() !== !!r.link) return true;
  if (!st.isFile() && !st.isSymbolicLink()) return false; // a FIFO or device: never recorded as content
  if (r.skipped) return st.size !== r.size || st.mtimeMs !== r.mtime;
  if (!r.link && !sameExec(r.mode, st.mode & 0o7777)) return true;
  if (st.size === r.size && st.mtimeMs === r.mtime) return false;
  if (st.isSymbolicLink()) {
    try {
      return sha256(fs.readlinkSync(p, { encoding: 'buffer' })) !== r.hash;
    } catch {
      return false;
    }
  }
  if (st.size > maxBytes) return true; // was small enough to store, is not now: a change
  try {
    return sha256(fs.readFileSync(p)) !== r.hash;
  } catch {
    return false;
  }
}

/** Paths that calls still in flight (any session) are writing: their own `after` will record them. */
function inflightPaths(store: Store): Set<string> {
  const out = new Set<string>();
  const root = path.join(store.dir, STORE_FILE.inflight);
  let sessions: string[] = [];
  try {
    sessions = fs.readdirSync(root);
  } catch {
    return out; // none: the common case
  }
  for (const s of sessions) {
    let names: string[] = [];
    try {
      names = fs.readdirSync(path.join(root, s));
    } catch {
      continue;
    }
    for (const n of names) {
      const m = readJsonFile(path.join(root, s, n)) as { paths?: unknown } | null | undefined; // torn by a kill: nothing
      if (Array.isArray(m?.paths)) for (const p of m.paths) if (typeof p === 'string') out.add(p);
    }
  }
  return out;
}

/** Per store: the watcher's tokens taken before this process's last look, and the paths it left unsettled. */
const lastLook = new Map<string, { tokens: Map<string, ChangeToken>; recheck: Set<string> }>();

/** Boundary observations this process ran with a watcher at hand: narrowed to its paths, or whole. */
export const watchedLooks = { narrowed: 0, whole: 0 };

/** A test for "the watcher vouches this path is unchanged since the last look", or null (look at every path). */
function vouchedSince(store: Store, source: ChangeSource | undefined): ((p: string) => boolean) | null {
  const prev = source ? lastLook.get(store.dir) : undefined;
  if (!source || !prev) return null;
  const watched: { root: string; base: string; paths: ReadonlySet<string> }[] = [];
  for (const [root, token] of prev.tokens) {
    const paths = source.changedSince(root, token);
    if (paths) watched.push({ root, base: root + path.sep, paths });
  }
  if (!watched.length) return null;
  return (p) => {
    if (prev.recheck.has(p)) return false;
    const w = watched.find((x) => p.startsWith(x.base));
    // Its folder named too: made, moved, or watched only since (its files' earlier changes unseen).
    const dir = path.dirname(p);
    return !!w && !w.paths.has(p) && !w.paths.has(dir) && source.covers(w.root, dir);
  };
}

function tokensNow(store: Store, source: ChangeSource | undefined): Map<string, ChangeToken> {
  const out = new Map<string, ChangeToken>();
  if (!source) return out;
  for (const root of store.knownRoots()) {
    const t = source.token(root);
    if (t) out.set(root, t);
  }
  return out;
}

/**
 * The `observed` snapshots for a boundary. `pending` are lines this hook writes first (repaired
 * `after`s of calls whose PostToolUse never came): they count as the latest record of their paths.
 */
export function observeBoundary(
  store: Store,
  e: EventBase,
  pending: readonly LogRecord[] = [],
  time = Date.now(),
  source?: ChangeSource,
): SnapRecord[] {
  const vouched = vouchedSince(store, source);
  if (source) watchedLooks[vouched ? 'narrowed' : 'whole']++;
  const tokens = tokensNow(store, source); // before the look: what changes during it is named next time
  const recheck = new Set<string>();
  const latest = store.latestSnaps();
  for (const r of pending) if (r.t === 'snap') latest.shadow(r);
  const skip = inflightPaths(store);
  const maxBytes = store.config().maxFileBytes;
  let out: SnapRecord[] = [];
  latest.forEach((p, state, plain) => {
    if (skip.has(p)) {
      recheck.add(p);
      return;
    }
    if (vouched?.(p)) return;
    if (plain) {
      // The common case, answered by one lstat and the cached columns: a regular file, unmoved.
      let st: fs.Stats | undefined;
      try {
        st = fs.lstatSync(p, { throwIfNoEntry: false });
      } catch {
        st = undefined;
      }
      if (
        st &&
        st.isFile() &&
        st.size === plain.size &&
        st.mtimeMs === plain.mtime &&
        sameExec(plain.mode < 0 ? undefined : plain.mode, st.mode & 0o7777)
      )
        return;
    }
    if (!differsFromRecord(p, state(), maxBytes)) return;
    const s = store.snapshot(p, 'observed', { origin: 'user', session: e.session, time });
    if (s) out.push(s);
    else recheck.add(p);
  });
  // A rewind writing right now (its journal is there): what we saw of its files is its work in
  // progress, and its own `rewind` snapshots will record the result. (One that finished meanwhile
  // has appended those already, before our lines.)
  const journal = out.length ? readJournal(store) : null;
  if (journal) {
    const writing = new Set(journal.writes.map((w) => w.path));
    for (const p of writing) recheck.add(p);
    out = out.filter((s) => !writing.has(s.path));
  }
  if (source) lastLook.set(store.dir, { tokens, recheck });
  return out;
}
