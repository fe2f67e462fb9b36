// The names a store writes in its own folder: one table, so a file is spelled once and everyone (the
// core, the hook, the resident, the extension's watcher) asks it. A new store file is added here; the
// trust check (trust.ts) and the folder check (workspaceStore.ts) then know it too.

/** Every file and folder of a store, by what it holds. */
export const STORE_FILE = {
  /** The store's format and identity. */
  meta: 'store.json',
  config: 'config.json',
  /** The file timeline (DESIGN §3). */
  log: 'files.jsonl',
  errors: 'errors.log',
  objects: 'objects',
  /** Our own conversation logs, `sessions/<id>.jsonl`. */
  sessions: 'sessions',
  /** Shell capture's per-session scan state and git's temp files. */
  scan: 'scan',
  inflight: 'inflight',
  writers: 'writers',
  lock: 'lock',
  gcLock: 'gc.lock',
  /** Held while store.json's roots are read and written again (hooks and the extension add roots at once). */
  rootsLock: 'roots.lock',
  lineage: 'lineage.jsonl',
  captureStatus: 'capture.json',
  watchFallbacks: 'watch-fallbacks.json',
  residentLock: 'resident.lock',
  residentPending: 'resident-pending',
  /** Made by the hook that starts the resident, so a burst of hooks starts one (resident/forward.ts). */
  residentStarting: 'resident.starting',
  watchCookies: 'watch-cookies',
  rewindJournal: 'rewind-journal.json',
  workspaceFolders: 'workspace-folders.json',
  dedupe: 'dedupe',
  pending: 'pending',
  latest: 'latest.json',
  timelineIndex: 'timeline.idx',
  /** Transcripts made on demand for agents whose hooks name none (OpenCode's exports), `transcripts/<agent>/`. */
  transcripts: 'transcripts',
} as const;

/** Names a store writes in its own folder (files, folders, and their temp files). Nothing else is ours (workspaceStore.ts); each is checked by trust.ts when present. */
export const STORE_ENTRY_NAMES: readonly string[] = Object.values(STORE_FILE);
