// What changed on disk, from a file watcher: lets shell capture and the boundary observation look
// only at the paths that may have changed instead of stat-ing every known file (DESIGN §2,
// "Resident recorder"). A ChangeSource may only NARROW work, never decide correctness: whenever
// it cannot vouch for a root (the watch is not up yet, the OS dropped events or overflowed its
// queue, the watch limit was hit, the root is on a network file system, an error, a clock jump,
// any doubt) it answers `undefined` and the caller does today's full scan, exactly as without it.
//
// How a caller uses it (the resident recorder; hook processes have none):
//   await source.settle();                  // every change made before this moment has been seen
//   record(store, event, { changes: source }); // synchronous, as today
// Inside, shell capture and the observation take `token(root)` just before a scan starts and keep
// it with the state that scan produced; the next call asks `changedSince(root, thatToken)`.
//
// Known limits of every inotify/FSEvents-style watcher (watchman, git's fsmonitor share them): a
// write through a hard link that lives outside the watched tree, or through a shared memory map,
// raises no event for the path inside it. Racy and pending entries are looked at anyway. A session
// start walks the tree unless the resident holds a state of that root the watcher vouches for
// (core/capture/watchedStart.ts).

/** A moment in a ChangeSource's stream of changes for one root. Opaque to callers. */
export interface ChangeToken {
  readonly root: string;
  /** The watch this token belongs to: a watch that was restarted (after an error) is a new epoch. */
  readonly epoch: number;
  /** Changes seen on this watch before the token was taken. */
  readonly seq: number;
  /** Wall and monotonic clocks when it was taken: a clock jump between then and its use is a doubt. */
  readonly wall: number;
  readonly mono: number;
}

export interface ChangeSource {
  /**
   * Resolves once every change made to the disk before this call has been delivered for every
   * watched root (a cookie file written under each root and waited for), so the synchronous
   * answers below cover them. A root whose cookie does not come back in time stops vouching.
   */
  settle(): Promise<void>;
  /** The current moment for `root` (taken BEFORE a scan starts). Undefined: not watched, or cannot vouch. */
  token(root: string): ChangeToken | undefined;
  /**
   * Absolute paths under `root` that may have changed since `token` (created, modified, deleted,
   * renamed, mode changed; a folder's own path when it was created, removed or renamed). A
   * superset is fine; undefined means "cannot vouch: scan".
   */
  changedSince(root: string, token: ChangeToken): ReadonlySet<string> | undefined;
  /** Is this folder (absolute) watched now? A folder the scan enters that is not watched is scanned alone. */
  covers(root: string, dir: string): boolean;
  /** Starts watching these roots (idempotent; resolves when the watch is up or has failed, said once via `report`). */
  watch(roots: readonly string[]): Promise<void>;
  /**
   * Roots watched and vouching now, how many folders the OS watches for them, and the folders below a
   * vouching root it could not watch (each scanned alone) — for `agent-rewind status`.
   */
  stats(): { roots: number; vouching: number; watches: number; since?: number; unwatched: string[] };
  /** A short code for why `root` does not vouch, or did not since a token was taken (the watch restarted). */
  reason(root: string): string;
  /** Watches folders the scan enters that it does not cover (ignored, yet holding tracked files). */
  include(root: string, dirs: readonly string[]): void;
  /**
   * Since when it vouches for `root`: the token of the moment its watch became ready (every folder watched)
   * and that moment's wall-clock time; undefined when it does not vouch. With `watchedAt`, what lets shell
   * capture narrow a scan of a state another process saved (core/capture/narrowing.ts).
   */
  readySince?(root: string): { token: ChangeToken; wall: number } | undefined;
  /** When the watch of this folder (absolute) under `root` was set up (wall-clock ms); undefined: not watched. */
  watchedAt?(root: string, dir: string): number | undefined;
  /** Stops every watch. */
  close(): Promise<void>;
}

/** Says a doubt once (errors.log, via whoever logs, e.g. `store.logError`). */
export type ChangeReport = (message: string) => void;
