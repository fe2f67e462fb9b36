// The facade over one store directory: store.json (format), config.json (settings), objects/
// (blobs), files.jsonl (the timeline), errors.log. Created owner-only: the store holds copies of
// source files and conversations.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errCode, fileMark, writeFileAtomic } from './storeFiles/fsx';
import { BlobStore, sha256 } from './storeFiles/blobs';
import { readConfig, type StoreConfig } from './storeFiles/config';
import { readDisk } from './workspace/disk';
import { appendGaps, appendRecords, type LogContents, readGaps, readLog } from './storeFiles/fileLog';
import { noteWriteFailure, type WriteFailure, writeFailures } from './storeFiles/writeFailures';
import { type LatestTable, latestSnaps } from './timeline/latestSnaps';
import { checkAbsolutePath, isInside, pathKey } from './paths';
import { readWorkspaceFolders, tooBroadRoot } from './workspace/roots';
import { realExistingDir } from './workspace/realPath';
import { readSkeleton, type SkeletonRead } from './timeline/timelineIndex';
import type { RecordedFolders } from './timeline/timeline';
import { type CheckpointList, readCheckpointList, readGapsSince, readRecordedFolders } from './timeline/checkpointList';
import type { CheckpointRecord, GapRecord, LogRecord, Origin, SnapPhase, SnapRecord } from './storeFiles/records';
import { migrateMeta, STORE_FORMAT, type StoreMeta } from './storeFiles/storeFormat';
import { checkStoreFolder } from './storeFiles/workspaceStore';
import { checkStoreTrusted } from './storeFiles/trust';
import { STORE_FILE } from './storeFiles/names';
import { appendErrorLine } from './storeFiles/errorLog';
import { holdFileLock } from './storeFiles/lock';
import { readJson } from './storeFiles/jsonFile';
import { AgentRewindError } from './errors';
import { fault } from './faults';

/**
 * Appends one line to `<dir>/errors.log`, also for a store that cannot be opened (a damaged
 * store.json); never throws.
 */
export function logStoreError(dir: string, message: string, detail?: unknown): void {
  noteWriteFailure(dir, message);
  appendErrorLine(path.join(dir, STORE_FILE.errors), message, detail);
}

/** A file's parsed content, read again whenever the file is no longer the version read (its `fileMark`). */
class MarkedRead<T> {
  private last: { mark: string; value: T } | undefined;

  constructor(
    readonly file: string,
    private readonly read: (file: string) => T,
  ) {}

  /** The content now, with the mark of the version it was read from. */
  get(): { mark: string; value: T } {
    const mark = fileMark(this.file);
    if (this.last?.mark !== mark) this.last = { mark, value: this.read(this.file) };
    return this.last;
  }

  forget(): void {
    this.last = undefined;
  }
}

/** store.json: its format and roots (a store no hook has made yet reads as empty); throws when it is damaged. */
function readMeta(file: string): StoreMeta {
  const read = readJson(file);
  if (!read.ok && read.why === 'unreadable') throw read.error;
  if (!read.ok && read.why === 'garbled')
    throw new AgentRewindError('store-damaged', {
      file,
      reason: read.text.trim() === '' ? 'it is empty' : 'it is not valid JSON, perhaps cut short',
    });
  return migrateMeta(read.ok ? read.value : { format: STORE_FORMAT, created: 0, roots: [] });
}

export interface SnapshotMeta {
  origin?: Origin;
  session?: string;
  tool?: string;
  call?: string;
  time?: number;
}

export class Store {
  readonly blobs: BlobStore;
  readonly logFile: string;
  /**
   * store.json and config.json, read again whenever the file is no longer the version read (another process
   * wrote it — a hook adding a root, the extension writing settings). A store object lives as long as a VS Code
   * window: one opened before the first hook made store.json must not keep "no roots" for its life, nor write
   * that back over the roots a hook added.
   */
  private readonly metaFile: MarkedRead<StoreMeta>;
  private readonly configFile: MarkedRead<StoreConfig>;

  private constructor(readonly dir: string) {
    this.blobs = new BlobStore(dir);
    this.logFile = path.join(dir, STORE_FILE.log);
    this.metaFile = new MarkedRead(path.join(dir, STORE_FILE.meta), readMeta);
    this.configFile = new MarkedRead(path.join(dir, STORE_FILE.config), readConfig);
  }

  /**
   * Opens a store; with `create`, makes it (owner-only) when missing. Refuses unknown formats, a folder
   * that holds other things (NotAStoreError): a store never moves into someone else's folder — and a
   * folder another user owns or may write (StoreNotTrustedError, core/storeFiles/trust.ts) — for the
   * CLI's `--store`, the hook and VS Code alike.
   */
  static open(dir: string, opts: { create?: boolean; notYet?: boolean } = {}): Store {
    const abs = path.resolve(dir);
    checkStoreTrusted(abs); // before anything is read from it: another user's folder, or one others may write, is refused
    const s = new Store(abs);
    const metaFile = path.join(abs, STORE_FILE.meta);
    if (!fs.existsSync(metaFile)) {
      checkStoreFolder(abs); // only here: a folder with store.json is a store, and the hook's hot path skips the readdir
      if (!opts.create) {
        // `notYet`: a store the first recorded event will create (VS Code opens it before that and
        // creates nothing); it reads as empty until then (see exists()).
        if (!s.exists() && !opts.notYet) throw new AgentRewindError('store-missing', { dir: abs });
      } else {
        fs.mkdirSync(abs, { recursive: true, mode: 0o700 });
        checkStoreTrusted(abs); // made just now, or an empty folder that was there: whose is it?
        s.writeMeta({ format: STORE_FORMAT, created: Date.now(), roots: [], createdBy: 'agent-rewind' }, true);
      }
    }
    s.meta(); // throws StoreFormatError for a format we do not know
    return s;
  }

  /** True once something was recorded here (a hook made the store, or an older store with only its log). */
  exists(): boolean {
    return fs.existsSync(path.join(this.dir, STORE_FILE.meta)) || fs.existsSync(this.logFile);
  }

  meta(): StoreMeta {
    return this.metaFile.get().value;
  }

  private writeMeta(meta: StoreMeta, exclusive = false): void {
    const file = path.join(this.dir, STORE_FILE.meta);
    try {
      writeFileAtomic(file, JSON.stringify(meta, null, 2) + '\n', { exclusive });
    } catch (e) {
      // Two hooks creating the same store at once (`exclusive`): the first one's store.json wins.
      if (!exclusive || errCode(e) !== 'EEXIST') throw e;
    }
    this.metaFile.forget();
  }

  /** Adds workspace folders this store may write (the agent's project folder, VS Code's folders). */
  addRoots(roots: readonly string[]): void {
    const missing = (meta: StoreMeta) => roots.filter((r) => !meta.roots.some((k) => isInside(r, k)));
    if (missing(this.meta()).length === 0) return; // nearly every call: no write, no lock
    // Two writers adding roots at once (a hook in a new folder, the extension's folders) must not each write
    // back a store.json without the other's root. Under a lock of their own; and since a writer stalled past
    // the lock's wait is let go of, the file is written only when it is still the one read (else read again).
    const release = holdFileLock(path.join(this.dir, STORE_FILE.rootsLock), 'roots', { waitMs: 2000, staleMs: 10000 });
    try {
      for (let tries = 0; tries < 10; tries++) {
        const { mark: read, value: meta } = this.metaFile.get();
        fault('roots.read');
        const add = missing(meta);
        if (add.length === 0) return;
        if (fileMark(this.metaFile.file) !== read) continue; // written meanwhile: read it again
        this.writeMeta({ ...meta, roots: [...meta.roots, ...add] });
        return;
      }
    } finally {
      release();
    }
  }

  /**
   * The workspace folders store.json names, less any too broad to be one (`/`, home, the temp folder): where
   * shell capture and the watcher look. A rewind writes only inside `roots()`.
   */
  knownRoots(): string[] {
    return this.meta().roots.filter((r) => path.isAbsolute(r) && !tooBroadRoot(r));
  }

  /**
   * Workspace folders this store may write: store.json's roots (`knownRoots`) that a recording vouches for —
   * a session's working folder (a checkpoint's `cwd`) that is the root or lies in it when the root is a git
   * top-level, a `--root` a hook recorded (a checkpoint's `roots`), or a folder VS Code has open. An entry
   * nothing recorded (a root `/` written into store.json) makes nothing writable. A checkpoint's working
   * folder is not a root by itself: a session outside the workspace must not make its folder writable.
   * `recorded`: the folders the log's checkpoints name, from a reader that holds them all (the extension's
   * timeline) — without it they are read through the index, and a store without one is read whole again.
   */
  roots(recorded?: () => RecordedFolders): string[] {
    const known = this.knownRoots();
    if (known.length === 0) return known;
    const vouched = new Set((readWorkspaceFolders(this.dir) ?? []).map((f) => pathKey(f)));
    const { named, cwds, roots } = recorded ? recorded() : readRecordedFolders(this.dir, this.logFile);
    for (const x of roots) vouched.add(pathKey(x));
    // A log that names no folder at all (written before checkpoints carried one): its roots stand as they are.
    if (!named) return known;
    return known.filter(
      (root) =>
        vouched.has(pathKey(root)) ||
        cwds.some((c) => pathKey(c) === pathKey(root) || (isInside(c, root) && fs.existsSync(path.join(root, '.git')))),
    );
  }

  /**
   * True when the store may write `p`: inside a known workspace folder — by its name and by where
   * its folder really is (a symlinked folder on the way must not lead out of the workspace) —
   * never inside `.git` or the store.
   */
  mayWrite(p: string, roots: readonly string[]): boolean {
    return this.mayWriter(roots)(p);
  }

  /**
   * `mayWrite` for many paths at one moment (a plan's): each folder's real path is looked up once
   * (a plan of thousands of files in a few folders would otherwise resolve each folder per file).
   */
  mayWriter(roots: readonly string[]): (p: string) => boolean {
    const real = new Map<string, string | null>();
    const realDir = (d: string) => {
      let r = real.get(d);
      if (r === undefined) real.set(d, (r = realExistingDir(d)));
      return r;
    };
    return (p) => {
      if (checkAbsolutePath(p) !== p) return false;
      if (p.split(/[\\/]/).includes('.git')) return false;
      if (isInside(p, this.dir)) return false;
      const inside = roots.filter((r) => isInside(p, r));
      if (inside.length === 0) return false;
      const dir = realDir(path.dirname(p));
      return dir !== null && inside.some((r) => isInside(dir, realDir(r) ?? r));
    };
  }

  config(): StoreConfig {
    return this.configFile.get().value;
  }

  read(): LogContents {
    return readLog(this.logFile);
  }

  /**
   * Every checkpoint and snapshot record and every call a rewind cannot undo, with their sequence
   * numbers — all that the checkpoint list, stateAt and a plan need — read through the rebuildable
   * index beside the log (core/timeline/timelineIndex.ts) instead of parsing every line.
   */
  timeline(): SkeletonRead {
    return readSkeleton(this.dir, this.logFile);
  }

  /** Every checkpoint with its changed-file count, through the index without the snapshots. */
  checkpointList(): CheckpointList {
    return readCheckpointList(this.dir, this.logFile);
  }

  /**
   * The latest snapshot of every recorded path (what the log says is on disk now), for the
   * boundary observation on the hook path (core/timeline/latestSnaps.ts keeps it cached).
   */
  latestSnaps(): LatestTable {
    return latestSnaps(this.dir, this.logFile);
  }

  append(records: readonly LogRecord[]): void {
    appendRecords(this.logFile, records);
  }

  /** Reads `p` from disk and returns the snapshot record (blob stored), or null for FIFOs and devices. */
  snapshot(p: string, phase: SnapPhase, meta: SnapshotMeta = {}): SnapRecord | null {
    const r = readDisk(p, this.config().maxFileBytes);
    const base = { t: 'snap' as const, path: p, phase, time: meta.time ?? Date.now() };
    const extra: Partial<SnapRecord> = {};
    if (meta.origin) extra.origin = meta.origin;
    if (meta.session) extra.session = meta.session;
    if (meta.tool) extra.tool = meta.tool;
    if (meta.call) extra.call = meta.call;
    switch (r.kind) {
      case 'missing':
        return { ...base, hash: null, ...(r.missingDirs.length ? { dirs: r.missingDirs } : {}), ...extra };
      case 'file':
        return { ...base, hash: this.blobs.put(r.data), size: r.size, mtime: r.mtime, mode: r.mode, ...extra };
      case 'symlink':
        return { ...base, hash: this.blobs.put(r.data), size: r.size, mtime: r.mtime, link: true, ...extra };
      case 'too-large':
        return { ...base, hash: null, size: r.size, mtime: r.mtime, mode: r.mode, skipped: 'too-large', ...extra };
      case 'unreadable':
        return { ...base, hash: null, skipped: 'unreadable', ...extra };
      case 'other':
        return null;
    }
  }

  checkpointRecord(c: Omit<CheckpointRecord, 't' | 'time'> & { time?: number }): CheckpointRecord {
    return { t: 'checkpoint', time: Date.now(), ...c };
  }

  /** Appends gap lines: what could not be recorded, and why (storeFiles/records.ts GapRecord). */
  appendGaps(gaps: readonly GapRecord[]): void {
    appendGaps(this.logFile, gaps);
  }

  /** The gaps recorded at or after `time` (ms), in order; `maxBytes`: only in the log's last bytes. */
  gapsSince(time: number, maxBytes?: number): GapRecord[] {
    // A plan's question (no `maxBytes`): the timeline index holds the gap lines, so the log is not searched.
    const indexed = maxBytes === undefined ? readGapsSince(this.dir, this.logFile, time) : null;
    if (indexed) return indexed;
    return readGaps(this.logFile, { since: time, ...(maxBytes !== undefined ? { maxBytes } : {}) }).filter((g) => g.time >= time);
  }

  /** When writes to the store failed (a full disk…), by error code. */
  writeFailures(): WriteFailure[] {
    return writeFailures(this.dir);
  }

  /** Appends one line to errors.log (bad hook input and the like); never throws. */
  logError(message: string, detail?: unknown): void {
    logStoreError(this.dir, message, detail);
  }

  /** Reads a stored blob (verified), for the content of a recorded state. */
  content(hash: string): Buffer {
    return this.blobs.get(hash);
  }

  hashOf(data: Uint8Array): string {
    return sha256(data);
  }
}
