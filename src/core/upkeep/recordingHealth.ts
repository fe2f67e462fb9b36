// What the store did not record and says so once: shell capture turned off (past maxScanFiles), the
// store's write failures (a full disk), hook payloads dropped (over 64 MB). Read by `agent-rewind
// status` and the VS Code status bar; plans list the same gaps for their span (core/rewind/gaps.ts).
import { readCaptureStatus } from '../capture/status';
import type { Store } from '../store';
import type { WriteFailure } from '../storeFiles/writeFailures';

export interface RecordingHealth {
  /** Sessions whose shell capture is off, newest first. */
  captureOff: { session: string; root: string; files: number; limit: number; since: number }[];
  /** When writes to the store failed, by error code (ENOSPC: the disk is full). */
  writeFailures: WriteFailure[];
  /** Hook payloads over the hook's limit that were dropped, and the files they named. */
  dropped: { count: number; first: number; last: number; paths: string[] } | null;
}

/** `maxBytes`: look for dropped payloads only in the log's last bytes (the status bar, at every change). */
export function recordingHealth(store: Store, maxBytes?: number): RecordingHealth {
  const captureOff = Object.values(readCaptureStatus(store.dir))
    .filter((c) => c.state === 'off')
    .sort((a, b) => b.time - a.time)
    .map((c) => ({ session: c.session, root: c.root, files: c.files, limit: c.limit, since: c.time }));
  const drops = store.gapsSince(0, maxBytes).filter((g) => g.reason === 'payload-dropped');
  const dropped = drops.length
    ? {
        count: drops.length,
        first: drops[0]!.time,
        last: drops[drops.length - 1]!.time,
        paths: [...new Set(drops.map((d) => d.path).filter((p) => p))],
      }
    : null;
  return { captureOff, writeFailures: store.writeFailures(), dropped };
}
